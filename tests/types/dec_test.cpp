// SPDX-License-Identifier: Apache-2.0
// dec<P, S>, SQL's DECIMAL with its precision and scale known to the compiler (issue 16): SQL
// result types, exact values across scales, the two wrong answers of the runtime-scaled decimals
// (a derived column that lost its scale, and comparisons of unscaled integers across scales), a
// column of the wrong scale refused, and sum/min/max in reduce against a naive 128-bit loop, on
// the backend under test.
#include "support/columns.hpp"

#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <map>
#include <optional>
#include <random>
#include <tuple>
#include <vector>

using namespace colx::literals;

namespace {

using colx::dec;
using colx::size_type;
using colx::test::optionals;
using money = dec<15, 2>;

// ---- types, worked out at compile time ----------------------------------------------------------
static_assert(sizeof(dec<9, 2>) == 4 && sizeof(dec<18, 2>) == 8 && sizeof(dec<19, 2>) == 16);
static_assert(colx::type_to_id<money> == colx::type_id::decimal64);
static_assert(colx::type_to_id<dec<38, 10>> == colx::type_id::decimal128);
static_assert(colx::data_type_of<money>() == colx::data_type(colx::type_id::decimal64, -2));
// The types DuckDB 2.0 gives: DECIMAL(15,2) + DECIMAL(15,3) is DECIMAL(17,3); * is DECIMAL(18,5)
// (both fit 64 bits: the product stays there, checked); DECIMAL(18,10) * DECIMAL(18,10) is
// DECIMAL(36,20); DECIMAL(15,2) * BIGINT is DECIMAL(34,2); 1 - DECIMAL(15,2) is DECIMAL(16,2).
static_assert(std::is_same_v<decltype(money{} + dec<15, 3>{}), dec<17, 3>>);
static_assert(std::is_same_v<decltype(money{} * dec<15, 3>{}), dec<18, 5>>);
static_assert(std::is_same_v<decltype(dec<18, 10>{} * dec<18, 10>{}), dec<36, 20>>);
static_assert(std::is_same_v<decltype(money{} * std::int64_t{}), dec<34, 2>>);
static_assert(std::is_same_v<decltype(money{} * 3), dec<18, 2>>);
static_assert(std::is_same_v<decltype(1 - money{}), dec<16, 2>>);
static_assert(std::is_same_v<decltype(money{} / money{}), double>);
static_assert(std::is_same_v<decltype(money{} * 2.0), double>);
static_assert(std::is_same_v<decltype(dec<38, 2>{} + dec<38, 2>{}), dec<38, 2>>);  // capped at 38 digits

money m(std::int64_t unscaled) { return money::from_unscaled(unscaled); }

}  // namespace

TEST_CASE("dec: arithmetic and comparisons are exact across scales", "[types]") {
  auto const a = m(150);                        // 1.50
  auto const b = dec<4, 3>::from_unscaled(1000);  // 1.000
  CHECK((a + b).unscaled == 2500);              // 2.500 at scale 3
  CHECK((a - b).unscaled == 500);
  CHECK((b - a).unscaled == -500);
  CHECK((a * b).unscaled == 150000);  // 1.50000 at scale 5
  CHECK((a * -3).unscaled == -450);
  CHECK((a / b) == Approx(1.5));
  CHECK(a > b);
  CHECK(a == dec<6, 4>::from_unscaled(15000));
  CHECK(a != dec<6, 4>::from_unscaled(15001));
  CHECK(a < 2);
  CHECK(a > 1);
  CHECK(-a < 0);
  CHECK(a == 1.5);
  CHECK(a < 1.51);
  // Halves round away from zero, as SQL's CAST.
  CHECK(money::from_double(2.345).unscaled == 235);
  CHECK(money::from_double(-0.125).unscaled == -13);
  CHECK(money::from_double(0.124).unscaled == 12);
  // 128-bit products: DEC(20, 2) squared is DEC(38, 4).
  auto const big = dec<20, 2>::from_unscaled(999999999999999);
  auto const square = big * big;
  static_assert(std::is_same_v<decltype(square), dec<38, 4> const>);
  CHECK(square.unscaled == static_cast<colx::int128_t>(999999999999999) * 999999999999999);
}

