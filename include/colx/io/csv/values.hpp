// SPDX-License-Identifier: Apache-2.0
#pragma once
// A CSV field's text read as a value, strictly: the whole field must be the value (spaces around
// it allowed), so that type detection can trust a "no". Host and device code.
//   integers    [+-]digits, into 64 bits (narrowed after the read to the smallest width that holds
//               every value)
//   decimals    [+-]digits[.digits] with at most `scale` digits after the point (none are rounded
//               away), at most 18 digits in all
//   doubles     as text::parse_floating: decimals, exponents, inf, nan
//   booleans    true/false in any case, or the strings the options name
//   dates       YYYY-MM-DD (month and day of one or two digits), a real day
//   timestamps  a date, then ' ' or 'T', HH:MM[:SS[.fraction]] (to microseconds; more digits must
//               be zeros), optionally 'Z'
#include <colx/types/chrono.hpp>
#include <colx/types/string_view.hpp>
#include <colx/types/text_parse.hpp>

#include <cstdint>

namespace colx::csv::detail {

using text::cursor;

// Digits (at least one) into v; false past 18 digits.
constexpr COLX_HOST_DEVICE bool read_digits(cursor& c, std::int64_t& v, int& count) {
  v = 0;
  count = 0;
  for (; c.digit(); ++c.p) {
    if (++count > 18) { return false; }
    v = v * 10 + (*c.p - '0');
  }
  return count > 0;
}

constexpr COLX_HOST_DEVICE bool parse_int64(string_view s, std::int64_t& out) {
  cursor c(s);
  bool const negative = c.sign();
  std::int64_t v = 0;
  int n = 0;
  if (!read_digits(c, v, n) || !c.done()) {
    // 19 digits still fit when below 2^63: read them again with room for one more
    cursor d(s);
    bool const neg = d.sign();
    uint128_t w = 0;
    int k = 0;
    for (; d.digit(); ++d.p) {
      if (++k > 19) { return false; }
      w = w * 10 + static_cast<unsigned>(*d.p - '0');
    }
    if (k == 0 || !d.done() || w > (static_cast<uint128_t>(1) << 63) - (neg ? 0 : 1)) { return false; }
    out = neg ? static_cast<std::int64_t>(0 - static_cast<std::uint64_t>(w)) : static_cast<std::int64_t>(w);
    return true;
  }
  out = negative ? -v : v;
  return true;
}

constexpr COLX_HOST_DEVICE bool parse_uint64(string_view s, std::uint64_t& out) {
  cursor c(s);
  (void)c.take('+');
  uint128_t w = 0;
  int k = 0;
  for (; c.digit(); ++c.p) {
    if (++k > 20) { return false; }
    w = w * 10 + static_cast<unsigned>(*c.p - '0');
  }
  if (k == 0 || !c.done() || w > static_cast<uint128_t>(~std::uint64_t{0})) { return false; }
  out = static_cast<std::uint64_t>(w);
  return true;
}

// A decimal's unscaled value at `scale`; its digits after the point: `fraction` (at most scale).
constexpr COLX_HOST_DEVICE bool parse_decimal64(string_view s, int scale, std::int64_t& out, int& fraction) {
  cursor c(s);
  bool const negative = c.sign();
  std::int64_t v = 0;
  int digits = 0;
  bool any = false;
  for (; c.digit(); ++c.p, any = true) {
    if (++digits > 18) { return false; }
    v = v * 10 + (*c.p - '0');
  }
  fraction = 0;
  if (c.take('.')) {
    for (; c.digit(); ++c.p, any = true) {
      if (++fraction > scale || ++digits > 18) { return false; }
      v = v * 10 + (*c.p - '0');
    }
  }
  if (!any || !c.done()) { return false; }
  for (int k = fraction; k < scale; ++k) {
    if (++digits > 18) { return false; }
    v *= 10;
  }
  out = negative ? -v : v;
  return true;
}

// The digits after the point of a plain decimal ([+-]digits.digits, 18 digits at most), or -1
// when it is not one.
constexpr COLX_HOST_DEVICE int decimal_fraction_digits(string_view s) {
  cursor c(s);
  (void)c.sign();
  int whole = 0, fraction = 0;
  for (; c.digit(); ++c.p) { ++whole; }
  if (!c.take('.')) { return -1; }
  for (; c.digit(); ++c.p) { ++fraction; }
  return c.done() && fraction > 0 && whole + fraction <= 18 ? fraction : -1;
}

constexpr COLX_HOST_DEVICE bool parse_double(string_view s, double& out) {
  bool ok = false;
  out = text::parse_floating<double>(s, ok);
  return ok;
}

// Whether bytes [p, p + n) are UTF-8: no stray continuation byte, no overlong form, no surrogate,
// nothing past U+10FFFF, no sequence cut short.
inline COLX_HOST_DEVICE bool valid_utf8(char const* p, std::int64_t n) {
  auto const* u = reinterpret_cast<unsigned char const*>(p);
  for (std::int64_t i = 0; i < n;) {
    unsigned const b = u[i];
    if (b < 0x80) {
      ++i;
      continue;
    }
    int const len = b >= 0xf0 ? 4 : b >= 0xe0 ? 3 : b >= 0xc0 ? 2 : 0;
    if (len == 0 || b > 0xf4 || b == 0xc0 || b == 0xc1 || i + len > n) { return false; }
    unsigned c = b & (0x7fu >> len);
    for (int k = 1; k < len; ++k) {
      if ((u[i + k] & 0xc0) != 0x80) { return false; }
      c = (c << 6) | (u[i + k] & 0x3fu);
    }
    if ((len == 3 && (c < 0x800 || (c >= 0xd800 && c <= 0xdfff))) || (len == 4 && (c < 0x10000 || c > 0x10ffff))) { return false; }
    i += len;
  }
  return true;
}

constexpr COLX_HOST_DEVICE bool parse_boolean(string_view s, bool& out) {
  cursor const c(s);
  if (text::is_word(c, "true")) {
    out = true;
    return true;
  }
  if (text::is_word(c, "false")) {
    out = false;
    return true;
  }
  return false;
}

// From `least` to `most` digits at c into v.
constexpr COLX_HOST_DEVICE bool fixed_digits(cursor& c, int least, int most, int& v) {
  v = 0;
  int k = 0;
  for (; k < most && c.digit(); ++k, ++c.p) { v = v * 10 + (*c.p - '0'); }
  return k >= least;
}

constexpr COLX_HOST_DEVICE bool read_date(cursor& c, std::int32_t& days) {
  bool const negative_year = c.take('-');
  int y = 0, m = 0, d = 0;
  if (!fixed_digits(c, 4, 4, y) || !c.take('-') || !fixed_digits(c, 1, 2, m) || !c.take('-') || !fixed_digits(c, 1, 2, d)) { return false; }
  if (negative_year) { y = -y; }
  if (m < 1 || m > 12 || d < 1) { return false; }
  bool const leap = (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;
  int const month_days[12] = {31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
  if (d > month_days[m - 1]) { return false; }
  days = colx::date(y, static_cast<unsigned>(m), static_cast<unsigned>(d)).ticks;
  return true;
}

constexpr COLX_HOST_DEVICE bool parse_date(string_view s, std::int32_t& days) {
  cursor c(s);
  return read_date(c, days) && c.done();
}

// Ticks of 10^-digits seconds since 1970-01-01 00:00:00 (digits 6: microseconds; 9: nanoseconds,
// for about 292 years either side of 1970).
constexpr COLX_HOST_DEVICE bool parse_timestamp(string_view s, int digits, std::int64_t& ticks) {
  cursor c(s);
  std::int32_t days = 0;
  if (!read_date(c, days) || !(c.take(' ') || c.take('T'))) { return false; }
  int h = 0, mi = 0, sec = 0;
  if (!fixed_digits(c, 2, 2, h) || !c.take(':') || !fixed_digits(c, 2, 2, mi) || h > 23 || mi > 59) { return false; }
  std::int64_t fraction = 0;
  if (c.take(':')) {
    if (!fixed_digits(c, 2, 2, sec) || sec > 59) { return false; }
    if (c.take('.')) {
      int k = 0;
      for (; c.digit(); ++c.p, ++k) {
        if (k < digits) {
          fraction = fraction * 10 + (*c.p - '0');
        } else if (*c.p != '0') {
          return false;  // (below the unit)
        }
      }
      if (k == 0) { return false; }
      for (; k < digits; ++k) { fraction *= 10; }
    }
  }
  (void)c.take('Z');
  if (!c.done()) { return false; }
  std::int64_t per_second = 1;
  for (int k = 0; k < digits; ++k) { per_second *= 10; }
  std::int64_t const seconds = ((static_cast<std::int64_t>(days) * 24 + h) * 60 + mi) * 60 + sec;
  constexpr std::int64_t largest = static_cast<std::int64_t>(~std::uint64_t{0} >> 1);
  if (seconds > (largest - fraction) / per_second || seconds < -(largest / per_second) + 1) { return false; }  // (beyond 64 bits)
  ticks = seconds * per_second + fraction;
  return true;
}

constexpr COLX_HOST_DEVICE bool parse_timestamp(string_view s, std::int64_t& micros) { return parse_timestamp(s, 6, micros); }

// A date or timestamp format, strptime's way, held by value (it goes to the device in a functor):
// %Y year (four digits), %y (two: 1970 to 2069), %m month, %d day (one or two digits each), %b or
// %h month name (Jan ... Dec, any case), %H hour, %M minute, %S second (two digits each), %f the
// fraction of the second (one to nine digits), %% a '%'; any other character stands for itself.
struct time_format {
  char text[32] = {};
  std::int32_t size = 0;  // 0: ISO 8601 (the defaults above)
};

// s in format f as days since 1970-01-01 (date_only) or as ticks of 10^-digits seconds.
constexpr COLX_HOST_DEVICE bool parse_with_format(string_view s, time_format const& f, int digits, bool date_only, std::int64_t& out) {
  cursor c(s);
  int y = 1970, m = 1, d = 1, h = 0, mi = 0, sec = 0;
  std::int64_t fraction = 0;
  for (int i = 0; i < f.size; ++i) {
    char const ch = f.text[i];
    if (ch != '%' || i + 1 == f.size) {
      if (!c.take(ch)) { return false; }
      continue;
    }
    char const k = f.text[++i];
    bool ok = true;
    switch (k) {
      case 'Y': ok = fixed_digits(c, 4, 4, y); break;
      case 'y': ok = fixed_digits(c, 2, 2, y), y += y < 70 ? 2000 : 1900; break;
      case 'm': ok = fixed_digits(c, 1, 2, m); break;
      case 'd': ok = fixed_digits(c, 1, 2, d); break;
      case 'H': ok = fixed_digits(c, 2, 2, h) && h <= 23; break;
      case 'M': ok = fixed_digits(c, 2, 2, mi) && mi <= 59; break;
      case 'S': ok = fixed_digits(c, 2, 2, sec) && sec <= 59; break;
      case 'f': {
        int n = 0;
        for (; c.digit(); ++c.p, ++n) {
          if (n < digits) {
            fraction = fraction * 10 + (*c.p - '0');
          } else if (*c.p != '0') {
            return false;
          }
        }
        ok = n > 0;
        for (; n < digits; ++n) { fraction *= 10; }
        break;
      }
      case 'b':
      case 'h': {
        char const* const names = "janfebmaraprmayjunjulaugsepoctnovdec";
        ok = false;
        if (c.end - c.p >= 3) {
          for (int mo = 0; mo < 12 && !ok; ++mo) {
            ok = (c.p[0] | 0x20) == names[3 * mo] && (c.p[1] | 0x20) == names[3 * mo + 1] && (c.p[2] | 0x20) == names[3 * mo + 2];
            if (ok) { m = mo + 1; }
          }
          if (ok) { c.p += 3; }
        }
        break;
      }
      default: ok = c.take(k);  // (%% and unknown directives: the character itself)
    }
    if (!ok) { return false; }
  }
  if (!c.done() || m < 1 || m > 12 || d < 1) { return false; }
  bool const leap = (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;
  int const month_days[12] = {31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
  if (d > month_days[m - 1]) { return false; }
  std::int64_t const days = colx::date(y, static_cast<unsigned>(m), static_cast<unsigned>(d)).ticks;
  if (date_only) {
    out = days;
    return true;
  }
  std::int64_t per_second = 1;
  for (int k = 0; k < digits; ++k) { per_second *= 10; }
  out = (((days * 24 + h) * 60 + mi) * 60 + sec) * per_second + fraction;
  return true;
}

}  // namespace colx::csv::detail
