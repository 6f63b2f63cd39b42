// SPDX-License-Identifier: Apache-2.0
#pragma once
// Validity bitmasks in Arrow's layout: bit i of the mask (little-endian within 32-bit words) is
// set when row i is valid. Allocations are padded to 64 bytes, as Arrow recommends, so kernels may
// read whole words (and whole cache lines) past the last row. These helpers run on host and device.
#include <colx/core/config.hpp>

namespace colx {

inline constexpr size_type bits_per_word = sizeof(bitmask_type) * 8;
inline constexpr std::size_t bitmask_padding_bytes = 64;

// Words that hold `bits` bits.
[[nodiscard]] constexpr COLX_HOST_DEVICE size_type bitmask_words(size_type bits) noexcept {
  return (bits + bits_per_word - 1) / bits_per_word;
}

// Bytes to allocate for a mask of `bits` bits: whole words, rounded up to 64 bytes.
[[nodiscard]] constexpr std::size_t bitmask_allocation_bytes(size_type bits) noexcept {
  auto const bytes = static_cast<std::size_t>(bitmask_words(bits)) * sizeof(bitmask_type);
  return (bytes + bitmask_padding_bytes - 1) / bitmask_padding_bytes * bitmask_padding_bytes;
}

[[nodiscard]] constexpr COLX_HOST_DEVICE bool bit_is_set(bitmask_type const* mask, size_type bit) noexcept {
  return (mask[bit / bits_per_word] >> (bit % bits_per_word)) & 1u;
}

// Not atomic: the caller owns the whole word.
constexpr COLX_HOST_DEVICE void set_bit(bitmask_type* mask, size_type bit) noexcept {
  mask[bit / bits_per_word] |= bitmask_type{1} << (bit % bits_per_word);
}
constexpr COLX_HOST_DEVICE void clear_bit(bitmask_type* mask, size_type bit) noexcept {
  mask[bit / bits_per_word] &= ~(bitmask_type{1} << (bit % bits_per_word));
}

// Sets a bit that other threads may set in the same word at the same time.
inline COLX_HOST_DEVICE void set_bit_atomic(bitmask_type* mask, size_type bit) noexcept {
  bitmask_type const b = bitmask_type{1} << (bit % bits_per_word);
#if COLX_IN_DEVICE_CODE
  atomicOr(mask + bit / bits_per_word, b);
#else
  __atomic_fetch_or(mask + bit / bits_per_word, b, __ATOMIC_RELAXED);
#endif
}

// The mask's bits [first_bit, first_bit + 32) as one word, for a mask sliced at any bit offset.
// Bits at or past `end_bit` are unspecified; no word wholly past it is read.
[[nodiscard]] constexpr COLX_HOST_DEVICE bitmask_type word_at(bitmask_type const* mask, size_type first_bit,
                                                              size_type end_bit) noexcept {
  size_type const w = first_bit / bits_per_word;
  auto const shift = static_cast<unsigned>(first_bit % bits_per_word);
  bitmask_type word = mask[w] >> shift;
  if (shift != 0 && (w + 1) * bits_per_word < end_bit) { word |= mask[w + 1] << (bits_per_word - shift); }
  return word;
}

// A word with the low `bits` bits set (all 32 when bits >= 32).
[[nodiscard]] constexpr COLX_HOST_DEVICE bitmask_type low_bits(size_type bits) noexcept {
  return bits >= bits_per_word ? ~bitmask_type{0} : (bitmask_type{1} << bits) - 1u;
}

// Not constexpr: nvcc's device intrinsic is not.
[[nodiscard]] inline COLX_HOST_DEVICE int popcount(bitmask_type word) noexcept {
#if COLX_IN_DEVICE_CODE
  return __popc(word);
#else
  return __builtin_popcount(word);
#endif
}

}  // namespace colx
