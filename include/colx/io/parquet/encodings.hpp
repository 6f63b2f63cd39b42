// SPDX-License-Identifier: Apache-2.0
#pragma once
// Parquet's integer encodings, as decoders that run on the host and in a GPU thread alike: the
// RLE / bit-packed hybrid (definition levels, dictionary indices, RLE booleans) and
// DELTA_BINARY_PACKED (integers, and the lengths inside the DELTA_*_BYTE_ARRAY encodings). Each
// reads only inside [p, end): a run that claims more bytes than the page has yields an error from
// next(), never a read past the end. A decoder returns false when its input is exhausted or
// malformed; the page decoder turns that into a parquet_error on the host.
#include <colx/core/config.hpp>

#include <cstdint>

namespace colx::parquet::detail {

// `width` bits (0 to 64) starting `bit` bits after `base`, least significant first; bytes at or
// past `end` read as zero (a final bit-packed group may be cut short by its writer).
COLX_HOST_DEVICE inline std::uint64_t read_bits(std::uint8_t const* base, std::uint8_t const* end, std::uint64_t bit, int width) {
  if (width == 0) { return 0; }
  std::uint8_t const* q = base + bit / 8;
  int const shift = static_cast<int>(bit % 8);
  std::uint64_t v = 0;
  for (int got = -shift, i = 0; got < width; got += 8, ++i) {
    std::uint64_t const b = q + i < end ? q[i] : 0;
    v = got < 0 ? b >> shift : v | (b << got);
  }
  return width == 64 ? v : v & ((std::uint64_t{1} << width) - 1);
}

// An unsigned LEB128 varint at *p (advanced); false when it runs past end or beyond 64 bits.
COLX_HOST_DEVICE inline bool read_uleb(std::uint8_t const*& p, std::uint8_t const* end, std::uint64_t& out) {
  std::uint64_t v = 0;
  for (int shift = 0; shift < 64 && p < end; shift += 7) {
    std::uint8_t const b = *p++;
    v |= static_cast<std::uint64_t>(b & 0x7f) << shift;
    if ((b & 0x80) == 0) {
      out = v;
      return true;
    }
  }
  return false;
}

COLX_HOST_DEVICE inline std::int64_t unzigzag(std::uint64_t v) {
  return static_cast<std::int64_t>(v >> 1) ^ -static_cast<std::int64_t>(v & 1);
}

COLX_HOST_DEVICE inline std::uint32_t load_le32(std::uint8_t const* p) {
  return static_cast<std::uint32_t>(p[0]) | static_cast<std::uint32_t>(p[1]) << 8 | static_cast<std::uint32_t>(p[2]) << 16 |
         static_cast<std::uint32_t>(p[3]) << 24;
}

// The RLE / bit-packed hybrid of values `bit_width` bits wide (0 to 32).
struct rle_decoder {
  std::uint8_t const* p = nullptr;
  std::uint8_t const* end = nullptr;
  int bit_width = 0;
  std::uint32_t left = 0;          // values left in the current run
  bool packed = false;
  std::uint32_t repeated = 0;      // the value of an RLE run
  std::uint8_t const* group = nullptr;  // a bit-packed run's bytes
  std::uint64_t index = 0;         // the next value's position in it

  rle_decoder() = default;
  COLX_HOST_DEVICE rle_decoder(std::uint8_t const* begin, std::uint8_t const* stop, int width)
      : p(begin), end(stop), bit_width(width) {}

  COLX_HOST_DEVICE bool next(std::uint32_t& out) {
    if (left == 0 && !start_run()) { return false; }
    --left;
    if (packed) {
      out = static_cast<std::uint32_t>(read_bits(group, end, index * static_cast<std::uint64_t>(bit_width), bit_width));
      ++index;
    } else {
      out = repeated;
    }
    return true;
  }

