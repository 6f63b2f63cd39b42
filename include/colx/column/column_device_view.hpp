// SPDX-License-Identifier: Apache-2.0
#pragma once
// What a kernel sees of a fixed-width column: trivially copyable pointers with the slice offset
// applied, passed by value into kernels (and used the same way by the host backend).
#include <colx/column/bitmask.hpp>

namespace colx {

template <class T>
struct column_device_view {
  T const* data = nullptr;            // row 0 of the view
  bitmask_type const* mask = nullptr;  // null: every row valid
  size_type mask_offset = 0;           // bit of row 0 in `mask`
  size_type size = 0;

  [[nodiscard]] COLX_HOST_DEVICE bool nullable() const noexcept { return mask != nullptr; }
  [[nodiscard]] COLX_HOST_DEVICE bool is_valid(size_type i) const noexcept {
    return mask == nullptr || bit_is_set(mask, mask_offset + i);
  }
  [[nodiscard]] COLX_HOST_DEVICE bool is_null(size_type i) const noexcept { return !is_valid(i); }
  // The stored value; unspecified (but readable) for a null row.
  [[nodiscard]] COLX_HOST_DEVICE T value(size_type i) const noexcept { return data[i]; }
};

// A writable view of a column's rows, for kernels that fill a column they own whole words of.
template <class T>
struct mutable_column_device_view {
  T* data = nullptr;
  bitmask_type* mask = nullptr;  // offset 0: owning columns start their mask at bit 0
  size_type size = 0;

  [[nodiscard]] COLX_HOST_DEVICE bool is_valid(size_type i) const noexcept { return mask == nullptr || bit_is_set(mask, i); }
  [[nodiscard]] COLX_HOST_DEVICE T value(size_type i) const noexcept { return data[i]; }
  COLX_HOST_DEVICE void set_value(size_type i, T v) const noexcept { data[i] = v; }
};

// What kept rows copy of a column: a dictionary's code, any other column's value.
template <class View>
[[nodiscard]] COLX_HOST_DEVICE auto stored_value(View const& view, size_type i) noexcept {
  if constexpr (requires { view.code(i); }) {
    return view.code(i);
  } else {
    return view.value(i);
  }
}

}  // namespace colx
