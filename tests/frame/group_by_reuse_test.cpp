// SPDX-License-Identifier: Apache-2.0
// Aggregations that share a part of their expressions compute it once a row (expr/reuse.hpp), and
// each still gets its own result, against std::map on the same rows:
// - TPC-H Q1's form over decimals: sum(p * (1 - d)) and sum(p * (1 - d) * (1 + t)), a max of the
//   latter whole, a nullable d (a null part is null where it is read);
// - a part read by an aggregation before the one it belongs to (TPC-H Q8's form);
// - parts of one type whose constants differ (x * 2 and x * 3): computed, not read, and a smaller
//   part inside one still read;
// - argmax and nunique of an expression with a shared part, which read values at other rows.
// Few groups and many, filtered or not, at 0, 1, 1,000 and 100,003 rows; explain() names what is read.
#include "support/backend.hpp"

#include <catch2/catch.hpp>

#include <cstdint>
#include <map>
#include <optional>
#include <random>
#include <set>
#include <string>
#include <vector>

using namespace colx::literals;

namespace {
using colx::size_type;
using money = colx::dec<15, 2>;
using i128 = colx::int128_t;

using Q = colx::schema<colx::field<"k", std::int32_t, colx::not_null>, colx::field<"p", money, colx::not_null>,
                       colx::field<"d", money>, colx::field<"t", money, colx::not_null>,
                       colx::field<"w", std::int32_t, colx::not_null>>;

// promo, first, reads disc's value (TPC-H Q8's sum(if_else(c, v, v * 0)) beside sum(v)).
template <class Source>
auto q1_form(Source const& source) {
  auto const disc = "p"_c * (1 - "d"_c);
  return source | colx::group_by(colx::group_by_options{.sorted = true}, "k"_c) |
         colx::aggregate(colx::sum(colx::if_else("w"_c % 2 == 0, disc, disc * 0)).as<"promo">(), colx::sum(disc).as<"disc">(),
                         colx::sum(disc * (1 + "t"_c)).as<"charge">(),
                         colx::max(disc * (1 + "t"_c)).as<"top">(), colx::count().as<"rows">());
}

struct q1_ref {
  i128 promo = 0;  // scale 4
  i128 disc = 0;  // scale 4
  i128 charge = 0;  // scale 6
  std::optional<i128> top;
  bool any_disc = false;
  std::int64_t rows = 0;
};

template <class Out>
void check_q1(Out const& out, std::map<std::int32_t, q1_ref> const& want) {
  REQUIRE(out.num_rows() == static_cast<size_type>(want.size()));
  auto const k = colx::to_vector(out["k"_c].view());
  auto const promo = colx::to_optional_vector(out["promo"_c].view());
  auto const disc = colx::to_optional_vector(out["disc"_c].view());
  auto const charge = colx::to_optional_vector(out["charge"_c].view());
  auto const top = colx::to_optional_vector(out["top"_c].view());
  auto const rows = colx::to_vector(out["rows"_c].view());
  std::size_t g = 0;
  for (auto const& [key, r] : want) {
    CAPTURE(g, key, r.rows);
    REQUIRE(k[g] == key);
    CHECK(rows[g] == r.rows);
    REQUIRE(promo[g].has_value() == r.any_disc);
    REQUIRE(disc[g].has_value() == r.any_disc);
    REQUIRE(charge[g].has_value() == r.any_disc);
    REQUIRE(top[g].has_value() == r.top.has_value());
    if (r.any_disc) {
      CHECK(promo[g]->unscaled == r.promo);
      CHECK(disc[g]->unscaled == r.disc);
      CHECK(charge[g]->unscaled == r.charge);
      CHECK(top[g]->unscaled == *r.top);
    }
    ++g;
  }
}

using X = colx::schema<colx::field<"k", std::int32_t, colx::not_null>, colx::field<"x", std::int64_t, colx::not_null>,
                       colx::field<"y", std::int64_t, colx::not_null>, colx::field<"w", std::int32_t, colx::not_null>>;

// b's part x * 3 has the type of a's x * 2 and other constants; c has b's type, and a's part
// inside; m is c whole; u reads x * 2 at other rows; h, first, reads later ones.
template <class Source>
auto constants_differ(Source const& source) {
  auto const c = "x"_c * 2 + "y"_c;
  return source | colx::group_by(colx::group_by_options{.sorted = true}, "k"_c) |
         colx::aggregate(colx::sum(colx::if_else("y"_c > 500, c, c * 0)).as<"h">(), colx::sum("x"_c * 2).as<"a">(), colx::sum("x"_c * 3 + "y"_c).as<"b">(),
                         colx::sum("x"_c * 2 + "y"_c).as<"c">(), colx::argmax("x"_c * 2 + "y"_c).as<"m">(),
                         colx::nunique("x"_c * 2 % 7).as<"u">());
}

struct x_ref {
  std::int64_t h = 0, a = 0, b = 0, c = 0;
  std::int64_t best = 0;
  size_type best_row = -1;
  std::set<std::int64_t> distinct;
};

template <class Out>
void check_x(Out const& out, std::map<std::int32_t, x_ref> const& want) {
  REQUIRE(out.num_rows() == static_cast<size_type>(want.size()));
  auto const k = colx::to_vector(out["k"_c].view());
  auto const h = colx::to_vector(out["h"_c].view());
  auto const a = colx::to_vector(out["a"_c].view());
  auto const b = colx::to_vector(out["b"_c].view());
  auto const c = colx::to_vector(out["c"_c].view());
  auto const m = colx::to_optional_vector(out["m"_c].view());
  auto const u = colx::to_vector(out["u"_c].view());
  std::size_t g = 0;
  for (auto const& [key, r] : want) {
    CAPTURE(g, key);
    REQUIRE(k[g] == key);
    CHECK(h[g] == r.h);
    CHECK(a[g] == r.a);
    CHECK(b[g] == r.b);
    CHECK(c[g] == r.c);
    REQUIRE(m[g].has_value());
    CHECK(*m[g] == r.best_row);
    CHECK(u[g] == static_cast<std::int64_t>(r.distinct.size()));
    ++g;
  }
}
}  // namespace

