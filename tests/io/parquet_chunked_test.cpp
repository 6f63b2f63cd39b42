// SPDX-License-Identifier: Apache-2.0
// Reading parts of a Parquet file, or several files: a row window (skip_rows, num_rows) over the row
// groups read, several files as one table or frame,
// explain_read_parquet's plan against what the read then did, and the chunked readers: chunks
// within max_rows (row groups cut into windows) and max_bytes, which together hand out every row
// once, in order, with the values make_files.py wrote (tests/io/parquet/expected.hpp).
#include "io/parquet/expected.hpp"
#include "support/backend.hpp"

#include <colx/io/parquet_reader.hpp>

#include <catch2/catch.hpp>

#include <cstdint>
#include <string>
#include <vector>

#include <unistd.h>

namespace {

using colx::field;
using colx::not_null;
using colx::schema;

// plain.parquet and dict_snappy.parquet: 1029 rows in row groups of 400, 400 and 229.
constexpr std::int64_t file_rows = 1029;

colx::any_table read_window(std::string const& name, std::int64_t skip, std::int64_t num, colx::parquet_read_stats* stats = nullptr) {
  colx::parquet_read_options options;
  options.skip_rows = skip;
  options.num_rows = num;
  options.stats = stats;
  return colx::read_parquet(data(name), options, {}, colx::test::backend_resource());
}

}  // namespace

TEST_CASE("read_parquet: a row window reads only the row groups that hold it", "[parquet]") {
  struct window {
    std::int64_t skip, num, rows, groups;
  };
  for (auto const w : {window{0, -1, 1029, 3}, window{0, 1, 1, 1}, window{399, 2, 2, 2}, window{400, 400, 400, 1},
                       window{401, 1000, 628, 2}, window{1028, 5, 1, 1}, window{1029, -1, 0, 1}, window{500, 0, 0, 1},
                       window{37, 777, 777, 3}}) {
    INFO("skip " << w.skip << ", num " << w.num);
    for (char const* name : {"plain.parquet", "dict_snappy.parquet"}) {
      INFO("file " << name);
      colx::parquet_read_stats stats;
      colx::any_table const t = read_window(name, w.skip, w.num, &stats);
      REQUIRE(t.num_rows() == w.rows);
      CHECK(t.num_columns() == 19);
      CHECK(stats.row_groups == w.groups);
      check_table(t, w.skip);
    }
  }
  // Over the row groups named, in their order: group 2 then group 0.
  colx::parquet_read_options options;
  options.row_groups = {2, 0};
  options.skip_rows = 200;
  options.num_rows = 100;
  colx::any_table const t = colx::read_parquet(data("plain.parquet"), options, {}, colx::test::backend_resource());
  REQUIRE(t.num_rows() == 100);
  auto const rows = [&](std::int64_t begin, std::int64_t end) {
    return colx::parquet::detail::slice_rows(t, begin, end, {}, colx::test::backend_resource());
  };
  check_table(rows(0, 29), 1000);  // group 2 holds rows 800..1028
  check_table(rows(29, 100), 0);   // then group 0
  CHECK_THROWS_AS(read_window("plain.parquet", 1030, 1), colx::out_of_range);
  CHECK_THROWS_AS(read_window("plain.parquet", -1, 1), colx::out_of_range);
}

