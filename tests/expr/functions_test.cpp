// SPDX-License-Identifier: Apache-2.0
// The named expression functions, evaluated by with_columns, count_if and reduce on the backend
// under test and checked against plain loops: cast, if_else / where, coalesce / fill_null,
// is_null / is_valid, between, isin, the math functions, date parts of dates and timestamps
// (before 1970 too), and string predicates and lengths.
#include "support/backend.hpp"
#include "support/columns.hpp"

#include <catch2/catch.hpp>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <iterator>
#include <limits>
#include <map>
#include <optional>
#include <random>
#include <sstream>
#include <string>
#include <type_traits>
#include <vector>

namespace {

using namespace colx::literals;
using colx::size_type;
using colx::test::backend_resource;
using namespace colx::test;  // support/columns.hpp: sizes, column_of, check_rows, random_optionals, ...

template <class A, class F>
auto each(optionals<A> const& a, F f) {
  using R = decltype(f(*a[0]));
  optionals<R> out(a.size());
  for (std::size_t i = 0; i < a.size(); ++i) {
    if (a[i]) { out[i] = f(*a[i]); }
  }
  return out;
}

template <class T>
size_type count_true(optionals<T> const& v) {
  size_type n = 0;
  for (auto const& x : v) { n += x.value_or(false) ? 1 : 0; }
  return n;
}

}  // namespace

// ---- cast ------------------------------------------------------------------------------------------

TEST_CASE("functions: cast<T> converts as static_cast, dates by their ticks", "[expr][functions]") {
  using S = colx::schema<colx::field<"i", std::int32_t>, colx::field<"x", double>, colx::field<"d", colx::date32>,
                         colx::field<"b", bool, colx::not_null>>;
  optionals<std::int32_t> const i{{0}, {1}, {300}, {-129}, {-1}, std::nullopt, {1 << 20}};
  optionals<double> const x{{2.7}, {-2.7}, {0.5}, {-0.5}, {1e6}, {3.0}, std::nullopt};
  optionals<colx::date32> const d{{colx::date(1970, 1, 1)}, {colx::date(1969, 12, 31)}, {colx::date(2000, 2, 29)}, std::nullopt,
                                   {colx::date(1900, 3, 1)}, {colx::date(2038, 1, 19)}, {colx::date(1, 1, 1)}};
  std::vector<bool> const b{true, false, true, false, true, false, true};
  colx::frame<S> const f(column_of(i), column_of(x), column_of(d), column_of(b));
  auto const g = f | colx::with_columns(colx::cast<double>("i"_c).as<"i_f64">(), colx::cast<std::int32_t>("x"_c).as<"x_i32">(),
                                        colx::cast<std::int8_t>("i"_c).as<"i_i8">(), colx::cast<bool>("i"_c).as<"i_bool">(),
                                        colx::cast<std::int32_t>("d"_c).as<"d_ticks">(), colx::cast<colx::date32>("i"_c).as<"i_date">(),
                                        colx::cast<float>("x"_c).as<"x_f32">(), colx::cast<std::int64_t>("b"_c).as<"b_i64">(),
                                        colx::cast<std::uint16_t>("i"_c).as<"i_u16">());
  CHECK(field_is<double>(g, "i_f64"_c));
  CHECK(field_is<std::int8_t>(g, "i_i8"_c));
  CHECK(field_is<colx::date32>(g, "i_date"_c));
  CHECK_FALSE(nullable_field(g, "b_i64"_c));
  check_rows(rows(g["i_f64"_c]), each(i, [](std::int32_t v) { return static_cast<double>(v); }));
  check_rows(rows(g["x_i32"_c]), optionals<std::int32_t>{{2}, {-2}, {0}, {0}, {1000000}, {3}, std::nullopt});  // toward zero
  // Narrowing is modular (C++20): 300 -> 44, -129 -> 127, 2^20 -> 0.
  check_rows(rows(g["i_i8"_c]), optionals<std::int8_t>{{0}, {1}, {44}, {127}, {-1}, std::nullopt, {0}});
  check_rows(rows(g["i_bool"_c]), optionals<bool>{{false}, {true}, {true}, {true}, {true}, std::nullopt, {true}});
  check_rows(rows(g["d_ticks"_c]), optionals<std::int32_t>{{0}, {-1}, {11016}, std::nullopt, {-25508}, {24855}, {-719162}});
  check_rows(rows(g["i_date"_c]), each(i, [](std::int32_t v) { return colx::date32(v); }));
  check_rows(rows(g["x_f32"_c]), each(x, [](double v) { return static_cast<float>(v); }));
  check_rows(rows(g["b_i64"_c]), optionals<std::int64_t>{{1}, {0}, {1}, {0}, {1}, {0}, {1}});
  check_rows(rows(g["i_u16"_c]), optionals<std::uint16_t>{{0}, {1}, {300}, {65407}, {65535}, std::nullopt, {0}});
}