TEST_CASE("group_by: a part two aggregations share is computed once, each result its own", "[frame]") {
  for (std::size_t const n : {std::size_t{0}, std::size_t{1}, std::size_t{1000}, std::size_t{100003}}) {
    for (std::int32_t const groups : {4, 40000}) {
      CAPTURE(n, groups);
      std::mt19937_64 rng(n * 13 + static_cast<std::size_t>(groups));
      std::vector<std::int32_t> k(n), w(n);
      std::vector<money> p(n), t(n);
      std::vector<std::optional<money>> d(n);
      for (std::size_t i = 0; i < n; ++i) {
        k[i] = static_cast<std::int32_t>(rng() % static_cast<std::uint64_t>(groups));
        p[i] = money{static_cast<std::int64_t>(rng() % 10000000) - 100000};  // up to 100,000.00, some negative
        if (rng() % 10 != 0) { d[i] = money{static_cast<std::int64_t>(rng() % 11)}; }  // 0.00 to 0.10, 10% null
        t[i] = money{static_cast<std::int64_t>(rng() % 9)};
        w[i] = static_cast<std::int32_t>(i);
      }
      std::map<std::int32_t, q1_ref> all, kept;
      for (std::size_t i = 0; i < n; ++i) {
        for (auto* want : {&all, &kept}) {
          if (want == &kept && w[i] % 3 == 0) { continue; }
          q1_ref& r = (*want)[k[i]];
          ++r.rows;
          if (!d[i]) { continue; }
          i128 const disc = i128{p[i].unscaled} * (100 - d[i]->unscaled);
          i128 const charge = disc * (100 + t[i].unscaled);
          r.disc += disc;
          r.promo += w[i] % 2 == 0 ? disc : 0;
          r.charge += charge;
          r.top = r.top ? std::max(*r.top, charge) : charge;
          r.any_disc = true;
        }
      }
      auto const mr = colx::test::backend_resource();
      colx::frame<Q> const f(colx::make_column<std::int32_t>(k, {}, mr), colx::make_column<money>(p, {}, mr),
                             colx::make_column<money>(d, {}, mr), colx::make_column<money>(t, {}, mr),
                             colx::make_column<std::int32_t>(w, {}, mr));
      if (n == 1) {  // Q1's form: the checked decimal product computed once
        auto const disc = "p"_c * (1 - "d"_c);
        auto const text = colx::explain(f | colx::group_by("k"_c),
                                        colx::aggregate(colx::sum(disc).as<"disc">(), colx::sum(disc * (1 + "t"_c)).as<"charge">(),
                                                        colx::max(disc * (1 + "t"_c)).as<"top">()));
        CAPTURE(text);
        CHECK(text.find("charge reads the value of disc for a part") != std::string::npos);
        CHECK(text.find("top reads the value of charge for a part") != std::string::npos);
        CHECK(text.find("computes itself") == std::string::npos);
      }
      check_q1(q1_form(f), all);
      check_q1(q1_form(f | colx::filter("w"_c % 3 != 0)), kept);
    }
  }
}

