// SPDX-License-Identifier: Apache-2.0
#pragma once
// Conversions between Arrow's byte-addressed bitmaps and colx's layouts, run on the backend that
// owns the memory: bools (one byte per value in colx, one bit in Arrow) and validity bitmaps at
// an offset that is not a multiple of 32. They read Arrow bitmaps byte by byte and only the bytes
// that hold the rows asked for: an Arrow buffer's length is not known, and need not be padded.
#include <colx/column/bitmask.hpp>
#include <colx/core/config.hpp>

#include <cstdint>

namespace colx::detail {

// Arrow bit (offset + i) of a byte-addressed bitmap.
[[nodiscard]] constexpr COLX_HOST_DEVICE bool arrow_bit(std::uint8_t const* bits, size_type i) noexcept {
  return ((bits[i >> 3] >> (i & 7)) & 1u) != 0;
}

// out[j] = the Arrow byte of values [8j, 8j + 8) (bytes 0/1), bits past n cleared.
struct pack_bools_fn {
  std::uint8_t const* values;
  std::uint8_t* out;
  size_type n;
  COLX_HOST_DEVICE void operator()(size_type j) const {
    unsigned byte = 0;
    for (int k = 0; k < 8; ++k) {
      size_type const i = j * 8 + k;
      if (i < n && values[i] != 0) { byte |= 1u << k; }
    }
    out[j] = static_cast<std::uint8_t>(byte);
  }
};

// out[i] = Arrow bit (offset + i), as a colx bool byte.
struct unpack_bools_fn {
  std::uint8_t const* bits;
  size_type offset;
  std::uint8_t* out;
  COLX_HOST_DEVICE void operator()(size_type i) const { out[i] = arrow_bit(bits, offset + i) ? 1 : 0; }
};

// Word w of a colx mask holding Arrow bits [offset, offset + n), bits past n cleared.
struct gather_bits_fn {
  std::uint8_t const* bits;
  size_type offset;
  size_type n;
  bitmask_type* out;
  COLX_HOST_DEVICE void operator()(size_type w) const {
    bitmask_type word = 0;
    for (size_type k = 0; k < bits_per_word; ++k) {
      size_type const i = w * bits_per_word + k;
      if (i < n && arrow_bit(bits, offset + i)) { word |= bitmask_type{1} << k; }
    }
    out[w] = word;
  }
};

// duration[days] (int32) -> duration[s] (int64).
struct days_to_seconds_fn {
  std::int32_t const* in;
  std::int64_t* out;
  COLX_HOST_DEVICE void operator()(size_type i) const { out[i] = static_cast<std::int64_t>(in[i]) * 86400; }
};

// Unset bits among Arrow bits [offset, offset + n) of a host bitmap, reading only their bytes.
[[nodiscard]] inline size_type count_arrow_nulls(std::uint8_t const* bits, size_type offset, size_type n) noexcept {
  size_type valid = 0;
  size_type i = 0;
  for (; i < n && ((offset + i) & 7) != 0; ++i) { valid += arrow_bit(bits, offset + i) ? 1 : 0; }
  for (; i + 8 <= n; i += 8) { valid += __builtin_popcount(bits[(offset + i) >> 3]); }
  for (; i < n; ++i) { valid += arrow_bit(bits, offset + i) ? 1 : 0; }
  return n - valid;
}

}  // namespace colx::detail
