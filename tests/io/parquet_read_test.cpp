// SPDX-License-Identifier: Apache-2.0
// read_parquet over files written by pyarrow and DuckDB (tests/io/parquet/make_files.py): every
// type colx reads, PLAIN, dictionary (with a fallback to PLAIN inside a chunk), the DELTA
// encodings, BYTE_STREAM_SPLIT and RLE booleans, v1 and v2 pages, no compression, SNAPPY, ZSTD
// and GZIP, several row groups and pages. Every value is checked against the formula the script
// wrote it from (`want_*` in io/parquet/expected.hpp). Then the typed reader, projection and row groups, the edges (no
// rows, one row, INT96, nested columns) and bad input: missing files, files that are not Parquet,
// truncated and overwritten bytes, which must give an exception, never a crash.
#include "io/parquet/expected.hpp"
#include "support/backend.hpp"

#include <colx/io/parquet.hpp>

#include <catch2/catch.hpp>

#include <cstdint>
#include <cstdio>
#include <fstream>
#include <functional>
#include <iterator>
#include <optional>
#include <string>
#include <vector>

#include <unistd.h>

// Both the exception's type and its message.
#define CHECK_THROWS_AS_WITH(expr, type, matcher) \
  do {                                             \
    CHECK_THROWS_AS(expr, type);                   \
    CHECK_THROWS_WITH(expr, matcher);              \
  } while (0)

TEST_CASE("read_parquet: every type, encoding, page version and codec, value for value", "[parquet]") {
  for (char const* name : {"plain.parquet", "dict_snappy.parquet", "v2_zstd.parquet", "dict_fallback.parquet", "delta.parquet",
                           "delta_v1.parquet"}) {
    INFO("file " << name);
    colx::any_table const t = read(name);
    REQUIRE(t.num_rows() == 1029);
    CHECK(t.num_columns() == 19);
    CHECK(t.labels().front() == colx::label("i32"));
    CHECK(t["i32"].kind() == colx::test::backend_kind());
    CHECK(t["i32"].null_count() == 147);  // rows 3, 10, ...: 1029 / 7
    CHECK(t["i64"].null_count() == 0);
    CHECK_FALSE(t["i64"].nullable());  // an optional column without nulls gets no mask
    check_table(t);
  }
}

TEST_CASE("read_parquet: a file DuckDB wrote", "[parquet]") {
  colx::any_table const t = read("duckdb.parquet");
  REQUIRE(t.num_rows() == 1029);
  CHECK(t.num_columns() == 9);
  check_table(t);
}

TEST_CASE("read_parquet: columns in the order asked, row groups, no rows, one row, INT96", "[parquet]") {
  colx::parquet_read_options options;
  options.columns = {"u", "dec", "i32"};
  colx::any_table const t = read("dict_snappy.parquet", options);
  REQUIRE(t.num_columns() == 3);
  CHECK(t.labels()[0] == colx::label("u"));
  CHECK(t.labels()[2] == colx::label("i32"));
  check_table(t);

  options.row_groups = {2, 0};  // rows 800..1028, then 0..399
  colx::any_table const groups = read("v2_zstd.parquet", options);
  REQUIRE(groups.num_rows() == 229 + 400);
  check_table(read("v2_zstd.parquet", {{"u", "dec", "i32"}, {2}}), 800);
  CHECK(colx::to_strings(colx::strings_column_view(groups["u"].view()))[229] == want_u(0));

  colx::any_table const empty = read("empty.parquet");
  CHECK(empty.num_rows() == 0);
  CHECK(empty.num_columns() == 19);
  CHECK(empty["u"].type().id() == colx::type_id::string);
  CHECK(empty["dec"].type() == colx::data_type(colx::type_id::decimal64, -2, 15));

  colx::any_table const one = read("one_row.parquet");
  REQUIRE(one.num_rows() == 1);
  check_table(one);

  colx::any_table const legacy = read("int96.parquet");
  CHECK(legacy["ts_ns"].type().id() == colx::type_id::timestamp_nanoseconds);
  check_table(legacy);
}

namespace {
using colx::dec;
using colx::dictionary;
using colx::field;
using colx::not_null;
using colx::schema;
using colx::string_view;
using lineitemish = schema<field<"i64", std::int64_t, not_null>, field<"dec", dec<15, 2>>, field<"d", colx::date32, not_null>,
                           field<"s", dictionary<string_view, std::int8_t>>, field<"u", string_view>>;
}  // namespace