TEST_CASE("functions: a float cast to an integer it cannot hold is null; round first to round", "[expr][functions]") {
  using S = colx::schema<colx::field<"x", double, colx::not_null>, colx::field<"y", float, colx::not_null>>;
  double const inf = std::numeric_limits<double>::infinity();
  double const nan = std::numeric_limits<double>::quiet_NaN();
  std::vector<double> const x{2.5, -2.5, -0.9, 255.9, 256.0, -1.0, nan, inf, -inf, 2147483647.9, 2147483648.0, -2147483648.9,
                              -2147483649.0, 9.2233720368547748e18, -9.2233720368547758e18};  // the last: -2^63
  std::vector<float> y;
  for (double v : x) { y.push_back(static_cast<float>(v)); }
  colx::frame<S> const f(column_of(x), column_of(y));
  auto const g = f | colx::with_columns(colx::cast<std::int32_t>("x"_c).as<"i32">(), colx::cast<std::uint8_t>("x"_c).as<"u8">(),
                                        colx::cast<std::int64_t>("x"_c).as<"i64">(), colx::cast<std::int32_t>(colx::round("x"_c)).as<"r32">(),
                                        colx::cast<std::int16_t>("y"_c).as<"f16">());
  CHECK(nullable_field(g, "i32"_c));  // not_null input, but an out-of-range value makes a null
  auto const none = std::optional<std::int32_t>{};
  check_rows(rows(g["i32"_c]), optionals<std::int32_t>{{2}, {-2}, {0}, {255}, {256}, {-1}, none, none, none, {2147483647}, none,
                                                       {-2147483647 - 1}, none, none, none});
  auto const none8 = std::optional<std::uint8_t>{};
  check_rows(rows(g["u8"_c]), optionals<std::uint8_t>{{2}, none8, {0}, {255}, none8, none8, none8, none8, none8, none8, none8,
                                                      none8, none8, none8, none8});
  auto const none64 = std::optional<std::int64_t>{};
  check_rows(rows(g["i64"_c]), optionals<std::int64_t>{{2}, {-2}, {0}, {255}, {256}, {-1}, none64, none64, none64, {2147483647},
                                                       {2147483648}, {-2147483648}, {-2147483649},
                                                       {9223372036854774784},  // 2^63 - 1024: the largest double below 2^63
                                                       {std::numeric_limits<std::int64_t>::min()}});
  // round() is half away from zero: 2.5 -> 3, -2.5 -> -3.
  check_rows(rows(g["r32"_c]), optionals<std::int32_t>{{3}, {-3}, {-1}, {256}, {256}, {-1}, none, none, none, none, none, none,
                                                       none, none, none});
  auto const none16 = std::optional<std::int16_t>{};
  check_rows(rows(g["f16"_c]), optionals<std::int16_t>{{2}, {-2}, {0}, {255}, {256}, {-1}, none16, none16, none16, none16, none16,
                                                       none16, none16, none16, none16});
}

// ---- if_else, coalesce, null tests -----------------------------------------------------------------

TEST_CASE("functions: if_else / where pick a branch; a null condition gives null", "[expr][functions]") {
  using S = colx::schema<colx::field<"c", bool>, colx::field<"t", std::int32_t>, colx::field<"e", double>,
                         colx::field<"v", double, colx::not_null>>;
  for (size_type const n : sizes) {
    INFO("rows: " << n);
    auto const nn = static_cast<std::size_t>(n);
    auto const c = random_optionals<bool>(nn, 101, 0.2, false, true);
    auto const t = random_optionals<std::int32_t>(nn, 102, 0.2, -100, 100);
    auto const e = random_optionals<double>(nn, 103, 0.2, -1.0, 1.0);
    std::vector<double> v(nn);
    {
      auto const r = random_optionals<double>(nn, 104, 0.0, -1.0, 1.0);
      for (std::size_t k = 0; k < nn; ++k) { v[k] = *r[k]; }
    }
    colx::frame<S> const f(column_of(c), column_of(t), column_of(e), column_of(v));
    auto const g = f | colx::with_columns(colx::where("c"_c, "t"_c, "e"_c).as<"pick">(), colx::if_else("c"_c, 1, 0).as<"flag">(),
                                          colx::if_else("v"_c > 0.0, "v"_c, -"v"_c).as<"absv">(),
                                          colx::if_else("t"_c > 0, colx::if_else("e"_c > 0.0, 2, 1), 0).as<"nested">());
    CHECK(field_is<double>(g, "pick"_c));  // int32 and double branches: double
    CHECK(field_is<int>(g, "flag"_c));
    CHECK_FALSE(nullable_field(g, "absv"_c));
    optionals<double> want_pick(nn);
    optionals<int> want_flag(nn), want_nested(nn);
    optionals<double> want_abs(nn);
    for (std::size_t k = 0; k < nn; ++k) {
      if (c[k]) {
        want_flag[k] = *c[k] ? 1 : 0;
        if (*c[k] && t[k]) { want_pick[k] = *t[k]; }
        if (!*c[k] && e[k]) { want_pick[k] = *e[k]; }
      }
      want_abs[k] = v[k] > 0.0 ? v[k] : -v[k];
      if (t[k]) {
        if (*t[k] <= 0) {
          want_nested[k] = 0;
        } else if (e[k]) {
          want_nested[k] = *e[k] > 0.0 ? 2 : 1;
        }
      }
    }
    check_rows(rows(g["pick"_c]), want_pick);
    check_rows(rows(g["flag"_c]), want_flag);
    check_rows(rows(g["absv"_c]), want_abs);
    check_rows(rows(g["nested"_c]), want_nested);
  }
}

TEST_CASE("functions: case_when takes the next branch where a condition is null, as SQL", "[expr][functions]") {
  using S = colx::schema<colx::field<"c", bool>, colx::field<"t", std::int32_t>, colx::field<"u", std::uint32_t, colx::not_null>,
                         colx::field<"x", double>>;
  for (size_type const n : sizes) {
    INFO("rows: " << n);
    auto const nn = static_cast<std::size_t>(n);
    auto const c = random_optionals<bool>(nn, 201, 0.3, false, true);
    auto const t = random_optionals<std::int32_t>(nn, 202, 0.2, -100, 100);
    auto const x = random_optionals<double>(nn, 204, 0.2, -1.0, 1.0);
    std::vector<std::uint32_t> u(nn);
    for (std::size_t k = 0; k < nn; ++k) { u[k] = static_cast<std::uint32_t>(k * 2654435761u); }
    colx::frame<S> const f(column_of(c), column_of(t), column_of(u), column_of(x));
    auto const g = f | colx::with_columns(
                           colx::case_when("c"_c, 1, 0).as<"flag">(),
                           // CASE WHEN t > 50 THEN 3 WHEN x > 0 THEN 2 WHEN c THEN 1 ELSE 0 END
                           colx::case_when("t"_c > 50, 3, "x"_c > 0.0, 2, "c"_c, 1, 0).as<"tier">(),
                           // An int32 and a uint32 branch: int64, by value (C++ would give uint32).
                           colx::case_when("c"_c, "t"_c, "u"_c).as<"mixed">());
    CHECK(field_is<int>(g, "flag"_c));
    CHECK_FALSE(nullable_field(g, "flag"_c));  // a null condition takes the else branch: never null
    CHECK_FALSE(nullable_field(g, "tier"_c));
    CHECK(field_is<std::int64_t>(g, "mixed"_c));
    optionals<int> want_flag(nn), want_tier(nn);
    optionals<std::int64_t> want_mixed(nn);
    for (std::size_t k = 0; k < nn; ++k) {
      bool const ck = c[k].value_or(false);
      want_flag[k] = ck ? 1 : 0;
      want_tier[k] = (t[k] && *t[k] > 50) ? 3 : (x[k] && *x[k] > 0.0) ? 2 : ck ? 1 : 0;
      if (ck) {
        if (t[k]) { want_mixed[k] = *t[k]; }
      } else {
        want_mixed[k] = u[k];
      }
    }
    check_rows(rows(g["flag"_c]), want_flag);
    check_rows(rows(g["tier"_c]), want_tier);
    check_rows(rows(g["mixed"_c]), want_mixed);
    // The same inside a count_if, fused.
    std::int64_t want_count = 0;
    for (auto const& v : want_tier) { want_count += *v >= 2 ? 1 : 0; }
    CHECK((f | colx::count_if(colx::case_when("t"_c > 50, 3, "x"_c > 0.0, 2, 0) >= 2)) == want_count);
  }
}