TEST_CASE("dec: a derived column keeps its scale, and a filter compares values across scales", "[types]") {
  using S = colx::schema<colx::field<"price", money>, colx::field<"discount", money>, colx::field<"limit", dec<9, 3>>>;
  optionals<money> price{m(150), std::nullopt, m(1999), m(-250), m(100)};
  optionals<money> discount{m(10), m(5), m(0), m(50), std::nullopt};
  optionals<dec<9, 3>> limit{dec<9, 3>::from_unscaled(1000), dec<9, 3>::from_unscaled(1000), dec<9, 3>::from_unscaled(20000),
                             dec<9, 3>::from_unscaled(-2500), dec<9, 3>::from_unscaled(999)};
  colx::frame<S> const f(colx::test::column_of(price), colx::test::column_of(discount), colx::test::column_of(limit));

  // Was: a decimal expression in with_columns made a column of scale 0 (1.50 printed as 150).
  // DEC(15,2) * DEC(16,2) is DEC(18,4), 64-bit, as DuckDB's.
  auto const derived = f | colx::with_columns(("price"_c * (1 - "discount"_c)).as<"net">());
  auto const net = derived["net"_c];
  CHECK(net.type() == colx::data_type(colx::type_id::decimal64, -4));
  auto const got = colx::to_optional_vector(net.view());
  REQUIRE(got.size() == 5);
  CHECK(got[0]->unscaled == 13500);  // 1.50 * 0.90 = 1.3500
  CHECK_FALSE(got[1].has_value());
  CHECK(got[2]->unscaled == 199900);
  CHECK(got[3]->unscaled == -12500);  // -2.50 * 0.50
  CHECK_FALSE(got[4].has_value());
  CHECK_THAT(colx::to_string(derived), Catch::Contains("1.3500") && Catch::Contains("-1.2500"));

  // Was: 1.50 (scale 2) > 1.000 (scale 3) compared 150 with 1000, and kept nothing.
  CHECK((f | colx::count_if("price"_c > "limit"_c)) == 2);  // 1.50 > 1.000, 1.00 > 0.999
  CHECK((f | colx::count_if("price"_c == "limit"_c)) == 1);  // -2.50 = -2.500
  CHECK((f | colx::count_if("price"_c >= 1)) == 3);
  CHECK((f | colx::count_if("price"_c < 1.5)) == 2);  // -2.50, 1.00
}

TEST_CASE("dec: a column of another scale is refused, naming both", "[types]") {
  auto wrong = colx::make_decimal_column<std::int64_t>({colx::decimal64{150}}, -3);
  CHECK_THROWS_WITH(colx::column<money>(std::move(wrong).release()),
                    Catch::Contains("2 digits after the point") && Catch::Contains("scale -3"));
  auto right = colx::make_decimal_column<std::int64_t>({colx::decimal64{150}}, -2);
  CHECK(colx::column<money>(std::move(right).release()).size() == 1);
}

