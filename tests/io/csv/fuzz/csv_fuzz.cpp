// SPDX-License-Identifier: Apache-2.0
// libFuzzer target of the CSV reader: the input is a whole file's text. read_csv reads it into
// host memory three ways: everything detected; errors turned into nulls; and every column given as
// text with a '|' delimiter. Memory colx allocates is capped (256 MiB), so the cap's
// out_of_memory is an accepted outcome, as are colx::logic_error and its kin (csv_error,
// schema_error). Anything else, and any ASan or UBSan report, is a finding. A successful read is
// read back (a digest of every column's bytes), and written again with write_csv.
#include <colx/io/csv.hpp>
#include <colx/memory/current_resource.hpp>
#include <colx/memory/limiting_adaptor.hpp>

#include "support/fuzz_reads.hpp"

#include <cstdint>
#include <cstdio>
#include <fstream>
#include <string>
#include <unistd.h>

namespace {

std::string const& scratch_path(char const* what) {
  static std::string const base = "/tmp/colx_csv_fuzz_" + std::to_string(::getpid());
  static std::string const in = base + ".csv", out = base + "_out.csv";
  return what[0] == 'i' ? in : out;
}

using colx::test::digest;
colx::limiting_adaptor& capped() { return colx::test::capped_host_memory(); }

void read_with(colx::csv_read_options const& options) {
  try {
    colx::any_table const t = colx::read_csv(scratch_path("in"), options, {}, capped());
    std::uint64_t h = 0;
    for (auto const& c : t.columns()) { h += digest(c); }
    colx::write_csv(t, scratch_path("out"));
    if (h == 42) { std::fputs("", stderr); }  // (keeps the digest)
  } catch (colx::logic_error const&) {
  } catch (colx::out_of_memory const&) {
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(std::uint8_t const* data, std::size_t size) {
  {
    std::ofstream out(scratch_path("in"), std::ios::binary);
    out.write(reinterpret_cast<char const*>(data), static_cast<std::streamsize>(size));
  }
  read_with({});
  colx::csv_read_options nulls;
  nulls.errors_become_nulls = true;
  nulls.sample_bytes = 64;  // (small samples: types widen after the first pass)
  read_with(nulls);
  colx::csv_read_options text;
  text.delimiter = '|';
  text.header = false;
  text.comment = '#';
  read_with(text);
  return 0;
}
