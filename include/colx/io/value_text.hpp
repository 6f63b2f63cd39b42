// SPDX-License-Identifier: Apache-2.0
#pragma once
// One value as text, the way pandas prints it (the rules: io/print.hpp), and the print options.
// Written on the standard library alone (no fmt), so that nvcc compiles it.
#include <colx/core/config.hpp>
#include <colx/types/chrono.hpp>
#include <colx/types/data_type.hpp>
#include <colx/types/decimal.hpp>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <string>
#include <string_view>
#include <system_error>
#include <type_traits>

namespace colx {

// How frames print; the defaults are pandas' display options of the same names.
struct print_options {
  size_type max_rows = 60;        // a frame with more rows prints only min_rows of them; 0: no limit
  size_type min_rows = 10;        // how many rows a truncated frame prints, half from each end
  int precision = 0;              // significant digits of floats; 0: as many as reading back needs
  std::size_t max_colwidth = 50;  // longer strings are cut to this many characters
};

namespace detail {

// ---- one value as text ---------------------------------------------------------------------

// std::make_unsigned knows __int128 only in GNU mode (-std=gnu++20).
template <class Rep>
struct unsigned_of {
  using type = std::make_unsigned_t<Rep>;
};
template <>
struct unsigned_of<int128_t> {
  __extension__ typedef unsigned __int128 type;
};

// The digits of |v|: by hand, because std::to_chars takes __int128 only in GNU mode too.
template <class Rep>
std::string magnitude_digits(Rep v) {
  using unsigned_rep = typename unsigned_of<Rep>::type;
  // Negating in the unsigned type keeps the most negative value representable.
  unsigned_rep m = v < 0 ? unsigned_rep(0) - static_cast<unsigned_rep>(v) : static_cast<unsigned_rep>(v);
  std::string digits;
  do {
    digits.insert(digits.begin(), static_cast<char>('0' + static_cast<int>(m % 10)));
    m /= 10;
  } while (m != 0);
  return digits;
}

// `v` in decimal, zero-padded after the sign to `width` characters, as printf's "%0*d".
template <class T>
  requires std::is_integral_v<T> && (!std::is_same_v<T, bool>)
std::string integer_text(T v, int width = 0) {
  char buffer[24];  // 20 digits and a sign at most
  char const* const end = std::to_chars(buffer, buffer + sizeof(buffer), v).ptr;
  std::string_view const text(buffer, static_cast<std::size_t>(end - buffer));
  if (width <= 0 || text.size() >= static_cast<std::size_t>(width)) { return std::string(text); }
  std::size_t const sign = text.front() == '-' ? 1 : 0;
  std::string out(text.substr(0, sign));
  out.append(static_cast<std::size_t>(width) - text.size(), '0');
  out.append(text.substr(sign));
  return out;
}

// YYYY-MM-DD.
inline std::string date_text(date32 d) {
  auto const c = to_civil(d);
  return integer_text(c.year, 4) + "-" + integer_text(c.month, 2) + "-" + integer_text(c.day, 2);
}

// A decimal's value, unscaled * 10^scale, in positional notation: 12345 at scale -2 is
// "123.45", 7 at scale -3 "0.007", 12 at scale 2 "1200". The scale lives in the column's
// data_type, so callers pass it.
template <class Rep>
std::string decimal_text(decimal<Rep> d, std::int32_t scale) {
  std::string digits = magnitude_digits(d.unscaled);
  if (scale >= 0) {
    if (digits != "0") { digits.append(static_cast<std::size_t>(scale), '0'); }
  } else {
    auto const fraction = static_cast<std::size_t>(-static_cast<std::int64_t>(scale));
    if (digits.size() <= fraction) { digits.insert(0, fraction + 1 - digits.size(), '0'); }
    digits.insert(digits.size() - fraction, 1, '.');
  }
  if (d.unscaled < 0) { digits.insert(digits.begin(), '-'); }
  return digits;
}

// Characters on screen: UTF-8 continuation bytes take no column of their own.
inline std::size_t display_width(std::string_view s) {
  return static_cast<std::size_t>(std::count_if(s.begin(), s.end(), [](char c) { return (c & 0xC0) != 0x80; }));
}

// The prefix of `s` holding its first `n` characters, never splitting one.
inline std::string_view first_chars(std::string_view s, std::size_t n) {
  std::size_t seen = 0;
  for (std::size_t i = 0; i < s.size(); ++i) {
    if ((s[i] & 0xC0) != 0x80 && seen++ == n) { return s.substr(0, i); }
  }
  return s;
}

// cell(v, type, options): a non-null value as a frame prints it.
inline std::string cell(std::string const& s, data_type, print_options const& options) {
  if (display_width(s) <= options.max_colwidth) { return s; }
  std::size_t const keep = options.max_colwidth > 3 ? options.max_colwidth - 3 : 0;
  return std::string(first_chars(s, keep)) + "...";
}

inline std::string cell(bool v, data_type, print_options const&) { return v ? "True" : "False"; }

template <class T>
  requires std::is_integral_v<T>
std::string cell(T v, data_type, print_options const&) {
  return integer_text(v);
}

// Scientific notation only outside [1e-4, 1e16), as Python's repr (decimal exponent < -4 or >= 16).
inline constexpr int fixed_min_exponent = -4;
inline constexpr int fixed_max_exponent = 16;

template <class T>
  requires std::is_floating_point_v<T>
std::string cell(T v, data_type, print_options const& options) {
  if (std::isnan(v)) { return "NaN"; }
  if (std::isinf(v)) { return v < 0 ? "-inf" : "inf"; }
  // std::to_chars is the C locale's, whatever the program's locale. Without a precision it writes
  // the shortest digits that read back as v.
  std::string s(static_cast<std::size_t>(std::max(options.precision, 0)) + 48, '\0');
  char* const first = s.data();
  char* const last = s.data() + s.size();
  std::to_chars_result result{};
  if (options.precision > 0) {
    result = std::to_chars(first, last, v, std::chars_format::general, options.precision);
  } else {
    result = std::to_chars(first, last, v, std::chars_format::scientific);
    int exponent = 0;
    std::string_view const text(first, static_cast<std::size_t>(result.ptr - first));
    std::size_t const e = text.find('e');
    std::from_chars(text.data() + e + (text[e + 1] == '+' ? 2 : 1), text.data() + text.size(), exponent);
    if (fixed_min_exponent <= exponent && exponent < fixed_max_exponent) {
      result = std::to_chars(first, last, v, std::chars_format::fixed);
    }
  }
  s.resize(result.ec == std::errc() ? static_cast<std::size_t>(result.ptr - first) : 0);
  bool const integral = s.find_first_not_of("-0123456789") == std::string::npos;
  return integral ? s + ".0" : s;
}

template <class Rep>
std::string cell(decimal<Rep> v, data_type type, print_options const&) {
  return decimal_text(v, type.scale());
}
template <int P, int S>
std::string cell(dec<P, S> v, data_type, print_options const&) {
  return decimal_text(decimal<typename dec<P, S>::rep>{v.unscaled}, -S);
}

// "HH:MM:SS[.fff]" of a tick count within one day.
template <time_unit U>
std::string time_of_day(std::int64_t ticks) {
  std::int64_t const seconds = ticks / ticks_per_second<U>;
  std::string s = integer_text(seconds / 3600, 2) + ":" + integer_text(seconds / 60 % 60, 2) + ":" +
                  integer_text(seconds % 60, 2);
  if constexpr (fraction_digits<U> > 0) {
    s += '.';
    s += integer_text(ticks % ticks_per_second<U>, fraction_digits<U>);
  }
  return s;
}

template <time_unit U>
std::string cell(timestamp<U> t, data_type, print_options const&) {
  if constexpr (U == time_unit::days) {
    return date_text(t);
  } else {
    date32 const day = to_date(t);
    return date_text(day) + " " + time_of_day<U>(t.ticks - day.ticks * ticks_per_day<U>);
  }
}

template <time_unit U>
std::string cell(duration<U> d, data_type, print_options const&) {
  if constexpr (U == time_unit::days) {
    return integer_text(d.ticks) + " days";
  } else {
    std::int64_t const per_day = ticks_per_day<U>;
    // The magnitude as unsigned, so the most negative duration prints too.
    std::uint64_t const m = d.ticks < 0 ? std::uint64_t{0} - static_cast<std::uint64_t>(d.ticks) : static_cast<std::uint64_t>(d.ticks);
    auto const day_ticks = static_cast<std::uint64_t>(per_day);
    std::string s(d.ticks < 0 ? "-" : "");
    s += integer_text(m / day_ticks);
    s += " days ";
    s += time_of_day<U>(static_cast<std::int64_t>(m % day_ticks));
    return s;
  }
}

}  // namespace detail
}  // namespace colx
