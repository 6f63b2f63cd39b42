// SPDX-License-Identifier: Apache-2.0
// read_parquet over files written by pyarrow and DuckDB (tests/io/parquet/make_files.py): every
// type colx reads, PLAIN, dictionary (with a fallback to PLAIN inside a chunk), the DELTA
// encodings, BYTE_STREAM_SPLIT and RLE booleans, v1 and v2 pages, no compression, SNAPPY, ZSTD
// and GZIP, several row groups and pages. Every value is checked against the formula the script
// wrote it from (`want_*` below). Then the typed reader, projection and row groups, the edges (no
// rows, one row, INT96, nested columns) and bad input: missing files, files that are not Parquet,
// truncated and overwritten bytes, which must give an exception, never a crash.
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

namespace {

using colx::int128_t;
using colx::size_type;

std::string data(std::string const& name) { return std::string(COLX_TEST_SOURCE_DIR) + "/io/parquet/data/" + name; }

colx::any_table read(std::string const& name, colx::parquet_read_options const& options = {}) {
  return colx::read_parquet(data(name), options, {}, colx::test::backend_resource());
}

// Row i of each column, as make_files.py wrote it (nullopt: null).
template <class T>
using want_fn = std::function<std::optional<T>(std::int64_t)>;

std::optional<std::int64_t> unless(bool null, std::int64_t v) { return null ? std::nullopt : std::optional(v); }

// Checks column `name` of `t` (rows first, first + 1, ...) against want(i), comparing
// project(value); reports the first row that differs.
template <class T, class Want, class Project>
void check_column(colx::any_table const& t, std::string const& name, std::int64_t first, Want want, Project project) {
  INFO("column " << name);
  REQUIRE(t.contains(name));
  auto const got = colx::to_optional_vector(colx::column<T>(colx::any_column(t[name])).view());
  for (std::size_t r = 0; r < got.size(); ++r) {
    auto const w = want(first + static_cast<std::int64_t>(r));
    bool const same = got[r].has_value() == w.has_value() && (!w || project(*got[r]) == *w);
    if (!same) {
      FAIL_CHECK("row " << r << " differs (expected " << (w ? "a value" : "null") << ")");
      return;
    }
  }
}

void check_strings(colx::any_table const& t, std::string const& name, std::int64_t first,
                   std::function<std::optional<std::string>(std::int64_t)> const& want) {
  INFO("column " << name);
  REQUIRE(t.contains(name));
  REQUIRE(t[name].type().id() == colx::type_id::string);
  auto const got = colx::to_strings(colx::strings_column_view(t[name].view()));
  for (std::size_t r = 0; r < got.size(); ++r) {
    auto const w = want(first + static_cast<std::int64_t>(r));
    if (got[r] != w) {
      FAIL_CHECK("row " << r << ": got " << got[r].value_or("null") << ", expected " << w.value_or("null"));
      return;
    }
  }
}

auto const same = [](auto v) { return static_cast<std::int64_t>(v); };
auto const ticks = [](auto v) { return static_cast<std::int64_t>(v.ticks); };
auto const unscaled = [](auto v) { return static_cast<std::int64_t>(v.unscaled); };

std::optional<std::string> want_s(std::int64_t i) {
  return i % 5 == 2 ? std::nullopt : std::optional("s" + std::to_string(i % 97));
}
std::optional<std::string> want_u(std::int64_t i) {
  return i % 17 == 16 ? std::nullopt : std::optional("row-" + std::to_string(i * 31 % 1000003) + "-\xc3\xa9");
}
std::optional<std::string> want_fixed(std::int64_t i) {
  char buf[8];
  std::snprintf(buf, sizeof buf, "%04d", static_cast<int>(i % 10000));
  return std::string(buf);
}

// The columns of make_files.py's table(n) present in `t`, rows [first, first + t.num_rows()).
void check_table(colx::any_table const& t, std::int64_t first = 0) {
  using colx::type_id;
  auto const has = [&](char const* n) { return t.contains(n); };
  if (has("i32")) { check_column<std::int32_t>(t, "i32", first, [](std::int64_t i) { return unless(i % 7 == 3, (i * 7919) % 20001 - 10000); }, same); }
  if (has("i64")) { check_column<std::int64_t>(t, "i64", first, [](std::int64_t i) { return unless(false, i * 1000000007 - 5000000000000); }, same); }
  if (has("i8")) { check_column<std::int8_t>(t, "i8", first, [](std::int64_t i) { return unless(false, i % 256 - 128); }, same); }
  if (has("u16")) { check_column<std::uint16_t>(t, "u16", first, [](std::int64_t i) { return unless(false, (i * 37) % 65536); }, same); }
  if (has("u32")) {
    check_column<std::uint32_t>(t, "u32", first,
                                [](std::int64_t i) { return unless(false, static_cast<std::int64_t>((static_cast<std::uint64_t>(i) * 2654435761u) % (1ull << 32))); }, same);
  }
  if (has("u64")) {
    check_column<std::uint64_t>(t, "u64", first, [](std::int64_t i) { return std::optional((1ull << 63) + static_cast<std::uint64_t>(i)); },
                                [](std::uint64_t v) { return v; });
  }
  if (has("f32")) { check_column<float>(t, "f32", first, [](std::int64_t i) { return std::optional(static_cast<double>(i) * 0.5); }, [](float v) { return double{v}; }); }
  if (has("f64")) {
    check_column<double>(t, "f64", first, [](std::int64_t i) { return i % 11 == 5 ? std::nullopt : std::optional(static_cast<double>(i) * 0.25 - 100); },
                         [](double v) { return v; });
  }
  if (has("b")) { check_column<bool>(t, "b", first, [](std::int64_t i) { return unless(i % 13 == 1, i % 3 == 0 ? 1 : 0); }, same); }
  if (has("s")) { check_strings(t, "s", first, want_s); }
  if (has("u")) { check_strings(t, "u", first, want_u); }
  if (has("fixed")) { check_strings(t, "fixed", first, want_fixed); }
  if (has("d")) { check_column<colx::date32>(t, "d", first, [](std::int64_t i) { return unless(false, 10957 + i % 5000); }, ticks); }
  if (has("ts_ms")) { check_column<colx::timestamp_ms>(t, "ts_ms", first, [](std::int64_t i) { return unless(false, i * 1000003); }, ticks); }
  if (has("ts_us")) { check_column<colx::timestamp_us>(t, "ts_us", first, [](std::int64_t i) { return unless(i % 19 == 7, i * 1000003); }, ticks); }
  if (has("ts_ns")) { check_column<colx::timestamp_ns>(t, "ts_ns", first, [](std::int64_t i) { return unless(false, i * 1000003); }, ticks); }
  if (has("dec")) {
    CHECK(t["dec"].type() == colx::data_type(type_id::decimal64, -2, 15));
    check_column<colx::decimal64>(t, "dec", first, [](std::int64_t i) { return unless(i % 9 == 4, i * 12345 - 5000000); }, unscaled);
  }
  if (has("dec9")) {
    CHECK(t["dec9"].type() == colx::data_type(type_id::decimal32, -3, 9));
    check_column<colx::decimal32>(t, "dec9", first, [](std::int64_t i) { return unless(false, i * 7 - 3000); }, unscaled);
  }
  if (has("dec38")) {
    CHECK(t["dec38"].type() == colx::data_type(type_id::decimal128, -10, 38));
    int128_t const e20 = static_cast<int128_t>(10'000'000'000) * 10'000'000'000;
    check_column<colx::decimal128>(t, "dec38", first, [&](std::int64_t i) { return std::optional(e20 * i + i); },
                                   [](colx::decimal128 v) { return v.unscaled; });
  }
}

}  // namespace

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
