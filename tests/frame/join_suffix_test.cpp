// SPDX-License-Identifier: Apache-2.0
// Joins where both sides have a column of the same name that is not one shared key: the left's
// gets "_x" and the right's "_y" (pandas' default), or the suffixes given with suffixes<...>();
// a shared key "k" appears once, and in right and full joins holds the right row's key where
// there is no left row. Every kind, with null keys and values, on sides of 0, 1 and 1,001 rows,
// against a nested loop on the host; the output names checked at compile time (through col<"name">,
// not decltype("name"_c), which nvcc's host pass cannot spell). Also: one on(...)
// for keys named alike wherever left and right keys are taken (join_rows, build).
#include "support/backend.hpp"
#include "support/rows.hpp"

#include <colx/frame/join.hpp>

#include <catch2/catch.hpp>

#include <algorithm>
#include <cstdint>
#include <optional>
#include <random>
#include <string>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

using namespace colx::literals;

namespace {

using colx::join_kind;
using colx::size_type;
using colx::test::backend_resource;

template <class T>
using optionals = std::vector<std::optional<T>>;

// "v" and "s" on both sides, of different types for "v": only the names clash.
using SL = colx::schema<colx::field<"k", std::int32_t>, colx::field<"v", std::int64_t>, colx::field<"s", colx::string_view>,
                        colx::field<"lid", std::int32_t, colx::not_null>>;
using SR = colx::schema<colx::field<"k", std::int32_t>, colx::field<"v", double>, colx::field<"s", colx::string_view>,
                        colx::field<"rid", std::int32_t, colx::not_null>>;

struct side {
  optionals<std::int32_t> k;
  optionals<std::int64_t> lv;  // the left's v
  optionals<double> rv;        // the right's v
  optionals<std::string> s;
  std::vector<std::int32_t> id;
};

// Keys in [0, key_range) (or, with unique_keys, row number times 3), 10% null; values 20% null.
side random_side(std::size_t n, int key_range, bool unique_keys, std::uint64_t seed) {
  std::mt19937_64 gen(seed);
  side d;
  for (std::size_t i = 0; i < n; ++i) {
    auto const key = unique_keys ? static_cast<std::int32_t>(3 * i) : static_cast<std::int32_t>(gen() % static_cast<std::uint64_t>(key_range));
    d.k.push_back(gen() % 10 == 0 ? std::nullopt : std::optional<std::int32_t>(key));
    d.lv.push_back(gen() % 5 == 0 ? std::nullopt : std::optional<std::int64_t>(static_cast<std::int64_t>(gen() % 1000) - 500));
    d.rv.push_back(gen() % 5 == 0 ? std::nullopt : std::optional<double>(static_cast<double>(gen() % 1000) / 4.0));
    // append, not "lit" + std::string: g++ 12 at -O3 warns falsely about that operator+.
    d.s.push_back(gen() % 5 == 0 ? std::nullopt : std::optional<std::string>(std::string("s").append(std::to_string(gen() % 40))));
    d.id.push_back(static_cast<std::int32_t>(i));
  }
  return d;
}

colx::frame<SL> make_sl(side const& d) {
  auto const mr = backend_resource();
  return colx::frame<SL>(colx::make_column<std::int32_t>(d.k, {}, mr), colx::make_column<std::int64_t>(d.lv, {}, mr),
                         colx::make_strings_column(d.s, colx::type_id::int32, {}, mr), colx::make_column<std::int32_t>(d.id, {}, mr));
}
colx::frame<SR> make_sr(side const& d) {
  auto const mr = backend_resource();
  return colx::frame<SR>(colx::make_column<std::int32_t>(d.k, {}, mr), colx::make_column<double>(d.rv, {}, mr),
                         colx::make_strings_column(d.s, colx::type_id::int32, {}, mr), colx::make_column<std::int32_t>(d.id, {}, mr));
}

using colx::test::read;

using colx::test::sorted_rows_of;

template <class T>
bool keys_match(std::optional<T> const& a, std::optional<T> const& b, bool nulls_equal) {
  if (!a || !b) { return nulls_equal && !a && !b; }
  return *a == *b;
}

// (left row, right row) of each output row, -1 for none, by a nested loop.
std::vector<std::pair<std::ptrdiff_t, std::ptrdiff_t>> nested_loop(join_kind how, side const& l, side const& r, bool nulls_equal) {
  std::vector<std::pair<std::ptrdiff_t, std::ptrdiff_t>> out;
  std::vector<bool> matched(r.id.size(), false);
  for (std::size_t i = 0; i < l.id.size(); ++i) {
    std::size_t found = 0;
    for (std::size_t j = 0; j < r.id.size(); ++j) {
      if (!keys_match(l.k[i], r.k[j], nulls_equal)) { continue; }
      ++found;
      matched[j] = true;
      if (how != join_kind::semi && how != join_kind::anti) {
        out.emplace_back(static_cast<std::ptrdiff_t>(i), static_cast<std::ptrdiff_t>(j));
      }
    }
    bool const keeps_unmatched = how == join_kind::left || how == join_kind::full || how == join_kind::anti;
    if ((found == 0 && keeps_unmatched) || (found > 0 && how == join_kind::semi)) { out.emplace_back(static_cast<std::ptrdiff_t>(i), -1); }
  }
  if (how == join_kind::right || how == join_kind::full) {
    for (std::size_t j = 0; j < r.id.size(); ++j) {
      if (!matched[j]) { out.emplace_back(-1, static_cast<std::ptrdiff_t>(j)); }
    }
  }
  return out;
}

using full_row = std::tuple<std::optional<std::int32_t>, std::optional<std::int64_t>, std::optional<std::string>,
                            std::optional<std::int32_t>, std::optional<double>, std::optional<std::string>, std::optional<std::int32_t>>;
using left_row = std::tuple<std::optional<std::int32_t>, std::optional<std::int64_t>, std::optional<std::string>, std::optional<std::int32_t>>;

// The output rows the reference expects: k (the left row's, else the right row's), the left's
// v, s, lid, then the right's v, s, rid; nulls for a side without a row.
std::vector<full_row> expected_rows(std::vector<std::pair<std::ptrdiff_t, std::ptrdiff_t>> const& pairs, side const& l, side const& r) {
  std::vector<full_row> out;
  for (auto const& [i, j] : pairs) {
    full_row row{};
    if (i >= 0) {
      auto const a = static_cast<std::size_t>(i);
      std::get<0>(row) = l.k[a];
      std::get<1>(row) = l.lv[a];
      std::get<2>(row) = l.s[a];
      std::get<3>(row) = l.id[a];
    }
    if (j >= 0) {
      auto const b = static_cast<std::size_t>(j);
      if (i < 0) { std::get<0>(row) = r.k[b]; }
      std::get<4>(row) = r.rv[b];
      std::get<5>(row) = r.s[b];
      std::get<6>(row) = r.id[b];
    }
    out.push_back(std::move(row));
  }
  std::sort(out.begin(), out.end());
  return out;
}
std::vector<left_row> expected_left_rows(std::vector<std::pair<std::ptrdiff_t, std::ptrdiff_t>> const& pairs, side const& l) {
  std::vector<left_row> out;
  for (auto const& [i, j] : pairs) {
    auto const a = static_cast<std::size_t>(i);
    out.emplace_back(l.k[a], l.lv[a], l.s[a], l.id[a]);
  }
  std::sort(out.begin(), out.end());
  return out;
}

// The output schema of a join of SL and SR on "k" with suffixes _x and _y, by kind.
template <join_kind How>
struct suffixed_schema {
  static constexpr bool left_nulls = How == join_kind::right || How == join_kind::full;
  static constexpr bool right_nulls = How == join_kind::left || How == join_kind::full;
  using type = colx::schema<colx::field<"k", std::int32_t>, colx::field<"v_x", std::int64_t>, colx::field<"s_x", colx::string_view>,
                            colx::field<"lid", std::int32_t, left_nulls ? colx::nullable : colx::not_null>,
                            colx::field<"v_y", double>, colx::field<"s_y", colx::string_view>,
                            colx::field<"rid", std::int32_t, right_nulls ? colx::nullable : colx::not_null>>;
};

template <join_kind How>
void check_suffixed(colx::frame<SL> const& lf, colx::frame<SR> const& rf, side const& l, side const& r, bool nulls_equal) {
  CAPTURE(static_cast<int>(How), nulls_equal);
  auto const pairs = nested_loop(How, l, r, nulls_equal);
  auto const out = lf | colx::join<How>(rf, colx::on("k"_c), colx::join_options{.nulls_equal = nulls_equal});
  using out_schema = typename decltype(out)::schema_type;
  if constexpr (How == join_kind::semi || How == join_kind::anti) {
    STATIC_REQUIRE(std::is_same_v<out_schema, SL>);  // the right side's columns are not written: nothing clashes
    CHECK(sorted_rows_of(out) == expected_left_rows(pairs, l));
  } else {
    STATIC_REQUIRE(std::is_same_v<out_schema, typename suffixed_schema<How>::type>);
    STATIC_REQUIRE(out_schema::template index_of<colx::expr::col<"v_x">> == 1);
    STATIC_REQUIRE(out_schema::template index_of<colx::expr::col<"s_y">> == 5);
    STATIC_REQUIRE(!out_schema::template contains<colx::expr::col<"v">>);
    CHECK(sorted_rows_of(out) == expected_rows(pairs, l, r));
  }
}

}  // namespace

