// SPDX-License-Identifier: Apache-2.0
#pragma once
// The element-wise bitwise operations and shifts on integers (the contract: expr/ops.hpp).
#include <colx/core/config.hpp>

#include <type_traits>

namespace colx::expr::ops {

#define COLX_BITWISE(Name, Op)                                                                               \
  struct Name {                                                                                              \
    static constexpr char const* symbol = #Op;                                                               \
    template <class A, class B>                                                                              \
    static constexpr COLX_HOST_DEVICE auto apply(A a, B b) {                                                 \
      static_assert(std::is_integral_v<A> && std::is_integral_v<B>, "colx: bitwise operators need integer columns"); \
      return a Op b;                                                                                         \
    }                                                                                                        \
  };
COLX_BITWISE(bit_and, &)
COLX_BITWISE(bit_or, |)
COLX_BITWISE(bit_xor, ^)
#undef COLX_BITWISE

// Shifts by a negative amount or by the width or more are null (undefined in C++).
struct shift_left {
  static constexpr char const* symbol = "<<";
  static constexpr bool produces_nulls = true;
  template <class A, class B>
  static constexpr bool nulls_for = true;
  template <class A, class B>
  static constexpr COLX_HOST_DEVICE auto apply(A a, B b, bool& valid) {
    static_assert(std::is_integral_v<A> && std::is_integral_v<B>, "colx: shifts need integer columns");
    using R = decltype(a << b);
    if (b < 0 || b >= static_cast<B>(sizeof(R) * 8)) {
      valid = false;
      return R{0};
    }
    return static_cast<R>(static_cast<std::make_unsigned_t<R>>(a) << b);
  }
};
struct shift_right {
  static constexpr char const* symbol = ">>";
  static constexpr bool produces_nulls = true;
  template <class A, class B>
  static constexpr bool nulls_for = true;
  template <class A, class B>
  static constexpr COLX_HOST_DEVICE auto apply(A a, B b, bool& valid) {
    static_assert(std::is_integral_v<A> && std::is_integral_v<B>, "colx: shifts need integer columns");
    using R = decltype(a >> b);
    if (b < 0 || b >= static_cast<B>(sizeof(R) * 8)) {
      valid = false;
      return R{0};
    }
    return static_cast<R>(a >> b);
  }
};

}  // namespace colx::expr::ops
