// SPDX-License-Identifier: Apache-2.0
// distinct (keep first, last, none; every column or a subset; a filtered source), drop_nulls,
// value_counts and nunique (of a frame and per group) on the backend under test, against maps
// built by plain loops over the same rows. Null keys are equal to each other; sizes cover empty,
// one row, and sizes off the block size.
#include "support/backend.hpp"

#include <colx/frame/distinct.hpp>

#include <catch2/catch.hpp>

#include <algorithm>
#include <cstdint>
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
template <class T>
using optionals = std::vector<std::optional<T>>;

using S = colx::schema<colx::field<"k", std::int32_t>, colx::field<"s", colx::string_view>,
                       colx::field<"v", double, colx::not_null>>;

struct rows {
  optionals<std::int32_t> k;
  optionals<std::string> s;
  std::vector<double> v;
};

rows random_rows(std::size_t n, unsigned seed) {
  std::mt19937 rng(seed);
  char const* words[] = {"a", "b", "h\xc3\xa9llo"};
  rows r;
  for (std::size_t i = 0; i < n; ++i) {
    r.k.push_back(rng() % 7 == 0 ? std::nullopt : std::optional<std::int32_t>(static_cast<std::int32_t>(rng() % 9) - 4));
    r.s.push_back(rng() % 5 == 0 ? std::nullopt : std::optional<std::string>(words[rng() % 3]));
    r.v.push_back(static_cast<double>(rng() % 4) * 0.5);
  }
  return r;
}

colx::frame<S> make_frame(rows const& r) {
  auto const mr = colx::test::backend_resource();
  return colx::frame<S>(colx::make_column<std::int32_t>(r.k, {}, mr), colx::make_strings_column(r.s, colx::type_id::int32, {}, mr),
                        colx::make_column<double>(r.v, {}, mr));
}

using key_kvs = std::tuple<std::optional<std::int32_t>, std::optional<std::string>, double>;

// The rows distinct() keeps under `key`, in input order.
template <class Key>
std::vector<std::size_t> expected_rows(std::size_t n, Key key, colx::keep_rows keep) {
  std::map<decltype(key(0)), std::vector<std::size_t>> groups;
  for (std::size_t i = 0; i < n; ++i) { groups[key(i)].push_back(i); }
  std::set<std::size_t> kept;
  for (auto const& [k, members] : groups) {
    if (keep == colx::keep_rows::none) {
      if (members.size() == 1) { kept.insert(members[0]); }
    } else {
      kept.insert(keep == colx::keep_rows::last ? members.back() : members.front());
    }
  }
  return {kept.begin(), kept.end()};
}

void check_rows(colx::frame<S> const& got, rows const& r, std::vector<std::size_t> const& want) {
  REQUIRE(got.num_rows() == static_cast<size_type>(want.size()));
  rows expected;
  for (std::size_t i : want) {
    expected.k.push_back(r.k[i]);
    expected.s.push_back(r.s[i]);
    expected.v.push_back(r.v[i]);
  }
  CHECK(colx::to_optional_vector(got["k"_c].view()) == expected.k);
  CHECK(colx::to_strings(got["s"_c].view()) == expected.s);
  CHECK(colx::to_vector(got["v"_c].view()) == expected.v);
}

}  // namespace

TEST_CASE("distinct: every column or a subset, keep first, last or none", "[frame]") {
  using colx::keep_rows;
  for (std::size_t const n : {0, 1, 2, 33, 1000, 5000}) {
    CAPTURE(n);
    auto const r = random_rows(n, static_cast<unsigned>(n) + 3);
    auto const f = make_frame(r);
    auto const all = [&](std::size_t i) { return key_kvs{r.k[i], r.s[i], r.v[i]}; };
    auto const by_k = [&](std::size_t i) { return r.k[i]; };
    auto const by_ks = [&](std::size_t i) { return std::tuple(r.k[i], r.s[i]); };
    check_rows(f | colx::distinct(), r, expected_rows(n, all, keep_rows::first));
    check_rows(f | colx::distinct("k"_c), r, expected_rows(n, by_k, keep_rows::first));
    check_rows(f | colx::distinct(keep_rows::last, "k"_c, "s"_c), r, expected_rows(n, by_ks, keep_rows::last));
    check_rows(f | colx::distinct(keep_rows::none, "k"_c, "s"_c), r, expected_rows(n, by_ks, keep_rows::none));
    check_rows(f | colx::distinct(keep_rows::any, "k"_c), r, expected_rows(n, by_k, keep_rows::first));
  }
}