TEST_CASE("explain_read_parquet: the row groups and bytes a read will take, before it does", "[parquet]") {
  using namespace colx::literals;
  using plain = schema<field<"i64", std::int64_t, not_null>, field<"u", colx::string_view>>;
  auto const i64 = [](std::int64_t i) { return i * 1000000007 - 5000000000000; };
  colx::parquet_scan_plan const all = colx::explain_read_parquet(data("plain.parquet"));
  CHECK(all.row_groups_read == std::vector<std::size_t>{0, 1, 2});
  CHECK(all.row_groups_skipped.empty());
  CHECK(all.rows == file_rows);
  CHECK(all.columns.size() == 19);
  CHECK(all.file_bytes == all.file_bytes_without_skipping);

  auto const where = "i64"_c >= i64(900);
  colx::parquet_scan_plan const plan = colx::explain_read_parquet<plain>(data("plain.parquet"), where);
  CHECK(plan.row_groups_read == std::vector<std::size_t>{2});
  CHECK(plan.row_groups_skipped == std::vector<std::size_t>{0, 1});
  CHECK(plan.rows == 229);
  CHECK(plan.columns == std::vector<std::string>{"i64", "u"});
  CHECK(plan.file_bytes < plan.file_bytes_without_skipping / 2);
  std::string const text = plan.to_string();
  CHECK_THAT(text, Catch::Contains("row groups skipped by statistics: 2 [0 1]"));
  CHECK_THAT(text, Catch::Contains("row groups read: 1 [2], 229 rows"));

  // The read does what the plan said, byte for byte.
  colx::parquet_read_stats stats;
  colx::parquet_read_options options;
  options.stats = &stats;
  auto const f = colx::read_parquet<plain>(data("plain.parquet"), where, options, {}, colx::test::backend_resource()).collect();
  CHECK(f.num_rows() == 129);
  CHECK(stats.row_groups_skipped == 2);
  CHECK(stats.file_bytes_read == plan.file_bytes);
  CHECK(stats.decompressed_bytes <= plan.uncompressed_bytes);  // (the plan counts the page headers)
  CHECK(stats.decompressed_bytes > plan.uncompressed_bytes * 9 / 10);
  options.skip_rows = 5;
  CHECK_THROWS_AS(colx::read_parquet<plain>(data("plain.parquet"), where, options), colx::logic_error);
}

TEST_CASE("parquet_reader: chunks within the limits hand out every row once, in order", "[parquet]") {
  struct limits_case {
    std::int64_t max_rows;
    std::size_t max_bytes;
    std::int64_t skip, num;
    std::vector<std::int64_t> sizes;  // of the chunks, in order
  };
  std::size_t const huge = std::size_t{1} << 40;
  for (auto const& c : {limits_case{0, 0, 0, -1, {1029}}, limits_case{400, 0, 0, -1, {400, 400, 229}},
                        limits_case{800, 0, 0, -1, {800, 229}}, limits_case{300, 0, 0, -1, {300, 100, 300, 100, 229}},
                        limits_case{700, 0, 10, 1000, {390, 610}}, limits_case{0, 1, 0, -1, {400, 400, 229}},
                        limits_case{0, huge, 0, -1, {400, 629}}, limits_case{0, 0, 1029, -1, {}},
                        limits_case{7, 0, 396, 9, {4, 5}}}) {
    INFO("max_rows " << c.max_rows << ", max_bytes " << c.max_bytes << ", skip " << c.skip << ", num " << c.num);
    for (char const* name : {"plain.parquet", "dict_snappy.parquet"}) {
      INFO("file " << name);
      colx::parquet_read_options options;
      options.skip_rows = c.skip;
      options.num_rows = c.num;
      colx::parquet_read_stats stats;
      options.stats = &stats;
      colx::any_parquet_reader reader(data(name), {c.max_rows, c.max_bytes}, options, {}, colx::test::backend_resource());
      std::vector<std::int64_t> sizes;
      std::int64_t first = c.skip;
      while (auto chunk = reader.next()) {
        sizes.push_back(chunk->num_rows());
        CHECK(chunk->num_columns() == 19);
        check_table(*chunk, first);
        first += chunk->num_rows();
      }
      CHECK_FALSE(reader.has_next());
      CHECK(sizes == c.sizes);
      CHECK(reader.chunks() == c.sizes.size());
      CHECK(stats.row_groups <= 3);  // (a group cut into windows is read once)
    }
  }
}

