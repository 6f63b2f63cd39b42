// SPDX-License-Identifier: Apache-2.0
// Group-bys whose keys bound the groups to few (dictionary, boolean and 8-bit keys: their table is
// sized without a sample where the bound is under 8, group/plan.hpp's groups_bound), against
// std::map: TPC-H Q1's form (two dictionary keys, a filter, sums and means), with nulls in keys
// and values, filters that keep most rows, few or none, drop_null_keys; two boolean keys; and
// keys whose bound is larger (an 8-bit key, a dictionary of 300 entries), sized by the sample.
// Also the null counts of every output column, now counted in one pass over all masks
// (count_unset_bits of an array of masks), against a host count.
#include "support/backend.hpp"

#include <catch2/catch.hpp>

#include <algorithm>
#include <array>
#include <map>
#include <optional>
#include <random>
#include <string>
#include <tuple>
#include <vector>

using namespace colx::literals;

namespace {

using flag = colx::dictionary<colx::string_view, std::uint8_t>;
using wide_flag = colx::dictionary<colx::string_view, std::uint16_t>;
using lines = colx::schema<colx::field<"r", flag>, colx::field<"s", flag>, colx::field<"q", std::int64_t>,
                           colx::field<"d", std::int32_t, colx::not_null>>;
using strings = std::vector<std::optional<std::string>>;

struct data {
  strings r, s;
  std::vector<std::optional<std::int64_t>> q;
  std::vector<std::int32_t> d;
};

data bounded_random_data(colx::size_type n, unsigned seed, bool null_keys) {
  std::mt19937 rng(seed);
  char const* rs[] = {"A", "N", "R"};
  char const* ss[] = {"F", "O"};
  data out;
  for (colx::size_type i = 0; i < n; ++i) {
    out.r.emplace_back(null_keys && rng() % 7 == 0 ? std::nullopt : std::optional<std::string>(rs[rng() % 3]));
    out.s.emplace_back(ss[rng() % 2]);
    out.q.push_back(rng() % 5 == 0 ? std::nullopt : std::optional<std::int64_t>(static_cast<std::int64_t>(rng() % 50) + 1));
    out.d.push_back(static_cast<std::int32_t>(rng() % 1000));
  }
  return out;
}

colx::frame<lines> frame_of(data const& v) {
  return colx::frame<lines>(colx::encode<std::uint8_t>(colx::make_strings_column(v.r)),
                            colx::encode<std::uint8_t>(colx::make_strings_column(v.s)), colx::make_column(v.q),
                            colx::make_column(v.d));
}

template <class V, class Code>
strings decoded(colx::dictionary_column<V, Code> const& c) {
  return colx::to_strings(colx::decode(c).view());
}

struct cell {
  std::int64_t sum = 0, values = 0, rows = 0;
};
using key = std::pair<std::optional<std::string>, std::optional<std::string>>;

// Q1's form: group by (r, s) where d < cut, sum, mean and count, sorted by the keys.
void check_q1_form(data const& v, std::int32_t cut, bool drop_null_keys) {
  std::map<key, cell> want;
  for (std::size_t i = 0; i < v.d.size(); ++i) {
    if (v.d[i] >= cut || (drop_null_keys && (!v.r[i] || !v.s[i]))) { continue; }
    auto& c = want[{v.r[i], v.s[i]}];
    c.rows += 1;
    if (v.q[i]) {
      c.sum += *v.q[i];
      c.values += 1;
    }
  }
  auto const r = frame_of(v) | colx::filter("d"_c < cut) |
                 colx::group_by(colx::group_by_options{.sorted = true, .drop_null_keys = drop_null_keys}, "r"_c, "s"_c) |
                 colx::aggregate(colx::sum("q"_c).as<"sum_q">(), colx::mean("q"_c).as<"avg_q">(), colx::count().as<"rows">());
  REQUIRE(r.num_rows() == static_cast<colx::size_type>(want.size()));
  strings const rk = decoded(r["r"_c]);
  strings const sk = decoded(r["s"_c]);
  auto const sums = colx::to_optional_vector(r["sum_q"_c].view());
  auto const means = colx::to_optional_vector(r["avg_q"_c].view());
  auto const rows = colx::to_vector(r["rows"_c].view());
  std::size_t g = 0;
  colx::size_type null_sums = 0;
  // std::map orders nullopt first; the result puts null keys last: compare by lookup, and the
  // order separately for the non-null keys.
  for (; g < rk.size(); ++g) {
    CAPTURE(g);
    auto const found = want.find({rk[g], sk[g]});
    REQUIRE(found != want.end());
    cell const& c = found->second;
    CHECK(rows[g] == c.rows);
    if (c.values == 0) {
      CHECK_FALSE(sums[g].has_value());
      CHECK_FALSE(means[g].has_value());
      ++null_sums;
    } else {
      CHECK(sums[g] == c.sum);
      REQUIRE(means[g].has_value());
      CHECK(*means[g] == Approx(static_cast<double>(c.sum) / static_cast<double>(c.values)));
    }
    if (g > 0 && rk[g] && rk[g - 1]) { CHECK(*rk[g - 1] <= *rk[g]); }
  }
  CHECK(r["sum_q"_c].null_count() == null_sums);
  CHECK(r["avg_q"_c].null_count() == null_sums);
}

}  // namespace