TEST_CASE("dec: sum, min and max in reduce, against a 128-bit loop", "[types]") {
  for (size_type const n : colx::test::sizes) {
    CAPTURE(n);
    std::mt19937_64 rng(static_cast<std::uint64_t>(n) + 7);
    optionals<money> v;
    colx::int128_t total = 0;
    std::optional<std::int64_t> lo, hi;
    for (size_type i = 0; i < n; ++i) {
      if (rng() % 7 == 0) {
        v.push_back(std::nullopt);
        continue;
      }
      // Values up to the top of DEC(15, 2): their sum needs more than 64 bits at 100003 rows.
      auto const u = static_cast<std::int64_t>(rng() % 2000000000000000ULL) - std::int64_t{999999999999999};
      v.push_back(m(u));
      total += u;
      lo = lo ? std::min(*lo, u) : u;
      hi = hi ? std::max(*hi, u) : u;
    }
    using S = colx::schema<colx::field<"v", money>>;
    colx::frame<S> const f(colx::test::column_of(v));
    auto const [sum, min, max] = f | colx::reduce(colx::sum("v"_c), colx::min("v"_c), colx::max("v"_c));
    static_assert(std::is_same_v<typename std::remove_cvref_t<decltype(sum)>::value_type, dec<38, 2>>);
    REQUIRE(sum.has_value() == lo.has_value());
    if (lo) {
      CHECK(sum.value().unscaled == total);
      CHECK(min.value().unscaled == *lo);
      CHECK(max.value().unscaled == *hi);
    }
  }
}

TEST_CASE("dec: group-by sum, min and max per group, against a 128-bit loop", "[types]") {
  for (size_type const n : {0, 1, 257, 4097, 100003}) {
    for (int const groups : {3, 5000}) {
      CAPTURE(n, groups);
      std::mt19937_64 rng(static_cast<std::uint64_t>(n) * 31 + static_cast<std::uint64_t>(groups));
      std::vector<std::int32_t> k;
      optionals<money> v;
      std::map<std::int32_t, std::tuple<colx::int128_t, std::int64_t, std::int64_t, bool>> want;  // sum, min, max, any
      for (size_type i = 0; i < n; ++i) {
        auto const key = static_cast<std::int32_t>(rng() % static_cast<std::uint64_t>(groups));
        k.push_back(key);
        auto& w = want.try_emplace(key, 0, 0, 0, false).first->second;
        if (rng() % 5 == 0) {
          v.push_back(std::nullopt);
          continue;
        }
        auto const u = static_cast<std::int64_t>(rng() % 2000000000000000ULL) - std::int64_t{999999999999999};
        v.push_back(m(u));
        std::get<0>(w) += u;
        std::get<1>(w) = std::get<3>(w) ? std::min(std::get<1>(w), u) : u;
        std::get<2>(w) = std::get<3>(w) ? std::max(std::get<2>(w), u) : u;
        std::get<3>(w) = true;
      }
      using S = colx::schema<colx::field<"k", std::int32_t, colx::not_null>, colx::field<"v", money>>;
      colx::frame<S> const f(colx::test::column_of(k), colx::test::column_of(v));
      auto const r = f | colx::group_by("k"_c) |
                     colx::aggregate(colx::sum("v"_c).as<"s">(), colx::min("v"_c).as<"lo">(), colx::max("v"_c).as<"hi">());
      CHECK(r["s"_c].type() == colx::data_type(colx::type_id::decimal128, -2));
      auto const keys = colx::to_optional_vector(r["k"_c].view());
      auto const sums = colx::to_optional_vector(r["s"_c].view());
      auto const lows = colx::to_optional_vector(r["lo"_c].view());
      auto const highs = colx::to_optional_vector(r["hi"_c].view());
      REQUIRE(keys.size() == want.size());
      int wrong = 0;
      for (std::size_t i = 0; i < keys.size(); ++i) {
        auto const& [sum, lo, hi, any] = want.at(*keys[i]);
        bool const ok = any ? (sums[i] && sums[i]->unscaled == sum && lows[i] && lows[i]->unscaled == lo && highs[i] &&
                               highs[i]->unscaled == hi)
                            : (!sums[i] && !lows[i] && !highs[i]);
        wrong += ok ? 0 : 1;
      }
      CHECK(wrong == 0);
    }
  }
}

