// SPDX-License-Identifier: Apache-2.0
#pragma once
// The operators of running aggregates (scans), with their identities: a sum that wraps for
// integers, and min / max in the order sort uses (NaN after every number).
#include <colx/core/config.hpp>
#include <colx/exec/row_keys.hpp>

#include <limits>
#include <type_traits>

namespace colx::detail {

template <class T>
struct running_sum {
  COLX_HOST_DEVICE T operator()(T a, T b) const {
    if constexpr (std::is_integral_v<T>) {  // wraps as the group-by's sums do, no signed overflow
      using U = std::make_unsigned_t<T>;
      return static_cast<T>(static_cast<U>(a) + static_cast<U>(b));
    } else {
      return a + b;
    }
  }
  static COLX_HOST_DEVICE T identity() { return T{}; }
};
// What every value beats: for floats NaN orders last, so min starts there and max at -inf.
template <class T, bool IsMin>
constexpr T scan_identity() {
  if constexpr (std::is_floating_point_v<T>) {
    return IsMin ? std::numeric_limits<T>::quiet_NaN() : -std::numeric_limits<T>::infinity();
  } else {
    return IsMin ? std::numeric_limits<T>::max() : std::numeric_limits<T>::lowest();
  }
}
// A constant, so device code reads it without calling a host constexpr function.
template <class T, bool IsMin>
inline constexpr T scan_identity_v = scan_identity<T, IsMin>();

template <class T, bool IsMin>
struct running_extremum {
  COLX_HOST_DEVICE T operator()(T a, T b) const {
    if constexpr (IsMin) {
      return value_less(b, a) ? b : a;
    } else {
      return value_less(a, b) ? b : a;
    }
  }
  static COLX_HOST_DEVICE T identity() { return scan_identity_v<T, IsMin>; }
};

}  // namespace colx::detail