TEST_CASE("read_parquet<Schema>: typed at the door, dictionary fields encoded as read", "[parquet]") {
  for (char const* name : {"plain.parquet", "dict_snappy.parquet", "duckdb.parquet"}) {
    INFO("file " << name);
    auto const f = colx::read_parquet<lineitemish>(data(name), {}, {}, colx::test::backend_resource());
    REQUIRE(f.num_rows() == 1029);
    colx::any_table t = colx::to_table(f);
    check_table(t.select_labels({"i64", "dec", "d", "u"}));
    auto const s = colx::to_strings(colx::strings_column_view(colx::decode(colx::dictionary_column<string_view, std::int8_t>(colx::any_column(t["s"]))).view()));
    for (std::size_t i = 0; i < s.size(); ++i) {
      if (s[i] != want_s(static_cast<std::int64_t>(i))) {
        FAIL_CHECK("dictionary row " << i);
        break;
      }
    }
  }
  using wrong = schema<field<"dec", dec<15, 3>>, field<"nope", std::int32_t>, field<"i32", std::int64_t>, field<"i64", std::int64_t>>;
  CHECK_THROWS_AS_WITH(colx::read_parquet<wrong>(data("plain.parquet")), colx::schema_error,
                       Catch::Matchers::Contains("\"dec\" is decimal64(precision 15, scale -2) in the file") &&
                           Catch::Matchers::Contains("\"nope\" is not a column") && Catch::Matchers::Contains("\"i32\" is int32") &&
                           !Catch::Matchers::Contains("\"i64\""));
}

TEST_CASE("read_parquet: nested columns are named in a schema_error, the flat ones still read", "[parquet]") {
  CHECK_THROWS_AS_WITH(read("nested.parquet"), colx::schema_error,
                       Catch::Matchers::Contains("\"tags.list.element\"") && Catch::Matchers::Contains("\"point.x\"") &&
                           Catch::Matchers::Contains("nested"));
  colx::any_table const t = read("nested.parquet", {{"id"}, {}});
  check_column<std::int64_t>(t, "id", 0, [](std::int64_t i) { return std::optional(i); }, same);
  CHECK_THROWS_AS_WITH(read("plain.parquet", {{"i32", "no_such"}, {}}), colx::schema_error,
                       Catch::Matchers::Contains("\"no_such\" is not in the file") && Catch::Matchers::Contains("the file's columns: i32, i64"));
  CHECK_THROWS_AS(read("plain.parquet", {{}, {3}}), colx::out_of_range);
}

namespace {
std::vector<char> bytes_of(std::string const& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), {}};
}
// (named by the process: ctest runs the host and device runs of this test at once)
std::string write_temp(std::vector<char> const& bytes, std::string const& name) {
  std::string const path = std::string(COLX_TEST_BINARY_DIR) + "/parquet_" + std::to_string(::getpid()) + "_" + name;
  std::ofstream(path, std::ios::binary).write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
  return path;
}
}  // namespace

TEST_CASE("read_parquet: bad files give exceptions that say what is wrong, never a crash", "[parquet]") {
  CHECK_THROWS_AS_WITH(colx::read_parquet(data("no_such_file.parquet")), colx::io_error, Catch::Matchers::Contains("no_such_file.parquet"));
  CHECK_THROWS_AS_WITH(colx::read_parquet(data("../parquet")), colx::io_error, Catch::Matchers::Contains("directory"));
  CHECK_THROWS_AS_WITH(colx::read_parquet(data("../make_files.py")), colx::parquet_error, Catch::Matchers::Contains("not a Parquet file"));

  for (char const* name : {"plain.parquet", "dict_snappy.parquet", "delta.parquet", "v2_zstd.parquet"}) {
    INFO("file " << name);
    std::vector<char> const good = bytes_of(data(name));
    REQUIRE(good.size() > 1000);
    // Cut short: the footer is gone.
    std::vector<char> cut(good.begin(), good.begin() + static_cast<std::ptrdiff_t>(good.size() / 2));
    CHECK_THROWS_AS(colx::read_parquet(write_temp(cut, "cut")), colx::parquet_error);
    // 16 bytes overwritten at places across the file: page headers, levels, lengths, compressed
    // data, the footer. Each read either succeeds (the bytes were values) or throws colx's errors.
    int failed = 0;
    for (std::size_t at = 4; at + 16 < good.size(); at += good.size() / 37) {
      std::vector<char> bad = good;
      for (std::size_t k = 0; k < 16; ++k) { bad[at + k] = static_cast<char>(0xff - k * 13); }
      try {
        (void)colx::read_parquet(write_temp(bad, "overwritten"), {}, {}, colx::test::backend_resource());
      } catch (colx::logic_error const&) {
        ++failed;
      }
    }
    CHECK(failed > 0);
    std::remove(write_temp({}, "cut").c_str());
    std::remove(write_temp({}, "overwritten").c_str());
  }
}