// Only a result whose precision SQL's cap at 38 digits cut can overflow; in an expression it is
// then null (DuckDB raises an error), never a wrapped value.
TEST_CASE("dec: a result beyond 38 digits is null", "[types]") {
  using wide = dec<38, 2>;
  using S = colx::schema<colx::field<"a", wide>, colx::field<"b", dec<20, 2>>>;
  colx::int128_t const near_top = colx::detail::pow10_128(37) * 9;  // 9e37, 36 digits before the point
  optionals<wide> a{wide::from_unscaled(near_top), wide::from_unscaled(-near_top), wide::from_unscaled(150), std::nullopt};
  optionals<dec<20, 2>> b{dec<20, 2>::from_unscaled(colx::detail::pow10_128(19)), dec<20, 2>::from_unscaled(-200),
                          dec<20, 2>::from_unscaled(-200), dec<20, 2>::from_unscaled(1)};
  colx::frame<S> const f(colx::test::column_of(a), colx::test::column_of(b));
  static_assert(colx::expr::ops::add::nulls_for<wide, wide> && !colx::expr::ops::add::nulls_for<money, money>);
  static_assert(colx::expr::ops::mul::nulls_for<wide, dec<20, 2>> && !colx::expr::ops::mul::nulls_for<dec<9, 2>, dec<9, 2>>);
  static_assert(colx::expr::ops::mul::nulls_for<money, money>);  // DEC(18, 4), as DuckDB: checked
  auto const r = f | colx::with_columns(("a"_c + "a"_c).as<"twice">(), ("a"_c - "a"_c).as<"zero">(), ("a"_c * "b"_c).as<"product">(),
                                        ("b"_c * "b"_c).as<"square">());
  auto const twice = colx::to_optional_vector(r["twice"_c].view());
  auto const zero = colx::to_optional_vector(r["zero"_c].view());
  auto const product = colx::to_optional_vector(r["product"_c].view());
  auto const square = colx::to_optional_vector(r["square"_c].view());
  CHECK_FALSE(twice[0].has_value());  // 1.8e38 does not fit
  CHECK_FALSE(twice[1].has_value());
  CHECK(twice[2]->unscaled == 300);
  CHECK_FALSE(twice[3].has_value());  // a null input
  CHECK(zero[0]->unscaled == 0);
  CHECK(zero[1]->unscaled == 0);
  CHECK_FALSE(product[0].has_value());  // 9e35 * 1e17 does not fit 38 digits
  CHECK_FALSE(product[1].has_value());
  CHECK(product[2]->unscaled == 150 * -200);
  CHECK_FALSE(product[3].has_value());
  CHECK_FALSE(square[0].has_value());  // (1e17)^2 at scale 4 is 10^38: one digit too many
  CHECK(square[1]->unscaled == 40000);
}

