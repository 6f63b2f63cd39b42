// SPDX-License-Identifier: Apache-2.0
#pragma once
// Values written as text, as DuckDB's CAST(x AS VARCHAR) writes them: computed strings
// (expr/ops_text.hpp's contract: size_bytes, then write_to) for integers, booleans, decimals,
// dates and timestamps. Floats and doubles: types/text_format_float.hpp.
#include <colx/core/config.hpp>
#include <colx/types/chrono.hpp>
#include <colx/types/dec.hpp>

#include <cstdint>
#include <type_traits>

namespace colx::text {

namespace detail {
template <class U>
constexpr COLX_HOST_DEVICE size_type digits(U v) noexcept {
  size_type n = 1;
  for (; v >= 10; v /= 10) { ++n; }
  return n;
}
// Writes v's decimal digits, at least `width` of them (zeros in front), ending just before `end`.
template <class U>
constexpr COLX_HOST_DEVICE void write_digits(U v, char* end, size_type width = 1) noexcept {
  for (size_type k = 0; k < width || v != 0; ++k) {
    *--end = static_cast<char>('0' + static_cast<int>(v % 10));
    v /= 10;
  }
}
template <class T>
using magnitude_t = colx::detail::unsigned_rep<std::conditional_t<std::is_same_v<T, bool>, int, std::conditional_t<(sizeof(T) < 4), int, T>>>;
template <class T>
constexpr COLX_HOST_DEVICE magnitude_t<T> magnitude(T v) noexcept {
  using U = magnitude_t<T>;
  if constexpr (std::is_signed_v<T> || std::is_same_v<T, int128_t>) { return v < 0 ? U{0} - static_cast<U>(v) : static_cast<U>(v); }
  return static_cast<U>(v);
}
}  // namespace detail

// An integer of any width: "-42".
template <class T>
struct integer_text {
  T value;
  [[nodiscard]] constexpr COLX_HOST_DEVICE bool negative() const noexcept {
    if constexpr (std::is_signed_v<T> || std::is_same_v<T, int128_t>) {
      return value < 0;
    } else {
      return false;
    }
  }
  [[nodiscard]] constexpr COLX_HOST_DEVICE size_type size_bytes() const noexcept {
    return (negative() ? 1 : 0) + detail::digits(detail::magnitude(value));
  }
  constexpr COLX_HOST_DEVICE void write_to(char* out) const noexcept {
    if (negative()) { *out = '-'; }
    detail::write_digits(detail::magnitude(value), out + size_bytes());
  }
};

// "true" / "false".
struct bool_text {
  bool value;
  [[nodiscard]] constexpr COLX_HOST_DEVICE size_type size_bytes() const noexcept { return value ? 4 : 5; }
  constexpr COLX_HOST_DEVICE void write_to(char* out) const noexcept {
    char const* const s = value ? "true" : "false";
    for (size_type i = 0; i < size_bytes(); ++i) { out[i] = s[i]; }
  }
};

// A DEC(P, S): every digit of the scale ("-1.50"); the integer part "0" unless P == S (".05", as DuckDB).
template <class D>
struct decimal_text {
  typename D::rep unscaled;
  static constexpr int scale = D::scale;
  [[nodiscard]] constexpr COLX_HOST_DEVICE auto magnitude() const noexcept { return detail::magnitude(unscaled); }
  [[nodiscard]] constexpr COLX_HOST_DEVICE auto whole() const noexcept {
    return magnitude() / static_cast<decltype(magnitude())>(colx::detail::pow10_128(scale));
  }
  [[nodiscard]] constexpr COLX_HOST_DEVICE size_type whole_digits() const noexcept {
    return D::precision == scale && whole() == 0 ? 0 : detail::digits(whole());
  }
  [[nodiscard]] constexpr COLX_HOST_DEVICE size_type size_bytes() const noexcept {
    return (unscaled < 0 ? 1 : 0) + whole_digits() + (scale > 0 ? 1 + scale : 0);
  }
  constexpr COLX_HOST_DEVICE void write_to(char* out) const noexcept {
    if (unscaled < 0) { *out++ = '-'; }
    if (whole_digits() > 0) { detail::write_digits(whole(), out + whole_digits()); }
    if constexpr (scale > 0) {
      out += whole_digits();
      *out = '.';
      auto const fraction = magnitude() % static_cast<decltype(magnitude())>(colx::detail::pow10_128(scale));
      detail::write_digits(fraction, out + 1 + scale, scale);
    }
  }
};

// A date: "2024-03-01"; years before 1 as DuckDB writes them: "0045-03-15 (BC)" for year -44.
struct date_text {
  date32 value;
  [[nodiscard]] constexpr COLX_HOST_DEVICE int shown_year() const noexcept {
    int const y = to_civil(value).year;
    return y > 0 ? y : 1 - y;
  }
  [[nodiscard]] constexpr COLX_HOST_DEVICE size_type size_bytes() const noexcept {
    size_type const year_digits = detail::digits(static_cast<unsigned>(shown_year()));
    return (year_digits < 4 ? 4 : year_digits) + 6 + (to_civil(value).year > 0 ? 0 : 5);
  }
  constexpr COLX_HOST_DEVICE void write_to(char* out) const noexcept {
    civil_date const c = to_civil(value);
    size_type const year_digits = detail::digits(static_cast<unsigned>(shown_year()));
    size_type const w = year_digits < 4 ? 4 : year_digits;
    detail::write_digits(static_cast<unsigned>(shown_year()), out + w, 4);
    out[w] = '-';
    detail::write_digits(c.month, out + w + 3, 2);
    out[w + 3] = '-';
    detail::write_digits(c.day, out + w + 6, 2);
    if (c.year <= 0) {
      char const* const bc = " (BC)";
      for (int i = 0; i < 5; ++i) { out[w + 6 + i] = bc[i]; }
    }
  }
};

// A timestamp: the date, then " HH:MM:SS", then the fraction of a second without trailing zeros.
template <time_unit Unit>
struct timestamp_text {
  static constexpr std::int64_t per_second = ticks_per_second<Unit>;
  static constexpr size_type fraction_digits = colx::fraction_digits<Unit>;
  std::int64_t ticks;
  [[nodiscard]] constexpr COLX_HOST_DEVICE date_text date() const noexcept { return {to_date(timestamp<Unit>(ticks))}; }
  [[nodiscard]] constexpr COLX_HOST_DEVICE std::int64_t in_day() const noexcept {
    return ticks - static_cast<std::int64_t>(date().value.ticks) * ticks_per_day<Unit>;
  }
  // Digits of the fraction after trailing zeros are dropped.
  [[nodiscard]] constexpr COLX_HOST_DEVICE size_type shown_fraction() const noexcept {
    std::int64_t f = in_day() % per_second;
    if (f == 0) { return 0; }
    size_type n = fraction_digits;
    for (; f % 10 == 0; f /= 10) { --n; }
    return n;
  }
  [[nodiscard]] constexpr COLX_HOST_DEVICE size_type size_bytes() const noexcept {
    size_type const f = shown_fraction();
    return date().size_bytes() + 9 + (f > 0 ? 1 + f : 0);
  }
  constexpr COLX_HOST_DEVICE void write_to(char* out) const noexcept {
    date_text const d = date();
    // The " (BC)" of a date goes after the time: write the date's digits, then the time over its tail.
    size_type const date_bytes = d.size_bytes() - (to_civil(d.value).year > 0 ? 0 : 5);
    char tail[5] = {};
    d.write_to(out);
    for (size_type i = 0; i < d.size_bytes() - date_bytes; ++i) { tail[i] = out[date_bytes + i]; }
    out += date_bytes;
    std::int64_t const s = in_day() / per_second;
    *out = ' ';
    detail::write_digits(static_cast<unsigned>(s / 3600), out + 3, 2);
    out[3] = ':';
    detail::write_digits(static_cast<unsigned>(s / 60 % 60), out + 6, 2);
    out[6] = ':';
    detail::write_digits(static_cast<unsigned>(s % 60), out + 9, 2);
    out += 9;
    if (size_type const f = shown_fraction(); f > 0) {
      *out = '.';
      std::int64_t v = in_day() % per_second;
      for (size_type k = f; k < fraction_digits; ++k) { v /= 10; }
      detail::write_digits(static_cast<std::uint64_t>(v), out + 1 + f, f);
      out += 1 + f;
    }
    for (size_type i = 0; i < d.size_bytes() - date_bytes; ++i) { out[i] = tail[i]; }
  }
};

}  // namespace colx::text
