// SPDX-License-Identifier: Apache-2.0
#pragma once
// std::bit_cast for host and device code: nvcc treats std::bit_cast as a host function, while the
// builtin under it works in both.
#include <colx/core/config.hpp>

#include <type_traits>

namespace colx {

template <class To, class From>
  requires(sizeof(To) == sizeof(From) && std::is_trivially_copyable_v<To> && std::is_trivially_copyable_v<From>)
[[nodiscard]] constexpr COLX_HOST_DEVICE To bit_cast(From const& from) noexcept {
  return __builtin_bit_cast(To, from);
}

}  // namespace colx
