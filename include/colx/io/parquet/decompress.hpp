// SPDX-License-Identifier: Apache-2.0
#pragma once
// Page decompression on the host: SNAPPY (libsnappy), ZSTD (libzstd) and GZIP (zlib), each an
// optional dependency. colx stays header-only: the build that links a library defines
// COLX_WITH_SNAPPY, COLX_WITH_ZSTD or COLX_WITH_ZLIB (colx's CMake package does it when it finds
// them), and a file compressed with a codec the build lacks is a parquet_error naming the library.
#include <colx/io/parquet/metadata.hpp>

#include <cstdint>
#include <cstring>
#include <span>
#include <string>

#if defined(COLX_WITH_SNAPPY)
#  include <snappy-c.h>
#endif
#if defined(COLX_WITH_ZSTD)
#  include <zstd.h>
#endif
#if defined(COLX_WITH_ZLIB)
#  include <zlib.h>
#endif

namespace colx::parquet {

[[nodiscard]] inline char const* to_string(codec c) {
  switch (c) {
    case codec::uncompressed: return "UNCOMPRESSED";
    case codec::snappy: return "SNAPPY";
    case codec::gzip: return "GZIP";
    case codec::lzo: return "LZO";
    case codec::brotli: return "BROTLI";
    case codec::lz4: return "LZ4";
    case codec::zstd: return "ZSTD";
    case codec::lz4_raw: return "LZ4_RAW";
  }
  return "an unknown codec";
}

// Whether this build can decompress pages of codec `c`.
[[nodiscard]] constexpr bool can_decompress(codec c) noexcept {
  switch (c) {
    case codec::uncompressed: return true;
#if defined(COLX_WITH_SNAPPY)
    case codec::snappy: return true;
#endif
#if defined(COLX_WITH_ZSTD)
    case codec::zstd: return true;
#endif
#if defined(COLX_WITH_ZLIB)
    case codec::gzip: return true;
#endif
    default: return false;
  }
}

// What a build needs to read codec `c`, for the error message.
[[nodiscard]] inline std::string missing_codec_message(codec c) {
  switch (c) {
    case codec::snappy: return "SNAPPY pages need libsnappy: install it (Debian: libsnappy-dev) and reconfigure, so CMake defines COLX_WITH_SNAPPY";
    case codec::zstd: return "ZSTD pages need libzstd: install it (Debian: libzstd-dev) and reconfigure, so CMake defines COLX_WITH_ZSTD";
    case codec::gzip: return "GZIP pages need zlib: install it (Debian: zlib1g-dev) and reconfigure, so CMake defines COLX_WITH_ZLIB";
    default: return std::string(to_string(c)) + " compression is not supported by colx";
  }
}

// Decompresses `in` into exactly `out.size()` bytes; false if the data is corrupt or its size
// differs from the page header's.
[[nodiscard]] inline bool decompress(codec c, std::span<std::uint8_t const> in, std::span<std::uint8_t> out) {
  switch (c) {
    case codec::uncompressed:
      if (in.size() != out.size()) { return false; }
      if (!in.empty()) { std::memcpy(out.data(), in.data(), in.size()); }
      return true;
#if defined(COLX_WITH_SNAPPY)
    case codec::snappy: {
      std::size_t n = 0;
      if (snappy_uncompressed_length(reinterpret_cast<char const*>(in.data()), in.size(), &n) != SNAPPY_OK || n != out.size()) {
        return false;
      }
      return snappy_uncompress(reinterpret_cast<char const*>(in.data()), in.size(), reinterpret_cast<char*>(out.data()), &n) == SNAPPY_OK &&
             n == out.size();
    }
#endif
#if defined(COLX_WITH_ZSTD)
    case codec::zstd: {
      std::size_t const n = ZSTD_decompress(out.data(), out.size(), in.data(), in.size());
      return !ZSTD_isError(n) && n == out.size();
    }
#endif
#if defined(COLX_WITH_ZLIB)
    case codec::gzip: {
      z_stream s{};
      if (inflateInit2(&s, 15 + 32) != Z_OK) { return false; }  // 32: a gzip or zlib header, detected
      s.next_in = const_cast<Bytef*>(in.data());
      s.avail_in = static_cast<uInt>(in.size());
      s.next_out = out.data();
      s.avail_out = static_cast<uInt>(out.size());
      int const rc = inflate(&s, Z_FINISH);
      bool const ok = rc == Z_STREAM_END && s.total_out == out.size();
      inflateEnd(&s);
      return ok;
    }
#endif
    default: return false;
  }
}

}  // namespace colx::parquet
