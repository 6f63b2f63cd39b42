// SPDX-License-Identifier: Apache-2.0
#pragma once
// Substring search: where a literal first occurs in a string. `find` and `occurs` work on any
// string_view, a byte at a time. On the device, `find_in_words` searches a row of a strings column's bytes 16
// start positions at a time in aligned 4-byte words: a literal of up to 8 bytes is matched whole
// with word XORs; a longer one's candidates are the positions where its first two bytes match,
// each then checked byte by byte. LIKE '%green%' over 60M strings of
// 9 to 20 bytes took 1.16 ms on the H100 a byte at a time, 0.63 ms with SIMD byte compares (an
// isolated kernel, the same grid). `occurs_in_rows` searches several consecutive rows' bytes as
// one span, for a filtered fold (gpu/reduce_rows.cuh).
#include <colx/core/config.hpp>
#include <colx/types/string_view.hpp>

#include <cstdint>
#include <utility>

namespace colx::detail {

// Where lit first starts in s at or after byte `from` (at most s's size); -1 where nowhere.
[[nodiscard]] constexpr COLX_HOST_DEVICE size_type find(string_view s, string_view lit, size_type from = 0) noexcept {
  size_type const m = lit.size_bytes();
  if (m == 0) { return from; }
  char const first = lit.data()[0];
  for (size_type i = from; i + m <= s.size_bytes(); ++i) {
    if (s.data()[i] != first) { continue; }
    size_type k = 1;
    while (k < m && s.data()[i + k] == lit.data()[k]) { ++k; }
    if (k == m) { return i; }
  }
  return -1;
}
[[nodiscard]] constexpr COLX_HOST_DEVICE bool occurs(string_view s, string_view lit) noexcept { return find(s, lit) >= 0; }

// A literal's first eight bytes (fewer for a shorter literal), each repeated in a 4-byte word for
// whole-word byte compares. A constant pattern's node computes them once, when the pipeline is
// written, so a kernel reads them from its parameters rather than from the literal's bytes in
// every row.
struct literal_words {
  static constexpr int size = 8;
  std::uint32_t byte[size] = {};
};
[[nodiscard]] constexpr COLX_HOST_DEVICE literal_words words_of(string_view lit) noexcept {
  literal_words w;
  for (int t = 0; t < literal_words::size && t < lit.size_bytes(); ++t) {
    w.byte[t] = 0x01010101u * static_cast<unsigned char>(lit.data()[t]);
  }
  return w;
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
// The high bit of each byte of v that is zero, and no other bit (exact: no borrow crosses bytes).
__device__ __forceinline__ std::uint32_t zero_bytes(std::uint32_t v) {
  return ~(((v & 0x7F7F7F7Fu) + 0x7F7F7F7Fu) | v | 0x7F7F7F7Fu);
}
// zero_bytes' four high bits as bits 0 to 3.
__device__ __forceinline__ std::uint32_t byte_flags(std::uint32_t z) { return (((z >> 7) * 0x00204081u) >> 21) & 0xFu; }

// Loads the 4-byte words of chars from w on into x: whole below `readable`, their loads issued
// together; past it, as chars_word_at does, zero past `end`.
template <int Words, class Index>
__device__ __forceinline__ void load_words(std::uint32_t (&x)[Words], char const* chars, Index w, Index end, Index readable) {
  if (readable - w >= 4 * Words) {
#pragma unroll
    for (int k = 0; k < Words; ++k) { x[k] = __ldg(reinterpret_cast<std::uint32_t const*>(chars + w + 4 * k)); }
  } else {
#pragma unroll
    for (int k = 0; k < Words; ++k) { x[k] = end - w > 4 * k ? chars_word_at(chars, w + 4 * k, end, readable) : 0u; }
  }
}
// starts (bit j: a match at base + j) kept for the starts in [b, last].
template <class Index>
__device__ __forceinline__ std::uint32_t starts_within(std::uint32_t starts, Index base, Index b, Index last) {
  Index const lo = b - base;
  Index const hi = last - base;
  if (hi < 15) { starts &= (2u << hi) - 1; }
  if (lo > 0) { starts &= ~0u << lo; }
  return starts;
}

// The row's bytes t ahead of word k's, as a word (t known when compiling: a word, or a funnel shift).
template <int T, int Words>
__device__ __forceinline__ std::uint32_t ahead(std::uint32_t const (&x)[Words], int k) {
  if constexpr (T % 4 == 0) {
    return x[k + T / 4];
  } else {
    return __funnelshift_r(x[k + T / 4], x[k + T / 4 + 1], 8 * (T % 4));
  }
}

// The words a step over 16 start positions reads for a literal of M bytes: 16 starts and the
// M - 1 bytes after the last.
template <int M>
inline constexpr int step_words = 4 + (M + 2) / 4;

// Where a literal of M bytes (1 to 8) starts among the 16 positions of x's first four words (bit
// j: at byte j), with whole-word operations only: for each word, the XOR of every byte of the
// literal with the bytes M - 1 ahead (funnel shifts of the words read), OR-ed, is zero exactly at
// a match. No branch depends on the bytes, so a warp's lanes stay together.
template <int M>
__device__ __forceinline__ std::uint32_t starts_in_step(std::uint32_t const (&x)[step_words<M>], literal_words const& lit) {
  std::uint32_t starts = 0;
#pragma unroll
  for (int k = 0; k < 4; ++k) {
    std::uint32_t v = x[k] ^ lit.byte[0];
    [&]<int... T>(std::integer_sequence<int, T...>) {
      ((v |= ahead<T + 1>(x, k) ^ lit.byte[T + 1]), ...);
    }(std::make_integer_sequence<int, M - 1>{});
    starts |= byte_flags(zero_bytes(v)) << (4 * k);
  }
  return starts;
}

// Where a literal of M bytes (1 to 8) first starts in [b, e - M], 16 start positions a step; -1
// where nowhere.
template <int M, class Index>
__device__ Index find_short(char const* chars, Index b, Index e, Index readable, literal_words const& lit) {
  Index const last = e - M;
  for (Index base = b & ~Index{3};; base += 16) {
    std::uint32_t x[step_words<M>];
    load_words(x, chars, base, e, readable);
    std::uint32_t const starts = starts_within(starts_in_step<M>(x, lit), base, b, last);
    if (starts != 0) { return base + (__ffs(static_cast<int>(starts)) - 1); }
    if (last - base < 16) { return -1; }  // no start left past this step
  }
}

// Which of R consecutive rows hold a literal of M bytes (1 to 8): bit k for the row whose bytes
// are [b[k], b[k + 1]). The rows' bytes are searched as one span, 16 start positions a step, and
// each start found is given to the row it lies in, if the literal ends in that row too. A thread
// that searches one row of about 10 bytes tests 16 starts for its 6 and runs the loop's fixed
// cost for every row; R rows share the steps. (LIKE '%green%' over 60M TPC-H-like names on an
// H200, an isolated kernel writing each row's bit: 0.465 ms at two rows a thread, 0.361 ms at
// four, 0.380 ms at eight; the fold, a row a thread, 0.46 ms.)
template <int M, int R>
__device__ std::uint32_t occurs_short_in_rows(char const* chars, std::int32_t const (&b)[R + 1], std::int32_t readable,
                                              literal_words const& lit) {
  std::int32_t const last = b[R] - M;  // the last start that fits in the span
  std::uint32_t found = 0;
  if (last < b[0]) { return found; }
  for (std::int32_t base = b[0] & ~3;; base += 16) {
    std::uint32_t x[step_words<M>];
    load_words(x, chars, base, readable, readable);
    for (std::uint32_t s = starts_within(starts_in_step<M>(x, lit), base, b[0], last); s != 0; s &= s - 1) {
      std::int32_t const p = base + (__ffs(static_cast<int>(s)) - 1);
      int row = 0;  // the last row that begins at or before p (a register, not an array index)
      std::int32_t end = b[1];
#pragma unroll
      for (int k = 1; k < R; ++k) {
        if (p >= b[k]) {
          row = k;
          end = b[k + 1];
        }
      }
      if (end - p >= M) { found |= 1u << row; }
    }
    if (last - base < 16) { return found; }
  }
}

// occurs_short_in_rows for a literal of m bytes (1 to 8): rows [r, r + R) of a column of `size`
// rows, with int32 offsets o and chars aligned to 4 bytes; rows past the end count as empty.
template <int R>
__device__ std::uint32_t occurs_in_rows(char const* chars, std::int32_t const* o, size_type r, size_type size, int m,
                                        literal_words const& lit) {
  std::int32_t b[R + 1];
#pragma unroll
  for (int k = 0; k <= R; ++k) { b[k] = o[size - r > k ? r + k : size]; }
  std::int32_t const readable = o[size];
  switch (m) {  // a constant pattern's: the same in every lane
    case 1: return occurs_short_in_rows<1, R>(chars, b, readable, lit);
    case 2: return occurs_short_in_rows<2, R>(chars, b, readable, lit);
    case 3: return occurs_short_in_rows<3, R>(chars, b, readable, lit);
    case 4: return occurs_short_in_rows<4, R>(chars, b, readable, lit);
    case 5: return occurs_short_in_rows<5, R>(chars, b, readable, lit);
    case 6: return occurs_short_in_rows<6, R>(chars, b, readable, lit);
    case 7: return occurs_short_in_rows<7, R>(chars, b, readable, lit);
    default: return occurs_short_in_rows<8, R>(chars, b, readable, lit);
  }
}

// Where a longer literal first starts: the positions where its first two bytes match are found as
// above, and only those are checked byte by byte.
template <class Index>
__device__ Index find_long(char const* chars, Index b, Index e, Index readable, string_view lit, literal_words const& spread) {
  int const m = lit.size_bytes();
  Index const last = e - m;
  for (Index base = b & ~Index{3};; base += 16) {
    std::uint32_t x[5];
    load_words(x, chars, base, e, readable);
    std::uint32_t starts = 0;
#pragma unroll
    for (int k = 0; k < 4; ++k) {
      std::uint32_t const pair = (x[k] ^ spread.byte[0]) | (__funnelshift_r(x[k], x[k + 1], 8) ^ spread.byte[1]);
      starts |= byte_flags(zero_bytes(pair)) << (4 * k);
    }
    starts = starts_within(starts, base, b, last);
    while (starts != 0) {
      Index const p = base + (__ffs(starts) - 1);
      starts &= starts - 1;
      int t = 2;
      while (t < m && chars[p + t] == lit.data()[t]) { ++t; }
      if (t >= m) { return p; }
    }
    if (last - base < 16) { return -1; }
  }
}

// Where lit (at least one byte) first starts in [b, e - lit's size] of chars, which must be 4-byte
// aligned; -1 where nowhere. The words below `readable` (bytes from chars) may be read whole.
// `spread` is words_of(lit). A step reads aligned words and tests 16 start positions with
// whole-word XORs and an exact zero-byte test. (Positions found from two bytes, then each checked
// byte by byte, ran 212 instructions a row in the fold of LIKE '%green%' over 60M short strings,
// a third of the lanes idle, bound by issue: 0.517 ms on the H200. This ran 164 with every lane
// busy: 0.46 ms.)
template <class Index>
__device__ Index find_in_words(char const* chars, Index b, Index e, Index readable, string_view lit, literal_words const& spread) {
  if (e - b < lit.size_bytes()) { return -1; }  // the row is shorter than the literal
  switch (lit.size_bytes()) {  // a constant pattern's: the same in every lane
    case 1: return find_short<1>(chars, b, e, readable, spread);
    case 2: return find_short<2>(chars, b, e, readable, spread);
    case 3: return find_short<3>(chars, b, e, readable, spread);
    case 4: return find_short<4>(chars, b, e, readable, spread);
    case 5: return find_short<5>(chars, b, e, readable, spread);
    case 6: return find_short<6>(chars, b, e, readable, spread);
    case 7: return find_short<7>(chars, b, e, readable, spread);
    case 8: return find_short<8>(chars, b, e, readable, spread);
    default: return find_long(chars, b, e, readable, lit, spread);
  }
}
#endif

}  // namespace colx::detail
