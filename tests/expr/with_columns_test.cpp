// SPDX-License-Identifier: Apache-2.0
// with_columns on the backend under test: several outputs computed in one pass and appended to
// the schema in order, input columns shared rather than copied, null masks and counts of the
// outputs at every word boundary, not_null outputs without a mask, empty frames, timestamps and
// durations, and derived frames used again by with_columns, filter, collect and reduce.
#include "support/backend.hpp"
#include "support/columns.hpp"

#include <catch2/catch.hpp>

#include <cmath>
#include <cstdint>
#include <optional>
#include <random>
#include <sstream>
#include <string>
#include <type_traits>
#include <vector>

namespace {

using namespace colx::literals;
using colx::size_type;
using colx::test::backend_kind;
using colx::test::backend_resource;
using namespace colx::test;  // support/columns.hpp: sizes, column_of, check_rows, random_optionals, ...

// A computed column: its rows, null count, memory, and a mask exactly when its field is nullable.
template <class T>
void check_column(colx::column<T> const& got, optionals<T> const& want, bool nullable) {
  check_rows(colx::to_optional_vector(got.view()), want);
  size_type nulls = 0;
  for (auto const& v : want) { nulls += v ? 0 : 1; }
  CHECK(got.null_count() == nulls);
  CHECK(got.size() == static_cast<size_type>(want.size()));
  if (!got.empty()) {
    CHECK(got.nullable() == nullable);
    CHECK(got.kind() == backend_kind());
  }
}

// The column reference is an argument, not a template argument: nvcc's front end cannot spell a
// col<"name"> template argument inside Catch's decomposed comparisons.
template <class Frame, class C>
constexpr std::size_t position_of(Frame const&, C) {
  return Frame::schema_type::template index_of<C>;
}

}  // namespace

// ---- outputs, schema, sharing ------------------------------------------------------------------

TEST_CASE("with_columns: outputs are appended in order, inputs are shared", "[expr][with_columns]") {
  using S = colx::schema<colx::field<"a", double>, colx::field<"b", double, colx::not_null>, colx::field<"k", std::int32_t>>;
  colx::frame<S> const f(column_of(optionals<double>{{0.25}, std::nullopt, {0.75}, {0.875}}),
                         column_of(std::vector<double>{1.0, 2.0, 3.0, 4.0}),
                         column_of(optionals<std::int32_t>{{1}, {2}, std::nullopt, {-7}}));
  auto const g = f | colx::with_columns(colx::where("a"_c > 0.5, "a"_c * "b"_c + 1.0, 0.0).as<"ab">(), ("k"_c / 2).as<"half">(),
                                        ("b"_c > 2.5).as<"big">(), (colx::cast<std::int64_t>("k"_c) * 3).as<"k3">(),
                                        colx::cast<float>("b"_c).as<"bf">());
  CHECK(g.num_columns() == 8);
  CHECK(g.num_rows() == 4);
  CHECK(position_of(g, "a"_c) == 0);
  CHECK(position_of(g, "k"_c) == 2);
  CHECK(position_of(g, "ab"_c) == 3);
  CHECK(position_of(g, "half"_c) == 4);
  CHECK(position_of(g, "big"_c) == 5);
  CHECK(position_of(g, "k3"_c) == 6);
  CHECK(position_of(g, "bf"_c) == 7);
  CHECK(field_is<double>(g, "ab"_c));
  CHECK(field_is<std::int32_t>(g, "half"_c));
  CHECK(field_is<bool>(g, "big"_c));
  CHECK(field_is<std::int64_t>(g, "k3"_c));
  CHECK(field_is<float>(g, "bf"_c));
  CHECK(nullable_field(g, "ab"_c));
  CHECK(nullable_field(g, "half"_c));
  CHECK_FALSE(nullable_field(g, "big"_c));
  CHECK(nullable_field(g, "k3"_c));
  CHECK_FALSE(nullable_field(g, "bf"_c));
  CHECK_FALSE(nullable_field(g, "b"_c));  // input fields keep their nullability

  check_column(g["ab"_c], optionals<double>{{0.0}, std::nullopt, {3.25}, {4.5}}, true);  // exact: no rounding to differ in
  check_column(g["half"_c], optionals<std::int32_t>{{0}, {1}, std::nullopt, {-3}}, true);
  check_column(g["big"_c], optionals<bool>{{false}, {false}, {true}, {true}}, false);
  check_column(g["k3"_c], optionals<std::int64_t>{{3}, {6}, std::nullopt, {-21}}, true);
  check_column(g["bf"_c], optionals<float>{{1.0f}, {2.0f}, {3.0f}, {4.0f}}, false);
  // column_at<I> is the same column as the named one.
  CHECK(&g.column_at<3>() == &g["ab"_c]);

  // The inputs are the same columns (the same shared objects), not copies.
  CHECK(g.shared_column_at<0>() == f.shared_column_at<0>());
  CHECK(g.shared_column_at<1>() == f.shared_column_at<1>());
  CHECK(g.shared_column_at<2>() == f.shared_column_at<2>());
  CHECK(g["a"_c].data() == f["a"_c].data());
  // And outlive the frame they came from.
  auto const h = [&] {
    colx::frame<S> const tmp(column_of(optionals<double>{{2.0}}), column_of(std::vector<double>{5.0}), column_of(optionals<std::int32_t>{{4}}));
    return tmp | colx::with_columns(("a"_c * "b"_c).as<"ab">());
  }();
  check_column(h["ab"_c], optionals<double>{{10.0}}, true);
  check_rows(colx::to_optional_vector(h["a"_c].view()), optionals<double>{{2.0}});
}