TEST_CASE("join suffixes: every kind with a clashing non-key column, against a nested loop", "[frame]") {
  struct sizes {
    std::size_t left, right;
    bool unique_right;  // inner and left joins then take the one-pass probe
  };
  for (auto const s : {sizes{0, 0, false}, sizes{0, 1, false}, sizes{1, 0, false}, sizes{1, 1, false}, sizes{1, 1001, false},
                       sizes{1001, 1, false}, sizes{1001, 1001, false}, sizes{1001, 1001, true}}) {
    CAPTURE(s.left, s.right, s.unique_right);
    int const key_range = s.left == 1 || s.right == 1 ? 3 : 300;
    auto const l = random_side(s.left, key_range, false, 11 + s.left);
    auto const r = random_side(s.right, key_range, s.unique_right, 12 + s.right + (s.unique_right ? 1 : 0));
    auto const lf = make_sl(l);
    auto const rf = make_sr(r);
    for (bool const nulls_equal : {false, true}) {
      colx::test::for_each_join_kind([&](auto how) { check_suffixed<how.value>(lf, rf, l, r, nulls_equal); });
    }
  }
}

TEST_CASE("join suffixes: chosen suffixes, an empty one, and keys named differently", "[frame]") {
  auto const l = random_side(1001, 50, false, 41);
  auto const r = random_side(301, 50, false, 42);
  auto const lf = make_sl(l);
  auto const rf = make_sr(r);
  auto const want = expected_rows(nested_loop(join_kind::inner, l, r, false), l, r);

  auto const lr = lf | colx::join(rf, colx::on("k"_c), colx::suffixes<"_left", "_right">());
  STATIC_REQUIRE(std::is_same_v<typename decltype(lr)::schema_type,
                                colx::schema<colx::field<"k", std::int32_t>, colx::field<"v_left", std::int64_t>,
                                             colx::field<"s_left", colx::string_view>, colx::field<"lid", std::int32_t, colx::not_null>,
                                             colx::field<"v_right", double>, colx::field<"s_right", colx::string_view>,
                                             colx::field<"rid", std::int32_t, colx::not_null>>>);
  CHECK(sorted_rows_of(lr) == want);

  // Polars' spelling: the left's names kept. With options after the suffixes, and two on(...).
  auto const polars = lf | colx::join<join_kind::full>(rf, colx::on("k"_c), colx::on("k"_c), colx::suffixes<"", "_right">(),
                                                       colx::join_options{.nulls_equal = true});
  using polars_schema = typename decltype(polars)::schema_type;
  STATIC_REQUIRE(polars_schema::template index_of<colx::expr::col<"v">> == 1);
  STATIC_REQUIRE(polars_schema::template index_of<colx::expr::col<"s">> == 2);
  STATIC_REQUIRE(polars_schema::template index_of<colx::expr::col<"v_right">> == 4);
  STATIC_REQUIRE(polars_schema::template index_of<colx::expr::col<"s_right">> == 5);
  CHECK(sorted_rows_of(polars) == expected_rows(nested_loop(join_kind::full, l, r, true), l, r));

  // Keys of different names: both are written, and a right column named like the left key is
  // not that key, so both get suffixes (as pandas' left_on/right_on).
  using KR = colx::schema<colx::field<"rk", std::int32_t>, colx::field<"k", std::int32_t>, colx::field<"rid", std::int32_t, colx::not_null>>;
  auto const mr = backend_resource();
  colx::frame<KR> const kf(colx::make_column<std::int32_t>(r.k, {}, mr), colx::make_column<std::int32_t>(r.k, {}, mr),
                           colx::make_column<std::int32_t>(r.id, {}, mr));
  auto const different = lf | colx::join<join_kind::full>(kf, colx::on("k"_c), colx::on("rk"_c));
  STATIC_REQUIRE(std::is_same_v<typename decltype(different)::schema_type,
                                colx::schema<colx::field<"k_x", std::int32_t>, colx::field<"v", std::int64_t>,
                                             colx::field<"s", colx::string_view>, colx::field<"lid", std::int32_t>,
                                             colx::field<"rk", std::int32_t>, colx::field<"k_y", std::int32_t>,
                                             colx::field<"rid", std::int32_t>>>);
  auto const pairs = nested_loop(join_kind::full, l, r, false);
  std::vector<std::tuple<std::optional<std::int32_t>, std::optional<std::int32_t>, std::optional<std::int32_t>, std::optional<std::int32_t>>> want_keys;
  for (auto const& [i, j] : pairs) {
    auto const li = static_cast<std::size_t>(i);
    auto const rj = static_cast<std::size_t>(j);
    want_keys.emplace_back(i >= 0 ? l.k[li] : std::nullopt, i >= 0 ? std::optional<std::int32_t>(l.id[li]) : std::nullopt,
                           j >= 0 ? r.k[rj] : std::nullopt, j >= 0 ? std::optional<std::int32_t>(r.id[rj]) : std::nullopt);
  }
  std::sort(want_keys.begin(), want_keys.end());
  auto const kx = read(different["k_x"_c]);
  auto const lid = read(different["lid"_c]);
  auto const rk = read(different["rk"_c]);
  auto const ky = read(different["k_y"_c]);
  auto const rid = read(different["rid"_c]);
  REQUIRE(kx.size() == pairs.size());
  CHECK(rk == ky);
  decltype(want_keys) got_keys;
  for (std::size_t q = 0; q < kx.size(); ++q) { got_keys.emplace_back(kx[q], lid[q], rk[q], rid[q]); }
  std::sort(got_keys.begin(), got_keys.end());
  CHECK(got_keys == want_keys);
}

