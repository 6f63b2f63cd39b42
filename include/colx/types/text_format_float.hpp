// SPDX-License-Identifier: Apache-2.0
#pragma once
// Floating-point values written as text, as DuckDB's CAST(x AS VARCHAR) writes them (which is
// also Python's repr): the shortest digits that read back as the same value, the nearest such
// when several are as short; fixed notation for a first digit at 10^-4 to 10^15 ("0.0001",
// "100.0", "1000000000000000.0"), else scientific with two exponent digits at least ("1e-05",
// "1e+16", "1.7976931348623157e+308"); "nan", "inf", "-inf", "-0.0". A float's digits read back
// under any rounding of ties (its gap's ends never count); DuckDB writes some integral floats
// above 2^28 with all their digits ("361498816.0" where this writes the shorter "361498820.0",
// about 1% of random floats), and this follows the rule, not that.
//
// The digits come from Burger and Dybvig's free-format algorithm ("Printing Floating-Point Numbers
// Quickly and Accurately", 1996) over exact integers: the value and the half-gaps to its
// neighbours as fractions r/s, m+/s, m-/s, digits taken while no shorter number lies within the
// gaps. The integers reach about 1,090 bits for the smallest doubles, so they are a
// fixed array of words in the thread's memory: exact on host and device alike, and slow (a few
// microseconds a value). Writing numbers as text is an edge of a pipeline, not its inner loop.
#include <colx/core/bit_cast.hpp>
#include <colx/core/config.hpp>

#include <cstdint>
#include <type_traits>

namespace colx::text {
namespace detail {

// A non-negative integer of up to 40 32-bit words, little-endian.
struct big_uint {
  static constexpr int capacity = 40;
  std::uint32_t w[capacity] = {};
  int n = 0;  // words in use: w[n - 1] != 0, or n == 0

