// SPDX-License-Identifier: Apache-2.0
// Every path of the group-by's pass, forced at small sizes (detail::forced_group_by_path), against
// a naive host reference: per-thread caches, per-block tables (few groups), the global table (many
// groups) and, on the GPU, the partitioned pass, which a sample would choose only for a table
// larger than L2 (millions of groups). Each on 0, 1, 1000 and 100,003 rows, with few groups and
// with about as many groups as rows, packed keys (an int64) and keys compared at rows (a string),
// a filter in front, and null keys and values; and again with the rows in runs of one group.
#include "support/backend.hpp"
#include "support/forced_path.hpp"
#include "support/rows.hpp"

#include <catch2/catch.hpp>

#include <algorithm>
#include <cstdint>
#include <limits>
#include <map>
#include <optional>
#include <random>
#include <set>
#include <string>
#include <tuple>
#include <vector>

using namespace colx::literals;

namespace {

using colx::size_type;
using colx::detail::group_by_path;

using S = colx::schema<colx::field<"k", std::int64_t>, colx::field<"s", colx::string_view>, colx::field<"v", std::int64_t>,
                       colx::field<"w", std::int32_t, colx::not_null>>;

struct rows {
  std::vector<std::optional<std::int64_t>> k;
  std::vector<std::optional<std::string>> s;
  std::vector<std::optional<std::int64_t>> v;
  std::vector<std::int32_t> w;
};

rows random_rows(std::size_t n, std::uint64_t groups, std::uint64_t seed) {
  std::mt19937_64 gen(seed);
  rows r;
  for (std::size_t i = 0; i < n; ++i) {
    auto const g = static_cast<std::int64_t>(gen() % groups);
    r.k.push_back(gen() % 13 == 0 ? std::nullopt : std::optional<std::int64_t>(g * 7919 - 500));
    r.s.push_back(gen() % 17 == 0 ? std::nullopt : std::optional<std::string>(std::string("key ").append(std::to_string(g))));
    r.v.push_back(gen() % 5 == 0 ? std::nullopt : std::optional<std::int64_t>(static_cast<std::int64_t>(gen() % 201) - 100));
    r.w.push_back(static_cast<std::int32_t>(gen() % 4));
  }
  return r;
}

// Rows in runs of one group, as a file ordered by the key holds them (lineitem by order): runs of
// 1 to 70 rows (shorter and longer than a warp), a group now and then coming back later, and the
// nulls, values and filter as random_rows.
rows rows_in_runs(std::size_t n, std::uint64_t seed) {
  std::mt19937_64 gen(seed);
  rows r = random_rows(n, 1, seed);
  std::int64_t group = 0;
  for (std::size_t i = 0; i < n;) {
    std::size_t const run = 1 + gen() % 70;
    std::int64_t const g = gen() % 9 == 0 ? static_cast<std::int64_t>(gen() % static_cast<std::uint64_t>(group + 1)) : ++group;
    for (std::size_t j = i; j < std::min(n, i + run); ++j) {
      if (r.k[j]) { r.k[j] = g * 7919 - 500; }
      if (r.s[j]) { r.s[j] = std::string("key ").append(std::to_string(g)); }
    }
    i += run;
  }
  return r;
}

// What every group keeps, by a loop over the rows that pass the filter (w != 0).
struct group_ref {
  std::int64_t rows = 0;
  std::int64_t valid = 0;
  std::int64_t sum = 0;
  std::optional<std::int64_t> min, max;
  std::set<std::int64_t> distinct;
};

template <class Key>
std::map<Key, group_ref> reference(rows const& r, std::vector<Key> const& keys) {
  std::map<Key, group_ref> out;
  for (std::size_t i = 0; i < r.w.size(); ++i) {
    if (r.w[i] == 0) { continue; }
    group_ref& g = out[keys[i]];
    ++g.rows;
    if (!r.v[i]) { continue; }
    std::int64_t const v = *r.v[i];
    ++g.valid;
    g.sum += v;
    g.min = g.min ? std::min(*g.min, v) : v;
    g.max = g.max ? std::max(*g.max, v) : v;
    g.distinct.insert(v);
  }
  return out;
}

// The reference as the result's sorted rows: key, sum, rows, valid, min, max, nunique.
template <class Got, class Key>
Got expected_rows(std::map<Key, group_ref> const& groups) {
  Got out;
  for (auto const& [key, g] : groups) {
    auto const sum = g.valid > 0 ? std::optional<std::int64_t>(g.sum) : std::nullopt;
    out.emplace_back(key, sum, g.rows, g.valid, g.min, g.max, static_cast<std::int64_t>(g.distinct.size()));
  }
  std::sort(out.begin(), out.end());
  return out;
}

template <class Key>
auto group(colx::frame<S> const& f, Key const& key) {
  return f | colx::filter("w"_c != 0) | colx::group_by(key) |
         colx::aggregate(colx::sum("v"_c).as<"sum">(), colx::count().as<"rows">(), colx::count_valid("v"_c).as<"valid">(),
                         colx::min("v"_c).as<"min">(), colx::max("v"_c).as<"max">(), colx::nunique("v"_c).as<"distinct">());
}

colx::frame<S> frame_of(rows const& r) {
  auto const mr = colx::test::backend_resource();
  return colx::frame<S>(colx::make_column<std::int64_t>(r.k, {}, mr), colx::make_strings_column(r.s, colx::type_id::int32, {}, mr),
                        colx::make_column<std::int64_t>(r.v, {}, mr), colx::make_column<std::int32_t>(r.w, {}, mr));
}

// The group-by of r's rows by k and by s on every path, against the reference; then also(f) on
// each path.
template <class Also>
void check_every_path(rows const& r, Also const& also) {
  auto const f = frame_of(r);
  auto const by_k = reference(r, r.k);
  auto const by_s = reference(r, r.s);
  for (auto const path : {group_by_path::by_sample, group_by_path::private_caches, group_by_path::few_groups,
                          group_by_path::many_groups, group_by_path::partitioned}) {
    CAPTURE(static_cast<int>(path));
    colx::test::forced_path const force(path);
    auto const got_k = colx::test::sorted_rows_of(group(f, "k"_c));
    CHECK(got_k == expected_rows<std::remove_cvref_t<decltype(got_k)>>(by_k));
    auto const got_s = colx::test::sorted_rows_of(group(f, "s"_c));
    CHECK(got_s == expected_rows<std::remove_cvref_t<decltype(got_s)>>(by_s));
    also(f);
  }
}

}  // namespace

