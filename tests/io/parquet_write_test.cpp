// SPDX-License-Identifier: Apache-2.0
// write_parquet, read back by colx: every type colx reads, with nulls, through every codec, with
// and without dictionaries, in row groups and pages smaller than the table (sizes that divide
// nothing), checked value for value against make_files.py's formulas
// (tests/io/parquet/expected.hpp); the statistics it writes are what predicate pushdown skips by;
// no rows, one row, dictionary columns, and the errors. pyarrow's and DuckDB's reading of colx's
// files: tests/io/parquet/check_written.py (ctest parquet.written).
#include "io/parquet/expected.hpp"
#include "support/backend.hpp"

#include <colx/io/parquet.hpp>

#include <catch2/catch.hpp>

#include <cstdint>
#include <cstdio>
#include <fstream>
#include <string>
#include <vector>

#include <filesystem>
#include <unistd.h>

namespace {

using colx::field;
using colx::not_null;
using colx::schema;

// A file name of this process's own (ctest runs the host and device binaries side by side).
std::string scratch(std::string const& name) {
  return std::string(COLX_TEST_BINARY_DIR) + "/" + std::to_string(::getpid()) + "_" + name;
}
// Removes the file when the test case ends.
struct removed_at_end {
  std::string path;
  ~removed_at_end() { std::remove(path.c_str()); }
};

colx::any_table read_back(std::string const& path, colx::parquet_read_stats* stats = nullptr) {
  colx::parquet_read_options options;
  options.stats = stats;
  return colx::read_parquet(path, options, {}, colx::test::backend_resource());
}

bool exists(std::string const& path) { return std::ifstream(path).good(); }

}  // namespace

TEST_CASE("write_parquet: every type and codec, dictionary or PLAIN, read back value for value", "[parquet]") {
  colx::any_table const t = read("plain.parquet");  // 19 columns of every type, with nulls
  struct setting {
    colx::parquet_compression codec;
    bool dictionary;
    std::int64_t group_rows;
    std::size_t page_bytes;
  };
  using colx::parquet_compression;
  for (auto const s : {setting{parquet_compression::none, false, 1 << 20, 1 << 20}, setting{parquet_compression::snappy, true, 300, 1000},
                       setting{parquet_compression::zstd, true, 1029, 64}, setting{parquet_compression::gzip, false, 1, 1 << 20},
                       setting{parquet_compression::snappy, false, 1000, 1}}) {
    INFO("codec " << static_cast<int>(s.codec) << ", dictionary " << s.dictionary << ", row groups of " << s.group_rows
                  << ", pages of " << s.page_bytes << " bytes");
    colx::parquet_write_options options;
    options.compression = s.codec;
    options.dictionary = s.dictionary;
    options.row_group_rows = s.group_rows;
    options.page_bytes = s.page_bytes;
    std::string const path = scratch("written.parquet");
    removed_at_end const cleanup{path};
    colx::write_parquet(t, path, options);
    colx::parquet_read_stats stats;
    colx::any_table const back = read_back(path, &stats);
    REQUIRE(back.num_rows() == 1029);
    REQUIRE(back.num_columns() == 19);
    CHECK(back.labels() == t.labels());
    for (std::size_t j = 0; j < t.num_columns(); ++j) {
      INFO("column " << t.labels()[j].to_string());
      CHECK(back.column(j).type() == t.column(j).type());
      CHECK(back.column(j).type().precision() == t.column(j).type().precision());
      CHECK(back.column(j).null_count() == t.column(j).null_count());
    }
    check_table(back);
    CHECK(stats.row_groups == (1029 + s.group_rows - 1) / s.group_rows);
    CHECK((stats.dictionary_pages > 0) == s.dictionary);
    CHECK(colx::read_parquet_metadata(path).file.created_by == "colx");
  }
}

