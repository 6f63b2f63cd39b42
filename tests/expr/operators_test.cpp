// SPDX-License-Identifier: Apache-2.0
// The C++ operators of expressions, evaluated by with_columns (and count_if) on the backend under
// test and checked against plain loops: arithmetic with C++'s promotions and wrapping overflow,
// integer division and remainder (null on zero), floating-point division, comparisons, Kleene
// && || and !, bitwise operators and shifts (null on a bad shift amount), and which results can
// be null at all.
#include "support/backend.hpp"
#include "support/columns.hpp"

#include <catch2/catch.hpp>

#include <cmath>
#include <cstdint>
#include <limits>
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

// f(x, y) where both are valid, else null.
template <class A, class B, class F>
auto zip(optionals<A> const& a, optionals<B> const& b, F f) {
  using R = decltype(f(*a[0], *b[0]));
  optionals<R> out(a.size());
  for (std::size_t i = 0; i < a.size(); ++i) {
    if (a[i] && b[i]) { out[i] = f(*a[i], *b[i]); }
  }
  return out;
}

template <class A, class F>
auto each(optionals<A> const& a, F f) {
  using R = decltype(f(*a[0]));
  optionals<R> out(a.size());
  for (std::size_t i = 0; i < a.size(); ++i) {
    if (a[i]) { out[i] = f(*a[i]); }
  }
  return out;
}

constexpr auto i32_min = std::numeric_limits<std::int32_t>::min();
constexpr auto i32_max = std::numeric_limits<std::int32_t>::max();
constexpr auto i64_min = std::numeric_limits<std::int64_t>::min();
constexpr auto i64_max = std::numeric_limits<std::int64_t>::max();

}  // namespace

// ---- arithmetic ---------------------------------------------------------------------------------

TEST_CASE("operators: arithmetic result types follow C++ promotion", "[expr][operators]") {
  using S = colx::schema<colx::field<"i8", std::int8_t>, colx::field<"i16", std::int16_t>, colx::field<"i32", std::int32_t>,
                         colx::field<"i64", std::int64_t>, colx::field<"u32", std::uint32_t>, colx::field<"f32", float>,
                         colx::field<"f64", double>>;
  colx::frame<S> const f(column_of(optionals<std::int8_t>{{127}, {-128}, {-7}, std::nullopt}),
                         column_of(optionals<std::int16_t>{{32767}, {-32768}, {300}, {1}}),
                         column_of(optionals<std::int32_t>{{1}, {2}, {-3}, {4}}),
                         column_of(optionals<std::int64_t>{{10}, {20}, {30}, {40}}),
                         column_of(optionals<std::uint32_t>{{1u}, {2u}, {3u}, {4u}}),
                         column_of(optionals<float>{{0.5f}, {1.5f}, {-2.0f}, {4.0f}}),
                         column_of(optionals<double>{{0.25}, {0.5}, {0.75}, std::nullopt}));
  auto const g = f | colx::with_columns(("i8"_c + "i8"_c).as<"i8_add">(), ("i8"_c * "i8"_c).as<"i8_mul">(),
                                        ("i8"_c - "i16"_c).as<"i8_sub_i16">(), ("i16"_c * "i16"_c).as<"i16_mul">(),
                                        ("i32"_c + "f64"_c).as<"i32_add_f64">(), ("f32"_c + "f32"_c).as<"f32_add">(),
                                        ("f32"_c * "i32"_c).as<"f32_mul_i32">(), ("f32"_c + "f64"_c).as<"f32_add_f64">(),
                                        ("i64"_c + "i32"_c).as<"i64_add_i32">(), ("u32"_c + "i32"_c).as<"u32_add_i32">(),
                                        (-"i8"_c).as<"neg_i8">(), ("i8"_c / "i8"_c).as<"i8_div">(),
                                        (2 * "i8"_c).as<"lit_mul">(), ("i32"_c + 0.5).as<"i32_add_lit">());
  CHECK(field_is<int>(g, "i8_add"_c));
  CHECK(field_is<int>(g, "i8_mul"_c));
  CHECK(field_is<int>(g, "i8_sub_i16"_c));
  CHECK(field_is<int>(g, "i16_mul"_c));
  CHECK(field_is<double>(g, "i32_add_f64"_c));
  CHECK(field_is<float>(g, "f32_add"_c));
  CHECK(field_is<float>(g, "f32_mul_i32"_c));
  CHECK(field_is<double>(g, "f32_add_f64"_c));
  CHECK(field_is<std::int64_t>(g, "i64_add_i32"_c));
  CHECK(field_is<std::int64_t>(g, "u32_add_i32"_c));
  CHECK(field_is<int>(g, "neg_i8"_c));
  CHECK(field_is<int>(g, "i8_div"_c));
  CHECK(field_is<int>(g, "lit_mul"_c));
  CHECK(field_is<double>(g, "i32_add_lit"_c));
  REQUIRE(g.num_rows() == 4);
  CHECK(g.num_columns() == S::size + 14);

  // Promoted before the operation, so narrow types do not overflow.
  check_rows(rows(g["i8_add"_c]), optionals<int>{{254}, {-256}, {-14}, std::nullopt});
  check_rows(rows(g["i8_mul"_c]), optionals<int>{{16129}, {16384}, {49}, std::nullopt});
  check_rows(rows(g["i8_sub_i16"_c]), optionals<int>{{127 - 32767}, {-128 + 32768}, {-307}, std::nullopt});
  check_rows(rows(g["i16_mul"_c]), optionals<int>{{1073676289}, {1073741824}, {90000}, {1}});
  check_rows(rows(g["i32_add_f64"_c]), optionals<double>{{1.25}, {2.5}, {-2.25}, std::nullopt});
  check_rows(rows(g["f32_add"_c]), optionals<float>{{1.0f}, {3.0f}, {-4.0f}, {8.0f}});
  check_rows(rows(g["f32_mul_i32"_c]), optionals<float>{{0.5f}, {3.0f}, {6.0f}, {16.0f}});
  check_rows(rows(g["f32_add_f64"_c]), optionals<double>{{0.75}, {2.0}, {-1.25}, std::nullopt});
  check_rows(rows(g["i64_add_i32"_c]), optionals<std::int64_t>{{11}, {22}, {27}, {44}});
  // uint32 with int32 is int64 (a type holding both, as Arrow and DuckDB), not C++'s uint32.
  check_rows(rows(g["u32_add_i32"_c]), optionals<std::int64_t>{{2}, {4}, {0}, {8}});
  check_rows(rows(g["neg_i8"_c]), optionals<int>{{-127}, {128}, {7}, std::nullopt});
  check_rows(rows(g["i8_div"_c]), optionals<int>{{1}, {1}, {1}, std::nullopt});
  check_rows(rows(g["lit_mul"_c]), optionals<int>{{254}, {-256}, {-14}, std::nullopt});
  check_rows(rows(g["i32_add_lit"_c]), optionals<double>{{1.5}, {2.5}, {-2.5}, {4.5}});
}