  static constexpr COLX_HOST_DEVICE big_uint of(std::uint64_t x) noexcept {
    big_uint b;
    b.w[0] = static_cast<std::uint32_t>(x);
    b.w[1] = static_cast<std::uint32_t>(x >> 32);
    b.n = (x >> 32) != 0 ? 2 : (x != 0 ? 1 : 0);
    return b;
  }
  constexpr COLX_HOST_DEVICE void mul_small(std::uint32_t m) noexcept {
    std::uint64_t carry = 0;
    for (int i = 0; i < n; ++i) {
      std::uint64_t const t = static_cast<std::uint64_t>(w[i]) * m + carry;
      w[i] = static_cast<std::uint32_t>(t);
      carry = t >> 32;
    }
    if (carry != 0 && n < capacity) { w[n++] = static_cast<std::uint32_t>(carry); }
    while (n > 0 && w[n - 1] == 0) { --n; }  // m == 0
  }
  constexpr COLX_HOST_DEVICE void mul_pow2(int bits) noexcept {
    for (; bits >= 31; bits -= 31) { mul_small(1u << 31); }
    mul_small(1u << bits);
  }
  constexpr COLX_HOST_DEVICE void mul_pow10(int k) noexcept {
    for (; k >= 9; k -= 9) { mul_small(1000000000u); }
    constexpr std::uint32_t small[9] = {1, 10, 100, 1000, 10000, 100000, 1000000, 10000000, 100000000};
    mul_small(small[k]);
  }
  constexpr COLX_HOST_DEVICE void add(big_uint const& o) noexcept {
    std::uint64_t carry = 0;
    int const m = n > o.n ? n : o.n;
    for (int i = 0; i < m; ++i) {
      std::uint64_t const t = static_cast<std::uint64_t>(i < n ? w[i] : 0u) + (i < o.n ? o.w[i] : 0u) + carry;
      w[i] = static_cast<std::uint32_t>(t);
      carry = t >> 32;
    }
    n = m;
    if (carry != 0 && n < capacity) { w[n++] = static_cast<std::uint32_t>(carry); }
  }
  // *this -= o, where o <= *this.
  constexpr COLX_HOST_DEVICE void sub(big_uint const& o) noexcept {
    std::int64_t borrow = 0;
    for (int i = 0; i < n; ++i) {
      std::int64_t t = static_cast<std::int64_t>(w[i]) - (i < o.n ? o.w[i] : 0u) - borrow;
      borrow = t < 0 ? 1 : 0;
      w[i] = static_cast<std::uint32_t>(t + (borrow << 32));
    }
    while (n > 0 && w[n - 1] == 0) { --n; }
  }
};
[[nodiscard]] constexpr COLX_HOST_DEVICE int compare(big_uint const& a, big_uint const& b) noexcept {
  if (a.n != b.n) { return a.n < b.n ? -1 : 1; }
  for (int i = a.n - 1; i >= 0; --i) {
    if (a.w[i] != b.w[i]) { return a.w[i] < b.w[i] ? -1 : 1; }
  }
  return 0;
}
// compare(a + b, c).
[[nodiscard]] constexpr COLX_HOST_DEVICE int compare_sum(big_uint a, big_uint const& b, big_uint const& c) noexcept {
  a.add(b);
  return compare(a, c);
}

// A float or double as its integer significand f and exponent e (the value is f * 2^e), and what
// the algorithm needs of its format: the significand's bits and the least exponent.
template <class F>
struct float_parts {
  static constexpr int significand_bits = std::is_same_v<F, float> ? 24 : 53;
  static constexpr int least_exponent = std::is_same_v<F, float> ? -149 : -1074;
  std::uint64_t f = 0;
  int e = 0;
  bool negative = false;
  bool finite = true;
  bool nan = false;
  explicit constexpr COLX_HOST_DEVICE float_parts(F v) noexcept {
    using U = std::conditional_t<std::is_same_v<F, float>, std::uint32_t, std::uint64_t>;
    constexpr int fraction_bits = significand_bits - 1;
    constexpr int exponent_mask = std::is_same_v<F, float> ? 0xFF : 0x7FF;
    U const bits = colx::bit_cast<U>(v);
    negative = (bits >> (sizeof(U) * 8 - 1)) != 0;
    int const biased = static_cast<int>((bits >> fraction_bits) & static_cast<U>(exponent_mask));
    std::uint64_t const fraction = static_cast<std::uint64_t>(bits & ((U{1} << fraction_bits) - 1));
    if (biased == exponent_mask) {
      finite = false;
      nan = fraction != 0;
    } else if (biased == 0) {  // zero or subnormal
      f = fraction;
      e = least_exponent;
    } else {
      f = fraction | (std::uint64_t{1} << fraction_bits);
      e = biased + least_exponent - 1;
    }
  }
};

// The shortest digits of f * 2^e (f > 0): `digits` (at most 17 of them, as one integer) and k, the
// value being 0.d1d2...dn * 10^k.
struct shortest_digits {
  std::uint64_t digits = 0;
  int count = 0;
  int k = 0;
};
template <class F>
constexpr COLX_HOST_DEVICE shortest_digits shortest(float_parts<F> const& v) noexcept {
  constexpr std::uint64_t lowest_normal = std::uint64_t{1} << (float_parts<F>::significand_bits - 1);
  // A text at the gap's very end reads back to this value only where the reader rounds ties to
  // even and this significand is even; DuckDB (and this) counts the ends so for doubles, never for
  // floats.
  bool const even = std::is_same_v<F, double> && (v.f & 1u) == 0;
  // The value r/s and its half-gaps m+/s above and m-/s below; the gap below a power of two that
  // is not the least exponent's is half the gap above.
  big_uint r, s, m_plus, m_minus;
  bool const narrow_below = v.f == lowest_normal && v.e > float_parts<F>::least_exponent;
  if (v.e >= 0) {
    r = big_uint::of(v.f);
    r.mul_pow2(v.e + (narrow_below ? 2 : 1));
    s = big_uint::of(narrow_below ? 4 : 2);
    m_plus = big_uint::of(1);
    m_plus.mul_pow2(v.e + (narrow_below ? 1 : 0));
    m_minus = big_uint::of(1);
    m_minus.mul_pow2(v.e);
  } else {
    r = big_uint::of(v.f);
    r.mul_pow2(narrow_below ? 2 : 1);
    s = big_uint::of(1);
    s.mul_pow2(-v.e + (narrow_below ? 2 : 1));
    m_plus = big_uint::of(narrow_below ? 2 : 1);
    m_minus = big_uint::of(1);
  }
  // k from below: floor(log10(2^x)) - 1 for the value's leading bit x (78913 / 2^18 is log10(2),
  // exact in this range), then up while the value and its upper gap reach s.
  int x = v.e;
  for (std::uint64_t g = v.f; g > 1; g >>= 1) { ++x; }
  int k = ((x * 78913) >> 18) - 1;
  if (k >= 0) {
    s.mul_pow10(k);
  } else {
    r.mul_pow10(-k);
    m_plus.mul_pow10(-k);
    m_minus.mul_pow10(-k);
  }
  while (even ? compare_sum(r, m_plus, s) >= 0 : compare_sum(r, m_plus, s) > 0) {
    s.mul_small(10);
    ++k;
  }
  shortest_digits out;
  out.k = k;
  for (;;) {
    r.mul_small(10);
    m_plus.mul_small(10);
    m_minus.mul_small(10);
    int d = 0;
    while (compare(r, s) >= 0) {
      r.sub(s);
      ++d;
    }
    bool const low = even ? compare(r, m_minus) <= 0 : compare(r, m_minus) < 0;
    bool const high = even ? compare_sum(r, m_plus, s) >= 0 : compare_sum(r, m_plus, s) > 0;
    // Both d and d + 1 read back: the nearer. On a tie a double takes the even digit (as Python
    // and DuckDB do); a float writes one more digit, its value's last (a 5), as DuckDB does.
    bool tie = false;
    if (low && high) {
      big_uint twice = r;
      twice.mul_small(2);
      int const c = compare(twice, s);
      if (c > 0) {
        d += 1;
      } else if (c == 0) {
        if constexpr (std::is_same_v<F, float>) {
          tie = true;
        } else {
          d += d & 1;
        }
      }
    } else if (high) {
      d += 1;
    }
    out.digits = out.digits * 10 + static_cast<std::uint64_t>(d);
    ++out.count;
    if ((low || high) && !tie) { break; }
    if (out.count == 19) { break; }
  }
  // A last digit of 10 carried into the ones before it: back to digits of their own.
  std::uint64_t power = 1;
  for (int i = 0; i < out.count; ++i) { power *= 10; }
  if (out.digits == power) {
    out.digits = 1;
    out.count = 1;
    ++out.k;
  }
  while (out.count > 1 && out.digits % 10 == 0) {
    out.digits /= 10;
    --out.count;
  }
  return out;
}

}  // namespace detail

// A float or double: "0.1", "100.0", "1e+16", "-inf" (see the top of this file).
template <class F>
struct floating_text {
  static_assert(std::is_same_v<F, float> || std::is_same_v<F, double>, "colx: floating_text is for float and double");
  bool negative = false;
  bool finite = true;
  bool nan = false;
  detail::shortest_digits d{};  // count 0: zero

