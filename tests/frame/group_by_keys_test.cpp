// SPDX-License-Identifier: Apache-2.0
// Group-by keys that pack into one 64-bit word, at its edges: a not-null int64 key whose word is
// all ones (INT64_MAX: the table's "empty" word, kept in a slot of its own and never in a block's
// table), beside INT64_MIN, 0 and -1; few groups (block tables) and many (global table only);
// two keys packed together (int32 and nullable int16). Sums and counts against a std::map.
#include "support/backend.hpp"

#include <catch2/catch.hpp>

#include <cstdint>
#include <limits>
#include <map>
#include <optional>
#include <random>
#include <vector>

using namespace colx::literals;

namespace {
using colx::size_type;
using S = colx::schema<colx::field<"k", std::int64_t, colx::not_null>, colx::field<"a", std::int32_t, colx::not_null>,
                       colx::field<"b", std::int16_t>, colx::field<"v", std::int64_t, colx::not_null>>;
}  // namespace

TEST_CASE("group_by: packed keys at the edges of the word", "[frame]") {
  constexpr std::int64_t edges[] = {std::numeric_limits<std::int64_t>::max(), std::numeric_limits<std::int64_t>::min(), 0, -1};
  for (int const spread : {4, 300000}) {  // few groups, then about as many groups as rows
    for (std::size_t const n : {std::size_t{1}, std::size_t{1000}, std::size_t{200001}}) {
      CAPTURE(spread, n);
      std::mt19937_64 rng(n + static_cast<std::size_t>(spread));
      std::vector<std::int64_t> k, v;
      std::vector<std::int32_t> a;
      std::vector<std::optional<std::int16_t>> b;
      for (std::size_t i = 0; i < n; ++i) {
        std::uint64_t const r = rng();
        k.push_back(r % 3 == 0 ? edges[r % 4] : static_cast<std::int64_t>(r % static_cast<std::uint64_t>(spread)));
        a.push_back(static_cast<std::int32_t>(rng() % 5) - 2);
        b.push_back(rng() % 4 == 0 ? std::nullopt : std::optional<std::int16_t>(static_cast<std::int16_t>(rng() % 3)));
        v.push_back(static_cast<std::int64_t>(i % 7));
      }
      k[0] = edges[0];
      auto const mr = colx::test::backend_resource();
      colx::frame<S> const f(colx::make_column<std::int64_t>(k, {}, mr), colx::make_column<std::int32_t>(a, {}, mr),
                             colx::make_column<std::int16_t>(b, {}, mr), colx::make_column<std::int64_t>(v, {}, mr));

      std::map<std::int64_t, std::pair<std::int64_t, size_type>> by_k;
      std::map<std::pair<std::int32_t, std::optional<std::int16_t>>, size_type> by_ab;
      for (std::size_t i = 0; i < n; ++i) {
        by_k[k[i]].first += v[i];
        by_k[k[i]].second += 1;
        by_ab[{a[i], b[i]}] += 1;
      }
      auto const g = f | colx::group_by(colx::group_by_options{.sorted = true}, "k"_c) |
                     colx::aggregate(colx::sum("v"_c).as<"s">(), colx::count().as<"n">());
      REQUIRE(g.num_rows() == static_cast<size_type>(by_k.size()));
      auto const keys = colx::to_vector(g["k"_c].view());
      auto const sums = colx::to_optional_vector(g["s"_c].view());
      auto const counts = colx::to_vector(g["n"_c].view());
      std::size_t row = 0;
      std::size_t bad = 0;
      for (auto const& [key, want] : by_k) {
        bad += keys[row] != key || sums[row] != std::optional<std::int64_t>(want.first) || counts[row] != want.second ? 1 : 0;
        ++row;
      }
      CHECK(bad == 0);

      auto const g2 = f | colx::group_by(colx::group_by_options{.sorted = true}, "a"_c, "b"_c) | colx::aggregate(colx::count().as<"n">());
      REQUIRE(g2.num_rows() == static_cast<size_type>(by_ab.size()));
      auto const ga = colx::to_vector(g2["a"_c].view());
      auto const gb = colx::to_optional_vector(g2["b"_c].view());
      auto const gn = colx::to_vector(g2["n"_c].view());
      for (std::size_t r = 0; r < ga.size(); ++r) {
        auto const found = by_ab.find({ga[r], gb[r]});
        REQUIRE(found != by_ab.end());
        CHECK(gn[r] == found->second);
      }
    }
  }
}
