// SPDX-License-Identifier: Apache-2.0
#pragma once
// What tests/io/parquet/make_files.py wrote: row i of each column of table(n) (`want_*`), and
// checks of a read table against it, row for row.
#include "support/backend.hpp"

#include <colx/io/parquet.hpp>

#include <catch2/catch.hpp>

#include <cstdint>
#include <cstdio>
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace {

using colx::int128_t;
using colx::size_type;

std::string data(std::string const& name) { return std::string(COLX_TEST_SOURCE_DIR) + "/io/parquet/data/" + name; }

[[maybe_unused]] colx::any_table read(std::string const& name, colx::parquet_read_options const& options = {}) {
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