// CASE WHEN without ELSE is null where no condition holds (TPC-H Q21's min and max over an
// order's late lines): as a derived column, in a reduce and in a group-by's min and max.
TEST_CASE("functions: case_when without an else is null", "[expr][functions]") {
  using S = colx::schema<colx::field<"c", bool>, colx::field<"t", std::int32_t>, colx::field<"k", std::int32_t, colx::not_null>>;
  for (size_type const n : sizes) {
    INFO("rows: " << n);
    auto const nn = static_cast<std::size_t>(n);
    auto const c = random_optionals<bool>(nn, 301, 0.3, false, true);
    auto const t = random_optionals<std::int32_t>(nn, 302, 0.2, -100, 100);
    std::vector<std::int32_t> k(nn);
    for (std::size_t r = 0; r < nn; ++r) { k[r] = static_cast<std::int32_t>(r % 13); }
    colx::frame<S> const f(column_of(c), column_of(t), column_of(k));
    auto const g = f | colx::with_columns(colx::case_when("c"_c, "t"_c).as<"only">(),
                                          colx::case_when("t"_c > 50, 2, "c"_c, 1).as<"two">());
    CHECK(field_is<std::int32_t>(g, "only"_c));
    CHECK(nullable_field(g, "only"_c));
    optionals<std::int32_t> want_only(nn);
    optionals<int> want_two(nn);
    std::map<std::int32_t, std::pair<std::optional<std::int32_t>, std::optional<std::int32_t>>> want_groups;
    std::optional<std::int32_t> want_min;
    for (std::size_t r = 0; r < nn; ++r) {
      bool const cr = c[r].value_or(false);
      if (cr) { want_only[r] = t[r]; }
      want_two[r] = (t[r] && *t[r] > 50) ? std::optional<int>(2) : cr ? std::optional<int>(1) : std::nullopt;
      auto& [lo, hi] = want_groups[k[r]];
      if (cr && t[r]) {
        lo = lo ? std::min(*lo, *t[r]) : *t[r];
        hi = hi ? std::max(*hi, *t[r]) : *t[r];
        want_min = want_min ? std::min(*want_min, *t[r]) : *t[r];
      }
    }
    check_rows(rows(g["only"_c]), want_only);
    check_rows(rows(g["two"_c]), want_two);
    CHECK((f | colx::reduce(colx::min(colx::case_when("c"_c, "t"_c)))).to_optional() == want_min);
    auto const per_key = f | colx::group_by(colx::group_by_options{.sorted = true}, "k"_c) |
                         colx::aggregate(colx::min(colx::case_when("c"_c, "t"_c)).as<"lo">(),
                                         colx::max(colx::case_when("c"_c, "t"_c)).as<"hi">());
    optionals<std::int32_t> want_lo, want_hi;
    for (auto const& [key, lohi] : want_groups) {
      want_lo.push_back(lohi.first);
      want_hi.push_back(lohi.second);
    }
    check_rows(rows(per_key["lo"_c]), want_lo);
    check_rows(rows(per_key["hi"_c]), want_hi);
  }
}

TEST_CASE("functions: coalesce and fill_null", "[expr][functions]") {
  using S = colx::schema<colx::field<"a", double>, colx::field<"b", double>, colx::field<"k", std::int32_t>>;
  for (size_type const n : sizes) {
    INFO("rows: " << n);
    auto const nn = static_cast<std::size_t>(n);
    auto const a = random_optionals<double>(nn, 111, 0.4, -10.0, 10.0);
    auto const b = random_optionals<double>(nn, 112, 0.4, -10.0, 10.0);
    auto const k = random_optionals<std::int32_t>(nn, 113, 0.3, -10, 10);
    colx::frame<S> const f(column_of(a), column_of(b), column_of(k));
    auto const g = f | colx::with_columns(colx::coalesce("a"_c, "b"_c).as<"ab">(), colx::fill_null("a"_c, -1.0).as<"filled">(),
                                          colx::coalesce("k"_c, "a"_c).as<"ka">(), colx::fill_null("k"_c / 2, 7).as<"kh">(),
                                          colx::coalesce("a"_c, colx::coalesce("b"_c, 0.0)).as<"abz">());
    CHECK(nullable_field(g, "ab"_c));
    CHECK_FALSE(nullable_field(g, "filled"_c));  // a constant fills every null
    CHECK_FALSE(nullable_field(g, "abz"_c));
    CHECK(field_is<double>(g, "ka"_c));
    CHECK_FALSE(g["filled"_c].nullable());
    optionals<double> want_ab(nn), want_filled(nn), want_ka(nn), want_abz(nn);
    optionals<int> want_kh(nn);
    for (std::size_t r = 0; r < nn; ++r) {
      want_ab[r] = a[r] ? a[r] : b[r];
      want_filled[r] = a[r].value_or(-1.0);
      want_ka[r] = k[r] ? std::optional<double>(*k[r]) : a[r];
      want_kh[r] = k[r] ? *k[r] / 2 : 7;
      want_abz[r] = a[r] ? *a[r] : b[r].value_or(0.0);
    }
    check_rows(rows(g["ab"_c]), want_ab);
    check_rows(rows(g["filled"_c]), want_filled);
    check_rows(rows(g["ka"_c]), want_ka);
    check_rows(rows(g["kh"_c]), want_kh);
    check_rows(rows(g["abz"_c]), want_abz);
  }
}