// A capped 128-bit product is checked from 64-bit halves (types/dec_checked.hpp), not by dividing
// 10^38 by a factor: against that division as the reference, over factors of every size around
// the 64-bit boundary, both signs, and products at 10^38 - 1 and 10^38 exactly.
TEST_CASE("dec: a capped 128-bit product is null exactly when it passes 38 digits", "[types]") {
  using wide = dec<38, 2>;
  using narrow = dec<20, 2>;  // the product dec<38, 4>: capped from 58 digits
  colx::int128_t const limit = colx::detail::pow10_128(38);
  auto const check = [&](colx::int128_t x, colx::int128_t y) {
    colx::int128_t const ax = x < 0 ? -x : x;
    colx::int128_t const ay = y < 0 ? -y : y;
    bool const fits = ax == 0 || ay <= (limit - 1) / ax;
    bool valid = true;
    auto const r = colx::detail::checked_mul(wide::from_unscaled(x), narrow::from_unscaled(y), valid);
    INFO("x = " << static_cast<double>(x) << ", y = " << static_cast<double>(y));
    REQUIRE(valid == fits);
    if (fits) { REQUIRE(r.unscaled == x * y); }
  };
  std::mt19937_64 rng(42);
  colx::int128_t const two64 = static_cast<colx::int128_t>(1) << 64;
  std::vector<colx::int128_t> edges{0, 1, 3, two64 - 1, two64, two64 + 1, limit / 2, limit - 1, colx::detail::pow10_128(19),
                                    colx::detail::pow10_128(19) - 1, colx::detail::pow10_128(20) - 1};
  for (int k = 0; k < 2000; ++k) {  // magnitudes of 1 to 126 bits
    int const bits = 1 + static_cast<int>(rng() % 126);
    colx::int128_t const v = ((static_cast<colx::int128_t>(rng()) << 64) | rng()) & ((static_cast<colx::int128_t>(1) << bits) - 1);
    edges.push_back(v % limit);
  }
  for (std::size_t i = 0; i < edges.size(); ++i) {
    colx::int128_t const x = edges[i];
    colx::int128_t const y = edges[(i * 7919 + 13) % edges.size()] % colx::detail::pow10_128(20);
    check(x, y);
    check(-x, y);
    check(x, -y);
    check(-x, -y);
  }
  // Zero times a factor of any width, as the 64-bit check sees it (a value past its precision can
  // come from an unchecked source, such as dec::from_unscaled).
  std::int64_t zero_product = 1;
  CHECK(colx::detail::product_within(0, std::numeric_limits<std::int64_t>::min(), 1000, zero_product));
  CHECK(zero_product == 0);
  CHECK(colx::detail::product_within(std::int64_t{1} << 62, 0, 1000, zero_product));
  CHECK_FALSE(colx::detail::product_within(std::int64_t{1} << 32, std::int64_t{1} << 32, 1000, zero_product));  // wraps to 0
  // Products of exactly 10^38 - 1 = 3^2 * 11 * 17 * 73 * 101 * 137 * ... and exactly 10^38.
  check(limit - 1, 1);
  check((limit - 1) / 9, 9);
  check(colx::detail::pow10_128(19), colx::detail::pow10_128(19));  // 10^38: one digit too many
  check(colx::detail::pow10_128(18) * 5, colx::detail::pow10_128(19) * 2);
  check(colx::detail::pow10_128(37), 10);
  check(colx::detail::pow10_128(37), 9);
}

// CAST, as DuckDB: decimals rescale with halves away from zero, integers and doubles convert with
// the same rounding, and a value the target cannot hold is null (DuckDB raises an error).
TEST_CASE("dec: casts to and from decimals", "[types]") {
  using S = colx::schema<colx::field<"p", money>, colx::field<"i", std::int32_t>, colx::field<"x", double>>;
  optionals<money> p{m(125), m(-125), m(999999999999999), m(4), std::nullopt};
  optionals<std::int32_t> i{7, -7, 2147483647, 0, 1};
  optionals<double> x{2.345, -0.125, std::numeric_limits<double>::quiet_NaN(), 1e20, std::numeric_limits<double>::infinity()};
  colx::frame<S> const f(colx::test::column_of(p), colx::test::column_of(i), colx::test::column_of(x));
  auto const r = f | colx::with_columns(colx::cast<dec<15, 1>>("p"_c).as<"one_digit">(), colx::cast<dec<9, 4>>("p"_c).as<"wider">(),
                                        colx::cast<std::int32_t>("p"_c).as<"int">(), colx::cast<double>("p"_c).as<"dbl">(),
                                        colx::cast<dec<5, 2>>("i"_c).as<"from_int">(), colx::cast<money>("x"_c).as<"from_dbl">());
  auto const unscaled = [](auto const& v) {
    std::vector<std::optional<colx::int128_t>> out;
    for (auto const& e : v) { out.push_back(e ? std::optional<colx::int128_t>(e->unscaled) : std::nullopt); }
    return out;
  };
  using w = std::vector<std::optional<colx::int128_t>>;
  CHECK(unscaled(colx::to_optional_vector(r["one_digit"_c].view())) == w{13, -13, 100000000000000, 0, std::nullopt});
  CHECK(unscaled(colx::to_optional_vector(r["wider"_c].view())) == w{12500, -12500, std::nullopt, 400, std::nullopt});
  // 1.25 rounds to 1; 9999999999999.99 is beyond int32: null.
  CHECK(colx::to_optional_vector(r["int"_c].view()) == optionals<std::int32_t>{1, -1, std::nullopt, 0, std::nullopt});
  CHECK(colx::to_optional_vector(r["dbl"_c].view()) == optionals<double>{1.25, -1.25, 9999999999999.99, 0.04, std::nullopt});
  CHECK(unscaled(colx::to_optional_vector(r["from_int"_c].view())) == w{700, -700, std::nullopt, 0, 100});
  CHECK(unscaled(colx::to_optional_vector(r["from_dbl"_c].view())) == w{235, -13, std::nullopt, std::nullopt, std::nullopt});
}

