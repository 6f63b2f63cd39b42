// SPDX-License-Identifier: Apache-2.0
#pragma once
// A strings column as a fused kernel reads it: the offset width (int32 or int64) is a run-time
// flag rather than a template parameter, so a kernel over k strings columns is instantiated once,
// not 2^k times. The branch is uniform across a launch and costs nothing measurable.
#include <colx/column/strings_column.hpp>
#include <colx/types/string_search.hpp>

#include <cstdint>

namespace colx {

struct strings_input_view {
  void const* offsets = nullptr;  // row 0's offset: the slice offset is applied
  char const* chars = nullptr;
  bitmask_type const* mask = nullptr;
  size_type mask_offset = 0;
  size_type size = 0;
  bool large = false;  // int64 offsets
  // Bytes of every string when the column knows them equal (uniform_bytes), else -1: row i's
  // bytes are then at chars + i * width, and the offsets are not read. TPC-H Q1 groups by two
  // one-letter flags; reading each as 1 byte in one load, not 5 in two dependent ones, took Q1
  // at SF 10 from 1.78 to 1.50 ms on the H100.
  size_type width = -1;

  [[nodiscard]] COLX_HOST_DEVICE bool is_valid(size_type i) const noexcept {
    return mask == nullptr || bit_is_set(mask, mask_offset + i);
  }
  [[nodiscard]] COLX_HOST_DEVICE string_view value(size_type i) const noexcept {
    if (width >= 0) { return {chars + i * width, width}; }
    size_type begin, end;
    if (large) {
      begin = static_cast<std::int64_t const*>(offsets)[i];
      end = static_cast<std::int64_t const*>(offsets)[i + 1];
    } else {
      begin = static_cast<std::int32_t const*>(offsets)[i];
      end = static_cast<std::int32_t const*>(offsets)[i + 1];
    }
    return {chars + begin, end - begin};
  }
  // Where lit first starts in row i at or after the row's byte `from` (a position in the row); -1
  // where nowhere. On the device, a column with int32 offsets and aligned chars is searched in
  // aligned words (detail::find_in_words): whole words up to the end of the column's last row,
  // which lies inside the chars buffer, byte by byte after it. Others (int64 offsets, fixed-width
  // rows) are searched a byte at a time: one word path with 64-bit positions for all took LIKE
  // '%green%' from 0.65 to 0.73 ms (60M rows, H100, the int32 case). `spread` is
  // detail::words_of(lit), which a constant literal's node computes once.
  [[nodiscard]] COLX_HOST_DEVICE size_type find(size_type i, size_type from, string_view lit,
                                                detail::literal_words const& spread) const noexcept {
#if defined(__CUDA_ARCH__)
    if (lit.size_bytes() > 0 && words_searchable()) {
      auto const* o = static_cast<std::int32_t const*>(offsets);
      std::int32_t const b = o[i];
      std::int32_t const at = detail::find_in_words(chars, b + static_cast<std::int32_t>(from), o[i + 1], o[size], lit, spread);
      return at < 0 ? -1 : at - b;
    }
#else
    (void)spread;
#endif
    return detail::find(value(i), lit, from);
  }
  [[nodiscard]] COLX_HOST_DEVICE bool contains(size_type i, string_view lit, detail::literal_words const& spread) const noexcept {
    return find(i, 0, lit, spread) >= 0;
  }
  [[nodiscard]] COLX_HOST_DEVICE bool contains(size_type i, string_view lit) const noexcept {
    return contains(i, lit, detail::words_of(lit));
  }
  // Whether rows may be searched in aligned words: int32 offsets, rows of no one fixed width, chars
  // aligned to 4 bytes.
  [[nodiscard]] COLX_HOST_DEVICE bool words_searchable() const noexcept {
    return width < 0 && !large && (reinterpret_cast<std::uintptr_t>(chars) & 3) == 0;
  }
#if defined(__CUDACC__)
  // Whether rows_containing can search this column for a literal of `bytes` bytes: int32 offsets,
  // aligned chars, 1 to 8 bytes (the same for every row: a launch tests it once).
  [[nodiscard]] COLX_HOST_DEVICE bool searchable_in_spans(size_type bytes) const noexcept {
    return bytes >= 1 && bytes <= 8 && words_searchable();
  }
  // Which of rows [first, first + R) hold lit (bit k: row first + k, nulls not masked), their bytes
  // searched as one span (detail::occurs_in_rows); where searchable_in_spans(lit's size).
  template <int R>
  [[nodiscard]] __device__ std::uint32_t rows_containing(size_type first, string_view lit, detail::literal_words const& spread) const {
    return detail::occurs_in_rows<R>(chars, static_cast<std::int32_t const*>(offsets), first, size, lit.size_bytes(), spread);
  }
#endif
};

[[nodiscard]] inline strings_input_view input_view(strings_column_view const& v) {
  if (v.empty()) { return {}; }
  return v.visit([&](auto const& dv) {
    using Offset = std::remove_cv_t<std::remove_pointer_t<decltype(dv.offsets)>>;
    size_type const width = v.uniform_bytes();
    // Fixed-width: chars at row 0 of the view (the parent's offsets begin at 0).
    char const* const chars = width >= 0 ? dv.chars + v.offset() * width : dv.chars;
    return strings_input_view{dv.offsets, chars, dv.mask, dv.mask_offset, dv.size, sizeof(Offset) == 8, width};
  });
}

}  // namespace colx
