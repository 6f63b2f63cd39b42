// SPDX-License-Identifier: Apache-2.0
// libFuzzer target of the Parquet reader: the input is a whole file. Three readers see it: the
// footer parser (parse_file_metadata and leaf_columns, on the input's bytes as if they were a
// footer), the page-header parser (on the same bytes), and read_parquet on the input written to a
// file, every column into host memory. Memory colx allocates is capped (a limiting_adaptor of
// 256 MiB: a small file may legitimately ask for much, a column of a billion equal values coded
// in a few bytes), so the cap's out_of_memory is an accepted outcome, as are colx::logic_error
// and its kin (parquet_error, schema_error, out_of_range). Anything else, and any ASan or UBSan
// report, is a finding. A successful read is read back (a digest of every column's bytes).
#include <colx/column/factories.hpp>
#include <colx/io/parquet.hpp>
#include <colx/memory/current_resource.hpp>
#include <colx/memory/limiting_adaptor.hpp>

#include "support/fuzz_reads.hpp"

#include <cstdint>
#include <cstdio>
#include <fstream>
#include <span>
#include <string>
#include <unistd.h>

namespace {

std::string const& scratch_path() {
  static std::string const path = "/tmp/colx_parquet_fuzz_" + std::to_string(::getpid()) + ".parquet";
  return path;
}

using colx::test::digest;
colx::limiting_adaptor& capped() { return colx::test::capped_host_memory(); }

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(std::uint8_t const* data, std::size_t size) {
  static bool const ready = [] {
    (void)colx::set_current_host_resource(capped());
    return true;
  }();
  (void)ready;
  std::span<std::uint8_t const> const bytes(data, size);
  try {
    auto const md = colx::parquet::parse_file_metadata(bytes, "fuzz");
    (void)colx::parquet::leaf_columns(md, "fuzz");
  } catch (colx::logic_error const&) {
  }
  try {
    std::size_t header_bytes = 0;
    (void)colx::parquet::parse_page_header(bytes, "fuzz", header_bytes);
  } catch (colx::logic_error const&) {
  }
  {
    std::ofstream out(scratch_path(), std::ios::binary | std::ios::trunc);
    out.write(reinterpret_cast<char const*>(data), static_cast<std::streamsize>(size));
  }
  try {
    colx::any_table const t = colx::read_parquet(scratch_path(), {}, {}, capped());
    std::uint64_t h = 0;
    for (auto const& c : t.columns()) { h += digest(c); }
    if (h == 42) { std::fputc('.', stderr); }  // (keeps the reads)
  } catch (colx::logic_error const&) {
  } catch (colx::out_of_memory const&) {
  }
  return 0;
}