TEST_CASE("group-by bounded: Q1's form over two dictionary keys, filters that keep most, few or no rows", "[group_by]") {
  for (colx::size_type n : {0, 1, 7, 4099, 70001}) {
    for (bool null_keys : {false, true}) {
      CAPTURE(n, null_keys);
      data const v = bounded_random_data(n, 5u + static_cast<unsigned>(n) + (null_keys ? 100u : 0u), null_keys);
      for (std::int32_t cut : {1000, 980, 10, 0}) {  // every row, most, 1%, none
        CAPTURE(cut);
        check_q1_form(v, cut, false);
        check_q1_form(v, cut, true);
      }
    }
  }
}

TEST_CASE("group-by bounded: two boolean keys bound 6 groups; with an 8-bit key the sample sizes the table", "[group_by]") {
  using schema = colx::schema<colx::field<"b", bool>, colx::field<"c", bool, colx::not_null>, colx::field<"k", std::int8_t>,
                              colx::field<"x", std::int64_t, colx::not_null>>;
  for (colx::size_type n : {1, 257, 70001}) {
    CAPTURE(n);
    std::mt19937 rng(static_cast<unsigned>(n));
    std::vector<std::optional<bool>> b;
    std::vector<bool> c;
    std::vector<std::optional<std::int8_t>> k;
    std::vector<std::int64_t> x;
    std::map<std::pair<std::optional<bool>, bool>, std::int64_t> by_bc;
    std::map<std::pair<std::optional<bool>, std::optional<std::int8_t>>, std::int64_t> by_bk;
    for (colx::size_type i = 0; i < n; ++i) {
      b.push_back(rng() % 5 == 0 ? std::nullopt : std::optional<bool>(rng() % 2 == 0));
      c.push_back(rng() % 3 == 0);
      k.push_back(rng() % 9 == 0 ? std::nullopt : std::optional<std::int8_t>(static_cast<std::int8_t>(rng() % 256 - 128)));
      x.push_back(static_cast<std::int64_t>(rng() % 100));
      by_bc[{b.back(), c.back()}] += x.back();
      by_bk[{b.back(), k.back()}] += x.back();
    }
    auto const f = colx::frame<schema>(colx::make_column(b), colx::make_column(c),
                                       colx::make_column(k), colx::make_column(x));
    auto const r = f | colx::group_by("b"_c, "c"_c) | colx::aggregate(colx::sum("x"_c).as<"t">());
    REQUIRE(r.num_rows() == static_cast<colx::size_type>(by_bc.size()));
    auto const rb = colx::to_optional_vector(r["b"_c].view());
    auto const rc = colx::to_vector(r["c"_c].view());
    auto const rt = colx::to_vector(r["t"_c].view());
    for (std::size_t g = 0; g < rb.size(); ++g) { CHECK(rt[g] == by_bc.at({rb[g], static_cast<bool>(rc[g])})); }
    auto const s = f | colx::group_by("b"_c, "k"_c) | colx::aggregate(colx::sum("x"_c).as<"t">());
    REQUIRE(s.num_rows() == static_cast<colx::size_type>(by_bk.size()));
    auto const sb = colx::to_optional_vector(s["b"_c].view());
    auto const sk = colx::to_optional_vector(s["k"_c].view());
    auto const st = colx::to_vector(s["t"_c].view());
    for (std::size_t g = 0; g < sb.size(); ++g) { CHECK(st[g] == by_bk.at({sb[g], sk[g]})); }
  }
}

TEST_CASE("group-by bounded: a dictionary of 300 entries bounds too many groups: its sample sizes the table", "[group_by]") {
  using schema = colx::schema<colx::field<"w", wide_flag>, colx::field<"x", std::int64_t, colx::not_null>>;
  colx::size_type const n = 20011;
  strings w;
  std::vector<std::int64_t> x;
  std::map<std::string, std::int64_t> want;
  for (colx::size_type i = 0; i < n; ++i) {
    w.emplace_back("w" + std::to_string((i * 7) % 300));
    x.push_back(i % 13);
    want[*w.back()] += x.back();
  }
  auto const f = colx::frame<schema>(colx::encode<std::uint16_t>(colx::make_strings_column(w)), colx::make_column(x));
  auto const r = f | colx::filter("x"_c > 2) | colx::group_by("w"_c) | colx::aggregate(colx::count().as<"c">());
  REQUIRE(r.num_rows() == 300);
  auto const all = f | colx::group_by("w"_c) | colx::aggregate(colx::sum("x"_c).as<"t">());
  strings const keys = decoded(all["w"_c]);
  auto const totals = colx::to_vector(all["t"_c].view());
  REQUIRE(keys.size() == want.size());
  for (std::size_t g = 0; g < keys.size(); ++g) { CHECK(totals[g] == want.at(*keys[g])); }
}

