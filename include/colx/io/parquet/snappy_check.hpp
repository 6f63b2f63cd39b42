// SPDX-License-Identifier: Apache-2.0
#pragma once
// Whether a SNAPPY stream decompresses, within bounds, to exactly `out_size` bytes: its length
// prefix says so, every literal lies inside the input, every copy reads only bytes already
// produced, and nothing is written past the end. nvCOMP does not promise to survive corrupt
// input, so the GPU path checks each page this way before decompressing (gpu_snappy_check.cuh, a
// warp a page): a page that passes cannot make the decompressor read or write outside its
// buffers. This serial form is the reference the tests hold the GPU's to, and libsnappy's own
// validator holds this one to.
#include <colx/core/config.hpp>
#include <colx/io/parquet/encodings.hpp>

#include <cstdint>

namespace colx::parquet::detail {

COLX_HOST_DEVICE inline bool snappy_stream_valid(std::uint8_t const* in, std::uint64_t in_size, std::uint64_t out_size) {
  std::uint8_t const* p = in;
  std::uint8_t const* const end = in + in_size;
  std::uint64_t length = 0;
  if (!read_uleb(p, end, length) || length != out_size) { return false; }
  std::uint64_t produced = 0;
  while (p < end) {
    std::uint8_t const tag = *p++;
    std::uint64_t n = 0, offset = 0;
    switch (tag & 3) {
      case 0: {  // literal: a length in the tag, or in 1 to 4 bytes after it
        n = tag >> 2;
        if (n >= 60) {
          int const bytes = static_cast<int>(n) - 59;
          if (end - p < bytes) { return false; }
          n = 0;
          for (int i = 0; i < bytes; ++i) { n |= static_cast<std::uint64_t>(p[i]) << (8 * i); }
          p += bytes;
        }
        n += 1;
        if (n > static_cast<std::uint64_t>(end - p) || n > out_size - produced) { return false; }
        p += n;
        produced += n;
        continue;
      }
      case 1:  // copy, 1-byte offset
        if (end - p < 1) { return false; }
        n = 4 + ((tag >> 2) & 7);
        offset = (static_cast<std::uint64_t>(tag >> 5) << 8) | p[0];
        p += 1;
        break;
      case 2:  // copy, 2-byte offset
        if (end - p < 2) { return false; }
        n = (tag >> 2) + 1;
        offset = static_cast<std::uint64_t>(p[0]) | static_cast<std::uint64_t>(p[1]) << 8;
        p += 2;
        break;
      default:  // copy, 4-byte offset
        if (end - p < 4) { return false; }
        n = (tag >> 2) + 1;
        offset = load_le32(p);
        p += 4;
        break;
    }
    if (offset == 0 || offset > produced || n > out_size - produced) { return false; }
    produced += n;
  }
  return produced == out_size;
}

}  // namespace colx::parquet::detail