TEST_CASE("read_parquet<Schema>(path, where): row groups the statistics rule out are not read", "[parquet]") {
  using namespace colx::literals;
  using plain = schema<field<"i64", std::int64_t, not_null>, field<"d", colx::date32, not_null>, field<"u", string_view>,
                       field<"dec", dec<15, 2>>, field<"f64", double>>;
  // plain.parquet: 1029 rows in groups of 400; i64 and d grow with the row.
  auto const i64 = [](std::int64_t i) { return i * 1000000007 - 5000000000000; };
  auto const read_where = [&](auto const& where, char const* file = "plain.parquet") {
    colx::parquet_read_stats stats;
    colx::parquet_read_options options;
    options.stats = &stats;
    auto const f = colx::read_parquet<plain>(data(file), where, options, {}, colx::test::backend_resource()).collect();
    return std::pair(colx::to_table(f), stats);
  };
  auto const ids = [&](colx::any_table const& t) {
    std::vector<std::int64_t> rows;
    for (auto const& v : colx::to_optional_vector(colx::column<std::int64_t>(colx::any_column(t["i64"])).view())) {
      rows.push_back((*v + 5000000000000) / 1000000007);
    }
    return rows;
  };
  auto const range = [](std::int64_t a, std::int64_t b) {
    std::vector<std::int64_t> r;
    for (std::int64_t i = a; i < b; ++i) { r.push_back(i); }
    return r;
  };
  {
    auto const [t, s] = read_where("i64"_c >= i64(900));
    CHECK(s.row_groups_skipped == 2);
    CHECK(s.row_groups == 1);
    CHECK(ids(t) == range(900, 1029));
    check_table(t.select_labels({"u", "dec", "f64"}), 900);
  }
  {
    auto const [t, s] = read_where(i64(100) > "i64"_c || "i64"_c > i64(1000));  // the constant on either side
    CHECK(s.row_groups_skipped == 1);
    std::vector<std::int64_t> want = range(0, 100);
    for (std::int64_t i = 1001; i < 1029; ++i) { want.push_back(i); }
    CHECK(ids(t) == want);
  }
  {
    auto const [t, s] = read_where("d"_c < colx::date32{10957 + 400} && "i64"_c != i64(5));
    CHECK(s.row_groups_skipped == 2);
    std::vector<std::int64_t> want = range(0, 400);
    want.erase(want.begin() + 5);
    CHECK(ids(t) == want);
  }
  {  // nothing passes: no group is read, and the frame is empty
    auto const [t, s] = read_where("i64"_c < i64(0) - 1);
    CHECK(s.row_groups_skipped == 3);
    CHECK(t.num_rows() == 0);
  }
  {  // a decimal against an integer, exactly (dec = i * 123.45 - 50000); strings by bytes; floats
    auto const [t, s] = read_where("dec"_c > 100000);  // i > 1215.4: none
    CHECK(s.row_groups_skipped == 3);
    auto const [u, su] = read_where("u"_c == "zzz");  // every "row-..." sorts before
    CHECK(su.row_groups_skipped == 3);
    CHECK(u.num_rows() == 0);
    auto const [v, sv] = read_where("f64"_c <= -90.0);  // i <= 40
    CHECK(sv.row_groups_skipped == 2);
    CHECK(ids(v).size() == 41 - 4);  // rows 0..40 less the 4 null ones (i % 11 == 5)
  }
  {  // what statistics cannot decide is filtered after the read, from every group
    auto const [t, s] = read_where("i64"_c + 1 > i64(900));
    CHECK(s.row_groups_skipped == 0);
    CHECK(ids(t) == range(900, 1029));
  }
  {  // DuckDB's statistics (its file is one row group)
    auto const [t, s] = read_where("i64"_c >= i64(1000), "duckdb.parquet");
    CHECK(s.row_groups_skipped == 0);
    CHECK(ids(t) == range(1000, 1029));
    auto const [u, su] = read_where("i64"_c > i64(1028), "duckdb.parquet");
    CHECK(su.row_groups_skipped == 1);
    CHECK(u.num_rows() == 0);
  }
}
