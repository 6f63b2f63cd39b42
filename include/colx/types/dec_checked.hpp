// SPDX-License-Identifier: Apache-2.0
#pragma once
// dec<P, S> arithmetic that can fail, checked (types/dec.hpp has the type and its plain
// operators): + - * whose precision SQL's 38-digit cap cut, and CAST to and from decimals. Each
// sets `valid` false where the result does not fit; expressions make that a null.
#include <colx/types/dec.hpp>

#include <cstdint>

namespace colx::detail {

// Whether the cap at 38 digits cut the result's precision: only then can it overflow.
template <class A, class B>
inline constexpr bool sum_capped = max_int(A::precision - A::scale, B::precision - B::scale) + max_int(A::scale, B::scale) + 1 > 38;
template <class A, class B>
inline constexpr bool product_capped = A::precision + B::precision > dec_product_t<A, B>::precision;

constexpr COLX_HOST_DEVICE bool within_38_digits(int128_t v) {
  int128_t const limit = pow10_128(38);
  return v > -limit && v < limit;
}
constexpr COLX_HOST_DEVICE int128_t magnitude(int128_t v) { return v < 0 ? -v : v; }
constexpr COLX_HOST_DEVICE uint128_t unsigned_magnitude(int128_t v) {
  return v < 0 ? uint128_t{0} - static_cast<uint128_t>(v) : static_cast<uint128_t>(v);  // defined for the most negative too
}

// Whether a * b of two 64-bit integers is within (-limit, limit), limit at most 10^18, with the
// product in `product` when it is. Without a branch, so that the loads of a row's other columns
// stay ahead of it, and cheaply: TPC-H Q1 takes two such products a row. The product in doubles
// is within a relative 2^-51 of the true a * b (two conversions and a multiplication, each rounding
// by at most 2^-53). So where it is under limit * (1 + 2^-40), |a * b| is under about 1.0000000001 *
// 10^18 < 2^63, the 64-bit product is exact, and its own test is the answer; where it is not, |a * b|
// is past limit. (The test this replaced, by the bit lengths of the magnitudes, took about 35
// instructions a product on the GPU; TPC-H Q1's kernel ran 28 fewer a row for its two products.)
constexpr COLX_HOST_DEVICE bool product_within(std::int64_t a, std::int64_t b, std::int64_t limit, std::int64_t& product) {
  product = static_cast<std::int64_t>(static_cast<std::uint64_t>(a) * static_cast<std::uint64_t>(b));  // wraps past 2^63
  double const estimate = static_cast<double>(a) * static_cast<double>(b);
  double const bound = static_cast<double>(limit) * (1.0 + 0x1p-40);
  bool const near = estimate > -bound && estimate < bound;
  return near && product > -limit && product < limit;
}

// Whether a * b < limit, with the product in `product` when it is: from 64-bit halves, without
// the 128-bit division (a software routine of a hundred instructions and more on the GPU) that
// bounding one factor by limit / other takes. For a capped product with a 128-bit factor.
constexpr COLX_HOST_DEVICE bool product_below(uint128_t a, uint128_t b, uint128_t limit, uint128_t& product) {
  if ((a >> 64) != 0) {
    if ((b >> 64) != 0) { return false; }  // at least 2^128
    uint128_t const t = a;
    a = b;
    b = t;
  }
  auto const a64 = static_cast<std::uint64_t>(a);  // a < 2^64 from here
  uint128_t const low = static_cast<uint128_t>(a64) * static_cast<std::uint64_t>(b);
  uint128_t const high = static_cast<uint128_t>(a64) * static_cast<std::uint64_t>(b >> 64);
  if ((high >> 64) != 0) { return false; }
  product = low + (high << 64);
  return product >= low && product < limit;  // a carry out of 128 bits wraps below `low`
}

// a + b (or a - b) when sum_capped: false in `valid` when an operand does not fit the result's
// scale or the result its 38 digits.
template <class A, class B, bool Subtract>
constexpr COLX_HOST_DEVICE dec_sum_t<A, B> checked_add(A a, B b, bool& valid) {
  using R = dec_sum_t<A, B>;
  constexpr int128_t a_room = pow10_128(38 - (R::scale - A::scale));  // bounds before rescaling
  constexpr int128_t b_room = pow10_128(38 - (R::scale - B::scale));
  if (magnitude(a.unscaled) >= a_room || magnitude(b.unscaled) >= b_room) {
    valid = false;
    return R{0};
  }
  int128_t const x = a.template rescaled<R::scale>();
  int128_t y = b.template rescaled<R::scale>();
  if constexpr (Subtract) { y = -y; }
  int128_t const r = wrap_add(x, y);  // both below 10^38: a wrap flips the sign against both
  if (((x ^ r) & (y ^ r)) < 0 || !within_38_digits(r)) {
    valid = false;
    return R{0};
  }
  return R{r};
}
// a * b when product_capped.
template <class A, class B>
constexpr COLX_HOST_DEVICE dec_product_t<A, B> checked_mul(A a, B b, bool& valid) {
  using R = dec_product_t<A, B>;
  if constexpr (sizeof(typename A::rep) <= 8 && sizeof(typename B::rep) <= 8 && R::precision <= 18) {
    // A 64-bit result (DuckDB's DEC(18, s) for a product of two of up to 18 digits).
    std::int64_t product = 0;
    if (!product_within(a.unscaled, b.unscaled, static_cast<std::int64_t>(pow10_128(R::precision)), product)) {
      valid = false;
      return R{0};
    }
    return R{static_cast<typename R::rep>(product)};
  } else if constexpr (sizeof(typename A::rep) <= 8 && sizeof(typename B::rep) <= 8) {
    int128_t const r = static_cast<int128_t>(a.unscaled) * b.unscaled;  // exact: two 64-bit values
    if (magnitude(r) >= pow10_128(R::precision)) {
      valid = false;
      return R{0};
    }
    return R{static_cast<typename R::rep>(r)};
  } else {
    int128_t const x = a.unscaled;
    int128_t const y = b.unscaled;
    uint128_t product = 0;
    if (!product_below(unsigned_magnitude(x), unsigned_magnitude(y), static_cast<uint128_t>(pow10_128(R::precision)), product)) {
      valid = false;
      return R{0};
    }
    int128_t const r = static_cast<int128_t>(product);  // below 10^38
    return R{static_cast<typename R::rep>((x < 0) != (y < 0) ? -r : r)};
  }
}

// v / 10^k, halves away from zero (SQL's rounding of decimals).
constexpr COLX_HOST_DEVICE int128_t divide_rounding(int128_t v, int k) {
  int128_t const d = pow10_128(k);
  int128_t q = v / d;
  int128_t const r = v % d;
  if (magnitude(r) >= d - magnitude(r)) { q += v < 0 ? -1 : 1; }  // not 2|r| >= d: 2|r| passes int128 at k = 38
  return q;
}

// CAST(v AS To), where To or v is a dec: decimals rescale (halves away from zero when digits go),
// integers and floating point convert with the same rounding, and a value To cannot hold (more
// digits than its precision, NaN, infinity) sets `valid` false, where DuckDB raises an error.
template <class To, class From>
constexpr COLX_HOST_DEVICE To cast_decimal(From v, bool& valid) {
  if constexpr (dec_type<To>) {
    int128_t u = 0;
    if constexpr (dec_type<From>) {
      if constexpr (To::scale >= From::scale) {
        if (magnitude(v.unscaled) >= pow10_128(38 - (To::scale - From::scale))) {
          valid = false;
          return To{};
        }
        u = v.template rescaled<To::scale>();
      } else {
        u = divide_rounding(v.unscaled, From::scale - To::scale);
      }
    } else if constexpr (std::is_floating_point_v<From>) {
      double const rounded = ::round(static_cast<double>(v) * static_cast<double>(pow10_128(To::scale)));
      if (!(rounded > -static_cast<double>(pow10_128(To::precision)) && rounded < static_cast<double>(pow10_128(To::precision)))) {
        valid = false;  // NaN fails both
        return To{};
      }
      u = static_cast<int128_t>(rounded);
    } else {  // an integer
      static_assert(std::is_integral_v<From>, "colx: cast to dec<P, S> takes a number or a decimal");
      if (magnitude(static_cast<int128_t>(v)) >= pow10_128(To::precision - To::scale)) {
        valid = false;
        return To{};
      }
      u = static_cast<int128_t>(v) * pow10_128(To::scale);
    }
    if (magnitude(u) >= pow10_128(To::precision)) {
      valid = false;
      return To{};
    }
    return To{static_cast<typename To::rep>(u)};
  } else if constexpr (std::is_floating_point_v<To>) {
    return static_cast<To>(v.to_double());
  } else {  // dec to an integer: rounded, null beyond the integer's range
    static_assert(std::is_integral_v<To>, "colx: a dec<P, S> casts to a dec, an integer or a floating-point type");
    int128_t const r = divide_rounding(v.unscaled, From::scale);
    constexpr bool is_signed = static_cast<To>(-1) < static_cast<To>(0);
    constexpr int128_t hi = static_cast<int128_t>(is_signed ? (static_cast<uint128_t>(1) << (8 * sizeof(To) - 1)) - 1
                                                            : (static_cast<uint128_t>(1) << (8 * sizeof(To))) - 1);
    constexpr int128_t lo = is_signed ? -hi - 1 : 0;
    if (r < lo || r > hi) {
      valid = false;
      return To{};
    }
    return static_cast<To>(r);
  }
}

}  // namespace colx::detail