TEST_CASE("write_parquet: the statistics written are what predicate pushdown skips by", "[parquet]") {
  using namespace colx::literals;
  using cols = schema<field<"i64", std::int64_t, not_null>, field<"u", colx::string_view>, field<"dec", colx::dec<15, 2>>,
                      field<"f64", double>, field<"dec38", colx::dec<38, 10>>, field<"u64", std::uint64_t>>;
  colx::parquet_write_options options;
  options.row_group_rows = 100;
  std::string const path = scratch("stats.parquet");
  removed_at_end const cleanup{path};
  colx::write_parquet(read("plain.parquet"), path, options);
  auto const i64 = [](std::int64_t i) { return i * 1000000007 - 5000000000000; };
  auto const skipped = [&](auto const& where) {
    return colx::explain_read_parquet<cols>(path, where).row_groups_skipped.size();
  };
  CHECK(skipped("i64"_c >= i64(900)) == 9);         // rows 900.. are groups 9 and 10
  CHECK(skipped("i64"_c < i64(250)) == 8);          // groups 0, 1, 2
  CHECK(skipped("dec"_c > 100000) == 11);           // none: dec = i * 123.45 - 50000
  CHECK(skipped("dec"_c < -49000) == 10);           // rows 0..8 only (i < 8.1)
  CHECK(skipped("f64"_c <= -90.0) == 10);           // rows 0..40 (i * 0.25 - 100)
  CHECK(skipped("u"_c == "zzz") == 11);             // strings by bytes
  CHECK(skipped("u64"_c < 9223372036854775808ull + 150) == 9);  // unsigned, above 2^63
  CHECK(skipped("dec38"_c < colx::dec<38, 10>::from_unscaled(colx::int128_t{10'000'000'000} * 10'000'000'000 * 100)) == 10);
  auto const f = colx::read_parquet<cols>(path, "i64"_c >= i64(900)).collect();
  CHECK(f.num_rows() == 129);

  options.statistics = false;  // without them nothing can be skipped
  colx::write_parquet(read("plain.parquet"), path, options);
  CHECK(skipped("i64"_c >= i64(900)) == 0);
}

TEST_CASE("write_parquet: no rows, one row, dictionary columns, a typed frame", "[parquet]") {
  colx::any_table const t = read("plain.parquet");
  std::string const path = scratch("edges.parquet");
  removed_at_end const cleanup{path};
  colx::parquet_read_options first;
  first.num_rows = 0;
  colx::write_parquet(colx::read_parquet(data("plain.parquet"), first), path);
  colx::any_table const none = read_back(path);
  CHECK(none.num_rows() == 0);
  REQUIRE(none.num_columns() == 19);
  CHECK(none["dec38"].type() == t["dec38"].type());
  CHECK(colx::read_parquet_metadata(path).file.row_groups.empty());

  first.num_rows = 1;
  first.skip_rows = 1028;
  colx::write_parquet(colx::read_parquet(data("plain.parquet"), first), path);
  colx::any_table const one = read_back(path);
  REQUIRE(one.num_rows() == 1);
  check_table(one, 1028);

  // A dictionary field is written as its values (dictionary-encoded again), and read back as one.
  using typed = schema<field<"i64", std::int64_t, not_null>, field<"s", colx::dictionary<colx::string_view, std::int8_t>>,
                       field<"u", colx::string_view>, field<"d", colx::date32, not_null>>;
  auto const f = colx::read_parquet<typed>(data("dict_snappy.parquet"), {}, {}, colx::test::backend_resource());
  colx::write_parquet(f, path);
  colx::parquet_metadata const md = colx::read_parquet_metadata(path);
  REQUIRE(md.columns.size() == 4);
  CHECK(md.columns[0].max_def == 0);  // not_null: REQUIRED
  CHECK(md.columns[1].max_def == 1);
  CHECK(md.columns[2].max_def == 1);  // nullable, with nulls
  CHECK(md.columns[3].max_def == 0);
  check_table(read_back(path));
  auto const g = colx::read_parquet<typed>(path, {}, {}, colx::test::backend_resource());
  CHECK(colx::to_table(g)["s"].type().id() == colx::type_id::dictionary);
  check_table(colx::to_table(g).select_labels({"i64", "u", "d"}));
}

TEST_CASE("write_parquet: bad requests give exceptions and leave no file", "[parquet]") {
  colx::any_table const t = colx::read_parquet(data("plain.parquet"), {}, {}, colx::get_current_host_resource());
  CHECK_THROWS_AS(colx::write_parquet(t, scratch("no/such/folder/x.parquet")), colx::io_error);
  colx::parquet_write_options options;
  options.row_group_rows = 0;
  CHECK_THROWS_AS(colx::write_parquet(t, scratch("x.parquet"), options), colx::logic_error);

  colx::any_table with_duration = t.select_labels({"i64"});
  auto const v = colx::any_column_view(t["i64"]);
  with_duration.insert(colx::label("span"), colx::copy(colx::any_column_view(colx::data_type(colx::type_id::duration_seconds), v.size(),
                                                                               v.head(), v.kind(), v.null_mask(), v.null_count()),
                                                       {}, colx::get_current_host_resource()));
  std::string const path = scratch("duration.parquet");
  std::remove(path.c_str());
  CHECK_THROWS_AS(colx::write_parquet(with_duration, path), colx::parquet_error);
  CHECK_FALSE(exists(path));
  for (auto const& e : std::filesystem::directory_iterator(COLX_TEST_BINARY_DIR)) {  // (no partial file left)
    CHECK(e.path().string().find(path + ".colx-partial") == std::string::npos);
  }
}
