// SPDX-License-Identifier: Apache-2.0
// Lazy pipelines on the backend under test: filter, with_columns, group_by + aggregate, sort_by
// and head recorded, then run by collect(), against plain loops; a pipeline ending in a
// reduction; drop_nulls, distinct and select; the plan text; nothing runs before collect().
#include "support/backend.hpp"

#include <colx/frame/lazy.hpp>

#include <catch2/catch.hpp>

#include <cstdint>
#include <map>
#include <optional>
#include <random>
#include <set>
#include <vector>

using namespace colx::literals;

namespace {

using colx::size_type;
using S = colx::schema<colx::field<"k", std::int32_t>, colx::field<"x", std::int64_t>>;

struct rows {
  std::vector<std::optional<std::int32_t>> k;
  std::vector<std::optional<std::int64_t>> x;
};

rows random_rows(std::size_t n, unsigned seed) {
  std::mt19937 rng(seed);
  rows r;
  for (std::size_t i = 0; i < n; ++i) {
    r.k.push_back(rng() % 10 == 0 ? std::nullopt : std::optional<std::int32_t>(static_cast<std::int32_t>(rng() % 13)));
    r.x.push_back(rng() % 8 == 0 ? std::nullopt : std::optional<std::int64_t>(static_cast<std::int64_t>(rng() % 201) - 100));
  }
  return r;
}

colx::frame<S> make_frame(rows const& r) {
  auto const mr = colx::test::backend_resource();
  return colx::frame<S>(colx::make_column<std::int32_t>(r.k, {}, mr), colx::make_column<std::int64_t>(r.x, {}, mr));
}

}  // namespace

TEST_CASE("lazy: filter, with_columns, group_by, aggregate, sort_by, head", "[frame]") {
  for (std::size_t const n : {0, 1, 999, 5000}) {
    CAPTURE(n);
    auto const r = random_rows(n, static_cast<unsigned>(n) + 1);
    auto const f = make_frame(r);
    auto const p = colx::lazy(f) | colx::filter("x"_c > -50) | colx::with_columns(("x"_c * 2).as<"y">()) |
                   colx::group_by(colx::group_by_options{.drop_null_keys = true}, "k"_c) |
                   colx::aggregate(colx::sum("y"_c).as<"s">(), colx::count().as<"n">()) | colx::sort_by(colx::desc("k"_c)) |
                   colx::head(5);
    auto const got = p.collect();

    std::map<std::int32_t, std::pair<std::int64_t, size_type>, std::greater<>> want;  // k descending
    for (std::size_t i = 0; i < n; ++i) {
      if (!r.k[i] || !r.x[i] || !(*r.x[i] > -50)) { continue; }
      auto& [s, c] = want[*r.k[i]];
      s += 2 * *r.x[i];
      c += 1;
    }
    std::size_t const rows_wanted = std::min<std::size_t>(5, want.size());
    REQUIRE(got.num_rows() == static_cast<size_type>(rows_wanted));
    auto const keys = colx::to_vector(got["k"_c].view());
    auto const sums = colx::to_optional_vector(got["s"_c].view());
    auto const counts = colx::to_vector(got["n"_c].view());
    auto it = want.begin();
    for (std::size_t g = 0; g < rows_wanted; ++g, ++it) {
      CHECK(keys[g] == it->first);
      CHECK(sums[g] == std::optional<std::int64_t>(it->second.first));
      CHECK(counts[g] == it->second.second);
    }
  }
}

TEST_CASE("lazy: a reduction ends a pipeline; drop_nulls, distinct and select", "[frame]") {
  auto const r = random_rows(3000, 5);
  auto const f = make_frame(r);
  std::int64_t total = 0;
  std::set<std::int32_t> keys;
  std::vector<std::size_t> first_rows;
  for (std::size_t i = 0; i < r.k.size(); ++i) {
    if (r.x[i] && *r.x[i] > 0) { total += *r.x[i]; }
    if (r.k[i] && r.x[i] && keys.insert(*r.k[i]).second) { first_rows.push_back(i); }
  }
  auto const sum = (colx::lazy(f) | colx::filter("x"_c > 0) | colx::reduce(colx::sum("x"_c))).collect();
  CHECK(sum == colx::scalar<std::int64_t>(total));

  auto const p = colx::lazy(f) | colx::drop_nulls() | colx::distinct("k"_c) | colx::select("x"_c.as<"value">());
  auto const got = p.collect();
  std::vector<std::optional<std::int64_t>> want;
  for (std::size_t i : first_rows) { want.push_back(r.x[i]); }
  CHECK(colx::to_optional_vector(got["value"_c].view()) == want);

  auto const text = p.explain();
  CHECK(text.find("3 stages") != std::string::npos);
  CHECK(text.find("drop_nulls") != std::string::npos);
  CHECK(text.find("distinct") != std::string::npos);
}