TEST_CASE("count_unset_bits of several masks: each mask's nulls, in one pass", "[bitmask]") {
  for (colx::size_type n : {0, 1, 31, 32, 33, 64, 1000, 100003}) {
    CAPTURE(n);
    std::mt19937 rng(static_cast<unsigned>(n) + 3u);
    std::vector<std::optional<std::int32_t>> sparse, dense, none;
    for (colx::size_type i = 0; i < n; ++i) {
      sparse.push_back(rng() % 50 == 0 ? std::nullopt : std::optional<std::int32_t>(i));
      dense.push_back(rng() % 2 == 0 ? std::nullopt : std::optional<std::int32_t>(i));
      none.push_back(std::nullopt);
    }
    auto const a = colx::make_column(sparse);
    auto const b = colx::make_column(dense);
    auto const c = colx::make_column(none);
    auto const host_nulls = [](auto const& v) {
      return static_cast<colx::size_type>(std::count(v.begin(), v.end(), std::nullopt));
    };
    std::array<colx::bitmask_type const*, 4> const masks{a.null_mask(), nullptr, b.null_mask(), c.null_mask()};
    auto const nulls = colx::count_unset_bits(masks, n, a.kind());
    CHECK(nulls[0] == host_nulls(sparse));
    CHECK(nulls[1] == 0);
    CHECK(nulls[2] == host_nulls(dense));
    CHECK(nulls[3] == n);
    // Fewer bits than the masks hold: only those are counted.
    if (n > 33) {
      auto const first = colx::count_unset_bits(masks, 33, a.kind());
      CHECK(first[2] == static_cast<colx::size_type>(std::count(dense.begin(), dense.begin() + 33, std::nullopt)));
    }
  }
}

TEST_CASE("count_unset_bits of more masks than one pass takes (64)", "[bitmask]") {
  colx::size_type const n = 1000;
  std::vector<std::optional<std::int32_t>> values;
  for (colx::size_type i = 0; i < n; ++i) { values.push_back(i % 7 == 0 ? std::nullopt : std::optional<std::int32_t>(i)); }
  auto const a = colx::make_column(values);
  std::array<colx::bitmask_type const*, 70> masks{};
  for (std::size_t c : {0u, 5u, 63u, 64u, 69u}) { masks[c] = a.null_mask(); }
  auto const nulls = colx::count_unset_bits(masks, n, a.kind());
  for (std::size_t c = 0; c < masks.size(); ++c) {
    CAPTURE(c);
    CHECK(nulls[c] == (masks[c] == nullptr ? 0 : a.null_count()));
  }
  CHECK(a.null_count() == (n + 6) / 7);
}

TEST_CASE("group-by bounded: collect and sort give every nullable column its null count", "[group_by]") {
  using schema = colx::schema<colx::field<"a", std::int64_t>, colx::field<"b", double>, colx::field<"s", colx::string_view>,
                              colx::field<"k", std::int32_t, colx::not_null>>;
  colx::size_type const n = 10007;
  std::mt19937 rng(9);
  std::vector<std::optional<std::int64_t>> a;
  std::vector<std::optional<double>> b;
  strings s;
  std::vector<std::int32_t> k;
  for (colx::size_type i = 0; i < n; ++i) {
    a.push_back(rng() % 3 == 0 ? std::nullopt : std::optional<std::int64_t>(i));
    b.push_back(rng() % 5 == 0 ? std::nullopt : std::optional<double>(i * 0.5));
    s.push_back(rng() % 4 == 0 ? std::nullopt : std::optional<std::string>("v" + std::to_string(i % 17)));
    k.push_back(static_cast<std::int32_t>(rng() % 1000));
  }
  auto const f = colx::frame<schema>(colx::make_column(a), colx::make_column(b), colx::make_strings_column(s), colx::make_column(k));
  auto const kept = (f | colx::filter("k"_c < 500)).collect();
  auto const sorted = f | colx::sort_by("k"_c);
  for (auto const* r : {&kept, &sorted}) {
    auto const ra = colx::to_optional_vector((*r)["a"_c].view());
    auto const rb = colx::to_optional_vector((*r)["b"_c].view());
    auto const rs = colx::to_strings((*r)["s"_c].view());
    CHECK((*r)["a"_c].null_count() == static_cast<colx::size_type>(std::count(ra.begin(), ra.end(), std::nullopt)));
    CHECK((*r)["b"_c].null_count() == static_cast<colx::size_type>(std::count(rb.begin(), rb.end(), std::nullopt)));
    CHECK((*r)["s"_c].null_count() == static_cast<colx::size_type>(std::count(rs.begin(), rs.end(), std::nullopt)));
  }
  CHECK(sorted["a"_c].null_count() == static_cast<colx::size_type>(std::count(a.begin(), a.end(), std::nullopt)));
}