TEST_CASE("join: a shared key in a right join is null only where the right key may be", "[frame]") {
  // A nullable left key against a not-null right key: every output row has a right row, so "k"
  // is not null; in a full join it is nullable (an unmatched left row's key may be null).
  using NL = colx::schema<colx::field<"k", std::int32_t>, colx::field<"a", std::int32_t, colx::not_null>>;
  using NR = colx::schema<colx::field<"k", std::int32_t, colx::not_null>, colx::field<"b", std::int32_t, colx::not_null>>;
  auto const mr = backend_resource();
  optionals<std::int32_t> const lk{{1}, std::nullopt, {2}, {2}, {5}};
  std::vector<std::int32_t> const rk{2, 3, 1, 2};
  colx::frame<NL> const lf(colx::make_column<std::int32_t>(lk, {}, mr), colx::make_column<std::int32_t>(std::vector<std::int32_t>{0, 1, 2, 3, 4}, {}, mr));
  colx::frame<NR> const rf(colx::make_column<std::int32_t>(rk, {}, mr), colx::make_column<std::int32_t>(std::vector<std::int32_t>{10, 11, 12, 13}, {}, mr));
  using row = std::tuple<std::optional<std::int32_t>, std::optional<std::int32_t>, std::optional<std::int32_t>>;
  for (bool const nulls_equal : {false, true}) {
    CAPTURE(nulls_equal);
    colx::join_options const o{.nulls_equal = nulls_equal};
    auto const right = lf | colx::join<join_kind::right>(rf, colx::on("k"_c), o);
    STATIC_REQUIRE(std::is_same_v<typename decltype(right)::schema_type,
                                  colx::schema<colx::field<"k", std::int32_t, colx::not_null>, colx::field<"a", std::int32_t>,
                                               colx::field<"b", std::int32_t, colx::not_null>>>);
    std::vector<row> want_right{{1, 0, 12}, {2, 2, 10}, {2, 2, 13}, {2, 3, 10}, {2, 3, 13}, {3, std::nullopt, 11}};
    CHECK(sorted_rows_of(right) == want_right);
    auto const full = lf | colx::join<join_kind::full>(rf, colx::on("k"_c), o);
    STATIC_REQUIRE(std::is_same_v<typename decltype(full)::schema_type,
                                  colx::schema<colx::field<"k", std::int32_t>, colx::field<"a", std::int32_t>, colx::field<"b", std::int32_t>>>);
    std::vector<row> want_full = want_right;
    want_full.emplace_back(std::nullopt, 1, std::nullopt);
    want_full.emplace_back(5, 4, std::nullopt);
    std::sort(want_full.begin(), want_full.end());
    CHECK(sorted_rows_of(full) == want_full);
  }
}