TEST_CASE("operators: signed overflow wraps around (two's complement)", "[expr][operators]") {
  using S = colx::schema<colx::field<"a", std::int32_t>, colx::field<"b", std::int32_t>, colx::field<"c", std::int64_t>,
                         colx::field<"d", std::int64_t>>;
  optionals<std::int32_t> const a{{i32_max}, {i32_min}, {i32_max}, {i32_min}, {65536}, {-1}, {0}, std::nullopt};
  optionals<std::int32_t> const b{{1}, {-1}, {i32_max}, {i32_min}, {65536}, {i32_min}, {i32_min}, {1}};
  optionals<std::int64_t> const c{{i64_max}, {i64_min}, {i64_max}, {i64_min}, {std::int64_t{1} << 32}, {-1}, {0}, {1}};
  optionals<std::int64_t> const d{{1}, {-1}, {i64_max}, {i64_min}, {std::int64_t{1} << 32}, {i64_min}, {i64_min}, std::nullopt};
  colx::frame<S> const f(column_of(a), column_of(b), column_of(c), column_of(d));
  auto const g = f | colx::with_columns(("a"_c + "b"_c).as<"add32">(), ("a"_c - "b"_c).as<"sub32">(),
                                        ("a"_c * "b"_c).as<"mul32">(), (-"a"_c).as<"neg32">(), ("c"_c + "d"_c).as<"add64">(),
                                        ("c"_c - "d"_c).as<"sub64">(), ("c"_c * "d"_c).as<"mul64">(), (-"c"_c).as<"neg64">());
  // Written out rather than computed: the 32-bit results reduced modulo 2^32.
  check_rows(rows(g["add32"_c]), optionals<std::int32_t>{{i32_min}, {i32_max}, {-2}, {0}, {131072}, {i32_max}, {i32_min}, std::nullopt});
  check_rows(rows(g["sub32"_c]), optionals<std::int32_t>{{i32_max - 1}, {i32_min + 1}, {0}, {0}, {0}, {i32_max}, {i32_min}, std::nullopt});
  check_rows(rows(g["mul32"_c]), optionals<std::int32_t>{{i32_max}, {i32_min}, {1}, {0}, {0}, {i32_min}, {0}, std::nullopt});
  check_rows(rows(g["neg32"_c]), optionals<std::int32_t>{{-i32_max}, {i32_min}, {-i32_max}, {i32_min}, {-65536}, {1}, {0}, std::nullopt});
  check_rows(rows(g["add64"_c]), optionals<std::int64_t>{{i64_min}, {i64_max}, {-2}, {0}, {std::int64_t{1} << 33}, {i64_max}, {i64_min}, std::nullopt});
  check_rows(rows(g["sub64"_c]),
             optionals<std::int64_t>{{i64_max - 1}, {i64_min + 1}, {0}, {0}, {0}, {i64_max}, {i64_min}, std::nullopt});
  check_rows(rows(g["mul64"_c]), optionals<std::int64_t>{{i64_max}, {i64_min}, {1}, {0}, {0}, {i64_min}, {0}, std::nullopt});
  check_rows(rows(g["neg64"_c]),
             optionals<std::int64_t>{{-i64_max}, {i64_min}, {-i64_max}, {i64_min}, {-(std::int64_t{1} << 32)}, {1}, {0}, {-1}});
}