TEST_CASE("dec: mean, var and std are doubles, in reduce and per group", "[types]") {
  using S = colx::schema<colx::field<"k", std::int32_t, colx::not_null>, colx::field<"v", money>>;
  std::vector<std::int32_t> k{1, 1, 1, 2, 2, 3};
  optionals<money> v{m(100), m(200), m(600), m(-150), std::nullopt, std::nullopt};
  colx::frame<S> const f(colx::test::column_of(k), colx::test::column_of(v));
  auto const [mean, var, sd] = f | colx::reduce(colx::mean("v"_c), colx::var("v"_c), colx::std("v"_c));
  // The reference: the same values as doubles, sample variance (ddof 1) as pandas and DuckDB.
  double const values[] = {1.0, 2.0, 6.0, -1.5};
  double const mu = (1.0 + 2.0 + 6.0 - 1.5) / 4;
  double ss = 0;
  for (double const d : values) { ss += (d - mu) * (d - mu); }
  CHECK(mean.value() == Approx(mu));
  CHECK(var.value() == Approx(ss / 3));
  CHECK(sd.value() == Approx(std::sqrt(ss / 3)));
  auto const g = f | colx::group_by(colx::group_by_options{.sorted = true}, "k"_c) |
                 colx::aggregate(colx::mean("v"_c).as<"mean">(), colx::sum("v"_c).as<"sum">(), colx::var("v"_c).as<"var">());
  auto const means = colx::to_optional_vector(g["mean"_c].view());
  auto const sums = colx::to_optional_vector(g["sum"_c].view());
  auto const vars = colx::to_optional_vector(g["var"_c].view());
  REQUIRE(means.size() == 3);
  CHECK(*means[0] == Approx(3.0));
  CHECK(*means[1] == Approx(-1.5));
  CHECK_FALSE(means[2].has_value());
  CHECK(sums[0]->unscaled == 900);
  CHECK(sums[1]->unscaled == -150);
  CHECK_FALSE(sums[2].has_value());
  CHECK(*vars[0] == Approx(7.0));  // 1, 2, 6: mean 3, squares 4 + 1 + 9 over 2
  CHECK_FALSE(vars[1].has_value());
}

// DEC(15,2) * DEC(15,2) is DEC(18,4) in DuckDB, kept in 64 bits: a product of 19 digits is null.
TEST_CASE("dec: a 64-bit product beyond 18 digits is null", "[types]") {
  using S = colx::schema<colx::field<"a", money>>;
  optionals<money> a{m(999999999), m(1000000000), m(-1000000000), m(12345)};  // 9999999.99, 10^7, -10^7, 123.45
  colx::frame<S> const f(colx::test::column_of(a));
  auto const r = f | colx::with_columns(("a"_c * "a"_c).as<"sq">());
  static_assert(std::is_same_v<typename std::remove_cvref_t<decltype(r["sq"_c])>::value_type, dec<18, 4>>);
  auto const sq = colx::to_optional_vector(r["sq"_c].view());
  CHECK(sq[0]->unscaled == std::int64_t{999999999} * 999999999);  // 99999998000000.0001 fits
  CHECK_FALSE(sq[1].has_value());  // 10^14 at scale 4 needs 19 digits
  CHECK_FALSE(sq[2].has_value());
  CHECK(sq[3]->unscaled == std::int64_t{12345} * 12345);
}

