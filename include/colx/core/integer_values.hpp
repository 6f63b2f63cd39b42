// SPDX-License-Identifier: Apache-2.0
#pragma once
// Integers of any width and signedness compared by their values, as std::cmp_equal and
// std::in_range do (those are host-only): C++ converts a signed operand to the unsigned type, so
// -1 == 4294967295u; SQL, Arrow and pandas users read that as wrong. Used by the expression
// operators and by join keys of different integer types.
#include <colx/core/config.hpp>

#include <type_traits>

namespace colx {

// An integer type other than bool.
template <class T>
inline constexpr bool plain_integer = std::is_integral_v<T> && !std::is_same_v<T, bool>;

template <class A, class B>
inline constexpr bool mixed_sign = plain_integer<A> && plain_integer<B> && (std::is_signed_v<A> != std::is_signed_v<B>);

template <class A, class B>
  requires(plain_integer<A> && plain_integer<B>)
[[nodiscard]] constexpr COLX_HOST_DEVICE bool equal_by_value(A a, B b) noexcept {
  if constexpr (!mixed_sign<A, B>) {
    return a == b;  // same signedness: C++ widens without changing either value
  } else if constexpr (std::is_signed_v<A>) {
    return a >= 0 && static_cast<std::make_unsigned_t<A>>(a) == b;
  } else {
    return b >= 0 && a == static_cast<std::make_unsigned_t<B>>(b);
  }
}

template <class A, class B>
  requires(plain_integer<A> && plain_integer<B>)
[[nodiscard]] constexpr COLX_HOST_DEVICE bool less_by_value(A a, B b) noexcept {
  if constexpr (!mixed_sign<A, B>) {
    return a < b;
  } else if constexpr (std::is_signed_v<A>) {
    return a < 0 || static_cast<std::make_unsigned_t<A>>(a) < b;
  } else {
    return b >= 0 && a < static_cast<std::make_unsigned_t<B>>(b);
  }
}

// Whether v is a value of To.
template <class To, class From>
  requires(plain_integer<To> && plain_integer<From>)
[[nodiscard]] constexpr COLX_HOST_DEVICE bool fits_in(From v) noexcept {
  constexpr To lowest = std::is_signed_v<To> ? static_cast<To>(static_cast<std::make_unsigned_t<To>>(1) << (sizeof(To) * 8 - 1)) : To{0};
  constexpr To highest = static_cast<To>(~lowest);
  return !less_by_value(v, lowest) && !less_by_value(highest, v);
}

}  // namespace colx