TEST_CASE("operators: integer division and remainder: truncation, null on zero, min / -1 wraps", "[expr][operators]") {
  using S = colx::schema<colx::field<"a", std::int32_t>, colx::field<"b", std::int32_t>, colx::field<"c", std::int64_t>,
                         colx::field<"d", std::int64_t>>;
  optionals<std::int32_t> const a{{7}, {-7}, {7}, {-7}, {5}, {0}, {i32_min}, {i32_min}, {i32_max}, std::nullopt, {1}, {i32_min}};
  optionals<std::int32_t> const b{{2}, {2}, {-2}, {-2}, {0}, {0}, {-1}, {1}, {-1}, {1}, std::nullopt, {i32_min}};
  optionals<std::int64_t> c(a.size());
  optionals<std::int64_t> d(b.size());
  for (std::size_t i = 0; i < a.size(); ++i) {  // the same cases at 64 bits, min scaled to int64's
    if (a[i]) { c[i] = *a[i] == i32_min ? i64_min : *a[i] == i32_max ? i64_max : *a[i]; }
    if (b[i]) { d[i] = *b[i] == i32_min ? i64_min : *b[i]; }
  }
  colx::frame<S> const f(column_of(a), column_of(b), column_of(c), column_of(d));
  auto const g = f | colx::with_columns(("a"_c / "b"_c).as<"q32">(), ("a"_c % "b"_c).as<"r32">(), ("c"_c / "d"_c).as<"q64">(),
                                        ("c"_c % "d"_c).as<"r64">(), ("a"_c / 0).as<"by_zero">(), ("a"_c % 0).as<"mod_zero">());
  check_rows(rows(g["q32"_c]),
             optionals<std::int32_t>{{3}, {-3}, {-3}, {3}, std::nullopt, std::nullopt, {i32_min}, {i32_min}, {-i32_max}, std::nullopt, std::nullopt, {1}});
  check_rows(rows(g["r32"_c]),
             optionals<std::int32_t>{{1}, {-1}, {1}, {-1}, std::nullopt, std::nullopt, {0}, {0}, {0}, std::nullopt, std::nullopt, {0}});
  check_rows(rows(g["q64"_c]),
             optionals<std::int64_t>{{3}, {-3}, {-3}, {3}, std::nullopt, std::nullopt, {i64_min}, {i64_min}, {-i64_max}, std::nullopt, std::nullopt, {1}});
  check_rows(rows(g["r64"_c]),
             optionals<std::int64_t>{{1}, {-1}, {1}, {-1}, std::nullopt, std::nullopt, {0}, {0}, {0}, std::nullopt, std::nullopt, {0}});
  check_rows(rows(g["by_zero"_c]), optionals<std::int32_t>(a.size()));
  check_rows(rows(g["mod_zero"_c]), optionals<std::int32_t>(a.size()));
  CHECK(g["q32"_c].null_count() == 4);
  CHECK(g["by_zero"_c].null_count() == static_cast<size_type>(a.size()));
}

TEST_CASE("operators: division of not_null integers can still be null", "[expr][operators]") {
  using S = colx::schema<colx::field<"a", std::int32_t, colx::not_null>, colx::field<"b", std::int32_t, colx::not_null>>;
  colx::frame<S> const f(column_of(std::vector<std::int32_t>{6, 6, -6, 0}), column_of(std::vector<std::int32_t>{3, 0, 4, 5}));
  auto const g = f | colx::with_columns(("a"_c / "b"_c).as<"q">(), ("a"_c + "b"_c).as<"sum">(), ("a"_c % "b"_c).as<"r">());
  CHECK(nullable_field(g, "q"_c));
  CHECK(nullable_field(g, "r"_c));
  CHECK_FALSE(nullable_field(g, "sum"_c));
  CHECK_FALSE(g["sum"_c].nullable());  // a not_null output is written without a mask
  check_rows(rows(g["q"_c]), optionals<std::int32_t>{{2}, std::nullopt, {-1}, {0}});
  check_rows(rows(g["r"_c]), optionals<std::int32_t>{{0}, std::nullopt, {-2}, {0}});
  check_rows(rows(g["sum"_c]), optionals<std::int32_t>{{9}, {6}, {-2}, {5}});
  CHECK(g["q"_c].null_count() == 1);
}

