// SPDX-License-Identifier: Apache-2.0
#pragma once
// SQL's DECIMAL(P, S) (DEC for short) as an element type whose precision and scale the compiler
// knows: `field<"l_extendedprice", colx::dec<15, 2>>`. A dec<P, S> holds value * 10^S in the
// smallest integer Arrow and DuckDB use for P digits (int32 to 9, int64 to 18, int128 to 38), so
// its column is an Arrow decimal column of scale S (data_type scale -S, the cuDF convention).
//
// Arithmetic follows SQL (DuckDB) result types, worked out at compile time:
//   a + b, a - b  DEC(max(P1-S1, P2-S2) + max(S1, S2) + 1, max(S1, S2))
//   a * b         DEC(P1 + P2, S1 + S2), P at most 18 while P1, P2 <= 18 and S1 + S2 < 18 (DuckDB
//                 keeps such a product in 64 bits), else at most 38
//   a / b         DOUBLE (as DuckDB)
// precision capped at 38 otherwise. An integer operand is a DEC(digits, 0) (int32: DEC(10, 0)); a floating
// point one makes the result a double. Comparisons compare values across scales. Values within
// their precision cannot give a result beyond its precision unless the cap cut it: only then is
// the result checked (checked_add, checked_mul), and in expressions one that does not fit is null
// (expr/ops.hpp), where DuckDB raises an error.
#include <colx/core/config.hpp>
#include <colx/types/decimal.hpp>

#include <cmath>
#include <concepts>
#include <cstdint>
#include <type_traits>

namespace colx {

template <int P, int S>
struct dec;

namespace detail {

template <int P>
using dec_rep = std::conditional_t<(P <= 9), std::int32_t, std::conditional_t<(P <= 18), std::int64_t, int128_t>>;

template <class T>
struct is_dec_impl : std::false_type {};
template <int P, int S>
struct is_dec_impl<dec<P, S>> : std::true_type {};

constexpr COLX_HOST_DEVICE int128_t pow10_128(int n) {
  int128_t r = 1;
  for (int i = 0; i < n; ++i) { r *= 10; }
  return r;
}
constexpr COLX_HOST_DEVICE int min_int(int a, int b) { return a < b ? a : b; }
// std::make_unsigned, which strict C++20 does not define for __int128.
template <class R>
using unsigned_rep = std::conditional_t<std::is_same_v<R, int128_t>, uint128_t, std::make_unsigned_t<std::conditional_t<std::is_same_v<R, int128_t>, int, R>>>;
constexpr COLX_HOST_DEVICE int max_int(int a, int b) { return a < b ? b : a; }

}  // namespace detail

// True for dec<P, S> (not for the run-time scaled decimal32/64/128 of untyped columns).
template <class T>
concept dec_type = detail::is_dec_impl<std::remove_cvref_t<T>>::value;

template <int P, int S>
struct dec {
  static_assert(1 <= P && P <= 38, "colx::dec<P, S>: the precision P is 1 to 38 digits, as SQL's DECIMAL(P, S)");
  static_assert(0 <= S && S <= P, "colx::dec<P, S>: the scale S (digits after the point) is 0 to P");
  using rep = detail::dec_rep<P>;
  static constexpr int precision = P;
  static constexpr int scale = S;

  rep unscaled;

  // The value unscaled * 10^-S: from_unscaled(150) of a dec<15, 2> is 1.50.
  [[nodiscard]] static constexpr COLX_HOST_DEVICE dec from_unscaled(rep u) noexcept { return dec{u}; }
  // The nearest value with S digits after the point, halves away from zero (as SQL's CAST).
  // (Rounded by round(), not by adding a half, which itself rounds: 0.49999999999999994 gives 0.)
  // A value beyond P digits, or NaN, gives 0; cast<dec<P, S>>(x) in an expression gives null.
  [[nodiscard]] static COLX_HOST_DEVICE dec from_double(double v) noexcept {
    double const scaled = ::round(v * static_cast<double>(detail::pow10_128(S)));
    double const limit = static_cast<double>(detail::pow10_128(P));
    return scaled > -limit && scaled < limit ? dec{static_cast<rep>(scaled)} : dec{0};
  }
  [[nodiscard]] constexpr COLX_HOST_DEVICE double to_double() const noexcept {
    return static_cast<double>(unscaled) / static_cast<double>(detail::pow10_128(S));
  }
  // The same value at a larger scale To (exact); the caller's type must hold it.
  template <int To, class R = int128_t>
  [[nodiscard]] constexpr COLX_HOST_DEVICE R rescaled() const noexcept {
    static_assert(To >= S, "colx::dec: rescaling only adds digits");
    return static_cast<R>(static_cast<R>(unscaled) * static_cast<R>(detail::pow10_128(To - S)));
  }