TEST_CASE("functions: is_null and is_valid are never null", "[expr][functions]") {
  using S = colx::schema<colx::field<"a", std::int32_t>, colx::field<"b", std::int32_t, colx::not_null>>;
  for (size_type const n : sizes) {
    INFO("rows: " << n);
    auto const nn = static_cast<std::size_t>(n);
    auto const a = random_optionals<std::int32_t>(nn, 121, 0.3, -3, 3);
    std::vector<std::int32_t> b(nn);
    for (std::size_t r = 0; r < nn; ++r) { b[r] = static_cast<std::int32_t>(r % 5) - 2; }
    colx::frame<S> const f(column_of(a), column_of(b));
    auto const g = f | colx::with_columns(colx::is_null("a"_c).as<"a_null">(), colx::is_valid("a"_c).as<"a_valid">(),
                                          colx::is_null("b"_c).as<"b_null">(), colx::is_null("a"_c / "b"_c).as<"q_null">(),
                                          colx::is_valid("a"_c + "b"_c).as<"s_valid">());
    CHECK_FALSE(nullable_field(g, "a_null"_c));
    CHECK_FALSE(nullable_field(g, "q_null"_c));
    CHECK_FALSE(g["a_null"_c].nullable());
    optionals<bool> want_null(nn), want_valid(nn), want_b(nn), want_q(nn);
    size_type nulls = 0;
    for (std::size_t r = 0; r < nn; ++r) {
      want_null[r] = !a[r].has_value();
      want_valid[r] = a[r].has_value();
      want_b[r] = false;
      want_q[r] = !a[r].has_value() || b[r] == 0;  // null, or division by zero
      nulls += a[r] ? 0 : 1;
    }
    check_rows(rows(g["a_null"_c]), want_null);
    check_rows(rows(g["a_valid"_c]), want_valid);
    check_rows(rows(g["b_null"_c]), want_b);
    check_rows(rows(g["q_null"_c]), want_q);
    check_rows(rows(g["s_valid"_c]), want_valid);
    CHECK((f | colx::count_if(colx::is_null("a"_c))) == nulls);
    CHECK((f | colx::count_if(colx::is_valid("a"_c))) == n - nulls);
    CHECK((f | colx::count_if(colx::is_null("b"_c))) == 0);
  }
}

// ---- between, isin ---------------------------------------------------------------------------------

TEST_CASE("functions: between is closed at both ends; isin matches any of its constants", "[expr][functions]") {
  using S = colx::schema<colx::field<"k", std::int32_t>, colx::field<"x", double>, colx::field<"d", colx::date32>>;
  for (size_type const n : sizes) {
    INFO("rows: " << n);
    auto const nn = static_cast<std::size_t>(n);
    auto const k = random_optionals<std::int32_t>(nn, 131, 0.2, 0, 8);
    // Multiples of 1/4 in [0, 2]: the bounds below occur exactly.
    auto x = random_optionals<std::int32_t>(nn, 132, 0.2, 0, 8);
    optionals<double> xs(nn);
    for (std::size_t r = 0; r < nn; ++r) {
      if (x[r]) { xs[r] = *x[r] * 0.25; }
    }
    auto const days = random_optionals<std::int32_t>(nn, 133, 0.2, colx::date(1993, 12, 25).ticks, colx::date(1995, 1, 7).ticks);
    optionals<colx::date32> d(nn);
    for (std::size_t r = 0; r < nn; ++r) {
      if (days[r]) { d[r] = colx::date32(*days[r]); }
    }
    colx::frame<S> const f(column_of(k), column_of(xs), column_of(d));
    auto const g = f | colx::with_columns(colx::between("k"_c, 2, 5).as<"k_in">(), colx::between("x"_c, 0.5, 1.25).as<"x_in">(),
                                          colx::isin("k"_c, 1, 3, 5).as<"k_odd">(), colx::isin("x"_c, 0.25, 1.75).as<"x_set">(),
                                          colx::isin("k"_c, 2, 4.0).as<"k_mixed">(),
                                          colx::between("d"_c, colx::date(1994, 1, 1), colx::date(1994, 12, 31)).as<"d_1994">());
    CHECK(nullable_field(g, "k_in"_c));
    check_rows(rows(g["k_in"_c]), each(k, [](std::int32_t v) { return 2 <= v && v <= 5; }));
    check_rows(rows(g["x_in"_c]), each(xs, [](double v) { return 0.5 <= v && v <= 1.25; }));
    check_rows(rows(g["k_odd"_c]), each(k, [](std::int32_t v) { return v == 1 || v == 3 || v == 5; }));
    check_rows(rows(g["x_set"_c]), each(xs, [](double v) { return v == 0.25 || v == 1.75; }));
    check_rows(rows(g["k_mixed"_c]), each(k, [](std::int32_t v) { return v == 2 || v == 4; }));
    auto const want_1994 = each(d, [](colx::date32 v) { return colx::to_civil(v).year == 1994; });
    check_rows(rows(g["d_1994"_c]), want_1994);
    // Q6's shape: date range, closed numeric range and a bound, in one filter.
    size_type want = 0;
    for (std::size_t r = 0; r < nn; ++r) {
      want += d[r] && d[r]->ticks >= colx::date(1994, 1, 1).ticks && d[r]->ticks < colx::date(1995, 1, 1).ticks && xs[r] &&
                      *xs[r] >= 0.5 && *xs[r] <= 0.75 && k[r] && *k[r] < 6
                  ? 1
                  : 0;
    }
    CHECK((f | colx::count_if("d"_c >= colx::date(1994, 1, 1) && "d"_c < colx::date(1995, 1, 1) &&
                              colx::between("x"_c, 0.5, 0.75) && "k"_c < 6)) == want);
  }
}