TEST_CASE("with_columns: the same expression twice, and outputs over every input", "[expr][with_columns]") {
  using S = colx::schema<colx::field<"a", std::int32_t>, colx::field<"b", std::int32_t>>;
  auto const nn = std::size_t{1000};
  auto const a = random_optionals<std::int32_t>(nn, 401, 0.2, -1000, 1000);
  auto const b = random_optionals<std::int32_t>(nn, 402, 0.2, -10, 10);
  colx::frame<S> const f(column_of(a), column_of(b));
  auto const g = f | colx::with_columns(("a"_c % "b"_c).as<"r1">(), ("a"_c % "b"_c).as<"r2">(), ("a"_c + "a"_c).as<"twice">(),
                                        (("a"_c % "b"_c) * ("a"_c % "b"_c)).as<"sq">());
  optionals<std::int32_t> r(nn), twice(nn), sq(nn);
  for (std::size_t i = 0; i < nn; ++i) {
    if (a[i]) { twice[i] = 2 * *a[i]; }
    if (a[i] && b[i] && *b[i] != 0) {
      r[i] = *a[i] % *b[i];
      sq[i] = *r[i] * *r[i];
    }
  }
  check_column(g["r1"_c], r, true);
  check_column(g["r2"_c], r, true);
  check_column(g["twice"_c], twice, true);
  check_column(g["sq"_c], sq, true);
}

// ---- masks -------------------------------------------------------------------------------------------

