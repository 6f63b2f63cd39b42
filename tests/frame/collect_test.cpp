// SPDX-License-Identifier: Apache-2.0
// Frames: construction checks, collect() of filtered frames with every column kind (strings
// included) against a plain loop, and explain()'s account of a plan.
#include "support/backend.hpp"

#include <catch2/catch.hpp>

#include <optional>
#include <random>
#include <string>
#include <string_view>
#include <vector>

using namespace colx::literals;

namespace {

using mixed = colx::schema<colx::field<"s", colx::string_view>, colx::field<"x", double>,
                           colx::field<"k", std::int32_t, colx::not_null>>;

struct rows {
  std::vector<std::optional<std::string>> s;
  std::vector<std::optional<double>> x;
  std::vector<std::int32_t> k;
};

rows random_rows(colx::size_type n, unsigned seed) {
  std::mt19937 rng(seed);
  rows r;
  char const* words[] = {"", "a", "north", "héllo", "a somewhat longer string than the others", "ok"};
  for (colx::size_type i = 0; i < n; ++i) {
    if (rng() % 5 == 0) {
      r.s.emplace_back(std::nullopt);
    } else {
      r.s.emplace_back(std::string(words[rng() % 6]) + std::to_string(i % 13));
    }
    r.x.push_back(rng() % 7 == 0 ? std::nullopt : std::optional<double>((rng() % 1000) / 10.0));
    r.k.push_back(static_cast<std::int32_t>(rng() % 100));
  }
  return r;
}

colx::frame<mixed> make_frame(rows const& r) {
  return colx::frame<mixed>(colx::make_strings_column(r.s), colx::make_column(r.x), colx::make_column(r.k));
}

}  // namespace

TEST_CASE("frame: columns must have equal lengths and respect not_null", "[frame]") {
  colx::test::tracked_resource mr;
  {
    auto const make_bad_length = [&] {
      return colx::frame<mixed>(colx::make_strings_column({"a", "b"}, colx::type_id::int32, {}, mr.ref()),
                                colx::make_column<double>({{1.0}, {2.0}}, {}, mr.ref()),
                                colx::make_column<std::int32_t>(std::vector<std::int32_t>{1, 2, 3}, {}, mr.ref()));
    };
    CHECK_THROWS_AS(make_bad_length(), colx::logic_error);
    CHECK_THROWS_WITH(make_bad_length(), Catch::Contains("equal lengths") && Catch::Contains("\"k\""));
    using strict = colx::schema<colx::field<"v", std::int32_t, colx::not_null>>;
    auto const make_nulls = [&] {
      return colx::frame<strict>(colx::make_column<std::int32_t>({{1}, std::nullopt}, {}, mr.ref()));
    };
    CHECK_THROWS_AS(make_nulls(), colx::schema_error);
    CHECK_THROWS_WITH(make_nulls(), Catch::Contains("not_null") && Catch::Contains("\"v\""));
  }
  CHECK(mr.outstanding_bytes() == 0);
}

TEST_CASE("frame: collect keeps the rows of every column, strings included", "[frame]") {
  for (colx::size_type n : {0, 1, 31, 32, 33, 257, 2047, 2048, 2049, 4097, 100003}) {
    CAPTURE(n);
    auto const r = random_rows(n, static_cast<unsigned>(n) + 7);
    auto const f = make_frame(r);
    for (int threshold : {0, 3, 50, 97, 100}) {
      CAPTURE(threshold);
      // Kleene: a null s makes the left side null, which the right side may still decide.
      auto const kept = (f | colx::filter(colx::starts_with("s"_c, "a") || "k"_c < threshold)).collect();
      rows expected;
      for (std::size_t i = 0; i < r.k.size(); ++i) {
        bool const left = r.s[i] && r.s[i]->rfind("a", 0) == 0;
        if (left || r.k[i] < threshold) {
          expected.s.push_back(r.s[i]);
          expected.x.push_back(r.x[i]);
          expected.k.push_back(r.k[i]);
        }
      }
      REQUIRE(kept.num_rows() == static_cast<colx::size_type>(expected.k.size()));
      CHECK(colx::to_strings(kept["s"_c].view()) == expected.s);
      CHECK(colx::to_optional_vector(kept["x"_c].view()) == expected.x);
      CHECK(colx::to_vector(kept["k"_c].view()) == expected.k);
      colx::size_type string_nulls = 0;
      for (auto const& s : expected.s) { string_nulls += s ? 0 : 1; }
      CHECK(kept["s"_c].null_count() == string_nulls);
    }
  }
}

TEST_CASE("frame: explain names the expressions, the columns read and the bytes", "[frame]") {
  auto const f = make_frame(random_rows(1000, 3));
  auto const text = colx::explain(f | colx::filter("k"_c > 10), colx::reduce(colx::sum("x"_c), colx::count()));
  CHECK_THAT(text, Catch::Contains("(k > 10)") && Catch::Contains("sum(x)") && Catch::Contains("count(*)"));
  CHECK_THAT(text, Catch::Contains("reads k (4000 bytes)") && Catch::Contains("reads x"));
  CHECK_THAT(text, !Catch::Contains("reads s"));
  auto const cost = colx::plan(f | colx::filter("k"_c > 10), colx::reduce(colx::sum("x"_c)));
  CHECK(cost.kernels == 1);
  CHECK(cost.bytes_written == 0);
  // x is nullable with a mask: 8 bytes a row plus its mask words; k is 4 bytes a row.
  CHECK(cost.bytes_read == 1000 * 8 + colx::bitmask_words(1000) * 4 + 1000 * 4);
}

TEST_CASE("frame: bytes_of_columns counts named columns as explain counts a plan's", "[frame]") {
  for (colx::size_type const n : {0, 1, 1000}) {
    CAPTURE(n);
    auto const f = make_frame(random_rows(n, 5));
    std::vector<std::string_view> const kx{"k", "x"};
    auto const cost = colx::plan(f | colx::filter("k"_c > 10), colx::reduce(colx::sum("x"_c)));
    CHECK(colx::bytes_of_columns(f, kx) == cost.bytes_read);
    std::vector<std::string_view> const s{"s", "s"};  // a name twice is read once
    std::size_t chars = 0;
    for (auto const& v : random_rows(n, 5).s) { chars += v ? v->size() : 0; }
    auto const strings = colx::bytes_of_columns(f, s);
    CHECK(strings >= chars + static_cast<std::size_t>(n) * 4);  // the bytes and the offsets at least
    CHECK(colx::bytes_of_columns(f, std::vector<std::string_view>{}) == 0);
    std::vector<std::string_view> const typo{"k", "y"};
    CHECK_THROWS_AS(colx::bytes_of_columns(f, typo), colx::logic_error);
    CHECK_THROWS_WITH(colx::bytes_of_columns(f, typo), Catch::Contains("no column named \"y\""));
  }
}
