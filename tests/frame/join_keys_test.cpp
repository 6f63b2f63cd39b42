// SPDX-License-Identifier: Apache-2.0
// Join keys packed into one word beside the build row: a nullable key against a not-null one
// (both ways round), with and without nulls_equal; int64 keys at the edges of their range; two
// keys packed together (int32 and nullable int16); nullable keys whose values alone fill the word
// (int64; two int32s), every kind, with and without nulls_equal; nullable columns without a mask,
// which keep none where no row can be missing. The rows against a nested loop.
#include "support/backend.hpp"
#include "support/rows.hpp"

#include <catch2/catch.hpp>

#include <algorithm>
#include <cstdint>
#include <limits>
#include <optional>
#include <random>
#include <tuple>
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

namespace {

using colx::join_kind;
using long_keys = colx::schema<colx::field<"k", std::int64_t>, colx::field<"p", std::int32_t>, colx::field<"q", std::int32_t>>;

struct long_rows {
  std::vector<std::optional<std::int64_t>> k;
  std::vector<std::optional<std::int32_t>> p, q;
};

// Nullable keys with duplicates, nulls, 0 (a null's value bits) and int64's edges.
long_rows random_long_rows(std::size_t n, unsigned seed) {
  constexpr std::int64_t edges[] = {std::numeric_limits<std::int64_t>::max(), std::numeric_limits<std::int64_t>::min(), -1, 0};
  std::mt19937_64 rng(seed);
  long_rows r;
  auto const maybe = [&](std::int32_t v) { return rng() % 6 == 0 ? std::nullopt : std::optional<std::int32_t>(v); };
  for (std::size_t i = 0; i < n; ++i) {
    std::uint64_t const x = rng();
    r.k.push_back(x % 7 == 0 ? std::nullopt : std::optional<std::int64_t>(x % 5 == 0 ? edges[x % 4] : static_cast<std::int64_t>(x % 50)));
    r.p.push_back(maybe(static_cast<std::int32_t>(rng() % 3) - 1));
    r.q.push_back(maybe(rng() % 2 == 0 ? std::numeric_limits<std::int32_t>::min() : static_cast<std::int32_t>(rng() % 3)));
  }
  return r;
}

colx::frame<long_keys> long_frame(long_rows const& r) {
  auto const mr = colx::test::backend_resource();
  return colx::frame<long_keys>(colx::make_column<std::int64_t>(r.k, {}, mr), colx::make_column<std::int32_t>(r.p, {}, mr),
                                colx::make_column<std::int32_t>(r.q, {}, mr));
}

template <class T>
bool same_key(std::optional<T> const& a, std::optional<T> const& b, bool nulls_equal) {
  if (!a || !b) { return nulls_equal && !a && !b; }
  return *a == *b;
}

// Every kind's (left row, right row) pairs by a nested loop, -1 for none; left rows [from,
// from + nl), right rows [rfrom, rfrom + nr), numbered from there.
template <class Eq>
pairs kind_loop(join_kind how, std::size_t from, std::size_t nl, std::size_t rfrom, std::size_t nr, Eq eq) {
  pairs out;
  std::vector<bool> right_matched(nr, false);
  for (std::size_t i = from; i < from + nl; ++i) {
    bool found = false;
    for (std::size_t j = 0; j < nr; ++j) {
      if (!eq(i, rfrom + j)) { continue; }
      found = true;
      right_matched[j] = true;
      if (how != join_kind::semi && how != join_kind::anti) { out.emplace_back(static_cast<size_type>(i - from), static_cast<size_type>(j)); }
    }
    bool const lone = how == join_kind::left || how == join_kind::full || how == join_kind::anti;
    if ((how == join_kind::semi && found) || (lone && !found)) { out.emplace_back(static_cast<size_type>(i - from), -1); }
  }
  if (how == join_kind::right || how == join_kind::full) {
    for (std::size_t j = 0; j < nr; ++j) {
      if (!right_matched[j]) { out.emplace_back(-1, static_cast<size_type>(j)); }
    }
  }
  std::sort(out.begin(), out.end());
  return out;
}

template <join_kind How>
void check_long_keys(long_rows const& l, long_rows const& r, std::size_t from, std::size_t nl, bool nulls_equal) {
  CAPTURE(static_cast<int>(How), from, nl, r.k.size(), nulls_equal);
  colx::join_options const o{.nulls_equal = nulls_equal};
  auto const left = long_frame(l).slice(static_cast<size_type>(from), static_cast<size_type>(from + nl));
  std::size_t const rfrom = from > 0 && r.k.size() > 1 ? 1 : 0;  // a sliced build side with the sliced left
  auto const right = long_frame(r).slice(static_cast<size_type>(rfrom), static_cast<size_type>(r.k.size()));
  std::size_t const nr = r.k.size() - rfrom;
  // One nullable int64 key: 64 value bits, no room for a null bit.
  CHECK(sorted(colx::join_rows<How>(left, right, colx::on("k"_c), o)) ==
        kind_loop(How, from, nl, rfrom, nr, [&](std::size_t i, std::size_t j) { return same_key(l.k[i], r.k[j], nulls_equal); }));
  // Two nullable int32 keys: 64 value bits and two null bits.
  CHECK(sorted(colx::join_rows<How>(left, right, colx::on("p"_c, "q"_c), o)) ==
        kind_loop(How, from, nl, rfrom, nr, [&](std::size_t i, std::size_t j) {
          return same_key(l.p[i], r.p[j], nulls_equal) && same_key(l.q[i], r.q[j], nulls_equal);
        }));
}

}  // namespace