// ---- math ------------------------------------------------------------------------------------------

TEST_CASE("functions: abs, sqrt, exp, log, pow, floor, ceil, round on doubles", "[expr][functions][math]") {
  constexpr double inf = std::numeric_limits<double>::infinity();
  constexpr double nan = std::numeric_limits<double>::quiet_NaN();
  using S = colx::schema<colx::field<"x", double>, colx::field<"y", double>>;
  optionals<double> const x{{0.0}, {-0.0}, {0.5}, {-0.5}, {1.5}, {-1.5}, {2.5}, {-2.5}, {2.0}, {-8.0}, {1e-300}, {700.0},
                            {1000.0}, {inf}, {-inf}, {nan}, std::nullopt, {3.7}, {-3.7}, {0.49999999999999994}};
  optionals<double> const y{{0.0}, {2.0}, {3.0}, {-1.0}, {0.5}, {2.0}, {-2.0}, {3.0}, {10.0}, {1.0 / 3.0}, {2.0}, {1.0},
                            {1.0}, {0.0}, {3.0}, {1.0}, {2.0}, std::nullopt, {2.0}, {1.0}};
  colx::frame<S> const f(column_of(x), column_of(y));
  auto const g = f | colx::with_columns(colx::abs("x"_c).as<"abs">(), colx::sqrt("x"_c).as<"sqrt">(), colx::exp("x"_c).as<"exp">(),
                                        colx::log("x"_c).as<"log">(), colx::pow("x"_c, "y"_c).as<"pow">(),
                                        colx::floor("x"_c).as<"floor">(), colx::ceil("x"_c).as<"ceil">(),
                                        colx::round("x"_c).as<"round">(), colx::pow(2.0, "y"_c).as<"two_pow">(),
                                        colx::pow("x"_c, 2).as<"square">());
  check_rows(rows(g["abs"_c]), each(x, [](double v) { return std::fabs(v); }));
  check_rows(rows(g["sqrt"_c]), each(x, [](double v) { return std::sqrt(v); }));  // correctly rounded everywhere
  check_rows(rows(g["exp"_c]), each(x, [](double v) { return std::exp(v); }), within_ulps{});
  check_rows(rows(g["log"_c]), each(x, [](double v) { return std::log(v); }), within_ulps{});
  optionals<double> want_pow(x.size());
  for (std::size_t i = 0; i < x.size(); ++i) {
    if (x[i] && y[i]) { want_pow[i] = std::pow(*x[i], *y[i]); }
  }
  check_rows(rows(g["pow"_c]), want_pow, within_ulps{});
  check_rows(rows(g["floor"_c]), each(x, [](double v) { return std::floor(v); }));
  check_rows(rows(g["ceil"_c]), each(x, [](double v) { return std::ceil(v); }));
  check_rows(rows(g["two_pow"_c]), each(y, [](double v) { return std::pow(2.0, v); }), within_ulps{});
  check_rows(rows(g["square"_c]), each(x, [](double v) { return std::pow(v, 2.0); }), within_ulps{});
  // Half away from zero (std::round), not to even: 0.5 -> 1, 2.5 -> 3, -2.5 -> -3; and the largest
  // double below 0.5 rounds to 0.
  check_rows(rows(g["round"_c]),
             optionals<double>{{0.0}, {-0.0}, {1.0}, {-1.0}, {2.0}, {-2.0}, {3.0}, {-3.0}, {2.0}, {-8.0}, {0.0}, {700.0},
                               {1000.0}, {inf}, {-inf}, {nan}, std::nullopt, {4.0}, {-4.0}, {0.0}});
  check_rows(rows(g["log"_c]), optionals<double>{{-inf}, {-inf}, {std::log(0.5)}, {nan}, {std::log(1.5)}, {nan}, {std::log(2.5)},
                                                 {nan}, {std::log(2.0)}, {nan}, {std::log(1e-300)}, {std::log(700.0)},
                                                 {std::log(1000.0)}, {inf}, {nan}, {nan}, std::nullopt, {std::log(3.7)}, {nan},
                                                 {std::log(0.49999999999999994)}},
             within_ulps{});
  CHECK(g["exp"_c].null_count() == 1);  // math on a valid input is never null, even nan or inf
}

// abs must clear the sign bit, as std::fabs and Arrow's abs do: abs(-0.0) is +0.0, so that
// 1 / abs(x) is never -inf.
TEST_CASE("functions: abs of -0.0 is +0.0", "[expr][functions][math]") {
  using S = colx::schema<colx::field<"x", double>, colx::field<"y", float>>;
  colx::frame<S> const f(column_of(optionals<double>{{-0.0}, {0.0}, {-1.0}}), column_of(optionals<float>{{-0.0f}, {0.0f}, {-1.0f}}));
  auto const g = f | colx::with_columns(colx::abs("x"_c).as<"ax">(), colx::abs("y"_c).as<"ay">(), (1.0 / colx::abs("x"_c)).as<"inv">());
  auto const ax = rows(g["ax"_c]);
  auto const ay = rows(g["ay"_c]);
  auto const inv = rows(g["inv"_c]);
  REQUIRE(ax.size() == 3);
  CHECK_FALSE(std::signbit(*ax[0]));
  CHECK_FALSE(std::signbit(*ay[0]));
  CHECK(*inv[0] == std::numeric_limits<double>::infinity());
  CHECK(*ax[2] == 1.0);
}

