// SPDX-License-Identifier: Apache-2.0
// colx: host-only
// colx_parquet_rewrite IN OUT [--codec none|snappy|zstd|gzip] [--row-group-rows N] [--page-bytes N]
// [--no-dictionary] [--no-statistics]: reads IN's flat columns with colx and writes them to OUT with
// write_parquet; check_written.py then reads OUT with pyarrow and DuckDB against IN.
#include <colx/io/parquet.hpp>

#include <cstdio>
#include <cstdlib>
#include <exception>
#include <string>

int main(int argc, char** argv) {
  try {
    if (argc < 3) {
      std::fprintf(stderr, "usage: %s IN OUT [--codec C] [--row-group-rows N] [--page-bytes N] [--no-dictionary] [--no-statistics]\n", argv[0]);
      return 2;
    }
    colx::parquet_write_options options;
    for (int i = 3; i < argc; ++i) {
      std::string const a = argv[i];
      std::string const next = i + 1 < argc ? argv[i + 1] : "";
      if (a == "--codec") {
        options.compression = next == "none"   ? colx::parquet_compression::none
                              : next == "zstd" ? colx::parquet_compression::zstd
                              : next == "gzip" ? colx::parquet_compression::gzip
                                               : colx::parquet_compression::snappy;
        ++i;
      } else if (a == "--row-group-rows") {
        options.row_group_rows = std::atoll(next.c_str()), ++i;
      } else if (a == "--page-bytes") {
        options.page_bytes = static_cast<std::size_t>(std::atoll(next.c_str())), ++i;
      } else if (a == "--no-dictionary") {
        options.dictionary = false;
      } else if (a == "--no-statistics") {
        options.statistics = false;
      } else {
        std::fprintf(stderr, "unknown option %s\n", a.c_str());
        return 2;
      }
    }
    colx::parquet_read_options read;
    for (auto const& c : colx::read_parquet_metadata(argv[1]).columns) {
      if (c.unsupported.empty()) { read.columns.push_back(c.name); }
    }
    colx::write_parquet(colx::read_parquet(argv[1], read, {}, colx::get_current_host_resource()), argv[2], options);
  } catch (std::exception const& e) {
    std::fprintf(stderr, "%s\n", e.what());
    return 1;
  }
  return 0;
}