  // Reads the next run's header (when the current run is used up); false at the end or on error.
  COLX_HOST_DEVICE bool start_run() {
    std::uint64_t header = 0;
    if (!read_uleb(p, end, header)) { return false; }
    std::uint64_t const count = header >> 1;
    if (header & 1) {  // bit-packed: count groups of 8 values, bit_width bytes a group
      std::uint64_t const bytes = count * static_cast<std::uint64_t>(bit_width);
      if (count == 0 || count > (1u << 26)) { return false; }
      packed = true;
      group = p;
      index = 0;
      left = static_cast<std::uint32_t>(count * 8);
      p = bytes <= static_cast<std::uint64_t>(end - p) ? p + bytes : end;
    } else {  // RLE: count copies of one value of ceil(bit_width / 8) bytes
      int const bytes = (bit_width + 7) / 8;
      if (count == 0 || count > 0xffffffffu || end - p < bytes) { return false; }
      packed = false;
      repeated = 0;
      for (int i = 0; i < bytes; ++i) { repeated |= static_cast<std::uint32_t>(p[i]) << (8 * i); }
      p += bytes;
      left = static_cast<std::uint32_t>(count);
    }
    return true;
  }
};

// DELTA_BINARY_PACKED: a header (block size, miniblocks per block, value count, first value),
// then blocks of a minimum delta, one bit width per miniblock and the bit-packed deltas.
// Arithmetic wraps, as the format defines it for INT32 and INT64 alike.
struct delta_decoder {
  std::uint8_t const* p = nullptr;
  std::uint8_t const* end = nullptr;
  std::uint64_t per_block = 0, miniblocks = 0, per_mini = 0, total = 0;
  std::uint64_t emitted = 0;
  std::uint64_t last = 0;
  std::uint64_t min_delta = 0;
  std::uint8_t const* widths = nullptr;  // of the current block
  std::uint64_t mini = 0;                // current miniblock in the block
  std::uint64_t in_mini = 0;             // values read from it
  std::uint8_t const* mini_data = nullptr;
  bool ok = false;

  delta_decoder() = default;
  COLX_HOST_DEVICE delta_decoder(std::uint8_t const* begin, std::uint8_t const* stop) : p(begin), end(stop) {
    std::uint64_t first = 0;
    ok = read_uleb(p, end, per_block) && read_uleb(p, end, miniblocks) && read_uleb(p, end, total) && read_uleb(p, end, first) &&
         miniblocks != 0 && per_block % 128 == 0 && per_block != 0 && (per_block / miniblocks) % 32 == 0 &&
         per_block <= (1u << 20) && miniblocks <= per_block;
    if (ok) {
      per_mini = per_block / miniblocks;
      last = static_cast<std::uint64_t>(unzigzag(first));
      mini = miniblocks;  // no block started
      in_mini = per_mini;
    }
  }

  [[nodiscard]] COLX_HOST_DEVICE std::uint64_t size() const { return total; }

  COLX_HOST_DEVICE bool next(std::int64_t& out) {
    if (!ok || emitted >= total) { return false; }
    if (emitted++ == 0) {
      out = static_cast<std::int64_t>(last);
      return true;
    }
    if (in_mini == per_mini && !next_miniblock()) { return false; }
    int const w = widths[mini];
    std::uint64_t const d = read_bits(mini_data, end, in_mini * static_cast<std::uint64_t>(w), w);
    ++in_mini;
    last += min_delta + d;
    out = static_cast<std::int64_t>(last);
    return true;
  }

  // Where the encoded values end (the bytes after them belong to the next stream), reading the
  // block headers only; null if the input is malformed. Call on a fresh decoder.
  [[nodiscard]] COLX_HOST_DEVICE std::uint8_t const* end_of_values() const {
    if (!ok) { return nullptr; }
    std::uint8_t const* q = p;
    std::uint64_t remaining = total > 0 ? total - 1 : 0;
    while (remaining > 0) {
      std::uint64_t md = 0;
      if (!read_uleb(q, end, md) || static_cast<std::uint64_t>(end - q) < miniblocks) { return nullptr; }
      std::uint8_t const* w = q;
      q += miniblocks;
      for (std::uint64_t m = 0; m < miniblocks && remaining > 0; ++m) {
        if (w[m] > 64) { return nullptr; }
        std::uint64_t const bytes = per_mini * w[m] / 8;
        if (bytes > static_cast<std::uint64_t>(end - q)) { return nullptr; }
        q += bytes;
        remaining -= remaining < per_mini ? remaining : per_mini;
      }
    }
    return q;
  }

 private:
  COLX_HOST_DEVICE bool next_miniblock() {
    if (mini_data != nullptr) {  // past the miniblock just read (clamped: a short one reads as zeros)
      std::uint64_t const bytes = per_mini * widths[mini] / 8;
      mini_data += bytes < static_cast<std::uint64_t>(end - mini_data) ? bytes : static_cast<std::uint64_t>(end - mini_data);
    }
    ++mini;
    if (mini >= miniblocks) {  // a new block
      std::uint8_t const* q = mini_data != nullptr ? mini_data : p;
      std::uint64_t md = 0;
      if (!read_uleb(q, end, md) || static_cast<std::uint64_t>(end - q) < miniblocks) { return false; }
      min_delta = static_cast<std::uint64_t>(unzigzag(md));
      widths = q;
      mini_data = q + miniblocks;
      mini = 0;
    }
    if (widths[mini] > 64) { return false; }
    in_mini = 0;
    return true;
  }
};

}  // namespace colx::parquet::detail