TEST_CASE("join: one on(...) for keys named alike, in every form that takes both sides' keys", "[frame]") {
  auto const l = random_side(1001, 40, false, 51);
  auto const r = random_side(201, 40, false, 52);
  auto const lf = make_sl(l);
  auto const rf = make_sr(r);
  auto const pairs_of = [](std::pair<colx::uvector<size_type>, colx::uvector<size_type>>&& p) {
    auto const left = colx::to_vector(colx::column<size_type>(std::move(p.first)).view());
    auto const right = colx::to_vector(colx::column<size_type>(std::move(p.second)).view());
    std::vector<std::pair<std::ptrdiff_t, std::ptrdiff_t>> out;
    for (std::size_t q = 0; q < left.size(); ++q) { out.emplace_back(left[q], right[q]); }
    std::sort(out.begin(), out.end());
    return out;
  };
  auto const sorted = [](std::vector<std::pair<std::ptrdiff_t, std::ptrdiff_t>> v) {
    std::sort(v.begin(), v.end());
    return v;
  };
  for (bool const nulls_equal : {false, true}) {
    CAPTURE(nulls_equal);
    colx::join_options const o{.nulls_equal = nulls_equal};
    CHECK(pairs_of(colx::join_rows(lf, rf, colx::on("k"_c), o)) == sorted(nested_loop(join_kind::inner, l, r, nulls_equal)));
    CHECK(pairs_of(colx::join_rows<join_kind::full>(lf, rf, colx::on("k"_c), o)) == sorted(nested_loop(join_kind::full, l, r, nulls_equal)));
    auto const built = colx::build(rf, colx::on("k"_c), o);
    CHECK(pairs_of(colx::join_rows<join_kind::left>(lf, built, colx::on("k"_c))) == sorted(nested_loop(join_kind::left, l, r, nulls_equal)));
    auto const from_built = lf | colx::join<join_kind::right>(built, colx::on("k"_c), colx::suffixes<"_l", "_r">());
    STATIC_REQUIRE(decltype(from_built)::schema_type::template index_of<colx::expr::col<"v_r">> == 4);
    CHECK(sorted_rows_of(from_built) == expected_rows(nested_loop(join_kind::right, l, r, nulls_equal), l, r));
    auto const filtered = lf | colx::filter("lid"_c >= 0) | colx::join<join_kind::left>(rf, colx::on("k"_c), o);
    CHECK(sorted_rows_of(filtered) == expected_rows(nested_loop(join_kind::left, l, r, nulls_equal), l, r));
  }
}