TEST_CASE("functions: math on integer and float columns: result types and values", "[expr][functions][math]") {
  using S = colx::schema<colx::field<"i", std::int32_t>, colx::field<"l", std::int64_t>, colx::field<"f", float>>;
  constexpr auto i32_min = std::numeric_limits<std::int32_t>::min();
  optionals<std::int32_t> const i{{-7}, {0}, {9}, {i32_min}, std::nullopt, {16}};
  optionals<std::int64_t> const l{{-7}, {0}, {9}, {std::numeric_limits<std::int64_t>::min()}, {5}, std::nullopt};
  optionals<float> const fl{{-2.5f}, {0.25f}, {2.0f}, {-0.5f}, {1.5f}, std::nullopt};
  colx::frame<S> const f(column_of(i), column_of(l), column_of(fl));
  auto const g = f | colx::with_columns(colx::abs("i"_c).as<"abs_i">(), colx::abs("l"_c).as<"abs_l">(), colx::sqrt("i"_c).as<"sqrt_i">(),
                                        colx::floor("i"_c).as<"floor_i">(), colx::abs("f"_c).as<"abs_f">(),
                                        colx::sqrt("f"_c).as<"sqrt_f">(), colx::round("f"_c).as<"round_f">(),
                                        colx::exp("f"_c).as<"exp_f">(), colx::pow("i"_c, 2).as<"pow_i">());
  CHECK(field_is<std::int32_t>(g, "abs_i"_c));
  CHECK(field_is<std::int64_t>(g, "abs_l"_c));
  CHECK(field_is<double>(g, "sqrt_i"_c));
  CHECK(field_is<double>(g, "floor_i"_c));
  CHECK(field_is<float>(g, "abs_f"_c));
  CHECK(field_is<float>(g, "sqrt_f"_c));
  CHECK(field_is<float>(g, "round_f"_c));
  CHECK(field_is<float>(g, "exp_f"_c));
  CHECK(field_is<double>(g, "pow_i"_c));
  // abs(INT_MIN) wraps to INT_MIN, as the other integer operations.
  check_rows(rows(g["abs_i"_c]), optionals<std::int32_t>{{7}, {0}, {9}, {i32_min}, std::nullopt, {16}});
  check_rows(rows(g["abs_l"_c]), optionals<std::int64_t>{{7}, {0}, {9}, {std::numeric_limits<std::int64_t>::min()}, {5}, std::nullopt});
  check_rows(rows(g["sqrt_i"_c]), each(i, [](std::int32_t v) { return std::sqrt(static_cast<double>(v)); }));
  check_rows(rows(g["floor_i"_c]), each(i, [](std::int32_t v) { return static_cast<double>(v); }));
  check_rows(rows(g["abs_f"_c]), optionals<float>{{2.5f}, {0.25f}, {2.0f}, {0.5f}, {1.5f}, std::nullopt});
  check_rows(rows(g["sqrt_f"_c]), each(fl, [](float v) { return std::sqrt(v); }));
  check_rows(rows(g["round_f"_c]), optionals<float>{{-3.0f}, {0.0f}, {2.0f}, {-1.0f}, {2.0f}, std::nullopt});
  check_rows(rows(g["exp_f"_c]), each(fl, [](float v) { return std::exp(v); }), within_ulps{});
  check_rows(rows(g["pow_i"_c]), optionals<double>{{49.0}, {0.0}, {81.0}, {4611686018427387904.0}, std::nullopt, {256.0}},
             within_ulps{});
}

// ---- dates -----------------------------------------------------------------------------------------

namespace {

// The civil date of a day count, by std::chrono (an independent implementation).
std::chrono::year_month_day civil(std::int64_t days) {
  return std::chrono::year_month_day{std::chrono::sys_days{std::chrono::days{days}}};
}

// Days since the epoch of an instant `ticks` of `per_day` ticks a day, rounded down (toward the
// past, also before 1970).
std::int64_t floor_days(std::int64_t ticks, std::int64_t per_day) {
  std::int64_t q = ticks / per_day;
  if (ticks % per_day != 0 && ticks < 0) { --q; }
  return q;
}

template <class T>
void check_date_parts(optionals<T> const& values, std::int64_t per_day) {
  using S = colx::schema<colx::field<"t", T>>;
  colx::frame<S> const f(column_of(values));
  auto const g = f | colx::with_columns(colx::year("t"_c).as<"yy">(), colx::month("t"_c).as<"mm">(), colx::day("t"_c).as<"dd">());
  CHECK(field_is<std::int32_t>(g, "yy"_c));
  auto const want_y = each(values, [&](T v) { return static_cast<std::int32_t>(static_cast<int>(civil(floor_days(v.ticks, per_day)).year())); });
  auto const want_m = each(values, [&](T v) { return static_cast<std::int32_t>(static_cast<unsigned>(civil(floor_days(v.ticks, per_day)).month())); });
  auto const want_d = each(values, [&](T v) { return static_cast<std::int32_t>(static_cast<unsigned>(civil(floor_days(v.ticks, per_day)).day())); });
  check_rows(rows(g["yy"_c]), want_y);
  check_rows(rows(g["mm"_c]), want_m);
  check_rows(rows(g["dd"_c]), want_d);
}

}  // namespace

TEST_CASE("functions: year, month, day of dates, before and after 1970", "[expr][functions][dates]") {
  SECTION("edge dates") {
    optionals<colx::date32> const d{{colx::date(1970, 1, 1)}, {colx::date(1969, 12, 31)}, {colx::date(2000, 2, 29)},
                                     {colx::date(1900, 2, 28)}, {colx::date(1900, 3, 1)},  {colx::date(1600, 2, 29)},
                                     {colx::date(2400, 12, 31)}, {colx::date(1, 1, 1)},    std::nullopt,
                                     {colx::date32(-1)},        {colx::date32(-719468)}, {colx::date(9999, 12, 31)}};
    check_date_parts(d, 1);
    using S = colx::schema<colx::field<"t", colx::date32>>;
    colx::frame<S> const f(column_of(d));
    auto const g = f | colx::with_columns(colx::year("t"_c).as<"yy">(), colx::month("t"_c).as<"mm">(), colx::day("t"_c).as<"dd">());
    // Written out, so that the reference itself is checked too.
    check_rows(rows(g["yy"_c]), optionals<std::int32_t>{{1970}, {1969}, {2000}, {1900}, {1900}, {1600}, {2400}, {1}, std::nullopt, {1969}, {0}, {9999}});
    check_rows(rows(g["mm"_c]), optionals<std::int32_t>{{1}, {12}, {2}, {2}, {3}, {2}, {12}, {1}, std::nullopt, {12}, {3}, {12}});
    check_rows(rows(g["dd"_c]), optionals<std::int32_t>{{1}, {31}, {29}, {28}, {1}, {29}, {31}, {1}, std::nullopt, {31}, {1}, {31}});
  }
  SECTION("random dates from 1600 to 2400") {
    for (size_type const n : sizes) {
      INFO("rows: " << n);
      auto const days = random_optionals<std::int32_t>(static_cast<std::size_t>(n), 141, 0.1, colx::date(1600, 1, 1).ticks,
                                                       colx::date(2400, 12, 31).ticks);
      check_date_parts(each(days, [](std::int32_t v) { return colx::date32(v); }), 1);
    }
  }
}

