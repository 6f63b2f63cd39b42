// SPDX-License-Identifier: Apache-2.0
#pragma once
// A CSV file's text in host memory: read whole (from `staging`: pinned memory when the text goes
// on to the GPU), decompressed first when its name ends in .gz or .zst and the build has zlib or
// libzstd; a UTF-8 byte-order mark at its start is left out.
#include <colx/io/csv/options.hpp>
#include <colx/io/file_source.hpp>
#include <colx/memory/buffer.hpp>

#include <algorithm>
#include <cstdint>
#include <exception>
#include <cstring>
#include <string>
#include <vector>

#if defined(COLX_WITH_ZSTD)
#  include <zstd.h>
#endif
#if defined(COLX_WITH_ZLIB)
#  include <zlib.h>
#endif

namespace colx::csv::detail {

struct csv_text {
  buffer bytes;
  std::int64_t begin = 0;  // after a byte-order mark
  std::int64_t file_bytes = 0;
  [[nodiscard]] char const* data() const { return static_cast<char const*>(bytes.data()) + begin; }
  [[nodiscard]] std::int64_t size() const { return static_cast<std::int64_t>(bytes.size()) - begin; }
};

inline bool ends_with(std::string const& s, char const* tail) {
  std::size_t const n = std::strlen(tail);
  return s.size() >= n && s.compare(s.size() - n, n, tail) == 0;
}

// The decompressed bytes of a .gz or .zst file.
inline std::vector<char> inflate_file(std::string const& path, [[maybe_unused]] std::vector<std::uint8_t> const& in) {
  std::vector<char> out;
  if (ends_with(path, ".gz")) {
#if defined(COLX_WITH_ZLIB)
    z_stream z{};
    COLX_EXPECTS_AS(csv_error, inflateInit2(&z, 15 + 32) == Z_OK, path, ": zlib could not start");
    z.next_in = const_cast<Bytef*>(in.data());
    z.avail_in = static_cast<uInt>(in.size());
    int rc = Z_OK;
    while (rc != Z_STREAM_END) {
      out.resize(out.size() + std::max<std::size_t>(in.size() * 2, 1 << 20));
      z.next_out = reinterpret_cast<Bytef*>(out.data() + z.total_out);
      z.avail_out = static_cast<uInt>(out.size() - z.total_out);
      rc = inflate(&z, Z_NO_FLUSH);
      if (rc != Z_OK && rc != Z_STREAM_END) {
        inflateEnd(&z);
        COLX_FAIL_AS(csv_error, path, ": not a valid gzip stream (zlib: ", rc, ")");
      }
      if (rc == Z_OK && z.avail_in == 0 && z.avail_out != 0) {
        inflateEnd(&z);
        COLX_FAIL_AS(csv_error, path, ": the gzip stream ends early");
      }
    }
    out.resize(z.total_out);
    inflateEnd(&z);
    return out;
#else
    COLX_FAIL_AS(csv_error, path, ": a .gz file needs zlib: install it (Debian: zlib1g-dev) and reconfigure");
#endif
  }
#if defined(COLX_WITH_ZSTD)
  ZSTD_DStream* const z = ZSTD_createDStream();
  ZSTD_inBuffer src{in.data(), in.size(), 0};
  std::size_t rc = 1;
  while (rc != 0) {  // (0: a frame ended and all its bytes are out)
    std::size_t const had_in = src.pos, had_out = out.size();
    out.resize(out.size() + ZSTD_DStreamOutSize());
    ZSTD_outBuffer dst{out.data(), out.size(), had_out};
    rc = ZSTD_decompressStream(z, &dst, &src);
    out.resize(dst.pos);
    if (ZSTD_isError(rc)) {
      ZSTD_freeDStream(z);
      COLX_FAIL_AS(csv_error, path, ": not a valid zstd stream (", ZSTD_getErrorName(rc), ")");
    }
    if (rc != 0 && src.pos == had_in && dst.pos == had_out) { break; }  // (no progress: the input ended inside a frame)
    if (rc == 0 && src.pos < src.size) { rc = 1; }                       // (another frame follows)
  }
  ZSTD_freeDStream(z);
  COLX_EXPECTS_AS(csv_error, rc == 0, path, ": the zstd stream ends early");
  return out;
#else
  COLX_FAIL_AS(csv_error, path, ": a .zst file needs libzstd: install it (Debian: libzstd-dev) and reconfigure");
#endif
}

inline csv_text read_text(std::string const& path, resource_ref staging) {
  file_source const file(path);
  csv_text t;
  t.file_bytes = static_cast<std::int64_t>(file.size());
  if (ends_with(path, ".gz") || ends_with(path, ".zst")) {
    std::vector<std::uint8_t> in(file.size());
    file.read(0, in);
    std::vector<char> const text = inflate_file(path, in);
    t.bytes = buffer(text.data(), memory_kind::host, text.size(), {}, staging);
  } else {
    t.bytes = buffer(file.size(), {}, staging);
    // In pieces of 32 MiB, several at once: one thread reads the page cache at a few GB/s.
    auto* const base = static_cast<std::uint8_t*>(t.bytes.data());
    std::int64_t const piece = std::int64_t{32} << 20;
    auto const pieces = static_cast<std::int64_t>((file.size() + piece - 1) / piece);
    std::string failure;
#pragma omp parallel for schedule(dynamic, 1)
    for (std::int64_t k = 0; k < pieces; ++k) {
      std::int64_t const at = k * piece;
      std::int64_t const n = std::min<std::int64_t>(piece, static_cast<std::int64_t>(file.size()) - at);
      try {
        file.read(static_cast<std::uint64_t>(at), std::span(base + at, static_cast<std::size_t>(n)));
      } catch (std::exception const& e) {
#pragma omp critical
        failure = e.what();
      }
    }
    if (!failure.empty()) { throw io_error(failure); }
  }
  auto const* p = static_cast<unsigned char const*>(t.bytes.data());
  if (t.bytes.size() >= 3 && p[0] == 0xef && p[1] == 0xbb && p[2] == 0xbf) { t.begin = 3; }
  return t;
}

}  // namespace colx::csv::detail