TEST_CASE("group_by: a part whose constants differ is computed, a smaller one inside still read", "[frame]") {
  for (std::size_t const n : {std::size_t{0}, std::size_t{1}, std::size_t{1000}, std::size_t{100003}}) {
    for (std::int32_t const groups : {3, 40000}) {
      CAPTURE(n, groups);
      std::mt19937_64 rng(n * 5 + static_cast<std::size_t>(groups));
      std::vector<std::int32_t> k(n), w(n);
      std::vector<std::int64_t> x(n), y(n);
      for (std::size_t i = 0; i < n; ++i) {
        k[i] = static_cast<std::int32_t>(rng() % static_cast<std::uint64_t>(groups)) - 1;
        x[i] = static_cast<std::int64_t>(rng() % 200001) - 100000;
        y[i] = static_cast<std::int64_t>(rng() % 1000);
        w[i] = static_cast<std::int32_t>(i);
      }
      std::map<std::int32_t, x_ref> all, kept;
      for (std::size_t i = 0; i < n; ++i) {
        for (auto* want : {&all, &kept}) {
          if (want == &kept && w[i] % 3 == 0) { continue; }
          x_ref& r = (*want)[k[i]];
          r.a += x[i] * 2;
          r.b += x[i] * 3 + y[i];
          std::int64_t const c = x[i] * 2 + y[i];
          r.c += c;
          r.h += y[i] > 500 ? c : 0;
          if (r.best_row < 0 || c > r.best) {  // ties: the first row keeps it
            r.best = c;
            r.best_row = static_cast<size_type>(i);
          }
          r.distinct.insert(x[i] * 2 % 7);
        }
      }
      auto const mr = colx::test::backend_resource();
      colx::frame<X> const f(colx::make_column<std::int32_t>(k, {}, mr), colx::make_column<std::int64_t>(x, {}, mr),
                             colx::make_column<std::int64_t>(y, {}, mr), colx::make_column<std::int32_t>(w, {}, mr));
      check_x(constants_differ(f), all);
      check_x(constants_differ(f | colx::filter("w"_c % 3 != 0)), kept);
    }
  }
}

TEST_CASE("group_by: explain names the values read for a shared part", "[frame]") {
  auto const mr = colx::test::backend_resource();
  std::vector<std::int32_t> const k{1, 2, 1};
  std::vector<std::int64_t> const x{4, 5, 6};
  colx::frame<X> const f(colx::make_column<std::int32_t>(k, {}, mr), colx::make_column<std::int64_t>(x, {}, mr),
                         colx::make_column<std::int64_t>(x, {}, mr), colx::make_column<std::int32_t>(k, {}, mr));
  auto const text = colx::explain(f | colx::group_by("k"_c), colx::aggregate(colx::sum("x"_c * 2).as<"a">(),
                                                                            colx::sum("x"_c * 3 + "y"_c).as<"b">(),
                                                                            colx::sum("x"_c * 2 + "y"_c).as<"c">()));
  CAPTURE(text);
  CHECK(text.find("b computes itself a part typed as a's expression: its constants differ\n") != std::string::npos);
  CHECK(text.find("c computes itself a part typed as b's expression: its constants differ\n") != std::string::npos);
  CHECK(text.find("c reads the value of a for a part of its expression: computed once a row\n") != std::string::npos);
  // Q8's form, the part's aggregation after it.
  auto const later = colx::explain(f | colx::group_by("k"_c), colx::aggregate(colx::sum(colx::if_else("y"_c > 5, "x"_c * 3, "x"_c * 0)).as<"h">(),
                                                                             colx::sum("x"_c * 3).as<"v">()));
  CAPTURE(later);
  CHECK(later.find("h reads the value of v for a part of its expression: computed once a row\n") != std::string::npos);
  CHECK(later.find("h computes itself a part typed as v's expression: its constants differ\n") != std::string::npos);
  // No part shared: nothing said. A column is no part worth sharing.
  auto const plain = colx::explain(f | colx::group_by("k"_c), colx::aggregate(colx::sum("x"_c).as<"s">(), colx::sum("x"_c + "y"_c).as<"t">()));
  CAPTURE(plain);
  CHECK(plain.find("reads the value") == std::string::npos);
  CHECK(plain.find("computes itself") == std::string::npos);
}
