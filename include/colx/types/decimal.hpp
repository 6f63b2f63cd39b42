// SPDX-License-Identifier: Apache-2.0
#pragma once
// Fixed-point decimals as Arrow stores them: an integer of 32, 64 or 128 bits holding
// value * 10^scale. The scale belongs to the column's data_type, not to each element.
#include <colx/core/config.hpp>

#include <cstdint>

namespace colx {

template <class Rep>
struct decimal {
  using rep = Rep;
  Rep unscaled;

  friend constexpr COLX_HOST_DEVICE bool operator==(decimal a, decimal b) noexcept { return a.unscaled == b.unscaled; }
  friend constexpr COLX_HOST_DEVICE bool operator!=(decimal a, decimal b) noexcept { return a.unscaled != b.unscaled; }
  friend constexpr COLX_HOST_DEVICE bool operator<(decimal a, decimal b) noexcept { return a.unscaled < b.unscaled; }
  friend constexpr COLX_HOST_DEVICE bool operator<=(decimal a, decimal b) noexcept { return a.unscaled <= b.unscaled; }
  friend constexpr COLX_HOST_DEVICE bool operator>(decimal a, decimal b) noexcept { return a.unscaled > b.unscaled; }
  friend constexpr COLX_HOST_DEVICE bool operator>=(decimal a, decimal b) noexcept { return a.unscaled >= b.unscaled; }
};

// g++ and nvcc both have it; Arrow's decimal128 is its little-endian bytes. __extension__ keeps
// -Wpedantic quiet.
__extension__ typedef __int128 int128_t;
__extension__ typedef unsigned __int128 uint128_t;

// True for decimal32/64/128, whose scale only the column's data_type knows.
template <class T>
inline constexpr bool is_runtime_scaled_decimal = false;
template <class Rep>
inline constexpr bool is_runtime_scaled_decimal<decimal<Rep>> = true;

using decimal32 = decimal<std::int32_t>;
using decimal64 = decimal<std::int64_t>;
using decimal128 = decimal<int128_t>;

}  // namespace colx