TEST_CASE("operators: floating-point division by zero is inf or nan, not null", "[expr][operators]") {
  constexpr double inf = std::numeric_limits<double>::infinity();
  constexpr double nan = std::numeric_limits<double>::quiet_NaN();
  using S = colx::schema<colx::field<"x", double>, colx::field<"y", double>, colx::field<"f", float>, colx::field<"k", std::int32_t>>;
  optionals<double> const x{{1.0}, {-1.0}, {0.0}, {1.0}, {5.5}, {-5.5}, {1.0}, std::nullopt, {inf}};
  optionals<double> const y{{0.0}, {0.0}, {0.0}, {-0.0}, {2.0}, {2.0}, {0.0}, {1.0}, {inf}};
  optionals<float> const fl{{1.0f}, {-1.0f}, {0.0f}, {2.0f}, {5.5f}, {-5.5f}, {3.0f}, {1.0f}, {1.0f}};
  optionals<std::int32_t> const k{{1}, {-1}, {0}, {1}, {11}, {-11}, {7}, {1}, {1}};
  colx::frame<S> const f(column_of(x), column_of(y), column_of(fl), column_of(k));
  auto const g = f | colx::with_columns(("x"_c / "y"_c).as<"q">(), ("x"_c % "y"_c).as<"r">(), ("f"_c / 0.0f).as<"fq">(),
                                        ("k"_c / 0.0).as<"kq">(), ("k"_c % 2.0).as<"kr">());
  CHECK(field_is<float>(g, "fq"_c));
  CHECK(g["q"_c].null_count() == 1);  // only the null input
  CHECK(g["fq"_c].null_count() == 0);
  check_rows(rows(g["q"_c]), optionals<double>{{inf}, {-inf}, {nan}, {-inf}, {2.75}, {-2.75}, {inf}, std::nullopt, {nan}});
  // fmod: the sign of the dividend; fmod(x, 0) is nan.
  check_rows(rows(g["r"_c]), optionals<double>{{nan}, {nan}, {nan}, {nan}, {1.5}, {-1.5}, {nan}, std::nullopt, {nan}});
  constexpr float finf = std::numeric_limits<float>::infinity();
  check_rows(rows(g["fq"_c]), optionals<float>{{finf}, {-finf}, {std::nanf("")}, {finf}, {finf}, {-finf}, {finf}, {finf}, {finf}});
  check_rows(rows(g["kq"_c]), optionals<double>{{inf}, {-inf}, {nan}, {inf}, {inf}, {-inf}, {inf}, {inf}, {inf}});
  check_rows(rows(g["kr"_c]), optionals<double>{{1.0}, {-1.0}, {0.0}, {1.0}, {1.0}, {-1.0}, {1.0}, {1.0}, {1.0}});
}

// Only integer division and remainder can make a null; a floating-point quotient of not_null
// columns is never null, so (as for +, -, *) its column should be not_null and carry no mask.
// Checked at run time, so that a failure is a failing test rather than a build error.
TEST_CASE("operators: floating-point / and % of not_null columns are not_null", "[expr][operators]") {
  using S = colx::schema<colx::field<"x", double, colx::not_null>, colx::field<"y", double, colx::not_null>,
                         colx::field<"k", std::int32_t, colx::not_null>>;
  colx::frame<S> const f(column_of(std::vector<double>{1.0, 3.0, -1.0}), column_of(std::vector<double>{0.0, 2.0, 4.0}),
                         column_of(std::vector<std::int32_t>{1, 2, 3}));
  auto const g = f | colx::with_columns(("x"_c / "y"_c).as<"q">(), ("x"_c % "y"_c).as<"r">(), ("k"_c / 2.0).as<"h">(),
                                        ("k"_c / 2).as<"iq">());
  CHECK_FALSE(nullable_field(g, "q"_c));
  CHECK_FALSE(nullable_field(g, "r"_c));
  CHECK_FALSE(nullable_field(g, "h"_c));
  CHECK(nullable_field(g, "iq"_c));  // integer division by zero is null
  CHECK_FALSE(g["q"_c].nullable());
  CHECK_FALSE(g["h"_c].nullable());
  check_rows(rows(g["q"_c]), optionals<double>{{std::numeric_limits<double>::infinity()}, {1.5}, {-0.25}});
  check_rows(rows(g["r"_c]), optionals<double>{{std::numeric_limits<double>::quiet_NaN()}, {1.0}, {-1.0}});
  check_rows(rows(g["h"_c]), optionals<double>{{0.5}, {1.0}, {1.5}});
}

// ---- comparisons ----------------------------------------------------------------------------------