TEST_CASE("parquet_reader<Schema>: typed chunks, checked against the file once", "[parquet]") {
  using namespace colx::literals;
  using typed = schema<field<"i64", std::int64_t, not_null>, field<"dec", colx::dec<15, 2>>, field<"u", colx::string_view>>;
  colx::parquet_reader<typed> reader(data("dict_snappy.parquet"), {.max_rows = 500}, {}, {}, colx::test::backend_resource());
  std::vector<colx::frame<typed>> chunks;
  while (auto f = reader.next()) { chunks.push_back(std::move(*f)); }
  REQUIRE(chunks.size() == 3);
  auto const all = colx::concat(std::span<colx::frame<typed> const>(chunks));
  REQUIRE(all.num_rows() == file_rows);
  check_table(colx::to_table(all));
  auto const whole = colx::read_parquet<typed>(data("dict_snappy.parquet"), {}, {}, colx::test::backend_resource());
  CHECK((all | colx::reduce(colx::sum("dec"_c))) == (whole | colx::reduce(colx::sum("dec"_c))));
  using wrong = schema<field<"i64", std::int32_t, not_null>>;
  CHECK_THROWS_AS(colx::parquet_reader<wrong>(data("plain.parquet"), {}), colx::schema_error);
}

namespace {

// Makes r the current resource of the backend under test while it lives.
class current_resource_guard {
 public:
  explicit current_resource_guard(colx::resource_ref r) : _previous(set(r)) {}
  ~current_resource_guard() { (void)set(_previous); }
  current_resource_guard(current_resource_guard const&) = delete;

 private:
  static colx::resource_ref set(colx::resource_ref r) {
#if COLX_HAS_CUDA
    if (colx::test::on_device()) { return colx::set_current_device_resource(r); }
#endif
    return colx::set_current_host_resource(r);
  }
  colx::resource_ref _previous;
};

}  // namespace

TEST_CASE("parquet_reader: a group-by streamed over a file three times the memory limit", "[parquet]") {
  using namespace colx::literals;
  // 480,000 rows in row groups of 10,000: a key of 1009 values, a nullable decimal, a string.
  std::int64_t const n = 480'000;
  std::vector<std::int64_t> k(n);
  std::vector<std::optional<colx::dec<15, 2>>> v(n);
  std::vector<std::string> s(n);
  for (std::int64_t i = 0; i < n; ++i) {
    auto const u = static_cast<std::size_t>(i);
    k[u] = (i * 7919) % 1009;
    v[u] = i % 13 == 5 ? std::nullopt : std::optional(colx::dec<15, 2>::from_unscaled(i % 100000 - 3000));
    s[u] = "comment " + std::to_string(i * 2654435761 % 1000003);
  }
  auto const table = colx::make_frame(colx::values<"k">(k), colx::values<"v">(v), colx::values<"s">(s), colx::memory_kind::host);
  using file_schema = std::remove_cvref_t<decltype(table)>::schema_type;
  std::string const path = std::string(COLX_TEST_BINARY_DIR) + "/" + std::to_string(::getpid()) + "_three_times.parquet";
  colx::parquet_write_options write;
  write.row_group_rows = 10'000;
  colx::write_parquet(table, path, write);
  struct removed_at_end {
    std::string path;
    ~removed_at_end() { std::remove(path.c_str()); }
  } const cleanup{path};
  std::size_t const file_bytes = colx::file_source(path).size();

  auto const totals = [](auto const& f) {
    return f | colx::group_by("k"_c) | colx::aggregate(colx::sum("v"_c).as<"total">(), colx::count("v"_c).as<"values">());
  };
  auto const expected = totals(colx::read_parquet<file_schema>(path, {}, {}, colx::test::backend_resource())) | colx::sort_by(colx::asc("k"_c));

  std::size_t const limit = file_bytes / 3;
  colx::limiting_adaptor limited(colx::test::backend_resource(), limit);
  auto const merge = [](auto const& f) {  // partial totals into totals
    return f | colx::group_by("k"_c) | colx::aggregate(colx::sum("total"_c).as<"total">(), colx::sum("values"_c).as<"values">());
  };
  colx::any_table got;
  std::size_t chunks = 0;
  {
    current_resource_guard const guard(limited);
    colx::parquet_reader<file_schema> reader(path, {.max_bytes = limit / 3}, {}, {}, limited);
    auto first = reader.next();
    REQUIRE(first);
    auto running = merge(totals(*first));  // (merged as the chunks come: what is kept stays small)
    first.reset();
    while (auto chunk = reader.next()) { running = merge(colx::concat(running, merge(totals(*chunk)))); }
    chunks = reader.chunks();
    got = colx::to_table(running | colx::sort_by(colx::asc("k"_c)));
  }
  INFO("file " << file_bytes << " bytes, limit " << limit << ", " << chunks << " chunks");
  CHECK(chunks >= 6);
  REQUIRE(got.num_rows() == 1009);
  auto const want = colx::to_table(expected);
  CHECK(colx::to_optional_vector(colx::column<std::int64_t>(colx::any_column(got["k"])).view()) ==
        colx::to_optional_vector(colx::column<std::int64_t>(colx::any_column(want["k"])).view()));
  CHECK(colx::to_optional_vector(colx::column<std::int64_t>(colx::any_column(got["values"])).view()) ==
        colx::to_optional_vector(colx::column<std::int64_t>(colx::any_column(want["values"])).view()));
  CHECK(got["total"].type() == want["total"].type());
  auto const sums = [](colx::any_table const& t) {
    std::vector<colx::int128_t> out;
    auto const add = [&]<class T>(T*) {
      for (auto const& x : colx::to_optional_vector(colx::column<T>(colx::any_column(t["total"])).view())) { out.push_back(x ? x->unscaled : -1); }
    };
    if (t["total"].type().id() == colx::type_id::decimal128) {
      add(static_cast<colx::decimal128*>(nullptr));
    } else {
      add(static_cast<colx::decimal64*>(nullptr));
    }
    return out;
  };
  CHECK(sums(got) == sums(want));
  CHECK(sums(got).size() == 1009);
  // The same limit without chunks cannot read the file.
  CHECK_THROWS_AS(colx::read_parquet<file_schema>(path, {}, {}, limited), colx::out_of_memory);
}