TEST_CASE("with_columns: null masks and counts at every word boundary", "[expr][with_columns]") {
  using S = colx::schema<colx::field<"k", std::int32_t>, colx::field<"v", std::int32_t, colx::not_null>>;
  for (size_type const n : sizes) {
    INFO("rows: " << n);
    auto const nn = static_cast<std::size_t>(n);
    // Nulls where a 32-row word starts and ends, in the last row, and in the last partial word.
    optionals<std::int32_t> k(nn);
    std::vector<std::int32_t> v(nn);
    for (std::size_t i = 0; i < nn; ++i) {
      bool const edge = i % 32 == 0 || i % 32 == 31 || i + 1 == nn || (i / 32 == (nn - 1) / 32 && i % 3 == 0);
      if (!edge) { k[i] = static_cast<std::int32_t>(i % 1000); }
      v[i] = static_cast<std::int32_t>(i % 7);
    }
    colx::frame<S> const f(column_of(k), column_of(v));
    // all_null: every row null (v % 7 - v % 7 is 0: division by zero); none_null: a nullable type
    // without nulls; kv: nulls from k and from v == 0; vv: not_null, no mask.
    auto const g = f | colx::with_columns(("k"_c + 1).as<"k1">(), ("v"_c / ("v"_c - "v"_c)).as<"all_null">(),
                                          ("v"_c / 1).as<"none_null">(), ("k"_c / "v"_c).as<"kv">(), ("v"_c * 2).as<"vv">(),
                                          colx::is_null("k"_c).as<"kn">());
    optionals<std::int32_t> k1(nn), kv(nn), none(nn), vv(nn);
    optionals<bool> kn(nn);
    for (std::size_t i = 0; i < nn; ++i) {
      if (k[i]) { k1[i] = *k[i] + 1; }
      if (k[i] && v[i] != 0) { kv[i] = *k[i] / v[i]; }
      none[i] = v[i];
      vv[i] = v[i] * 2;
      kn[i] = !k[i];
    }
    check_column(g["k1"_c], k1, true);
    check_column(g["all_null"_c], optionals<std::int32_t>(nn), true);
    check_column(g["none_null"_c], none, true);
    check_column(g["kv"_c], kv, true);
    check_column(g["vv"_c], vv, false);
    check_column(g["kn"_c], kn, false);
  }
}

TEST_CASE("with_columns: an empty frame gives empty columns of the right types", "[expr][with_columns]") {
  using S = colx::schema<colx::field<"a", double>, colx::field<"k", std::int32_t, colx::not_null>>;
  colx::frame<S> const f(column_of(optionals<double>{}), column_of(std::vector<std::int32_t>{}));
  auto const g = f | colx::with_columns(("a"_c * 2.0).as<"a2">(), ("k"_c > 1).as<"kb">(), ("k"_c / 2).as<"kh">());
  CHECK(g.num_rows() == 0);
  CHECK(g.num_columns() == 5);
  CHECK(field_is<bool>(g, "kb"_c));
  CHECK(g["a2"_c].size() == 0);
  CHECK(g["kb"_c].size() == 0);
  CHECK(g["kh"_c].null_count() == 0);
  CHECK((g | colx::reduce(colx::count())).value() == 0);
}

// ---- timestamps ------------------------------------------------------------------------------------

TEST_CASE("with_columns: timestamp and duration arithmetic", "[expr][with_columns]") {
  using S = colx::schema<colx::field<"t", colx::timestamp_s>, colx::field<"t0", colx::timestamp_s, colx::not_null>,
                         colx::field<"d", colx::date32>>;
  optionals<colx::timestamp_s> const t{{colx::timestamp_s(0)}, {colx::timestamp_s(-90)}, std::nullopt, {colx::timestamp_s(86400)}};
  std::vector<colx::timestamp_s> const t0{colx::timestamp_s(10), colx::timestamp_s(10), colx::timestamp_s(10), colx::timestamp_s(-10)};
  optionals<colx::date32> const d{{colx::date(2000, 2, 28)}, {colx::date(1969, 12, 31)}, {colx::date(2024, 12, 31)}, std::nullopt};
  colx::frame<S> const f(column_of(t), column_of(t0), column_of(d));
  auto const g = f | colx::with_columns(("t"_c + colx::duration_s(60)).as<"later">(), ("t"_c - "t0"_c).as<"elapsed">(),
                                        ("d"_c + colx::duration_days(1)).as<"next_day">(), colx::day("d"_c + colx::duration_days(1)).as<"next_dd">(),
                                        ("t"_c < "t0"_c).as<"before">());
  CHECK(field_is<colx::timestamp_s>(g, "later"_c));
  CHECK(field_is<colx::duration_s>(g, "elapsed"_c));
  CHECK(field_is<colx::date32>(g, "next_day"_c));
  check_column(g["later"_c], optionals<colx::timestamp_s>{{colx::timestamp_s(60)}, {colx::timestamp_s(-30)}, std::nullopt, {colx::timestamp_s(86460)}}, true);
  check_column(g["elapsed"_c], optionals<colx::duration_s>{{colx::duration_s(-10)}, {colx::duration_s(-100)}, std::nullopt, {colx::duration_s(86410)}}, true);
  check_column(g["next_day"_c], optionals<colx::date32>{{colx::date(2000, 2, 29)}, {colx::date(1970, 1, 1)}, {colx::date(2025, 1, 1)}, std::nullopt}, true);
  check_column(g["next_dd"_c], optionals<std::int32_t>{{29}, {1}, {1}, std::nullopt}, true);
  check_column(g["before"_c], optionals<bool>{{true}, {true}, std::nullopt, {false}}, true);
}