TEST_CASE("operators: comparisons of columns and constants, nulls propagate", "[expr][operators]") {
  using S = colx::schema<colx::field<"i", std::int32_t>, colx::field<"j", std::int32_t>, colx::field<"x", double>,
                         colx::field<"u", std::int64_t, colx::not_null>>;
  for (size_type const n : sizes) {
    INFO("rows: " << n);
    auto const nn = static_cast<std::size_t>(n);
    // Small ranges, so equal pairs are common.
    auto const i = random_optionals<std::int32_t>(nn, 11, 0.2, -5, 5);
    auto const j = random_optionals<std::int32_t>(nn, 12, 0.1, -5, 5);
    auto const x = random_optionals<double>(nn, 13, 0.15, -5.0, 5.0);
    auto const u = dense(random_optionals<std::int64_t>(nn, 14, 0.0, -3, 3));
    colx::frame<S> const f(column_of(i), column_of(j), column_of(x), column_of(u));
    auto const g = f | colx::with_columns(("i"_c == "j"_c).as<"eq">(), ("i"_c != "j"_c).as<"ne">(), ("i"_c < "j"_c).as<"lt">(),
                                          ("i"_c <= "j"_c).as<"le">(), ("i"_c > "x"_c).as<"gt">(), ("i"_c >= 2).as<"ge">(),
                                          (0.5 < "x"_c).as<"lit_lt">(), ("u"_c == 1).as<"u_eq">(), ("u"_c < "i"_c).as<"u_lt">());
    CHECK(field_is<bool>(g, "eq"_c));
    CHECK_FALSE(nullable_field(g, "u_eq"_c));
    CHECK(nullable_field(g, "u_lt"_c));
    optionals<std::int64_t> uo(u.begin(), u.end());
    check_rows(rows(g["eq"_c]), zip(i, j, [](auto p, auto q) { return p == q; }));
    check_rows(rows(g["ne"_c]), zip(i, j, [](auto p, auto q) { return p != q; }));
    check_rows(rows(g["lt"_c]), zip(i, j, [](auto p, auto q) { return p < q; }));
    check_rows(rows(g["le"_c]), zip(i, j, [](auto p, auto q) { return p <= q; }));
    check_rows(rows(g["gt"_c]), zip(i, x, [](auto p, auto q) { return static_cast<double>(p) > q; }));
    check_rows(rows(g["ge"_c]), each(i, [](auto p) { return p >= 2; }));
    check_rows(rows(g["lit_lt"_c]), each(x, [](auto q) { return 0.5 < q; }));
    check_rows(rows(g["u_eq"_c]), each(uo, [](auto p) { return p == 1; }));
    check_rows(rows(g["u_lt"_c]), zip(uo, i, [](auto p, auto q) { return p < q; }));
  }
}

// ---- Kleene logic ---------------------------------------------------------------------------------

TEST_CASE("operators: Kleene && and || truth tables, ! keeps null", "[expr][operators][kleene]") {
  // Rows: every (x, y) of {true, false, null}^2.
  std::optional<bool> const T = true;
  std::optional<bool> const F = false;
  std::optional<bool> const N = std::nullopt;
  optionals<bool> const x{T, T, T, F, F, F, N, N, N};
  optionals<bool> const y{T, F, N, T, F, N, T, F, N};
  using S = colx::schema<colx::field<"x", bool>, colx::field<"y", bool>>;
  colx::frame<S> const f(column_of(x), column_of(y));
  auto const g = f | colx::with_columns(("x"_c && "y"_c).as<"and">(), ("x"_c || "y"_c).as<"or">(), (!"x"_c).as<"not_x">(),
                                        ("x"_c && true).as<"and_t">(), ("x"_c && false).as<"and_f">(),
                                        (true || "y"_c).as<"t_or">(), (false || "y"_c).as<"f_or">(), (!!"y"_c).as<"not_not_y">());
  // The tables as SQL and Arrow's and_kleene / or_kleene define them, written out.
  check_rows(rows(g["and"_c]), optionals<bool>{T, F, N, F, F, F, N, F, N});
  check_rows(rows(g["or"_c]), optionals<bool>{T, T, T, T, F, N, T, N, N});
  check_rows(rows(g["not_x"_c]), optionals<bool>{F, F, F, T, T, T, N, N, N});
  check_rows(rows(g["and_t"_c]), optionals<bool>{T, T, T, F, F, F, N, N, N});
  check_rows(rows(g["and_f"_c]), optionals<bool>{F, F, F, F, F, F, F, F, F});  // false decides even a null
  check_rows(rows(g["t_or"_c]), optionals<bool>{T, T, T, T, T, T, T, T, T});   // true decides even a null
  check_rows(rows(g["f_or"_c]), optionals<bool>{T, F, N, T, F, N, T, F, N});
  check_rows(rows(g["not_not_y"_c]), y);
  CHECK(g["and"_c].null_count() == 3);
  CHECK(g["or"_c].null_count() == 3);

  // A filter keeps only the true rows.
  CHECK((f | colx::count_if("x"_c && "y"_c)) == 1);
  CHECK((f | colx::count_if("x"_c || "y"_c)) == 5);
  CHECK((f | colx::count_if(!"x"_c)) == 3);
  CHECK((f | colx::count_if(!("x"_c && "y"_c))) == 5);
  CHECK((f | colx::count_if(!("x"_c || "y"_c))) == 1);
}