TEST_CASE("functions: year, month, day of timestamps round instants before 1970 down", "[expr][functions][dates]") {
  constexpr std::int64_t day_s = 86400;
  SECTION("seconds: edges") {
    optionals<colx::timestamp_s> const t{{colx::timestamp_s(0)},         {colx::timestamp_s(-1)},          {colx::timestamp_s(-day_s)},
                                          {colx::timestamp_s(-day_s - 1)}, {colx::timestamp_s(day_s - 1)},   {colx::timestamp_s(day_s)},
                                          std::nullopt,                     {colx::timestamp_s(951782400)},  {colx::timestamp_s(-2208988800)},
                                          {colx::timestamp_s(-2208988801)}};
    check_date_parts(t, day_s);
    using S = colx::schema<colx::field<"t", colx::timestamp_s>>;
    colx::frame<S> const f(column_of(t));
    auto const g = f | colx::with_columns(colx::year("t"_c).as<"yy">(), colx::day("t"_c).as<"dd">());
    // -1 s is 1969-12-31; -86400 s is still 1969-12-31; -86401 s is 1969-12-30; 951782400 is
    // 2000-02-29; -2208988800 is 1900-01-01 and a second earlier 1899-12-31.
    check_rows(rows(g["yy"_c]), optionals<std::int32_t>{{1970}, {1969}, {1969}, {1969}, {1970}, {1970}, std::nullopt, {2000}, {1900}, {1899}});
    check_rows(rows(g["dd"_c]), optionals<std::int32_t>{{1}, {31}, {31}, {30}, {1}, {2}, std::nullopt, {29}, {1}, {31}});
  }
  SECTION("every unit: random instants from 1700 to 2200") {
    std::int64_t const lo = std::int64_t{colx::date(1700, 1, 1).ticks} * day_s;
    std::int64_t const hi = std::int64_t{colx::date(2200, 1, 1).ticks} * day_s;
    for (size_type const n : {size_type{257}, size_type{4097}}) {
      auto const nn = static_cast<std::size_t>(n);
      auto const secs = random_optionals<std::int64_t>(nn, 151, 0.1, lo, hi);
      auto const sub = random_optionals<std::int64_t>(nn, 152, 0.0, 0, 999'999'999);
      optionals<colx::timestamp_s> s(nn);
      optionals<colx::timestamp_ms> ms(nn);
      optionals<colx::timestamp_us> us(nn);
      optionals<colx::timestamp_ns> ns(nn);
      for (std::size_t r = 0; r < nn; ++r) {
        if (!secs[r]) { continue; }
        // Instants near midnight are the interesting ones: every tenth is within a second of one.
        std::int64_t const sec = r % 10 == 0 ? floor_days(*secs[r], day_s) * day_s - static_cast<std::int64_t>(r % 3) : *secs[r];
        s[r] = colx::timestamp_s(sec);
        ms[r] = colx::timestamp_ms(sec * 1000 + *sub[r] / 1'000'000);
        us[r] = colx::timestamp_us(sec * 1'000'000 + *sub[r] / 1000);
        ns[r] = colx::timestamp_ns(sec * 1'000'000'000 + *sub[r]);
      }
      check_date_parts(s, day_s);
      check_date_parts(ms, day_s * 1000);
      check_date_parts(us, day_s * 1'000'000);
      check_date_parts(ns, day_s * 1'000'000'000);
    }
  }
}

// ---- strings ---------------------------------------------------------------------------------------

namespace {

// Code points of a UTF-8 string: the bytes that do not continue a sequence.
std::int32_t code_points(std::string const& s) {
  std::int32_t n = 0;
  for (unsigned char const c : s) { n += (c & 0xC0u) != 0x80u ? 1 : 0; }
  return n;
}

bool starts(std::string const& s, std::string const& p) { return s.size() >= p.size() && s.compare(0, p.size(), p) == 0; }
bool ends(std::string const& s, std::string const& p) {
  return s.size() >= p.size() && s.compare(s.size() - p.size(), p.size(), p) == 0;
}

// Words with shared prefixes and suffixes, multi-byte UTF-8, an empty string and nulls.
strings random_strings(std::size_t n, std::uint64_t seed, double nulls) {
  static char const* const words[] = {"",     "a",    "ab",     "abc",      "abd",   "b",        "ba",       "héllo",
                                      "日本", "日本語", "🙂 ok", "xyzabc", "Ωmega", "mañana", "abcabc", "zz\xc3\xa9"};
  std::mt19937_64 gen(seed);
  std::uniform_int_distribution<std::size_t> pick(0, std::size(words) - 1);
  std::bernoulli_distribution is_null(nulls);
  strings out(n);
  for (auto& s : out) {
    std::string w = words[pick(gen)];
    if (pick(gen) % 4 == 0) { w += words[pick(gen)]; }
    if (!is_null(gen)) { s = w; }
  }
  return out;
}

}  // namespace

TEST_CASE("functions: string comparisons, starts_with, ends_with, contains and length", "[expr][functions][strings]") {
  using S = colx::schema<colx::field<"s", colx::string_view>, colx::field<"t", colx::string_view>, colx::field<"k", std::int32_t>>;
  for (auto const offsets : {colx::type_id::int32, colx::type_id::int64}) {
    for (size_type const n : sizes) {
      INFO("rows: " << n << ", offsets: " << colx::to_string(offsets));
      auto const nn = static_cast<std::size_t>(n);
      auto const s = random_strings(nn, 161 + nn, 0.15);
      auto const t = random_strings(nn, 162 + nn, 0.15);
      auto const k = random_optionals<std::int32_t>(nn, 163, 0.1, -5, 5);
      colx::frame<S> const f(strings_of(s, offsets), strings_of(t, offsets), column_of(k));

      // Predicates over strings, as new columns (of bools and int32: the values are fixed-width).
      auto const g = f | colx::with_columns(("s"_c == "abc").as<"eq">(), ("s"_c < "t"_c).as<"lt">(),
                                            colx::starts_with("s"_c, "ab").as<"sw">(), colx::ends_with("s"_c, "本").as<"ew">(),
                                            colx::contains("s"_c, "bc").as<"has">(), colx::length("s"_c).as<"len">(),
                                            colx::starts_with("s"_c, "t"_c).as<"sw_col">(), ("s"_c != "t"_c).as<"ne">());
      CHECK(field_is<std::int32_t>(g, "len"_c));
      optionals<bool> want_eq(nn), want_lt(nn), want_sw(nn), want_ew(nn), want_has(nn), want_swc(nn), want_ne(nn);
      optionals<std::int32_t> want_len(nn);
      for (std::size_t r = 0; r < nn; ++r) {
        if (s[r]) {
          want_eq[r] = *s[r] == "abc";
          want_sw[r] = starts(*s[r], "ab");
          want_ew[r] = ends(*s[r], "本");
          want_has[r] = s[r]->find("bc") != std::string::npos;
          want_len[r] = code_points(*s[r]);
          if (t[r]) {
            want_lt[r] = *s[r] < *t[r];  // std::string compares bytes as unsigned char
            want_swc[r] = starts(*s[r], *t[r]);
            want_ne[r] = *s[r] != *t[r];
          }
        }
      }
      check_rows(rows(g["eq"_c]), want_eq);
      check_rows(rows(g["lt"_c]), want_lt);
      check_rows(rows(g["sw"_c]), want_sw);
      check_rows(rows(g["ew"_c]), want_ew);
      check_rows(rows(g["has"_c]), want_has);
      check_rows(rows(g["len"_c]), want_len);
      check_rows(rows(g["sw_col"_c]), want_swc);
      check_rows(rows(g["ne"_c]), want_ne);

      // In filters and reductions.
      CHECK((f | colx::count_if(colx::starts_with("s"_c, "ab"))) == count_true(want_sw));
      CHECK((f | colx::count_if(colx::contains("s"_c, "日本") || colx::ends_with("s"_c, "é"))) ==
            count_true(each(s, [](std::string const& v) { return v.find("日本") != std::string::npos || ends(v, "é"); })));
      CHECK((f | colx::count_if(colx::contains("s"_c, ""))) == count_true(each(s, [](std::string const&) { return true; })));
      std::int64_t len_sum = 0;
      std::int32_t len_max = -1;
      size_type valid = 0;
      std::int64_t k_sum = 0;
      bool any_k = false;
      for (std::size_t r = 0; r < nn; ++r) {
        if (s[r]) {
          len_sum += code_points(*s[r]);
          len_max = std::max(len_max, code_points(*s[r]));
          ++valid;
          if (s[r]->size() >= 2 && s[r]->compare(0, 2, "ab") == 0 && k[r]) {
            k_sum += *k[r];
            any_k = true;
          }
        }
      }
      auto const [sum_len, max_len, count_s, any_long] =
          f | colx::reduce(colx::sum(colx::length("s"_c)), colx::max(colx::length("s"_c)), colx::count_valid("s"_c),
                           colx::any(colx::length("s"_c) > 4));
      CHECK(sum_len == (valid > 0 ? colx::scalar<std::int64_t>(len_sum) : colx::scalar<std::int64_t>{}));
      CHECK(max_len == (valid > 0 ? colx::scalar<std::int32_t>(len_max) : colx::scalar<std::int32_t>{}));
      CHECK(count_s.value() == valid);
      CHECK(any_long.value() == (len_max > 4));
      auto const k_of_ab = f | colx::filter(colx::starts_with("s"_c, "ab")) | colx::reduce(colx::sum("k"_c));
      CHECK(k_of_ab == (any_k ? colx::scalar<std::int64_t>(k_sum) : colx::scalar<std::int64_t>{}));
    }
  }
}

TEST_CASE("functions: string-valued if_else and coalesce inside predicates", "[expr][functions][strings]") {
  using S = colx::schema<colx::field<"s", colx::string_view>, colx::field<"t", colx::string_view>, colx::field<"k", std::int32_t>>;
  auto const nn = std::size_t{1000};
  auto const s = random_strings(nn, 171, 0.3);
  auto const t = random_strings(nn, 172, 0.3);
  auto const k = random_optionals<std::int32_t>(nn, 173, 0.1, -5, 5);
  colx::frame<S> const f(strings_of(s), strings_of(t), column_of(k));
  size_type want_pick = 0;
  size_type want_coalesce = 0;
  size_type want_literal = 0;
  for (std::size_t r = 0; r < nn; ++r) {
    if (k[r]) {
      auto const& chosen = *k[r] > 0 ? s[r] : t[r];
      want_pick += chosen && code_points(*chosen) == 2 ? 1 : 0;
    }
    auto const& first = s[r] ? s[r] : t[r];
    want_coalesce += first && starts(*first, "a") ? 1 : 0;
    want_literal += (s[r] ? *s[r] : std::string("none")) == "none" ? 1 : 0;
  }
  CHECK((f | colx::count_if(colx::length(colx::if_else("k"_c > 0, "s"_c, "t"_c)) == 2)) == want_pick);
  CHECK((f | colx::count_if(colx::starts_with(colx::coalesce("s"_c, "t"_c), "a"))) == want_coalesce);
  CHECK((f | colx::count_if(colx::fill_null("s"_c, "none") == "none")) == want_literal);
}