TEST_CASE("distinct: of a filtered frame, by a named key expression", "[frame]") {
  for (std::size_t const n : {0, 1, 777}) {
    CAPTURE(n);
    auto const r = random_rows(n, static_cast<unsigned>(n) + 11);
    auto const f = make_frame(r);
    // Rows with v > 0.5, distinct by k % 3 (null k: one group).
    auto const got = f | colx::filter("v"_c > 0.5) | colx::distinct(("k"_c % 3).as<"m">());
    std::map<std::optional<std::int32_t>, std::size_t> first;
    for (std::size_t i = 0; i < n; ++i) {
      if (!(r.v[i] > 0.5)) { continue; }
      auto const m = r.k[i] ? std::optional<std::int32_t>(*r.k[i] % 3) : std::nullopt;
      first.emplace(m, i);
    }
    std::set<std::size_t> kept;
    for (auto const& [m, i] : first) { kept.insert(i); }
    check_rows(got, r, {kept.begin(), kept.end()});
  }
}

TEST_CASE("drop_nulls: every column, or the named ones, fused as a filter", "[frame]") {
  for (std::size_t const n : {0, 1, 100, 3001}) {
    CAPTURE(n);
    auto const r = random_rows(n, static_cast<unsigned>(n) + 5);
    auto const f = make_frame(r);
    std::vector<std::size_t> both;
    std::vector<std::size_t> only_k;
    for (std::size_t i = 0; i < n; ++i) {
      if (r.k[i] && r.s[i]) { both.push_back(i); }
      if (r.k[i]) { only_k.push_back(i); }
    }
    check_rows((f | colx::drop_nulls()).collect(), r, both);
    check_rows((f | colx::drop_nulls("k"_c)).collect(), r, only_k);
    // It fuses into a reduction: the count of rows with a valid k and s.
    CHECK((f | colx::drop_nulls() | colx::count_if(true)) == static_cast<size_type>(both.size()));
  }
}

TEST_CASE("value_counts and nunique: of a frame and per group", "[frame]") {
  for (std::size_t const n : {0, 1, 33, 2000}) {
    CAPTURE(n);
    auto const r = random_rows(n, static_cast<unsigned>(n) + 17);
    auto const f = make_frame(r);
    std::map<std::optional<std::int32_t>, size_type> counts;
    for (auto const& k : r.k) { ++counts[k]; }

    // Most frequent first, ties by value; no null row unless asked.
    auto const vc = colx::value_counts(f, "k"_c);
    std::vector<std::pair<size_type, std::int32_t>> want;
    for (auto const& [k, c] : counts) {
      if (k) { want.emplace_back(c, *k); }
    }
    std::sort(want.begin(), want.end(), [](auto const& a, auto const& b) { return a.first != b.first ? a.first > b.first : a.second < b.second; });
    REQUIRE(vc.num_rows() == static_cast<size_type>(want.size()));
    auto const values = colx::to_vector(vc["k"_c].view());
    auto const how_many = colx::to_vector(vc["count"_c].view());
    for (std::size_t g = 0; g < want.size(); ++g) {
      CHECK(values[g] == want[g].second);
      CHECK(how_many[g] == want[g].first);
    }
    auto const with_nulls = colx::value_counts(f, "k"_c, {.drop_nulls = false, .sort = true, .ascending = true});
    CHECK(with_nulls.num_rows() == static_cast<size_type>(counts.size()));
    CHECK(colx::nunique(f, "k"_c) == static_cast<size_type>(want.size()));

    // Per group: distinct non-null s per k, 0 where every s is null.
    std::map<std::optional<std::int32_t>, std::set<std::string>> distinct_s;
    for (std::size_t i = 0; i < n; ++i) {
      auto& set = distinct_s[r.k[i]];
      if (r.s[i]) { set.insert(*r.s[i]); }
    }
    auto const per_group = colx::nunique(f | colx::group_by(colx::group_by_options{.sorted = true}, "k"_c), "s"_c);
    REQUIRE(per_group.num_rows() == static_cast<size_type>(distinct_s.size()));
    auto const keys = colx::to_optional_vector(per_group["k"_c].view());
    auto const nu = colx::to_vector(per_group["nunique"_c].view());
    for (std::size_t row = 0; row < keys.size(); ++row) {
      auto const found = distinct_s.find(keys[row]);
      REQUIRE(found != distinct_s.end());
      CHECK(nu[row] == static_cast<size_type>(found->second.size()));
    }
  }
}
