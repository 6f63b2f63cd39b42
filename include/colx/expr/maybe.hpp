// SPDX-License-Identifier: Apache-2.0
#pragma once
// What an expression yields per row: a value and whether it is valid. When the expression can
// never be null, `valid` is a compile-time true, so the null logic around it folds away and the
// kernel reads no mask at all.
#include <colx/core/config.hpp>

namespace colx::expr {

template <class T, bool Nullable>
struct maybe;

template <class T>
struct maybe<T, true> {
  using value_type = T;
  static constexpr bool nullable = true;
  T value;
  bool valid;
};

template <class T>
struct maybe<T, false> {
  using value_type = T;
  static constexpr bool nullable = false;
  T value;
  static constexpr bool valid = true;
};

// A maybe<T, Nullable>; `valid` is dropped when the result cannot be null.
template <bool Nullable, class T>
[[nodiscard]] constexpr COLX_HOST_DEVICE maybe<T, Nullable> make_maybe(T value, bool valid) noexcept {
  if constexpr (Nullable) {
    return {value, valid};
  } else {
    (void)valid;
    return {value};
  }
}

}  // namespace colx::expr
