// SPDX-License-Identifier: Apache-2.0
#pragma once
// Page compression for the writer, with the libraries the reader decompresses with (a build can
// write a codec exactly when it can read it: can_decompress).
#include <colx/io/parquet/decompress.hpp>

#include <cstdint>
#include <span>
#include <vector>

namespace colx::parquet {

// `in` compressed with codec c (one the build can read) into `out`, replacing its contents.
inline void compress(codec c, std::span<std::uint8_t const> in, std::vector<std::uint8_t>& out, [[maybe_unused]] int level) {
  COLX_EXPECTS_AS(parquet_error, can_decompress(c), missing_codec_message(c));
  switch (c) {
#if defined(COLX_WITH_SNAPPY)
    case codec::snappy: {
      std::size_t n = snappy_max_compressed_length(in.size());
      out.resize(n);
      COLX_EXPECTS_AS(parquet_error,
                      snappy_compress(reinterpret_cast<char const*>(in.data()), in.size(), reinterpret_cast<char*>(out.data()), &n) == SNAPPY_OK,
                      "SNAPPY compression of a page of ", in.size(), " bytes failed");
      out.resize(n);
      return;
    }
#endif
#if defined(COLX_WITH_ZSTD)
    case codec::zstd: {
      out.resize(ZSTD_compressBound(in.size()));
      std::size_t const n = ZSTD_compress(out.data(), out.size(), in.data(), in.size(), level);
      COLX_EXPECTS_AS(parquet_error, !ZSTD_isError(n), "ZSTD compression of a page of ", in.size(), " bytes failed: ", ZSTD_getErrorName(n));
      out.resize(n);
      return;
    }
#endif
#if defined(COLX_WITH_ZLIB)
    case codec::gzip: {
      z_stream s{};
      COLX_EXPECTS_AS(parquet_error, deflateInit2(&s, level, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY) == Z_OK,
                      "GZIP compression could not start");  // (15 + 16: a gzip header, as the format asks)
      out.resize(deflateBound(&s, static_cast<uLong>(in.size())) + 32);
      s.next_in = const_cast<Bytef*>(in.data());
      s.avail_in = static_cast<uInt>(in.size());
      s.next_out = out.data();
      s.avail_out = static_cast<uInt>(out.size());
      int const rc = deflate(&s, Z_FINISH);
      std::size_t const n = s.total_out;
      deflateEnd(&s);
      COLX_EXPECTS_AS(parquet_error, rc == Z_STREAM_END, "GZIP compression of a page of ", in.size(), " bytes failed");
      out.resize(n);
      return;
    }
#endif
    default: out.assign(in.begin(), in.end()); return;
  }
}

}  // namespace colx::parquet
