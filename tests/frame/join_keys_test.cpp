// SPDX-License-Identifier: Apache-2.0
// Join keys packed into one word beside the build row: a nullable key against a not-null one
// (both ways round), with and without nulls_equal; int64 keys at the edges of their range; two
// keys packed together (int32 and nullable int16). The matching pairs against a nested loop.
#include "support/backend.hpp"

#include <catch2/catch.hpp>

#include <algorithm>
#include <cstdint>
#include <limits>
#include <optional>
#include <random>
#include <utility>
#include <vector>

using namespace colx::literals;

namespace {

using colx::size_type;
using pairs = std::vector<std::pair<size_type, size_type>>;

using nullable_side = colx::schema<colx::field<"k", std::int64_t>, colx::field<"a", std::int32_t, colx::not_null>,
                                   colx::field<"b", std::int16_t>>;
using not_null_side = colx::schema<colx::field<"kk", std::int64_t, colx::not_null>, colx::field<"aa", std::int32_t, colx::not_null>,
                                   colx::field<"bb", std::int16_t>>;

struct rows {
  std::vector<std::optional<std::int64_t>> k;
  std::vector<std::int32_t> a;
  std::vector<std::optional<std::int16_t>> b;
};

rows random_rows(std::size_t n, unsigned seed, bool null_keys) {
  constexpr std::int64_t edges[] = {std::numeric_limits<std::int64_t>::max(), std::numeric_limits<std::int64_t>::min(), -1};
  std::mt19937_64 rng(seed);
  rows r;
  for (std::size_t i = 0; i < n; ++i) {
    std::uint64_t const x = rng();
    if (null_keys && x % 7 == 0) {
      r.k.push_back(std::nullopt);
    } else {
      r.k.push_back(x % 5 == 0 ? edges[x % 3] : static_cast<std::int64_t>(x % 40));
    }
    r.a.push_back(static_cast<std::int32_t>(rng() % 4));
    r.b.push_back(rng() % 5 == 0 ? std::nullopt : std::optional<std::int16_t>(static_cast<std::int16_t>(rng() % 3)));
  }
  return r;
}

template <class Schema>
colx::frame<Schema> make_frame(rows const& r) {
  auto const mr = colx::test::backend_resource();
  if constexpr (std::is_same_v<Schema, nullable_side>) {
    return colx::frame<Schema>(colx::make_column<std::int64_t>(r.k, {}, mr), colx::make_column<std::int32_t>(r.a, {}, mr),
                               colx::make_column<std::int16_t>(r.b, {}, mr));
  } else {
    std::vector<std::int64_t> k;
    for (auto const& v : r.k) { k.push_back(*v); }
    return colx::frame<Schema>(colx::make_column<std::int64_t>(k, {}, mr), colx::make_column<std::int32_t>(r.a, {}, mr),
                               colx::make_column<std::int16_t>(r.b, {}, mr));
  }
}

pairs sorted(std::pair<colx::uvector<size_type>, colx::uvector<size_type>>&& p) {
  auto const left = colx::to_vector(colx::column<size_type>(std::move(p.first)).view());
  auto const right = colx::to_vector(colx::column<size_type>(std::move(p.second)).view());
  pairs out;
  for (std::size_t k = 0; k < left.size(); ++k) { out.emplace_back(left[k], right[k]); }
  std::sort(out.begin(), out.end());
  return out;
}

template <class Eq>
pairs nested_loop(std::size_t nl, std::size_t nr, Eq eq) {
  pairs out;
  for (std::size_t i = 0; i < nl; ++i) {
    for (std::size_t j = 0; j < nr; ++j) {
      if (eq(i, j)) { out.emplace_back(static_cast<size_type>(i), static_cast<size_type>(j)); }
    }
  }
  return out;
}

}  // namespace

TEST_CASE("join: packed keys, nullable against not null, both ways round", "[frame]") {
  for (std::size_t const n : {std::size_t{0}, std::size_t{1}, std::size_t{300}, std::size_t{2000}}) {
    CAPTURE(n);
    auto const with_nulls = random_rows(n, static_cast<unsigned>(n) + 1, true);
    auto const without = random_rows(n / 2 + 1, static_cast<unsigned>(n) + 2, false);
    auto const nl = make_frame<nullable_side>(with_nulls);
    auto const nn = make_frame<not_null_side>(without);
    for (bool const nulls_equal : {false, true}) {
      CAPTURE(nulls_equal);
      colx::join_options const o{.nulls_equal = nulls_equal};
      auto const same_k = [&](rows const& x, std::size_t i, rows const& y, std::size_t j) {
        return x.k[i].has_value() && y.k[j].has_value() && *x.k[i] == *y.k[j];  // no nulls on one side: never null = null
      };
      CHECK(sorted(colx::join_rows(nl, nn, colx::on("k"_c), colx::on("kk"_c), o)) ==
            nested_loop(with_nulls.k.size(), without.k.size(), [&](std::size_t i, std::size_t j) { return same_k(with_nulls, i, without, j); }));
      CHECK(sorted(colx::join_rows(nn, nl, colx::on("kk"_c), colx::on("k"_c), o)) ==
            nested_loop(without.k.size(), with_nulls.k.size(), [&](std::size_t i, std::size_t j) { return same_k(without, i, with_nulls, j); }));
      // Two keys in one word: int32 and a nullable int16, nulls equal only under nulls_equal.
      auto const same_ab = [&](std::size_t i, std::size_t j) {
        if (with_nulls.a[i] != without.a[j]) { return false; }
        if (!with_nulls.b[i] || !without.b[j]) { return nulls_equal && !with_nulls.b[i] && !without.b[j]; }
        return *with_nulls.b[i] == *without.b[j];
      };
      CHECK(sorted(colx::join_rows(nl, nn, colx::on("a"_c, "b"_c), colx::on("aa"_c, "bb"_c), o)) ==
            nested_loop(with_nulls.k.size(), without.k.size(), same_ab));
    }
  }
}