  constexpr floating_text() noexcept = default;  // 0.0 (a null row's, in a kernel's row of values)
  explicit constexpr COLX_HOST_DEVICE floating_text(F v) noexcept {
    detail::float_parts<F> const parts(v);
    negative = parts.negative && !parts.nan;
    finite = parts.finite;
    nan = parts.nan;
    if (finite && parts.f != 0) { d = detail::shortest(parts); }
  }
  // Where the decimal point goes: the first digit is at 10^(k - 1).
  [[nodiscard]] constexpr COLX_HOST_DEVICE bool scientific() const noexcept { return d.count > 0 && (d.k - 1 < -4 || d.k - 1 >= 16); }
  [[nodiscard]] constexpr COLX_HOST_DEVICE size_type size_bytes() const noexcept {
    size_type const sign = negative ? 1 : 0;
    if (!finite) { return nan ? 3 : sign + 3; }
    if (d.count == 0) { return sign + 3; }  // 0.0
    if (scientific()) {
      int const x = d.k - 1 < 0 ? 1 - d.k : d.k - 1;
      return sign + d.count + (d.count > 1 ? 1 : 0) + 2 + (x >= 100 ? 3 : 2);
    }
    if (d.k <= 0) { return sign + 2 - d.k + d.count; }                   // 0.000ddd
    if (d.k < d.count) { return sign + d.count + 1; }                    // dd.ddd
    return sign + d.k + 2;                                                // ddd000.0
  }
  constexpr COLX_HOST_DEVICE void write_to(char* out) const noexcept {
    if (!finite) {
      char const* const s = nan ? "nan" : (negative ? "-inf" : "inf");
      for (size_type i = 0; i < size_bytes(); ++i) { out[i] = s[i]; }
      return;
    }
    if (negative) { *out++ = '-'; }
    if (d.count == 0) {
      out[0] = '0';
      out[1] = '.';
      out[2] = '0';
      return;
    }
    char digits[20] = {};
    std::uint64_t v = d.digits;
    for (int i = d.count - 1; i >= 0; --i) {
      digits[i] = static_cast<char>('0' + static_cast<int>(v % 10));
      v /= 10;
    }
    if (scientific()) {
      *out++ = digits[0];
      if (d.count > 1) {
        *out++ = '.';
        for (int i = 1; i < d.count; ++i) { *out++ = digits[i]; }
      }
      int const x = d.k - 1;
      *out++ = 'e';
      *out++ = x < 0 ? '-' : '+';
      int const a = x < 0 ? -x : x;
      if (a >= 100) { *out++ = static_cast<char>('0' + a / 100); }
      *out++ = static_cast<char>('0' + a / 10 % 10);
      *out++ = static_cast<char>('0' + a % 10);
    } else if (d.k <= 0) {
      *out++ = '0';
      *out++ = '.';
      for (int i = 0; i < -d.k; ++i) { *out++ = '0'; }
      for (int i = 0; i < d.count; ++i) { *out++ = digits[i]; }
    } else if (d.k < d.count) {
      for (int i = 0; i < d.count; ++i) {
        if (i == d.k) { *out++ = '.'; }
        *out++ = digits[i];
      }
    } else {
      for (int i = 0; i < d.count; ++i) { *out++ = digits[i]; }
      for (int i = d.count; i < d.k; ++i) { *out++ = '0'; }
      *out++ = '.';
      *out++ = '0';
    }
  }
};

}  // namespace colx::text