// The 64-bit products' check (types/dec_checked.hpp), on the backend under test: random factors of
// every size up to 15 digits, both signs, against a 128-bit product on the host; and the edges:
// 10^18 - 1 fits, 10^18, 10^18 + 1 and products past 2^63 (two that wrap back into range) do
// not, zero times the widest factor is zero, products within 900,000 of 10^18.
TEST_CASE("dec: 64-bit products, null exactly past 18 digits, against 128-bit products", "[types]") {
  using S = colx::schema<colx::field<"a", money>, colx::field<"b", money>>;
  std::mt19937_64 rng(7);
  optionals<money> a;
  optionals<money> b;
  std::int64_t const top = 999999999999999;  // 15 digits
  for (int i = 0; i < 1000; ++i) {
    auto const draw = [&] {
      std::int64_t const digits = 1 + static_cast<std::int64_t>(rng() % 15);
      std::int64_t bound = 1;
      for (std::int64_t d = 0; d < digits; ++d) { bound *= 10; }
      auto const v = static_cast<std::int64_t>(rng() % static_cast<std::uint64_t>(bound));
      return rng() % 2 == 0 ? v : -v;
    };
    a.push_back(m(draw()));
    b.push_back(m(draw()));
  }
  std::vector<std::pair<std::int64_t, std::int64_t>> const edges{{999999999, 999999999}, {1000000000, 1000000000},
                                                                   {-1000000000, 1000000000}, {top, top},
                                                                   {top, -top}, {333333333, 3000000003}, {0, top},
                                                                   {3037000499, 3037000499}, {3037000500, 3037000500},
                                                                   {999999999, 1000000001}, {-1000000001, 999999999},
                                                                   {top, 1000}, {top, 1001}, {125000000000000, 8000},
                                                                   {124999999999999, -8000}, {1000001, 999999000001},
                                                                   {999999, 1000001000001}, {4294967296, 4294967296},
                                                                   {4294967296, 4294967297}};
  for (auto const& [x, y] : edges) {
    a.push_back(m(x));
    b.push_back(m(y));
  }
  // Products within 900,000 of 10^18 either side, where the check's double estimate cannot tell
  // them from 10^18 and its exact 64-bit product must: x * (10^18 / x + d) for x = 2^i 5^j.
  for (std::int64_t x = 1000; x <= 900000; ++x) {
    std::int64_t rest = x;
    while (rest % 2 == 0) { rest /= 2; }
    while (rest % 5 == 0) { rest /= 5; }
    if (rest != 1) { continue; }
    for (std::int64_t const d : {-1, 0, 1}) {
      a.push_back(m(x % 3 == 0 ? -x : x));
      b.push_back(m(1000000000000000000 / x + d));
    }
  }
  a.push_back(std::nullopt);
  b.push_back(m(1));
  colx::frame<S> const f(colx::test::column_of(a), colx::test::column_of(b));
  auto const r = f | colx::with_columns(("a"_c * "b"_c).as<"p">());
  auto const p = colx::to_optional_vector(r["p"_c].view());
  REQUIRE(p.size() == a.size());
  colx::int128_t const limit = colx::detail::pow10_128(18);
  for (std::size_t i = 0; i < a.size(); ++i) {
    INFO("row " << i);
    if (!a[i] || !b[i]) {
      CHECK_FALSE(p[i].has_value());
      continue;
    }
    colx::int128_t const want = static_cast<colx::int128_t>(a[i]->unscaled) * b[i]->unscaled;
    bool const fits = want > -limit && want < limit;
    REQUIRE(p[i].has_value() == fits);
    if (fits) { CHECK(p[i]->unscaled == static_cast<std::int64_t>(want)); }
  }
}