TEST_CASE("operators: Kleene logic over comparisons that may be null", "[expr][operators][kleene]") {
  using S = colx::schema<colx::field<"a", std::int32_t>, colx::field<"b", double>, colx::field<"c", std::int32_t, colx::not_null>>;
  for (size_type const n : sizes) {
    INFO("rows: " << n);
    auto const nn = static_cast<std::size_t>(n);
    auto const a = random_optionals<std::int32_t>(nn, 21, 0.3, 0, 9);
    auto const b = random_optionals<double>(nn, 22, 0.3, 0.0, 1.0);
    auto const c = dense(random_optionals<std::int32_t>(nn, 23, 0.0, 0, 3));
    colx::frame<S> const f(column_of(a), column_of(b), column_of(c));
    auto const g = f | colx::with_columns((("a"_c > 4) && ("b"_c < 0.5)).as<"and">(), (("a"_c > 4) || ("b"_c < 0.5)).as<"or">(),
                                          (!("a"_c == 3) && "c"_c != 0).as<"mixed">(), (("c"_c == 1) || ("c"_c == 2)).as<"nn">());
    CHECK_FALSE(nullable_field(g, "nn"_c));
    optionals<bool> want_and(nn), want_or(nn), want_mixed(nn), want_nn(nn);
    auto const kleene_and = [](std::optional<bool> p, std::optional<bool> q) -> std::optional<bool> {
      if ((p && !*p) || (q && !*q)) { return false; }
      if (p && q) { return true; }
      return std::nullopt;
    };
    auto const kleene_or = [](std::optional<bool> p, std::optional<bool> q) -> std::optional<bool> {
      if ((p && *p) || (q && *q)) { return true; }
      if (p && q) { return false; }
      return std::nullopt;
    };
    size_type and_true = 0;
    for (std::size_t r = 0; r < nn; ++r) {
      std::optional<bool> const p = a[r] ? std::optional<bool>(*a[r] > 4) : std::nullopt;
      std::optional<bool> const q = b[r] ? std::optional<bool>(*b[r] < 0.5) : std::nullopt;
      std::optional<bool> const not3 = a[r] ? std::optional<bool>(!(*a[r] == 3)) : std::nullopt;
      want_and[r] = kleene_and(p, q);
      want_or[r] = kleene_or(p, q);
      want_mixed[r] = kleene_and(not3, c[r] != 0);
      want_nn[r] = c[r] == 1 || c[r] == 2;
      and_true += want_and[r].value_or(false) ? 1 : 0;
    }
    check_rows(rows(g["and"_c]), want_and);
    check_rows(rows(g["or"_c]), want_or);
    check_rows(rows(g["mixed"_c]), want_mixed);
    check_rows(rows(g["nn"_c]), want_nn);
    CHECK((f | colx::count_if(("a"_c > 4) && ("b"_c < 0.5))) == and_true);
  }
}

// ---- bitwise ---------------------------------------------------------------------------------------

TEST_CASE("operators: bitwise & | ^ ~", "[expr][operators][bitwise]") {
  using S = colx::schema<colx::field<"a", std::int32_t>, colx::field<"b", std::int32_t>, colx::field<"l", std::int64_t>,
                         colx::field<"u", std::uint8_t>>;
  auto const nn = std::size_t{1000};
  auto const a = random_optionals<std::int32_t>(nn, 31, 0.1, i32_min, i32_max);
  auto const b = random_optionals<std::int32_t>(nn, 32, 0.1, i32_min, i32_max);
  auto const l = random_optionals<std::int64_t>(nn, 33, 0.1, i64_min, i64_max);
  auto const u = random_optionals<std::uint8_t>(nn, 34, 0.1, 0, 255);
  colx::frame<S> const f(column_of(a), column_of(b), column_of(l), column_of(u));
  auto const g = f | colx::with_columns(("a"_c & "b"_c).as<"and">(), ("a"_c | "b"_c).as<"or">(), ("a"_c ^ "b"_c).as<"xor">(),
                                        (~"a"_c).as<"not">(), ("l"_c & "a"_c).as<"and64">(), (~"l"_c).as<"not64">(),
                                        (~"u"_c).as<"not_u8">(), ("u"_c ^ 0xFF).as<"xor_u8">(), ("a"_c & 0xF0).as<"mask">());
  CHECK(field_is<std::int64_t>(g, "and64"_c));
  CHECK(field_is<int>(g, "not_u8"_c));  // ~ promotes, as in C++
  check_rows(rows(g["and"_c]), zip(a, b, [](std::int32_t p, std::int32_t q) { return static_cast<std::int32_t>(p & q); }));
  check_rows(rows(g["or"_c]), zip(a, b, [](std::int32_t p, std::int32_t q) { return static_cast<std::int32_t>(p | q); }));
  check_rows(rows(g["xor"_c]), zip(a, b, [](std::int32_t p, std::int32_t q) { return static_cast<std::int32_t>(p ^ q); }));
  check_rows(rows(g["not"_c]), each(a, [](std::int32_t p) { return static_cast<std::int32_t>(~p); }));
  check_rows(rows(g["and64"_c]), zip(l, a, [](std::int64_t p, std::int32_t q) { return p & static_cast<std::int64_t>(q); }));
  check_rows(rows(g["not64"_c]), each(l, [](std::int64_t p) { return ~p; }));
  check_rows(rows(g["not_u8"_c]), each(u, [](std::uint8_t p) { return -static_cast<int>(p) - 1; }));
  check_rows(rows(g["xor_u8"_c]), each(u, [](std::uint8_t p) { return 255 - static_cast<int>(p); }));
  check_rows(rows(g["mask"_c]), each(a, [](std::int32_t p) { return p & 0xF0; }));
}