// ---- derived frames downstream -------------------------------------------------------------------

TEST_CASE("with_columns: derived columns feed with_columns, filter, collect and reduce", "[expr][with_columns]") {
  using S = colx::schema<colx::field<"a", double>, colx::field<"k", std::int32_t>>;
  for (size_type const n : {size_type{0}, size_type{33}, size_type{4097}, size_type{100003}}) {
    INFO("rows: " << n);
    auto const nn = static_cast<std::size_t>(n);
    auto const a = random_optionals<double>(nn, 411, 0.2, -1.0, 1.0);
    auto const k = random_optionals<std::int32_t>(nn, 412, 0.2, -20, 20);
    colx::frame<S> const f(column_of(a), column_of(k));
    auto const g = f | colx::with_columns(colx::fill_null("a"_c, 0.0).as<"filled">(), ("k"_c % 4).as<"bucket">());
    auto const h = g | colx::with_columns(("filled"_c * 2.0 + "bucket"_c).as<"score">());
    CHECK(h.num_columns() == 5);
    CHECK(h.shared_column_at<2>() == g.shared_column_at<2>());  // g's outputs are shared by h too

    optionals<double> score(nn);
    std::vector<bool> keep(nn);
    std::int64_t bucket_sum = 0;
    size_type kept = 0;
    for (std::size_t i = 0; i < nn; ++i) {
      double const filled = a[i].value_or(0.0);
      if (k[i]) { score[i] = filled * 2.0 + *k[i] % 4; }
      keep[i] = score[i] && *score[i] > 0.5;
      if (keep[i]) {
        ++kept;
        bucket_sum += *k[i] % 4;
      }
    }
    check_column(h["score"_c], score, true);

    auto const [rows, buckets] = h | colx::filter("score"_c > 0.5) | colx::reduce(colx::count(), colx::sum("bucket"_c));
    CHECK(rows.value() == kept);
    CHECK(buckets == (kept > 0 ? colx::scalar<std::int64_t>(bucket_sum) : colx::scalar<std::int64_t>{}));

    auto const c = (h | colx::filter("score"_c > 0.5)).collect();
    REQUIRE(c.num_rows() == kept);
    optionals<double> want_score, want_a;
    optionals<std::int32_t> want_bucket;
    for (std::size_t i = 0; i < nn; ++i) {
      if (!keep[i]) { continue; }
      want_score.push_back(score[i]);
      want_a.push_back(a[i]);
      want_bucket.push_back(*k[i] % 4);
    }
    check_rows(colx::to_optional_vector(c["score"_c].view()), want_score);
    check_rows(colx::to_optional_vector(c["a"_c].view()), want_a);
    check_rows(colx::to_optional_vector(c["bucket"_c].view()), want_bucket);
  }
}

// Known nvcc 13 limitation, not tested here: naming the type of a frame derived by with_columns
// (decltype of it, or decltype("kq"_c) as a template argument) does not compile under nvcc, whose
// front end spells the literal operator's result as col<__T1>. Using such frames through auto and
// "name"_c, as above, works on both compilers.

