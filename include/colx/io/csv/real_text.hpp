// SPDX-License-Identifier: Apache-2.0
#pragma once
// A float or double as the fewest fixed-point digits that read back to it, on either backend,
// for the values of real data (prices, measures, ratios): x = y / 10^k with an integer y that a
// double (float) holds exactly, 2^53 (2^24), and 10^k exact too, k <= 22 (10). Then the division
// y / 10^k is one correctly rounded operation, so `y / 10^k == x` proves that any correct reader
// (DuckDB's, colx's own: text_parse.hpp takes the same exact path) reads the text back to x. The
// smallest k that passes gives the shortest such text. A value with no such form (1e300, 2^-60,
// 0.1 + 0.2 at 17 digits) is not found, and the writer formats it on the host with
// std::to_chars instead (writer.hpp).
#include <colx/core/config.hpp>
#include <colx/types/text_format.hpp>

#include <cmath>
#include <cstdint>

namespace colx::csv::detail {

struct real_text {
  enum class form : std::uint8_t { digits, nan, inf, not_found };
  std::uint64_t y = 0;
  int k = 0;
  bool negative = false;
  form what = form::not_found;

  COLX_HOST_DEVICE static real_text of(double x) {
    real_text t;
    t.negative = std::signbit(x);
    if (std::isnan(x)) { return t.set(form::nan); }
    if (std::isinf(x)) { return t.set(form::inf); }
    double const a = std::fabs(x);
    double p = 1;
    for (int k = 0; k <= 22; ++k, p *= 10) {  // (every 10^k up to 10^22 is exact in a double)
      double const y = std::rint(a * p);
      if (y > 9007199254740992.0) { break; }  // 2^53
      if (y / p == a) { return t.set(form::digits, static_cast<std::uint64_t>(y), k); }
    }
    return t;
  }
  COLX_HOST_DEVICE static real_text of(float x) {
    real_text t;
    t.negative = std::signbit(x);
    if (std::isnan(x)) { return t.set(form::nan); }
    if (std::isinf(x)) { return t.set(form::inf); }
    float const a = std::fabs(x);
    float p = 1;
    for (int k = 0; k <= 10; ++k, p *= 10) {  // (10^10 = 2^10 * 5^10 is exact in a float)
      double const y = std::rint(static_cast<double>(a) * static_cast<double>(p));
      if (y > 16777216.0) { break; }  // 2^24
      if (static_cast<float>(y) / p == a) { return t.set(form::digits, static_cast<std::uint64_t>(y), k); }
    }
    return t;
  }

  [[nodiscard]] COLX_HOST_DEVICE bool found() const noexcept { return what != form::not_found; }
  [[nodiscard]] COLX_HOST_DEVICE size_type size_bytes() const noexcept {
    switch (what) {
      case form::nan: return 3;
      case form::inf: return negative ? 4 : 3;
      default: return (negative ? 1 : 0) + text::detail::digits(y / pow10(k)) + (k > 0 ? 1 + k : 0);
    }
  }
  COLX_HOST_DEVICE void write_to(char* out) const noexcept {
    if (negative && what != form::nan) { *out++ = '-'; }
    if (what != form::digits) {
      char const* const word = what == form::nan ? "nan" : "inf";
      for (int i = 0; i < 3; ++i) { out[i] = word[i]; }
      return;
    }
    std::uint64_t const whole = y / pow10(k);
    size_type const whole_digits = text::detail::digits(whole);
    text::detail::write_digits(whole, out + whole_digits);
    if (k > 0) {
      out[whole_digits] = '.';
      text::detail::write_digits(y % pow10(k), out + whole_digits + 1 + k, k);
    }
  }

 private:
  COLX_HOST_DEVICE static std::uint64_t pow10(int k) noexcept {
    std::uint64_t p = 1;
    for (int i = 0; i < k && i < 19; ++i) { p *= 10; }
    return k > 19 ? ~std::uint64_t{0} : p;  // (y < 2^53 < 10^16: a k past 19 leaves no whole part)
  }
  COLX_HOST_DEVICE real_text& set(form f, std::uint64_t y_ = 0, int k_ = 0) noexcept {
    what = f, y = y_, k = k_;
    return *this;
  }
};

}  // namespace colx::csv::detail