  constexpr COLX_HOST_DEVICE dec operator-() const noexcept {
    using U = detail::unsigned_rep<rep>;
    return dec{static_cast<rep>(U{0} - static_cast<U>(unscaled))};
  }
};

// An integer operand as a dec: as many digits as its type holds, scale 0 (int32 is DEC(10, 0)).
template <std::integral I>
  requires(!std::same_as<I, bool>)
using dec_of_integer = dec<(sizeof(I) == 1 ? 3 : sizeof(I) == 2 ? 5 : sizeof(I) == 4 ? 10 : std::is_signed_v<I> ? 19 : 20), 0>;

namespace detail {

template <class T>
struct as_dec_impl {
  using type = T;
};
template <std::integral I>
  requires(!std::same_as<I, bool>)
struct as_dec_impl<I> {
  using type = dec_of_integer<I>;
};
template <class T>
using as_dec = typename as_dec_impl<T>::type;

template <class T>
constexpr COLX_HOST_DEVICE auto to_dec(T v) {
  if constexpr (dec_type<T>) {
    return v;
  } else {
    return as_dec<T>{static_cast<typename as_dec<T>::rep>(v)};
  }
}

// A dec operand with a dec or an integer: the other side is promoted.
template <class A, class B>
concept dec_operands = (dec_type<A> && (dec_type<B> || (std::integral<B> && !std::same_as<B, bool>))) ||
                       (dec_type<B> && std::integral<A> && !std::same_as<A, bool>);
// A dec with a floating-point operand: the arithmetic is in double.
template <class A, class B>
concept dec_with_float = (dec_type<A> && std::floating_point<B>) || (dec_type<B> && std::floating_point<A>);

template <class T>
constexpr COLX_HOST_DEVICE double as_double(T v) {
  if constexpr (dec_type<T>) {
    return v.to_double();
  } else {
    return static_cast<double>(v);
  }
}

// Wrapping arithmetic in R's unsigned twin (no signed overflow, as the integer ops).
template <class R>
constexpr COLX_HOST_DEVICE R wrap_add(R a, R b) {
  using U = unsigned_rep<R>;
  return static_cast<R>(static_cast<U>(a) + static_cast<U>(b));
}
template <class R>
constexpr COLX_HOST_DEVICE R wrap_mul(R a, R b) {
  using U = unsigned_rep<R>;
  return static_cast<R>(static_cast<U>(a) * static_cast<U>(b));
}

// DuckDB's: P1 + P2, but 18 at most while both operands fit 64 bits and the scale S1 + S2 stays
// below 18 (the product stays 64-bit, checked), and 38 at most otherwise.
constexpr COLX_HOST_DEVICE int product_precision(int p1, int s1, int p2, int s2) {
  return p1 <= 18 && p2 <= 18 && s1 + s2 < 18 ? min_int(p1 + p2, 18) : min_int(p1 + p2, 38);
}
template <class A, class B>
using dec_sum_t = dec<min_int(38, max_int(A::precision - A::scale, B::precision - B::scale) + max_int(A::scale, B::scale) + 1),
                      max_int(A::scale, B::scale)>;
template <class A, class B>
using dec_product_t = dec<product_precision(A::precision, A::scale, B::precision, B::scale), A::scale + B::scale>;

template <class A, class B, bool Subtract>
constexpr COLX_HOST_DEVICE auto dec_add(A a, B b) {
  using R = dec_sum_t<A, B>;
  using rep = typename R::rep;
  rep const x = a.template rescaled<R::scale, rep>();
  rep y = b.template rescaled<R::scale, rep>();
  if constexpr (Subtract) {
    using U = detail::unsigned_rep<rep>;
    y = static_cast<rep>(U{0} - static_cast<U>(y));
  }
  return R{wrap_add(x, y)};
}

// Sign of a - b by value, across scales (int128 holds both at the larger scale: 38 digits).
template <class A, class B>
constexpr COLX_HOST_DEVICE int dec_compare(A a, B b) {
  constexpr int s = max_int(A::scale, B::scale);
  constexpr int a_digits = A::precision + (s - A::scale);  // digits of each side at the common scale
  constexpr int b_digits = B::precision + (s - B::scale);
  if constexpr (a_digits <= 18 && b_digits <= 18) {  // both fit 64 bits there
    auto const x = a.template rescaled<s, std::int64_t>();
    auto const y = b.template rescaled<s, std::int64_t>();
    return x < y ? -1 : (y < x ? 1 : 0);
  } else if constexpr (a_digits <= 38 && b_digits <= 38) {
    int128_t const x = a.template rescaled<s>();
    int128_t const y = b.template rescaled<s>();
    return x < y ? -1 : (y < x ? 1 : 0);
  } else {
    // Rescaling would pass 38 digits (DEC(38,0) against DEC(38,38)): the integer parts first, then
    // the fractions at the common scale, below 10^38 (found by review: 2 < 0.0 was true).
    int128_t const ia = static_cast<int128_t>(a.unscaled) / pow10_128(A::scale);
    int128_t const ib = static_cast<int128_t>(b.unscaled) / pow10_128(B::scale);
    if (ia != ib) { return ia < ib ? -1 : 1; }
    int128_t const fa = (static_cast<int128_t>(a.unscaled) % pow10_128(A::scale)) * pow10_128(s - A::scale);
    int128_t const fb = (static_cast<int128_t>(b.unscaled) % pow10_128(B::scale)) * pow10_128(s - B::scale);
    return fa < fb ? -1 : (fb < fa ? 1 : 0);
  }
}

}  // namespace detail

template <class A, class B>
  requires detail::dec_operands<A, B>
constexpr COLX_HOST_DEVICE auto operator+(A a, B b) {
  return detail::dec_add<detail::as_dec<A>, detail::as_dec<B>, false>(detail::to_dec(a), detail::to_dec(b));
}
template <class A, class B>
  requires detail::dec_operands<A, B>
constexpr COLX_HOST_DEVICE auto operator-(A a, B b) {
  return detail::dec_add<detail::as_dec<A>, detail::as_dec<B>, true>(detail::to_dec(a), detail::to_dec(b));
}
template <class A, class B>
  requires detail::dec_operands<A, B>
constexpr COLX_HOST_DEVICE auto operator*(A a, B b) {
  using R = detail::dec_product_t<detail::as_dec<A>, detail::as_dec<B>>;
  using rep = typename R::rep;
  return R{detail::wrap_mul(static_cast<rep>(detail::to_dec(a).unscaled), static_cast<rep>(detail::to_dec(b).unscaled))};
}
template <class A, class B>
  requires detail::dec_operands<A, B> || detail::dec_with_float<A, B>
constexpr COLX_HOST_DEVICE double operator/(A a, B b) {
  return detail::as_double(a) / detail::as_double(b);
}
template <class A, class B>
  requires detail::dec_with_float<A, B>
constexpr COLX_HOST_DEVICE double operator+(A a, B b) {
  return detail::as_double(a) + detail::as_double(b);
}
template <class A, class B>
  requires detail::dec_with_float<A, B>
constexpr COLX_HOST_DEVICE double operator-(A a, B b) {
  return detail::as_double(a) - detail::as_double(b);
}
template <class A, class B>
  requires detail::dec_with_float<A, B>
constexpr COLX_HOST_DEVICE double operator*(A a, B b) {
  return detail::as_double(a) * detail::as_double(b);
}

// Comparisons by value: 1.50 (dec<3, 2>) equals 1.5000 (dec<5, 4>) and is above 1 (an int).
template <class A, class B>
  requires detail::dec_operands<A, B>
constexpr COLX_HOST_DEVICE bool operator==(A a, B b) {
  return detail::dec_compare<detail::as_dec<A>, detail::as_dec<B>>(detail::to_dec(a), detail::to_dec(b)) == 0;
}
template <class A, class B>
  requires detail::dec_operands<A, B>
constexpr COLX_HOST_DEVICE bool operator<(A a, B b) {
  return detail::dec_compare<detail::as_dec<A>, detail::as_dec<B>>(detail::to_dec(a), detail::to_dec(b)) < 0;
}
template <class A, class B>
  requires detail::dec_operands<A, B>
constexpr COLX_HOST_DEVICE bool operator!=(A a, B b) {
  return !(a == b);
}
template <class A, class B>
  requires detail::dec_operands<A, B>
constexpr COLX_HOST_DEVICE bool operator>(A a, B b) {
  return b < a;
}
template <class A, class B>
  requires detail::dec_operands<A, B>
constexpr COLX_HOST_DEVICE bool operator<=(A a, B b) {
  return !(b < a);
}
template <class A, class B>
  requires detail::dec_operands<A, B>
constexpr COLX_HOST_DEVICE bool operator>=(A a, B b) {
  return !(a < b);
}
// With a floating-point operand, as doubles (DuckDB compares DECIMAL with DOUBLE as DOUBLE).
template <class A, class B>
  requires detail::dec_with_float<A, B>
constexpr COLX_HOST_DEVICE bool operator==(A a, B b) {
  return detail::as_double(a) == detail::as_double(b);
}
template <class A, class B>
  requires detail::dec_with_float<A, B>
constexpr COLX_HOST_DEVICE bool operator<(A a, B b) {
  return detail::as_double(a) < detail::as_double(b);
}
template <class A, class B>
  requires detail::dec_with_float<A, B>
constexpr COLX_HOST_DEVICE bool operator<=(A a, B b) {
  return detail::as_double(a) <= detail::as_double(b);
}
template <class A, class B>
  requires detail::dec_with_float<A, B>
constexpr COLX_HOST_DEVICE bool operator>(A a, B b) {
  return detail::as_double(b) < detail::as_double(a);
}
template <class A, class B>
  requires detail::dec_with_float<A, B>
constexpr COLX_HOST_DEVICE bool operator>=(A a, B b) {
  return detail::as_double(b) <= detail::as_double(a);
}
template <class A, class B>
  requires detail::dec_with_float<A, B>
constexpr COLX_HOST_DEVICE bool operator!=(A a, B b) {
  return !(a == b);
}

}  // namespace colx

#include <colx/types/dec_checked.hpp>  // overflow-checked arithmetic and CAST, which need the operators above