TEST_CASE("operators: shifts; a negative or too wide shift is null", "[expr][operators][bitwise]") {
  using S = colx::schema<colx::field<"a", std::int32_t>, colx::field<"l", std::int64_t>, colx::field<"s", std::int32_t>,
                         colx::field<"c", std::int8_t>>;
  optionals<std::int32_t> const s{{-1}, {0}, {1}, {7}, {31}, {32}, {33}, {63}, {64}, {100}, std::nullopt, {4}, {31}, {1}, {i32_min}};
  optionals<std::int32_t> const a{{1}, {-8}, {-8}, {3}, {1}, {1}, {1}, {1}, {1}, {1}, {1}, std::nullopt, {-1}, {i32_max}, {1}};
  optionals<std::int64_t> const l{{1}, {-8}, {-8}, {3}, {1}, {1}, {1}, {1}, {1}, {1}, {1}, std::nullopt, {-1}, {i64_max}, {1}};
  optionals<std::int8_t> const c{{1}, {-8}, {-8}, {3}, {1}, {1}, {1}, {1}, {1}, {1}, {1}, {1}, {-1}, {127}, {1}};
  colx::frame<S> const f(column_of(a), column_of(l), column_of(s), column_of(c));
  auto const g = f | colx::with_columns(("a"_c << "s"_c).as<"shl32">(), ("a"_c >> "s"_c).as<"shr32">(),
                                        ("l"_c << "s"_c).as<"shl64">(), ("l"_c >> "s"_c).as<"shr64">(),
                                        ("c"_c << "s"_c).as<"shl8">(), ("a"_c << 3).as<"shl_lit">(), (1 << "s"_c).as<"one_shl">());
  CHECK(field_is<int>(g, "shl8"_c));  // int8 promotes to a 32-bit shift
  CHECK(nullable_field(g, "shl_lit"_c));
  auto const N = std::nullopt;
  // 32-bit: amounts 0..31 are valid; -1 << 31 and 1 << 31 give INT_MIN (computed unsigned).
  check_rows(rows(g["shl32"_c]), optionals<std::int32_t>{N, {-8}, {-16}, {384}, {i32_min}, N, N, N, N, N, N, N, {i32_min}, {-2}, N});
  check_rows(rows(g["shr32"_c]), optionals<std::int32_t>{N, {-8}, {-4}, {0}, {0}, N, N, N, N, N, N, N, {-1}, {i32_max / 2}, N});
  // 64-bit: amounts 0..63 are valid.
  check_rows(rows(g["shl64"_c]), optionals<std::int64_t>{N, {-8}, {-16}, {384}, {std::int64_t{1} << 31}, {std::int64_t{1} << 32},
                                                         {std::int64_t{1} << 33}, {i64_min}, N, N, N, N, {-(std::int64_t{1} << 31)}, {-2}, N});
  check_rows(rows(g["shr64"_c]), optionals<std::int64_t>{N, {-8}, {-4}, {0}, {0}, {0}, {0}, {0}, N, N, N, N, {-1}, {i64_max / 2}, N});
  check_rows(rows(g["shl8"_c]), optionals<int>{N, {-8}, {-16}, {384}, {i32_min}, N, N, N, N, N, N, {16}, {i32_min}, {254}, N});
  check_rows(rows(g["shl_lit"_c]), optionals<std::int32_t>{{8}, {-64}, {-64}, {24}, {8}, {8}, {8}, {8}, {8}, {8}, {8}, N, {-8},
                                                            {static_cast<std::int32_t>(0xFFFFFFF8u)}, {8}});
  check_rows(rows(g["one_shl"_c]), optionals<int>{N, {1}, {2}, {128}, {i32_min}, N, N, N, N, N, N, {16}, {i32_min}, {2}, N});
}

// ---- many rows ------------------------------------------------------------------------------------

