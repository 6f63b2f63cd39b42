// SPDX-License-Identifier: Apache-2.0
// A Parquet file into a typed frame, then a fused pipeline over it: the file is one of the test
// files (pyarrow wrote it with dictionary pages and SNAPPY; run from examples/, as ctest does).
// `colx-schema FILE.parquet` prints the schema declaration of any file.
#include <colx/colx.hpp>
#include <colx/io/parquet.hpp>
#include <colx/io/parquet_reader.hpp>

#include <cstdio>
#include <filesystem>
#include <iostream>
using namespace colx::literals;

int main(int argc, char** argv) {
  std::string const path = argc > 1 ? argv[1] : "../tests/io/parquet/data/dict_snappy.parquet";
  using sales = colx::schema<colx::field<"i64", std::int64_t, colx::not_null>, colx::field<"dec", colx::dec<15, 2>>,
                             colx::field<"d", colx::date32, colx::not_null>, colx::field<"s", colx::dictionary<colx::string_view, std::int8_t>>>;
  auto const f = colx::read_parquet<sales>(path);  // checked against the file first; "s" arrives as codes
  auto const totals = f | colx::filter("dec"_c > 0 && colx::like("s"_c, "s1%")) | colx::group_by("s"_c) |
                      colx::aggregate(colx::sum("dec"_c).as<"total">(), colx::count().as<"rows">());
  std::cout << (totals | colx::sort_by(colx::asc("s"_c))) << "\n";

  // With a predicate: row groups whose statistics rule it out are not read; the rest are filtered
  // by whatever follows, fused into it (here a count).
  colx::parquet_read_stats pushed;
  colx::parquet_read_options where_options;
  where_options.stats = &pushed;
  auto const recent = colx::read_parquet<sales>(path, "d"_c >= colx::date32{11700}, where_options) | colx::count_if("dec"_c > 0);
  std::printf("%lld rows from 2002-01-13 on with a positive amount; %lld of %lld row groups not read\n",
              static_cast<long long>(recent), static_cast<long long>(pushed.row_groups_skipped),
              static_cast<long long>(pushed.row_groups + pushed.row_groups_skipped));

  colx::parquet_read_stats stats;  // what a read did: bytes, pages, and where the time went
  colx::parquet_read_options options;
  options.columns = {"u", "dec"};
  options.stats = &stats;
  colx::any_table const t = colx::read_parquet(path, options);
  std::printf("read %zu columns, %lld rows: %lld file bytes, %lld pages, %lld dictionary pages\n", t.num_columns(),
              static_cast<long long>(t.num_rows()), static_cast<long long>(stats.file_bytes_read), static_cast<long long>(stats.pages),
              static_cast<long long>(stats.dictionary_pages));

  // Out again, then back in chunks: a file larger than memory streams through a pipeline the same way.
  std::string const copy = (std::filesystem::temp_directory_path() / "colx_example_sales.parquet").string();
  colx::parquet_write_options out;  // SNAPPY, dictionary pages where they pay, statistics for pushdown
  out.row_group_rows = 300;          // (small, so that the plan below has groups to skip)
  colx::write_parquet(f, copy, out);
  colx::parquet_reader<sales> reader(copy, {.max_rows = 400});
  double total = 0;
  while (auto chunk = reader.next()) { total += (*chunk | colx::reduce(colx::sum(colx::cast<double>("dec"_c)))).value_or(0); }
  std::printf("wrote %s and read it back in %zu chunks: amounts total %.2f\n", copy.c_str(), reader.chunks(), total);
  std::cout << colx::explain_read_parquet<sales>(copy, "d"_c >= colx::date32{11700}).to_string();
  std::filesystem::remove(copy);
}