TEST_CASE("read_parquet: several files, one after another", "[parquet]") {
  std::vector<std::string> const files = {data("plain.parquet"), data("dict_snappy.parquet"), data("v2_zstd.parquet")};
  colx::parquet_read_stats stats;
  colx::parquet_read_options options;
  options.columns = {"u", "dec", "i32", "s"};
  options.stats = &stats;
  colx::any_table const t = colx::read_parquet(files, options, {}, colx::test::backend_resource());
  REQUIRE(t.num_rows() == 3 * file_rows);
  CHECK(t.num_columns() == 4);
  CHECK(stats.row_groups == 9);
  for (std::int64_t f = 0; f < 3; ++f) {
    INFO("file " << f);
    check_table(colx::parquet::detail::slice_rows(t, f * file_rows, (f + 1) * file_rows, {}, colx::test::backend_resource()), 0);
  }
  // Typed: each file checked; a dictionary field has one dictionary over all of them.
  using typed = schema<field<"i64", std::int64_t, not_null>, field<"s", colx::dictionary<colx::string_view, std::int8_t>>>;
  auto const f = colx::read_parquet<typed>(files, {}, {}, colx::test::backend_resource());
  REQUIRE(f.num_rows() == 3 * file_rows);
  colx::any_table const ft = colx::to_table(f);
  CHECK(ft["s"].type().id() == colx::type_id::dictionary);
  CHECK(ft["s"].children().front().size() == 97);  // "s0" .. "s96", once
  // Files that differ: one schema_error naming each problem; a row window is refused.
  CHECK_THROWS_AS(colx::read_parquet(std::vector<std::string>{data("plain.parquet"), data("duckdb.parquet")}), colx::schema_error);
  CHECK_THROWS_AS(colx::read_parquet<typed>(std::vector<std::string>{data("plain.parquet"), data("nested.parquet")}), colx::schema_error);
  colx::parquet_read_options window;
  window.num_rows = 5;
  CHECK_THROWS_AS(colx::read_parquet(files, window), colx::logic_error);
  CHECK_THROWS_AS(colx::read_parquet(std::vector<std::string>{}), colx::logic_error);
}