// The precision travels: a dec<15, 2> column is DECIMAL(15,2) to Arrow (d:15,2,64), an Arrow
// DECIMAL(15,2) column is a dec<15, 2> or wider, and one of more digits is refused.
TEST_CASE("dec: the precision goes to Arrow and back, and bounds what a typed column accepts", "[types]") {
  auto const c = colx::make_column<money>(std::vector<std::optional<money>>{m(150), std::nullopt});
  CHECK(c.type().precision() == 15);
  CHECK(c.type().to_string() == "decimal64(precision 15, scale -2)");
  CHECK(colx::arrow_format(c.type()) == "d:15,2,64");
  auto const back = colx::data_type_from_arrow_format("d:15,2,64");
  CHECK(back.precision() == 15);
  CHECK(back == c.type());
  CHECK(colx::data_type(colx::type_id::decimal64, -2).precision() == 18);  // not declared: the width's
  CHECK_THROWS_WITH(colx::data_type_from_arrow_format("d:19,2,64"), Catch::Contains("holds at most 18 digits"));
  auto wide = colx::make_decimal_column<std::int64_t>({colx::decimal64{150}}, -2);
  auto parts = std::move(wide).release().release();
  auto declared = colx::any_column(colx::data_type(colx::type_id::decimal64, -2, 17), 1, std::move(parts.data), std::move(parts.mask));
  CHECK_THROWS_WITH(colx::column<money>(colx::any_column(declared)), Catch::Contains("holds at most 15 digits"));
  CHECK(colx::column<dec<17, 2>>(std::move(declared)).size() == 1);
}

// Found by review: a comparison whose rescaling passes 38 digits, rounding at scale 38, and doubles
// rounded by adding a half.
TEST_CASE("dec: comparisons and rounding at the edges of 38 digits", "[types]") {
  using colx::int128_t;
  int128_t const p38 = colx::detail::pow10_128(38);
  CHECK(dec<38, 0>::from_unscaled(2) > dec<38, 38>::from_unscaled(0));
  CHECK(dec<38, 0>::from_unscaled(-1) < dec<38, 38>::from_unscaled(-p38 / 2));  // -1 < -0.5
  CHECK(dec<38, 0>::from_unscaled(0) > dec<38, 38>::from_unscaled(-1));
  CHECK(dec<38, 0>::from_unscaled(0) == dec<38, 38>::from_unscaled(0));
  CHECK(dec<38, 2>::from_unscaled(colx::detail::pow10_128(35) * 21) > dec<9, 3>::from_unscaled(1000));
  CHECK(dec<38, 0>::from_unscaled(colx::detail::pow10_128(37) * 2) > dec<3, 2>::from_unscaled(100));
  CHECK(std::uint64_t{2000000000000000000} > dec<38, 20>::from_unscaled(0));
  CHECK(dec<38, 20>::from_unscaled(colx::detail::pow10_128(20) * 3 + 1) > 3);  // 3.000...01 > 3
  bool valid = true;
  CHECK(colx::detail::cast_decimal<std::int32_t>(dec<38, 38>::from_unscaled(p38 / 10 * 9), valid) == 1);  // 0.9 rounds to 1
  CHECK(colx::detail::cast_decimal<dec<1, 0>>(dec<38, 38>::from_unscaled(-p38 / 10 * 9), valid).unscaled == -1);
  CHECK(valid);
  CHECK(money::from_double(0.49999999999999994).unscaled == 50);  // 49.999999999999994 rounds to 50
  CHECK(dec<5, 0>::from_double(0.49999999999999994).unscaled == 0);
  CHECK(dec<18, 0>::from_double(4503599627370497.0).unscaled == 4503599627370497);
  CHECK(dec<3, 0>::from_double(1e10).unscaled == 0);  // beyond 3 digits
}