// Keys whose values fill the word leave out their null bits: a row with a null key never enters
// the table, or, with nulls_equal, the word is the keys' hash and rows are compared.
TEST_CASE("join: nullable keys that fill a word, every kind, with and without nulls_equal", "[frame]") {
  for (std::size_t const n : {std::size_t{0}, std::size_t{1}, std::size_t{257}, std::size_t{1500}}) {
    auto const l = random_long_rows(n + 3, static_cast<unsigned>(n) + 11);
    auto const r = random_long_rows(n / 3 + 1, static_cast<unsigned>(n) + 12);
    for (bool const nulls_equal : {false, true}) {
      for (std::size_t const from : {std::size_t{0}, std::size_t{3}}) {
        colx::test::for_each_join_kind([&](auto how) { check_long_keys<how.value>(l, r, from, n, nulls_equal); });
      }
    }
  }
}

// Build keys unique but for nulls: with nulls_equal, the two null rows are duplicates, and a probe
// row with a null key finds both (the one-pass probe, for unique keys, must not be taken).
TEST_CASE("join: nullable int64 build keys whose only duplicates are nulls", "[frame]") {
  long_rows build;
  build.k = {1, 2, 3, std::nullopt, std::nullopt};
  build.p = build.q = {0, 0, 0, 0, 0};
  long_rows probe;
  probe.k = {std::nullopt, 1, 4};
  probe.p = probe.q = {0, 0, 0};
  auto const right = long_frame(build);
  auto const left = long_frame(probe);
  CHECK(sorted(colx::join_rows(left, right, colx::on("k"_c), colx::join_options{.nulls_equal = true})) == pairs{{0, 3}, {0, 4}, {1, 0}});
  CHECK(sorted(colx::join_rows(left, right, colx::on("k"_c))) == pairs{{1, 0}});
  CHECK(sorted(colx::join_rows<join_kind::left>(left, right, colx::on("k"_c))) == pairs{{0, -1}, {1, 0}, {2, -1}});
}

// Nullable fields whose columns have no mask (as Parquet declares columns that hold no null): the
// output gets a mask only where a side's row can be missing, and its values and nulls are right.
TEST_CASE("join: nullable columns without a mask get one only where a side's row can be missing", "[frame]") {
  using L = colx::schema<colx::field<"k", std::int64_t>, colx::field<"a", std::int64_t>>;
  using R = colx::schema<colx::field<"k", std::int64_t>, colx::field<"b", std::int64_t>>;
  auto const mr = colx::test::backend_resource();
  for (std::size_t const n : {std::size_t{0}, std::size_t{1}, std::size_t{1000}}) {
    CAPTURE(n);
    std::vector<std::int64_t> lk, a, rk, b;
    for (std::size_t i = 0; i < n; ++i) {
      lk.push_back(static_cast<std::int64_t>(i % 37));
      a.push_back(static_cast<std::int64_t>(i));
    }
    for (std::size_t j = 0; j < n / 2 + 1; ++j) {
      rk.push_back(static_cast<std::int64_t>(j % 50) + 10);  // keys 10..59: some left keys find none
      b.push_back(1000 + static_cast<std::int64_t>(j));
    }
    colx::frame<L> const left(colx::make_column<std::int64_t>(lk, {}, mr), colx::make_column<std::int64_t>(a, {}, mr));
    colx::frame<R> const right(colx::make_column<std::int64_t>(rk, {}, mr), colx::make_column<std::int64_t>(b, {}, mr));
    REQUIRE(!left["a"_c].nullable());
    using row = std::tuple<std::optional<std::int64_t>, std::optional<std::int64_t>, std::optional<std::int64_t>>;
    auto const expected = [&](join_kind how) {
      std::vector<row> out;
      std::vector<bool> matched(rk.size(), false);
      for (std::size_t i = 0; i < lk.size(); ++i) {
        bool found = false;
        for (std::size_t j = 0; j < rk.size(); ++j) {
          if (lk[i] != rk[j]) { continue; }
          found = matched[j] = true;
          out.emplace_back(lk[i], a[i], b[j]);
        }
        if (!found && (how == join_kind::left || how == join_kind::full)) { out.emplace_back(lk[i], a[i], std::nullopt); }
      }
      for (std::size_t j = 0; j < rk.size(); ++j) {
        if (!matched[j] && (how == join_kind::right || how == join_kind::full)) { out.emplace_back(rk[j], std::nullopt, b[j]); }
      }
      std::sort(out.begin(), out.end());
      return out;
    };
    auto const inner = left | colx::join(right, colx::on("k"_c));
    CHECK(colx::test::sorted_rows_of(inner) == expected(join_kind::inner));
    CHECK((!inner["k"_c].nullable() && !inner["a"_c].nullable() && !inner["b"_c].nullable()));
    auto const left_join = left | colx::join<join_kind::left>(right, colx::on("k"_c));
    CHECK(colx::test::sorted_rows_of(left_join) == expected(join_kind::left));
    CHECK(!left_join["a"_c].nullable());
    auto const right_join = left | colx::join<join_kind::right>(right, colx::on("k"_c));
    CHECK(colx::test::sorted_rows_of(right_join) == expected(join_kind::right));
    CHECK(!right_join["b"_c].nullable());
    CHECK(colx::test::sorted_rows_of(left | colx::join<join_kind::full>(right, colx::on("k"_c))) == expected(join_kind::full));
  }
}
