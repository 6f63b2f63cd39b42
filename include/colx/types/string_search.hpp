// SPDX-License-Identifier: Apache-2.0
#pragma once
// Substring search: whether a literal occurs in a string. `occurs` works on any string_view, a
// byte at a time. On the device, `occurs_in_words` searches a row of a strings column's bytes 16
// at a time: it reads aligned 4-byte words, finds with SIMD byte compares the positions where
// the literal's first two bytes match, and checks only those. LIKE '%green%' over 60M strings of
// 9 to 20 bytes took 1.16 ms on the H100 a byte at a time, 0.63 ms this way (an isolated kernel,
// the same grid).
#include <colx/core/config.hpp>
#include <colx/types/string_view.hpp>

#include <cstdint>

namespace colx::detail {

[[nodiscard]] constexpr COLX_HOST_DEVICE bool occurs(string_view s, string_view lit) noexcept {
  size_type const m = lit.size_bytes();
  if (m == 0) { return true; }
  char const first = lit.data()[0];
  for (size_type i = 0; i + m <= s.size_bytes(); ++i) {
    if (s.data()[i] != first) { continue; }
    size_type k = 1;
    while (k < m && s.data()[i + k] == lit.data()[k]) { ++k; }
    if (k == m) { return true; }
  }
  return false;
}

// A literal's first two bytes, each repeated in a 4-byte word for SIMD byte compares. A constant
// pattern's node computes them once, when the pipeline is written, so a kernel reads them from
// its parameters rather than from the literal's bytes in every row.
struct literal_words {
  std::uint32_t first = 0;
  std::uint32_t second = 0;
};
[[nodiscard]] constexpr COLX_HOST_DEVICE literal_words words_of(string_view lit) noexcept {
  if (lit.size_bytes() == 0) { return {}; }
  auto const spread = [](char c) { return 0x01010101u * static_cast<unsigned char>(c); };
  return {spread(lit.data()[0]), spread(lit.data()[lit.size_bytes() > 1 ? 1 : 0])};
}

#if defined(__CUDACC__)
// Bytes [w, w + 4) of chars as a little-endian word. Whole when the word lies below `readable`;
// past it, byte by byte and zero beyond `end` (so no byte outside the column is read).
// (Positions are compared by their differences: a column of int32 offsets may end within a
// word of INT32_MAX, where w + 4 would overflow.)
template <class Index>
__device__ __forceinline__ std::uint32_t chars_word_at(char const* chars, Index w, Index end, Index readable) {
  if (readable - w >= 4) { return __ldg(reinterpret_cast<std::uint32_t const*>(chars + w)); }
  std::uint32_t x = 0;
  for (int j = 0; j < 4; ++j) {
    if (end - w > j) { x |= static_cast<std::uint32_t>(static_cast<unsigned char>(chars[w + j])) << (8 * j); }
  }
  return x;
}
// The low bit of each byte of v, as 4 bits.
__device__ __forceinline__ std::uint32_t byte_bits(std::uint32_t v) { return ((v & 0x01010101u) * 0x01020408u) >> 24; }

// Whether lit (at least one byte) starts somewhere in [b, e - lit's size] of chars, which must be
// 4-byte aligned; the words below `readable` (bytes from chars) may be read whole. Words are read
// 4 at a time, their loads issued together, which covers most short strings in one step.
template <class Index>
__device__ bool occurs_in_words(char const* chars, Index b, Index e, Index readable, string_view lit, literal_words spread) {
  constexpr int words = 4;
  int const m = lit.size_bytes();
  Index const last = e - m;  // the last possible start
  std::uint32_t const first = spread.first;
  std::uint32_t const second = spread.second;
  if (last < b) { return false; }  // the row is shorter than the literal
  for (Index base = b & ~Index{3};; base += 4 * words) {
    std::uint32_t x[words + 1];
#pragma unroll
    for (int k = 0; k <= words; ++k) { x[k] = e - base > 4 * k ? chars_word_at(chars, base + 4 * k, e, readable) : 0u; }
    std::uint32_t starts = 0;  // bit j: the first two bytes match at base + j
    std::uint32_t next_second = __vcmpeq4(x[0], second);
#pragma unroll
    for (int k = 0; k < words; ++k) {
      std::uint32_t const here_second = next_second;
      next_second = __vcmpeq4(x[k + 1], second);
      std::uint32_t const pair = m > 1 ? __vcmpeq4(x[k], first) & ((here_second >> 8) | (next_second << 24)) : __vcmpeq4(x[k], first);
      starts |= byte_bits(pair) << (4 * k);
    }
    Index const lo = b - base;
    Index const hi = last - base;
    if (hi < 4 * words - 1) { starts &= (2u << hi) - 1; }
    if (lo > 0) { starts &= ~0u << lo; }
    while (starts != 0) {
      Index const p = base + (__ffs(starts) - 1);
      starts &= starts - 1;
      int t = 2;
      while (t < m && chars[p + t] == lit.data()[t]) { ++t; }
      if (t >= m) { return true; }
    }
    if (last - base < 4 * words) { return false; }  // no start left past this step
  }
}
#endif

}  // namespace colx::detail
