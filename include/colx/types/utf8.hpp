// SPDX-License-Identifier: Apache-2.0
#pragma once
// UTF-8 positions and simple case mapping, on host and device. Positions count code points
// (SQL's characters); a malformed sequence never moves a position past the end of its string,
// and a stray continuation byte counts as one character, so bad input cannot read out of bounds.
#include <colx/core/config.hpp>
#include <colx/types/string_view.hpp>

namespace colx::utf8 {

// Bytes of the code point whose first byte is b (1 for ASCII and for a stray continuation byte).
[[nodiscard]] constexpr COLX_HOST_DEVICE size_type sequence_bytes(unsigned char b) noexcept {
  return b < 0xC0 ? 1 : b < 0xE0 ? 2 : b < 0xF0 ? 3 : 4;
}

// The byte after the code point at byte i of s, never past the end.
[[nodiscard]] constexpr COLX_HOST_DEVICE size_type next(string_view s, size_type i) noexcept {
  size_type const n = i + sequence_bytes(static_cast<unsigned char>(s.data()[i]));
  return n < s.size_bytes() ? n : s.size_bytes();
}

// The byte where code point `k` (0-based) starts; the string's size when it has k or fewer.
[[nodiscard]] constexpr COLX_HOST_DEVICE size_type byte_of(string_view s, size_type k) noexcept {
  size_type i = 0;
  for (; k > 0 && i < s.size_bytes(); --k) { i = next(s, i); }
  return i;
}

// Code points of s, counted by the same walk as byte_of (so that the two always agree).
[[nodiscard]] constexpr COLX_HOST_DEVICE size_type characters(string_view s) noexcept {
  size_type n = 0;
  for (size_type i = 0; i < s.size_bytes(); i = next(s, i)) { ++n; }
  return n;
}

// Simple (one-to-one) upper- and lower-case mapping of a code point, for the scripts where it
// keeps the byte length: ASCII, Latin-1, Latin Extended-A, Greek and Cyrillic. Others map to
// themselves, including the few letters whose case partner has another length in UTF-8 (ß, ı,
// ſ: DuckDB maps them; colx keeps them, so that the result's bytes are the input's).
[[nodiscard]] constexpr COLX_HOST_DEVICE unsigned map_case(unsigned c, bool to_upper) noexcept {
  if (c < 0x80) {
    if (to_upper) { return c >= 'a' && c <= 'z' ? c - 32 : c; }
    return c >= 'A' && c <= 'Z' ? c + 32 : c;
  }
  if (c >= 0xC0 && c <= 0xFE && c != 0xD7 && c != 0xF7 && c != 0xDF) {  // Latin-1 letters, × ÷ ß aside
    bool const lower = c >= 0xE0;
    if (to_upper) { return lower ? (c == 0xFF ? c : c - 32) : c; }  // ÿ's capital is in Extended-A
    return lower ? c : c + 32;
  }
  if (c >= 0x100 && c <= 0x17F) {  // Latin Extended-A: pairs, the capital first, by ranges
    bool const odd_capital = (c >= 0x139 && c <= 0x148) || (c >= 0x179 && c <= 0x17E);
    bool const paired = (c <= 0x137 && c != 0x130 && c != 0x131) || odd_capital || (c >= 0x14A && c <= 0x177);
    if (c == 0x178) { return to_upper ? c : 0xFF; }
    if (!paired) { return c; }
    bool const is_capital = ((c & 1u) == 0) != odd_capital;
    if (to_upper) { return is_capital ? c : c - 1; }
    return is_capital ? c + 1 : c;
  }
  if (c >= 0x391 && c <= 0x3C9 && c != 0x3A2) {  // Greek: final sigma (ς) has Σ as its capital
    if (c <= 0x3A9) { return to_upper ? c : c + 32; }
    if (c >= 0x3B1) { return to_upper ? (c == 0x3C2 ? 0x3A3 : c - 32) : c; }
    return c;
  }
  if (c >= 0x400 && c <= 0x45F) {  // Cyrillic
    if (c < 0x410) { return to_upper ? c : c + 80; }
    if (c < 0x430) { return to_upper ? c : c + 32; }
    if (c < 0x450) { return to_upper ? c - 32 : c; }
    return to_upper ? c - 80 : c;
  }
  if (to_upper && c == 0xFF) { return 0x178; }
  return c;
}

// Writes s to out with every character case-mapped: the same number of bytes (see map_case).
constexpr COLX_HOST_DEVICE void write_case_mapped(string_view s, char* out, bool to_upper) noexcept {
  char const* const in = s.data();
  size_type const n = s.size_bytes();
  for (size_type i = 0; i < n;) {
    auto const b = static_cast<unsigned char>(in[i]);
    if (b < 0x80) {  // ASCII: one byte, no table
      out[i] = static_cast<char>(map_case(b, to_upper));
      ++i;
    } else if (b >= 0xC0 && b < 0xE0 && i + 1 < n && (static_cast<unsigned char>(in[i + 1]) & 0xC0u) == 0x80u) {
      unsigned const c = ((b & 0x1Fu) << 6) | (static_cast<unsigned char>(in[i + 1]) & 0x3Fu);
      unsigned const m = map_case(c, to_upper);
      out[i] = static_cast<char>(0xC0u | (m >> 6));
      out[i + 1] = static_cast<char>(0x80u | (m & 0x3Fu));
      i += 2;
    } else {  // longer sequences (and malformed bytes) are copied as they are
      out[i] = in[i];
      ++i;
    }
  }
}

}  // namespace colx::utf8