TEST_CASE("operators: a composite expression across word, block and chunk boundaries", "[expr][operators]") {
  using S = colx::schema<colx::field<"a", double>, colx::field<"b", double, colx::not_null>, colx::field<"k", std::int32_t>>;
  for (size_type const n : sizes) {
    INFO("rows: " << n);
    auto const nn = static_cast<std::size_t>(n);
    auto const a = random_optionals<double>(nn, 41 + nn, 0.25, -1.0, 1.0);
    auto const b = dense(random_optionals<double>(nn, 42 + nn, 0.0, -2.0, 2.0));
    auto const k = random_optionals<std::int32_t>(nn, 43 + nn, 0.1, -20, 20);
    colx::frame<S> const f(column_of(a), column_of(b), column_of(k));
    auto const g = f | colx::with_columns(colx::where("a"_c > 0.5, "a"_c * "b"_c + 1.0, 0.0).as<"cc">(), ("k"_c / 2).as<"h">(),
                                          ((("a"_c > 0.25) && "k"_c != 3) || "b"_c < -1.5).as<"p">(), (1.0 - "b"_c * 2.0).as<"m">(),
                                          ("k"_c % ("k"_c - 5)).as<"r">());
    CHECK_FALSE(nullable_field(g, "m"_c));
    REQUIRE(g.num_rows() == n);
    optionals<double> want_c(nn), want_m(nn);
    optionals<std::int32_t> want_h(nn), want_r(nn);
    optionals<bool> want_p(nn);
    size_type nulls_c = 0;
    for (std::size_t i = 0; i < nn; ++i) {
      if (a[i]) { want_c[i] = *a[i] > 0.5 ? *a[i] * b[i] + 1.0 : 0.0; }
      nulls_c += want_c[i] ? 0 : 1;
      if (k[i]) {
        want_h[i] = *k[i] / 2;
        if (*k[i] != 5) { want_r[i] = *k[i] % (*k[i] - 5); }
      }
      std::optional<bool> const lhs = [&]() -> std::optional<bool> {
        std::optional<bool> const p = a[i] ? std::optional<bool>(*a[i] > 0.25) : std::nullopt;
        std::optional<bool> const q = k[i] ? std::optional<bool>(*k[i] != 3) : std::nullopt;
        if ((p && !*p) || (q && !*q)) { return false; }
        if (p && q) { return true; }
        return std::nullopt;
      }();
      bool const rhs = b[i] < -1.5;
      want_p[i] = rhs ? std::optional<bool>(true) : lhs;
      want_m[i] = 1.0 - b[i] * 2.0;
    }
    // a * b + 1 may be contracted to one fma by nvcc: allow a few units in the last place of the
    // terms' magnitude (|a * b| + 1 <= 3), far below any real error.
    check_rows(rows(g["cc"_c]), want_c, [](double p, double q) { return std::abs(p - q) <= 3 * 4 * 0x1p-52; });
    check_rows(rows(g["m"_c]), want_m, [](double p, double q) { return std::abs(p - q) <= 5 * 4 * 0x1p-52; });
    check_rows(rows(g["h"_c]), want_h);
    check_rows(rows(g["r"_c]), want_r);
    check_rows(rows(g["p"_c]), want_p);
    CHECK(g["cc"_c].null_count() == nulls_c);
    CHECK_FALSE(g["m"_c].nullable());
    // The input columns are shared with the new frame, not copied.
    CHECK(g["a"_c].data() == f["a"_c].data());
    CHECK(g["k"_c].data() == f["k"_c].data());
  }
}

// Issue 15: a constant spelled long long (or unsigned long long) where std::int64_t is long was
// refused; it is the 64-bit column type of its sign.
TEST_CASE("operators: long long constants are 64-bit integers", "[expr]") {
  auto const f = colx::make_frame(colx::values<"x">({std::int64_t{1}, std::int64_t{200'000'000'000}, std::int64_t{-5}}),
                                  colx::values<"u">({std::uint64_t{1}, std::uint64_t{1} << 40, std::uint64_t{7}}));
  CHECK((f | colx::count_if("x"_c > 100'000'000'000LL)) == 1);
  CHECK((f | colx::count_if("x"_c < 0LL)) == 1);
  CHECK((f | colx::count_if("u"_c >= 7ULL)) == 2);
  auto const g = f | colx::with_columns(("x"_c + 1LL).as<"y">());
  STATIC_REQUIRE(std::is_same_v<typename std::remove_cvref_t<decltype(g["y"_c])>::value_type, std::int64_t>);
  CHECK(colx::to_vector(g["y"_c].view()) == std::vector<std::int64_t>{2, 200'000'000'001, -4});
}

// Issue 15: integers of different signedness compare by value and compute in a signed type that
// holds both (C++ converts the signed one to unsigned: -1 > 0u, and uint32 - 3 wraps).
TEST_CASE("operators: mixed signed and unsigned integers compare and compute by value", "[expr]") {
  auto const f = colx::make_frame(colx::values<"u">({std::uint32_t{0}, std::uint32_t{1}, std::uint32_t{5}, std::uint32_t{4294967295u}}),
                                  colx::values<"i">({std::int32_t{-1}, std::int32_t{1}, std::int32_t{7}, std::int32_t{-2}}),
                                  colx::values<"w">({std::uint64_t{0}, std::uint64_t{1}, std::uint64_t{1} << 63, std::uint64_t{3}}));
  CHECK((f | colx::count_if("u"_c > -1)) == 4);
  CHECK((f | colx::count_if("u"_c >= 0)) == 4);
  CHECK((f | colx::count_if("u"_c == -1)) == 0);
  CHECK((f | colx::count_if("u"_c > "i"_c)) == 2);   // 0 > -1 and 4294967295 > -2
  CHECK((f | colx::count_if("u"_c < "i"_c)) == 1);   // 5 < 7
  CHECK((f | colx::count_if("u"_c <= "i"_c)) == 2);  // 1 <= 1 and 5 <= 7
  CHECK((f | colx::count_if("w"_c > -5)) == 4);      // uint64 against a negative: by value too
  CHECK((f | colx::count_if("w"_c != -1)) == 4);
  auto const g = f | colx::with_columns(("u"_c - 3).as<"u_minus_3">(), ("u"_c + "i"_c).as<"u_plus_i">());
  CHECK(field_is<std::int64_t>(g, "u_minus_3"_c));
  CHECK(colx::to_vector(g["u_minus_3"_c].view()) == std::vector<std::int64_t>{-3, -2, 2, 4294967292});
  CHECK(colx::to_vector(g["u_plus_i"_c].view()) == std::vector<std::int64_t>{-1, 2, 12, 4294967293});
}
