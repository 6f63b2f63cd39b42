// SPDX-License-Identifier: Apache-2.0
#pragma once
// What a kernel sees of a strings column: offsets (int32 or int64, as Arrow's utf8 and
// large_utf8) into one chars buffer. Row i is chars[offsets[i], offsets[i + 1]).
#include <colx/column/bitmask.hpp>
#include <colx/types/string_view.hpp>

namespace colx {

template <class Offset>
struct strings_device_view {
  Offset const* offsets = nullptr;     // row 0's offset: the slice offset is applied
  char const* chars = nullptr;          // the whole chars buffer: offsets are absolute
  bitmask_type const* mask = nullptr;
  size_type mask_offset = 0;
  size_type size = 0;

  [[nodiscard]] COLX_HOST_DEVICE bool nullable() const noexcept { return mask != nullptr; }
  [[nodiscard]] COLX_HOST_DEVICE bool is_valid(size_type i) const noexcept {
    return mask == nullptr || bit_is_set(mask, mask_offset + i);
  }
  [[nodiscard]] COLX_HOST_DEVICE bool is_null(size_type i) const noexcept { return !is_valid(i); }
  // Row i's bytes; empty for a null row written by colx (Arrow allows any bytes there).
  [[nodiscard]] COLX_HOST_DEVICE string_view value(size_type i) const noexcept {
    auto const begin = static_cast<size_type>(offsets[i]);
    return {chars + begin, static_cast<size_type>(offsets[i + 1]) - begin};
  }
};

}  // namespace colx