TEST_CASE("group_by: every path of the pass, forced at small sizes", "[frame]") {
  for (std::size_t const n : {std::size_t{0}, std::size_t{1}, std::size_t{1000}, std::size_t{100'003}}) {
    for (std::uint64_t const groups : {std::uint64_t{5}, static_cast<std::uint64_t>(n) + 1}) {
      CAPTURE(n, groups);
      check_every_path(random_rows(n, groups, n * 31 + groups), [](colx::frame<S> const&) {});
    }
  }
}

// The GPU's partitioned pass folds a warp's runs of one group (consecutive records of a
// partition) into the run's first lane before they reach the table (gpu/warp_runs.cuh): runs
// within a warp, across warps, broken by a null key or a filtered row, nunique (whose add inserts
// into a set: only the lane that adds a row may insert it), and first() (whose cell reads the
// rows the fold hands it), on every path.
TEST_CASE("group_by: rows in runs of one group, every path", "[frame]") {
  for (std::size_t const n : {std::size_t{1}, std::size_t{31}, std::size_t{33}, std::size_t{1000}, std::size_t{100'003}}) {
    CAPTURE(n);
    auto const r = rows_in_runs(n, n + 7);
    std::vector<std::tuple<std::optional<std::int64_t>, std::optional<std::int32_t>>> want;  // w of each group's first kept row
    std::map<std::optional<std::int64_t>, std::int32_t> first_w;
    for (std::size_t i = 0; i < n; ++i) {
      if (r.w[i] != 0) { first_w.emplace(r.k[i], r.w[i]); }
    }
    for (auto const& [key, w] : first_w) { want.emplace_back(key, w); }
    check_every_path(r, [&](colx::frame<S> const& f) {
      CHECK(colx::test::sorted_rows_of(f | colx::filter("w"_c != 0) | colx::group_by("k"_c) |
                                       colx::aggregate(colx::first("w"_c).as<"first">())) == want);
    });
  }
}

// min and max of 4- and 8-byte integers, signed and unsigned, merge with the memory's own min and
// max on the GPU (exec/atomics.hpp): their extremes and both signs, on every path.
TEST_CASE("group_by: min and max of 32- and 64-bit integers, signed and unsigned, every path", "[frame]") {
  using I = colx::schema<colx::field<"g", std::int64_t, colx::not_null>, colx::field<"a", std::int32_t, colx::not_null>,
                         colx::field<"b", std::uint32_t, colx::not_null>, colx::field<"c", std::uint64_t, colx::not_null>>;
  std::size_t const n = 100'003;
  std::mt19937_64 gen(17);
  std::vector<std::int64_t> g(n);
  std::vector<std::int32_t> a(n);
  std::vector<std::uint32_t> b(n);
  std::vector<std::uint64_t> c(n);
  std::int32_t const as[] = {std::numeric_limits<std::int32_t>::min(), -1, 0, 1, std::numeric_limits<std::int32_t>::max()};
  std::uint32_t const bs[] = {0, 1, 0x7fffffffu, 0x80000000u, 0xffffffffu};
  std::uint64_t const cs[] = {0, 1, 0x7fffffffffffffffull, 0x8000000000000000ull, ~0ull};
  std::map<std::int64_t, std::tuple<std::int32_t, std::int32_t, std::uint32_t, std::uint32_t, std::uint64_t, std::uint64_t>> want;
  for (std::size_t i = 0; i < n; ++i) {
    g[i] = static_cast<std::int64_t>(gen() % 3000);
    a[i] = gen() % 3 == 0 ? as[gen() % 5] : static_cast<std::int32_t>(gen());
    b[i] = gen() % 3 == 0 ? bs[gen() % 5] : static_cast<std::uint32_t>(gen());
    c[i] = gen() % 3 == 0 ? cs[gen() % 5] : gen();
    auto const [it, fresh] = want.try_emplace(g[i], a[i], a[i], b[i], b[i], c[i], c[i]);
    auto& [amin, amax, bmin, bmax, cmin, cmax] = it->second;
    amin = std::min(amin, a[i]), amax = std::max(amax, a[i]), bmin = std::min(bmin, b[i]), bmax = std::max(bmax, b[i]);
    cmin = std::min(cmin, c[i]), cmax = std::max(cmax, c[i]);
  }
  auto const mr = colx::test::backend_resource();
  colx::frame<I> const f(colx::make_column<std::int64_t>(g, {}, mr), colx::make_column<std::int32_t>(a, {}, mr),
                         colx::make_column<std::uint32_t>(b, {}, mr), colx::make_column<std::uint64_t>(c, {}, mr));
  std::vector<std::tuple<std::optional<std::int64_t>, std::optional<std::int32_t>, std::optional<std::int32_t>, std::optional<std::uint32_t>,
                         std::optional<std::uint32_t>, std::optional<std::uint64_t>, std::optional<std::uint64_t>>>
      expected;
  for (auto const& [key, m] : want) {
    auto const& [amin, amax, bmin, bmax, cmin, cmax] = m;
    expected.emplace_back(key, amin, amax, bmin, bmax, cmin, cmax);
  }
  for (auto const path : {group_by_path::by_sample, group_by_path::private_caches, group_by_path::few_groups,
                          group_by_path::many_groups, group_by_path::partitioned}) {
    CAPTURE(static_cast<int>(path));
    colx::test::forced_path const force(path);
    auto const got = colx::test::sorted_rows_of(
        f | colx::group_by("g"_c) |
        colx::aggregate(colx::min("a"_c).as<"a0">(), colx::max("a"_c).as<"a1">(), colx::min("b"_c).as<"b0">(),
                        colx::max("b"_c).as<"b1">(), colx::min("c"_c).as<"c0">(), colx::max("c"_c).as<"c1">()));
    CHECK(got == expected);
  }
}
