// SPDX-License-Identifier: Apache-2.0
#pragma once
// Text read as values, as DuckDB's TRY_CAST(s AS type): a string that does not hold a value of
// the type (or holds one out of its range) gives ok = false, which the cast makes null, never an
// error. Spaces around the value are allowed. What is accepted:
//   integers   [+-]digits[.digits]: a fraction rounds half away from zero ("12.5" is 13)
//   decimals   [+-]digits[.digits] or [+-].digits, rounded half away from zero to the scale
//   doubles    as decimals, then [eE][+-]digits; inf, infinity, nan (any case)
//   dates      year-month-day, month and day of one or two digits, a real day
//   booleans   true/t/yes/y/1 and false/f/no/n/0, any case
// Not accepted, where DuckDB accepts them: exponents in integers and decimals, hexadecimal, digit
// separators ("1_000"), and a time after a date.
// Doubles are correctly rounded when the digits fit 2^53 and the exponent is within 10^±22
// (prices, measures); otherwise they may be one unit in the last place off.
#include <colx/core/config.hpp>
#include <colx/types/chrono.hpp>
#include <colx/types/dec.hpp>
#include <colx/types/string_view.hpp>

#include <cmath>
#include <cstdint>
#include <limits>
#include <type_traits>

namespace colx::text {

// A string's characters with the spaces at both ends skipped.
struct cursor {
  char const* p;
  char const* end;
  constexpr COLX_HOST_DEVICE explicit cursor(string_view s) : p(s.data()), end(s.data() + s.size_bytes()) {
    while (p < end && *p == ' ') { ++p; }
    while (end > p && end[-1] == ' ') { --end; }
  }
  [[nodiscard]] constexpr COLX_HOST_DEVICE bool done() const noexcept { return p == end; }
  [[nodiscard]] constexpr COLX_HOST_DEVICE bool digit() const noexcept { return p < end && *p >= '0' && *p <= '9'; }
  constexpr COLX_HOST_DEVICE bool take(char c) noexcept {
    if (p < end && *p == c) {
      ++p;
      return true;
    }
    return false;
  }
  // An optional sign: true for '-'.
  constexpr COLX_HOST_DEVICE bool sign() noexcept { return !take('+') && take('-'); }
};

// Decimal digits as an unsigned 128-bit magnitude with `scale` digits after the point; a digit
// past the scale rounds (half away from zero); false past 38 digits or when no digit is there.
struct scaled_digits {
  uint128_t magnitude = 0;
  bool negative = false;
};
constexpr COLX_HOST_DEVICE bool read_scaled(cursor& c, int scale, scaled_digits& out) {
  out.negative = c.sign();
  int digits = 0;
  int fraction = 0;
  bool any = false;
  bool round_up = false;
  uint128_t m = 0;
  uint128_t const limit = static_cast<uint128_t>(colx::detail::pow10_128(38));
  auto const add = [&](char d) {
    m = m * 10 + static_cast<unsigned>(d - '0');
    digits += m != 0;
  };
  for (; c.digit(); ++c.p) {
    any = true;
    add(*c.p);
  }
  if (c.take('.')) {
    for (; c.digit(); ++c.p) {
      any = true;
      if (fraction < scale) {
        add(*c.p);
        ++fraction;
      } else if (fraction == scale) {
        round_up = *c.p >= '5';
        ++fraction;
      }
    }
  }
  if (!any || digits > 38) { return false; }
  for (; fraction < scale; ++fraction) { m *= 10; }
  m += round_up ? 1 : 0;
  if (m >= limit) { return false; }
  out.magnitude = m;
  return true;
}

template <class T>
constexpr COLX_HOST_DEVICE T parse_integer(string_view s, bool& ok) {
  cursor c(s);
  scaled_digits v;
  ok = read_scaled(c, 0, v) && c.done();
  if (!ok) { return T{}; }
  using U = std::make_unsigned_t<T>;
  // numeric_limits<T>::max() is host-only without --expt-relaxed-constexpr.
  uint128_t const max_positive = static_cast<uint128_t>(static_cast<U>(~U{0}) >> (std::is_signed_v<T> ? 1 : 0));
  uint128_t const max_negative = std::is_signed_v<T> ? max_positive + 1 : 0;
  if (v.magnitude > (v.negative ? max_negative : max_positive)) {
    ok = false;
    return T{};
  }
  auto const u = static_cast<U>(v.magnitude);
  return static_cast<T>(v.negative ? static_cast<U>(U{0} - u) : u);
}

template <class D>
constexpr COLX_HOST_DEVICE D parse_decimal(string_view s, bool& ok) {
  cursor c(s);
  scaled_digits v;
  ok = read_scaled(c, D::scale, v) && c.done() && v.magnitude < static_cast<uint128_t>(colx::detail::pow10_128(D::precision));
  if (!ok) { return D{}; }
  auto const m = static_cast<int128_t>(v.magnitude);
  return D::from_unscaled(static_cast<typename D::rep>(v.negative ? -m : m));
}

// Whether c holds `word` (lower case) in any case, and nothing else.
constexpr COLX_HOST_DEVICE bool is_word(cursor c, char const* word) {
  for (; *word != '\0'; ++word, ++c.p) {
    if (c.p == c.end || (*c.p | 0x20) != *word) { return false; }
  }
  return c.done();
}

template <class T>
constexpr COLX_HOST_DEVICE T parse_floating(string_view s, bool& ok) {
  cursor c(s);
  cursor const whole = c;
  ok = true;
  bool const negative = c.sign();
  if (is_word(c, "inf") || is_word(c, "infinity")) { return negative ? -INFINITY : INFINITY; }
  if (is_word(whole, "nan")) { return static_cast<T>(NAN); }
  std::uint64_t m = 0;
  int exponent = 0;  // of 10
  int kept = 0;
  bool any = false;
  for (; c.digit(); ++c.p) {
    any = true;
    if (kept < 19) {
      m = m * 10 + static_cast<unsigned>(*c.p - '0');
      kept += m != 0;
    } else {
      ++exponent;  // digits past 19 only scale (they are below double's precision)
    }
  }
  if (c.take('.')) {
    for (; c.digit(); ++c.p) {
      any = true;
      if (kept < 19) {
        m = m * 10 + static_cast<unsigned>(*c.p - '0');
        kept += m != 0;
        --exponent;
      }
    }
  }
  if (any && (c.take('e') || c.take('E'))) {
    bool const negative_exponent = c.sign();
    int e = 0;
    bool digits = false;
    for (; c.digit(); ++c.p) {
      digits = true;
      e = e < 100000 ? e * 10 + (*c.p - '0') : e;
    }
    any = digits;
    exponent += negative_exponent ? -e : e;
  }
  if (!any || !c.done()) {
    ok = false;
    return T{};
  }
  double const powers[] = {1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11,
                           1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22};
  double v = static_cast<double>(m);
  if (m <= (std::uint64_t{1} << 53) && exponent >= -22 && exponent <= 22) {  // exact operands: one rounding
    v = exponent < 0 ? v / powers[-exponent] : v * powers[exponent];
  } else if (m != 0) {
    v = exponent < 0 ? v / ::pow(10.0, -exponent) : v * ::pow(10.0, exponent);
  }
  return static_cast<T>(negative ? -v : v);
}

constexpr COLX_HOST_DEVICE date32 parse_date(string_view s, bool& ok) {
  cursor c(s);
  bool const negative = c.sign();
  auto const number = [&](int max_digits, int& out) {
    int n = 0;
    out = 0;
    for (; c.digit() && n < max_digits; ++c.p, ++n) { out = out * 10 + (*c.p - '0'); }
    return n > 0 && !c.digit();
  };
  int year = 0;
  int month = 0;
  int day = 0;
  ok = number(6, year) && c.take('-') && number(2, month) && c.take('-') && number(2, day) && c.done() && month >= 1 &&
       month <= 12 && day >= 1;
  if (!ok) { return date32(0); }
  year = negative ? -year : year;
  ok = day <= static_cast<int>(days_in_month(year, static_cast<unsigned>(month)));
  return ok ? date(year, static_cast<unsigned>(month), static_cast<unsigned>(day)) : date32(0);
}

constexpr COLX_HOST_DEVICE bool parse_bool(string_view s, bool& ok) {
  cursor const c(s);
  ok = true;
  if (is_word(c, "true") || is_word(c, "t") || is_word(c, "yes") || is_word(c, "y") || is_word(c, "1")) { return true; }
  if (is_word(c, "false") || is_word(c, "f") || is_word(c, "no") || is_word(c, "n") || is_word(c, "0")) { return false; }
  ok = false;
  return false;
}

}  // namespace colx::text
