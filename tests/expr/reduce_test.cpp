// SPDX-License-Identifier: Apache-2.0
// reduce on the backend under test, checked against plain loops: sum, min, max, count(),
// count(e), count_valid(e), mean, var, std, any, all, argmin and argmax, several in one pass;
// nulls skipped; results with no valid input; ties; wrapping integer sums; floating-point results
// that repeat bit for bit; result types; not_null fields; filters in front.
#include "support/backend.hpp"
#include "support/columns.hpp"

#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <optional>
#include <random>
#include <string>
#include <tuple>
#include <type_traits>
#include <vector>

namespace {

using namespace colx::literals;
using colx::size_type;
using colx::test::backend_resource;
using namespace colx::test;  // support/columns.hpp: sizes, column_of, check_rows, random_optionals, ...

constexpr double unit_roundoff = 0x1p-53;

// What the aggregations should give, from a plain loop over the valid values: sums exactly
// (integers) or in long double with the sum of magnitudes for the error bound; mean and the sum of
// squared deviations by two passes in long double.
template <class T>
struct reference {
  size_type rows = 0;
  size_type valid = 0;
  long double sum = 0;
  long double abs_sum = 0;
  std::int64_t int_sum = 0;
  std::optional<T> min, max;
  size_type argmin = -1, argmax = -1;
  long double mean = 0;
  long double m2 = 0;

  explicit reference(optionals<T> const& v) : rows(static_cast<size_type>(v.size())) {
    for (std::size_t i = 0; i < v.size(); ++i) {
      if (!v[i]) { continue; }
      T const x = *v[i];
      ++valid;
      sum += static_cast<long double>(x);
      abs_sum += std::fabs(static_cast<long double>(x));
      if constexpr (std::is_integral_v<T>) { int_sum += x; }
      if (!min || x < *min) {
        min = x;
        argmin = static_cast<size_type>(i);
      }
      if (!max || x > *max) {
        max = x;
        argmax = static_cast<size_type>(i);
      }
    }
    if (valid > 0) { mean = sum / static_cast<long double>(valid); }
    for (auto const& x : v) {
      if (x) { m2 += (static_cast<long double>(*x) - mean) * (static_cast<long double>(*x) - mean); }
    }
  }

  // Any order of n - 1 floating-point additions errs by at most (n - 1) u sum|x| (Higham, Accuracy
  // and Stability, 4.2); doubled for the reference's own rounding and for products contracted to
  // fma on the GPU. Both backends sum in a different order from this loop, so exact equality
  // would test the order, not the sum.
  [[nodiscard]] double sum_tolerance() const { return 2.0 * static_cast<double>(valid) * unit_roundoff * static_cast<double>(abs_sum); }
  // Welford's update and Chan's merge err like a sum of the values: n u max|x| for the mean, and
  // n u (1 + mean^2 / var) var for the squared deviations (the condition number of variance);
  // 4x for slack.
  [[nodiscard]] double mean_tolerance() const {
    return 4.0 * static_cast<double>(valid) * unit_roundoff * std::max(std::fabs(static_cast<double>(*min)), std::fabs(static_cast<double>(*max)));
  }
  [[nodiscard]] double var() const { return static_cast<double>(m2 / static_cast<long double>(valid - 1)); }
  [[nodiscard]] double var_tolerance() const {
    double const v = var();
    double const m = static_cast<double>(mean);
    return 4.0 * static_cast<double>(valid) * unit_roundoff * (v + m * m) + 1e-300;
  }
  // |sqrt(a) - sqrt(b)| <= |a - b| / sqrt(b), plus the rounding of the square root itself.
  [[nodiscard]] double std_tolerance() const {
    double const v = var();
    return v > 0 ? var_tolerance() / std::sqrt(v) + 4.0 * unit_roundoff * std::sqrt(v) : std::sqrt(var_tolerance());
  }
};

// Within an absolute tolerance and nothing else (Approx's default relative epsilon, 100 float
// epsilons, would hide most errors).
Approx within(double target, double tolerance) { return Approx(target).epsilon(0).margin(tolerance); }

// Bitwise equality of two doubles (NaN payloads and the sign of zero included).
bool same_bits(double a, double b) { return std::memcmp(&a, &b, sizeof(double)) == 0; }

// Each distinct reduce is a kernel to compile (tens of seconds under nvcc for a file of them), so
// the tests over one double column share this one: sum, min, max, count_valid, mean, var, std,
// argmin, argmax.
using double_schema = colx::schema<colx::field<"x", double>>;
auto reduce_all(colx::frame<double_schema> const& f) {
  return f | colx::reduce(colx::sum("x"_c), colx::min("x"_c), colx::max("x"_c), colx::count_valid("x"_c), colx::mean("x"_c),
                          colx::var("x"_c), colx::std("x"_c), colx::argmin("x"_c), colx::argmax("x"_c));
}

}  // namespace

// ---- every aggregation against a loop ------------------------------------------------------------

TEST_CASE("reduce: every aggregation of a nullable int32 column", "[expr][reduce]") {
  using S = colx::schema<colx::field<"k", std::int32_t>, colx::field<"pad", double>>;
  for (size_type const n : sizes) {
    INFO("rows: " << n);
    auto const nn = static_cast<std::size_t>(n);
    // A narrow range: ties for min and max are common, and argmin / argmax must pick the first.
    auto const k = random_optionals<std::int32_t>(nn, 201 + nn, 0.2, -50, 50);
    colx::frame<S> const f(column_of(k), column_of(optionals<double>(nn, 1.0)));
    auto const [sum, mn, mx, rows, rows_k, valid_k, mean, var, sd, amin, amax] =
        f | colx::reduce(colx::sum("k"_c), colx::min("k"_c), colx::max("k"_c), colx::count(), colx::count("k"_c),
                         colx::count_valid("k"_c), colx::mean("k"_c), colx::var("k"_c), colx::std("k"_c), colx::argmin("k"_c),
                         colx::argmax("k"_c));
    reference<std::int32_t> const ref(k);
    CHECK(rows.value() == n);
    CHECK(rows_k.value() == ref.valid);  // count(e): valid values, as SQL's COUNT(e)
    CHECK(valid_k.value() == ref.valid);
    CHECK(rows.has_value());
    CHECK(valid_k.has_value());
    if (ref.valid == 0) {
      CHECK_FALSE(sum.has_value());
      CHECK_FALSE(mn.has_value());
      CHECK_FALSE(mx.has_value());
      CHECK_FALSE(mean.has_value());
      CHECK_FALSE(amin.has_value());
      CHECK_FALSE(amax.has_value());
    } else {
      CHECK(sum == colx::scalar<std::int64_t>(ref.int_sum));
      CHECK(mn == colx::scalar<std::int32_t>(*ref.min));
      CHECK(mx == colx::scalar<std::int32_t>(*ref.max));
      CHECK(amin == colx::scalar<size_type>(ref.argmin));
      CHECK(amax == colx::scalar<size_type>(ref.argmax));
      REQUIRE(mean.has_value());
      CHECK(mean.value() == within(static_cast<double>(ref.mean), ref.mean_tolerance()));
    }
    if (ref.valid < 2) {
      CHECK_FALSE(var.has_value());
      CHECK_FALSE(sd.has_value());
    } else {
      REQUIRE(var.has_value());
      REQUIRE(sd.has_value());
      CHECK(var.value() == within(ref.var(), ref.var_tolerance()));
      CHECK(sd.value() == within(std::sqrt(ref.var()), ref.std_tolerance()));
    }
  }
}

TEST_CASE("reduce: every aggregation of a nullable double column", "[expr][reduce]") {
  for (size_type const n : sizes) {
    INFO("rows: " << n);
    auto const nn = static_cast<std::size_t>(n);
    auto const x = random_optionals<double>(nn, 211 + nn, 0.25, -100.0, 1000.0);
    colx::frame<double_schema> const f(column_of(x));
    auto const [sum, mn, mx, valid, mean, var, sd, amin, amax] = reduce_all(f);
    reference<double> const ref(x);
    CHECK(valid.value() == ref.valid);
    REQUIRE(sum.has_value() == (ref.valid > 0));
    REQUIRE(mn.has_value() == (ref.valid > 0));
    REQUIRE(mean.has_value() == (ref.valid > 0));
    REQUIRE(var.has_value() == (ref.valid > 1));
    REQUIRE(sd.has_value() == (ref.valid > 1));
    if (ref.valid > 0) {
      CHECK(sum.value() == within(static_cast<double>(ref.sum), ref.sum_tolerance()));
      CHECK(mn.value() == *ref.min);  // min and max are exact
      CHECK(mx.value() == *ref.max);
      CHECK(amin == colx::scalar<size_type>(ref.argmin));
      CHECK(amax == colx::scalar<size_type>(ref.argmax));
      CHECK(mean.value() == within(static_cast<double>(ref.mean), ref.mean_tolerance()));
    }
    if (ref.valid > 1) {
      CHECK(var.value() == within(ref.var(), ref.var_tolerance()));
      CHECK(sd.value() == within(std::sqrt(ref.var()), ref.std_tolerance()));
    }
  }
}

// ---- no valid input ------------------------------------------------------------------------------

TEST_CASE("reduce: with no valid input, only counts, any and all have a value", "[expr][reduce]") {
  for (size_type const n : {size_type{0}, size_type{1}, size_type{33}, size_type{4097}}) {
    INFO("rows (all null): " << n);
    auto const nn = static_cast<std::size_t>(n);
    colx::frame<double_schema> const f(column_of(optionals<double>(nn)));
    auto const [sum, mn, mx, valid, mean, var, sd, amin, amax] = reduce_all(f);
    CHECK_FALSE(sum.has_value());
    CHECK_FALSE(mn.has_value());
    CHECK_FALSE(mx.has_value());
    CHECK_FALSE(mean.has_value());
    CHECK_FALSE(var.has_value());
    CHECK_FALSE(sd.has_value());
    CHECK_FALSE(amin.has_value());
    CHECK_FALSE(amax.has_value());
    CHECK(valid == colx::scalar<size_type>(0));
    auto const [rows, rows_x, any, all] =
        f | colx::reduce(colx::count(), colx::count("x"_c), colx::any("x"_c > 0.0), colx::all("x"_c > 0.0));
    CHECK(rows == colx::scalar<size_type>(n));
    CHECK(rows_x == colx::scalar<size_type>(0));  // count(e) of nulls only
    CHECK(any == colx::scalar<bool>(false));
    CHECK(all == colx::scalar<bool>(true));

    // A filter that keeps nothing gives the same.
    auto const [frows, frows_x, fany, fall] = f | colx::filter(colx::is_valid("x"_c)) |
                                              colx::reduce(colx::count(), colx::count("x"_c), colx::any("x"_c > 0.0), colx::all("x"_c > 0.0));
    CHECK(frows == colx::scalar<size_type>(0));
    CHECK(frows_x == colx::scalar<size_type>(0));
    CHECK(fany == colx::scalar<bool>(false));
    CHECK(fall == colx::scalar<bool>(true));
  }
}

TEST_CASE("reduce: var and std need two valid values (ddof 1)", "[expr][reduce]") {
  colx::frame<double_schema> const one(column_of(optionals<double>{std::nullopt, {4.0}, std::nullopt}));
  auto const r1 = reduce_all(one);
  CHECK_FALSE(std::get<5>(r1).has_value());  // var
  CHECK_FALSE(std::get<6>(r1).has_value());  // std
  CHECK(std::get<4>(r1) == colx::scalar<double>(4.0));

  colx::frame<double_schema> const two(column_of(optionals<double>{{1.0}, std::nullopt, {3.0}}));
  auto const r2 = reduce_all(two);
  CHECK(std::get<5>(r2) == colx::scalar<double>(2.0));  // ((1 - 2)^2 + (3 - 2)^2) / (2 - 1)
  CHECK(std::get<6>(r2).value() == Approx(std::sqrt(2.0)).epsilon(1e-15));
  CHECK(std::get<4>(r2) == colx::scalar<double>(2.0));

  // Exact on small integers: 2, 4, 4, 4, 5, 5, 7, 9 has mean 5 and sample variance 32 / 7.
  colx::frame<double_schema> const eight(column_of(optionals<double>{{2.0}, {4.0}, {4.0}, {4.0}, {5.0}, {5.0}, {7.0}, {9.0}}));
  auto const r8 = reduce_all(eight);
  CHECK(std::get<4>(r8) == colx::scalar<double>(5.0));
  CHECK(std::get<5>(r8).value() == Approx(32.0 / 7.0).epsilon(1e-15));
}

// ---- ties, NaN -------------------------------------------------------------------------------------

TEST_CASE("reduce: argmin and argmax ties go to the first row, across chunks and blocks", "[expr][reduce]") {
  using S = colx::schema<colx::field<"k", std::int64_t>, colx::field<"x", double>>;
  constexpr std::size_t n = 100003;
  auto k = random_optionals<std::int64_t>(n, 221, 0.1, 10, 1000);
  auto x = random_optionals<double>(n, 222, 0.1, 10.0, 1000.0);
  // The extremes occur several times, in different host chunks (2^14 rows) and, at any grid,
  // in different GPU threads and blocks; the first occurrence is not the first chunk's.
  for (std::size_t const r : {std::size_t{70000}, std::size_t{20000}, std::size_t{16385}, std::size_t{99999}, std::size_t{16386}}) {
    k[r] = 1;
    x[r] = -5.0;
  }
  for (std::size_t const r : {std::size_t{99998}, std::size_t{40000}, std::size_t{16383}, std::size_t{65536}}) {
    k[r] = 5000;
    x[r] = 5000.0;
  }
  // A null before the first extreme does not count.
  k[100] = std::nullopt;
  x[100] = std::nullopt;
  colx::frame<S> const f(column_of(k), column_of(x));
  auto const [kmin, kmax, xmin, xmax, lo, hi] =
      f | colx::reduce(colx::argmin("k"_c), colx::argmax("k"_c), colx::argmin("x"_c), colx::argmax("x"_c), colx::min("k"_c),
                       colx::max("x"_c));
  CHECK(kmin == colx::scalar<size_type>(16385));
  CHECK(kmax == colx::scalar<size_type>(16383));
  CHECK(xmin == colx::scalar<size_type>(16385));
  CHECK(xmax == colx::scalar<size_type>(16383));
  CHECK(lo == colx::scalar<std::int64_t>(1));
  CHECK(hi == colx::scalar<double>(5000.0));

  // All equal: the first valid row.
  optionals<std::int64_t> same(n, std::int64_t{7});
  optionals<double> same_x(n, 7.0);
  same[0] = std::nullopt;
  same_x[0] = std::nullopt;
  same_x[1] = std::nullopt;
  colx::frame<S> const g(column_of(same), column_of(same_x));
  auto const [a, b, c, d, glo, ghi] =
      g | colx::reduce(colx::argmin("k"_c), colx::argmax("k"_c), colx::argmin("x"_c), colx::argmax("x"_c), colx::min("k"_c),
                       colx::max("x"_c));
  CHECK(a == colx::scalar<size_type>(1));
  CHECK(b == colx::scalar<size_type>(1));
  CHECK(c == colx::scalar<size_type>(2));
  CHECK(d == colx::scalar<size_type>(2));
  CHECK(glo == colx::scalar<std::int64_t>(7));
  CHECK(ghi == colx::scalar<double>(7.0));

  // Behind a filter, rows keep their numbers in the frame.
  auto const [fa, fb] = f | colx::filter("k"_c > 1 && "k"_c < 5000) | colx::reduce(colx::argmin("k"_c), colx::argmax("x"_c));
  REQUIRE(fa.has_value());
  REQUIRE(fb.has_value());
  CHECK(k[static_cast<std::size_t>(fa.value())].value_or(0) > 1);
  CHECK(x[static_cast<std::size_t>(fb.value())].value_or(0.0) < 5000.0);
}

TEST_CASE("reduce: min, max, argmin and argmax skip NaN unless there is nothing else", "[expr][reduce]") {
  constexpr double nan = std::numeric_limits<double>::quiet_NaN();
  colx::frame<double_schema> const f(column_of(optionals<double>{{nan}, {3.0}, std::nullopt, {nan}, {-2.0}, {7.0}, {nan}}));
  auto const [sum, mn, mx, valid, mean, var, sd, amin, amax] = reduce_all(f);
  CHECK(mn == colx::scalar<double>(-2.0));
  CHECK(mx == colx::scalar<double>(7.0));
  CHECK(amin == colx::scalar<size_type>(4));
  CHECK(amax == colx::scalar<size_type>(5));
  CHECK(valid == colx::scalar<size_type>(6));  // NaN is a value, not a null
  CHECK(std::isnan(sum.value()));

  colx::frame<double_schema> const all_nan(column_of(optionals<double>{std::nullopt, {nan}, {nan}}));
  auto const [nsum, nmin, nmax, nvalid, nmean, nvar, nsd, namin, namax] = reduce_all(all_nan);
  REQUIRE(nmin.has_value());
  REQUIRE(nmax.has_value());
  CHECK(std::isnan(nmin.value()));
  CHECK(std::isnan(nmax.value()));
  CHECK(namin == colx::scalar<size_type>(1));
  CHECK(namax == colx::scalar<size_type>(1));
}

// ---- types, integers -------------------------------------------------------------------------------

TEST_CASE("reduce: result types", "[expr][reduce]") {
  using S = colx::schema<colx::field<"i8", std::int8_t>, colx::field<"u32", std::uint32_t>, colx::field<"f32", float>,
                         colx::field<"b", bool>, colx::field<"d", colx::date32>>;
  colx::frame<S> const f(column_of(optionals<std::int8_t>{{-100}, {-100}, {-100}, std::nullopt}),
                         column_of(optionals<std::uint32_t>{{4000000000u}, {4000000000u}, {1u}, {2u}}),
                         column_of(optionals<float>{{0.5f}, {0.25f}, std::nullopt, {0.125f}}),
                         column_of(optionals<bool>{{true}, {false}, {true}, std::nullopt}),
                         column_of(optionals<colx::date32>{{colx::date(1999, 5, 1)}, std::nullopt, {colx::date(1969, 7, 20)},
                                                           {colx::date(2024, 2, 29)}}));
  auto const [s8, su, sf, sb, min8, maxf, mean8, cnt, any, amax, dmin, dmax, admin] =
      f | colx::reduce(colx::sum("i8"_c), colx::sum("u32"_c), colx::sum("f32"_c), colx::sum("b"_c), colx::min("i8"_c),
                       colx::max("f32"_c), colx::mean("i8"_c), colx::count(), colx::any("b"_c), colx::argmax("u32"_c),
                       colx::min("d"_c), colx::max("d"_c), colx::argmin("d"_c));
  STATIC_REQUIRE(std::is_same_v<std::remove_cvref_t<decltype(s8)>, colx::scalar<std::int64_t>>);
  STATIC_REQUIRE(std::is_same_v<std::remove_cvref_t<decltype(su)>, colx::scalar<std::uint64_t>>);
  STATIC_REQUIRE(std::is_same_v<std::remove_cvref_t<decltype(sf)>, colx::scalar<double>>);
  STATIC_REQUIRE(std::is_same_v<std::remove_cvref_t<decltype(sb)>, colx::scalar<std::int64_t>>);
  STATIC_REQUIRE(std::is_same_v<std::remove_cvref_t<decltype(min8)>, colx::scalar<std::int8_t>>);
  STATIC_REQUIRE(std::is_same_v<std::remove_cvref_t<decltype(maxf)>, colx::scalar<float>>);
  STATIC_REQUIRE(std::is_same_v<std::remove_cvref_t<decltype(mean8)>, colx::scalar<double>>);
  STATIC_REQUIRE(std::is_same_v<std::remove_cvref_t<decltype(cnt)>, colx::scalar<size_type>>);
  STATIC_REQUIRE(std::is_same_v<std::remove_cvref_t<decltype(any)>, colx::scalar<bool>>);
  STATIC_REQUIRE(std::is_same_v<std::remove_cvref_t<decltype(amax)>, colx::scalar<size_type>>);
  STATIC_REQUIRE(std::is_same_v<std::remove_cvref_t<decltype(dmin)>, colx::scalar<colx::date32>>);
  CHECK(s8 == colx::scalar<std::int64_t>(-300));  // no int8 overflow
  CHECK(su == colx::scalar<std::uint64_t>(8000000003u));  // no uint32 overflow
  CHECK(sf == colx::scalar<double>(0.875));
  CHECK(sb == colx::scalar<std::int64_t>(2));  // a sum of bools counts the trues
  CHECK(min8 == colx::scalar<std::int8_t>(-100));
  CHECK(maxf == colx::scalar<float>(0.5f));
  CHECK(mean8 == colx::scalar<double>(-100.0));
  CHECK(cnt == colx::scalar<size_type>(4));
  CHECK(any == colx::scalar<bool>(true));
  CHECK(amax == colx::scalar<size_type>(0));
  CHECK(dmin == colx::scalar<colx::date32>(colx::date(1969, 7, 20)));
  CHECK(dmax == colx::scalar<colx::date32>(colx::date(2024, 2, 29)));
  CHECK(admin == colx::scalar<size_type>(2));

  // One aggregation gives a scalar, not a tuple.
  auto const one = f | colx::reduce(colx::count());
  STATIC_REQUIRE(std::is_same_v<std::remove_cvref_t<decltype(one)>, colx::scalar<size_type>>);
  CHECK(one.value() == 4);
}

TEST_CASE("reduce: integer sums are exact, and wrap like the element-wise operations", "[expr][reduce]") {
  constexpr auto i64_max = std::numeric_limits<std::int64_t>::max();
  constexpr auto i64_min = std::numeric_limits<std::int64_t>::min();
  constexpr auto i32_max = std::numeric_limits<std::int32_t>::max();
  using S = colx::schema<colx::field<"l", std::int64_t>, colx::field<"i", std::int32_t, colx::not_null>,
                         colx::field<"u", std::uint64_t>>;
  SECTION("wrapping") {
    colx::frame<S> const f(column_of(optionals<std::int64_t>{{i64_max}, {1}, std::nullopt}),
                           column_of(std::vector<std::int32_t>{i32_max, i32_max, i32_max}),
                           column_of(optionals<std::uint64_t>{{std::numeric_limits<std::uint64_t>::max()}, {2u}, {0u}}));
    auto const [l, i, u] = f | colx::reduce(colx::sum("l"_c), colx::sum("i"_c), colx::sum("u"_c));
    CHECK(l == colx::scalar<std::int64_t>(i64_min));
    CHECK(i == colx::scalar<std::int64_t>(3 * std::int64_t{i32_max}));
    CHECK(u == colx::scalar<std::uint64_t>(1u));
  }
  SECTION("large sums over many rows") {
    constexpr std::size_t n = 100003;
    auto const l = random_optionals<std::int64_t>(n, 231, 0.1, -(std::int64_t{1} << 40), std::int64_t{1} << 40);
    std::vector<std::int32_t> i(n, i32_max);
    for (std::size_t r = 0; r < n; r += 3) { i[r] = -i32_max - 1; }
    optionals<std::uint64_t> u(n, std::uint64_t{1} << 50);
    colx::frame<S> const f(column_of(l), column_of(i), column_of(u));
    auto const [sl, si, su] = f | colx::reduce(colx::sum("l"_c), colx::sum("i"_c), colx::sum("u"_c));
    std::int64_t want_l = 0;
    std::int64_t want_i = 0;
    for (std::size_t r = 0; r < n; ++r) {
      want_l += l[r].value_or(0);
      want_i += i[r];
    }
    CHECK(sl == colx::scalar<std::int64_t>(want_l));
    CHECK(si == colx::scalar<std::int64_t>(want_i));
    CHECK(su == colx::scalar<std::uint64_t>(std::uint64_t{n} << 50));
  }
}

// ---- any, all --------------------------------------------------------------------------------------

TEST_CASE("reduce: any and all skip nulls", "[expr][reduce]") {
  using S = colx::schema<colx::field<"b", bool>, colx::field<"k", std::int32_t>>;
  for (size_type const n : sizes) {
    INFO("rows: " << n);
    auto const nn = static_cast<std::size_t>(n);
    optionals<bool> trues(nn), falses(nn);
    auto const k = random_optionals<std::int32_t>(nn, 241, 0.3, 0, 9);
    for (std::size_t r = 0; r < nn; ++r) {
      if (r % 3 != 0) {
        trues[r] = true;
        falses[r] = false;
      }
    }
    bool any_big = false;
    bool all_small = true;
    for (auto const& v : k) {
      if (v) {
        any_big = any_big || *v > 8;
        all_small = all_small && *v < 9;
      }
    }
    colx::frame<S> const t(column_of(trues), column_of(k));
    colx::frame<S> const f(column_of(falses), column_of(k));
    auto const [tany, tall, kany, kall] = t | colx::reduce(colx::any("b"_c), colx::all("b"_c), colx::any("k"_c > 8), colx::all("k"_c < 9));
    auto const [fany, fall, fkany, fkall] = f | colx::reduce(colx::any("b"_c), colx::all("b"_c), colx::any("k"_c > 8), colx::all("k"_c < 9));
    bool const some = nn > 1;  // rows 1, 2, 4, ... are valid
    CHECK(tany == colx::scalar<bool>(some));
    CHECK(tall == colx::scalar<bool>(true));
    CHECK(fany == colx::scalar<bool>(false));
    CHECK(fall == colx::scalar<bool>(!some));
    CHECK(kany == colx::scalar<bool>(any_big));
    CHECK(kall == colx::scalar<bool>(all_small));
    CHECK(fkany == kany);
    CHECK(fkall == kall);
  }
}

// ---- expressions, filters, not_null ----------------------------------------------------------------

TEST_CASE("reduce: aggregations of expressions, filtered, over not_null and nullable fields", "[expr][reduce]") {
  using S = colx::schema<colx::field<"a", double, colx::not_null>, colx::field<"b", double>, colx::field<"k", std::int32_t, colx::not_null>,
                         colx::field<"m", std::int32_t>>;
  for (size_type const n : sizes) {
    INFO("rows: " << n);
    auto const nn = static_cast<std::size_t>(n);
    auto const a = dense(random_optionals<double>(nn, 251 + nn, 0.0, 0.0, 2.0));
    auto const b = random_optionals<double>(nn, 252 + nn, 0.2, 0.0, 2.0);
    auto const k = dense(random_optionals<std::int32_t>(nn, 253 + nn, 0.0, 0, 6));
    auto const m = random_optionals<std::int32_t>(nn, 254 + nn, 0.2, -2, 2);
    colx::frame<S> const f(column_of(a), column_of(b), column_of(k), column_of(m));

    // sum(a * b): products of values in [0, 2]; k / m is null where m is null or 0.
    auto const [ab, km_sum, km_rows, km_valid, a_mean, k_max] =
        f | colx::reduce(colx::sum("a"_c * "b"_c), colx::sum("k"_c / "m"_c), colx::count("k"_c / "m"_c),
                         colx::count_valid("k"_c / "m"_c), colx::mean("a"_c), colx::max("k"_c));
    long double want_ab = 0;
    long double ab_abs = 0;
    size_type ab_valid = 0;
    std::int64_t want_km = 0;
    size_type km_ok = 0;
    long double a_sum = 0;
    std::int32_t want_kmax = std::numeric_limits<std::int32_t>::min();
    for (std::size_t r = 0; r < nn; ++r) {
      if (b[r]) {
        want_ab += a[r] * *b[r];
        ab_abs += std::fabs(a[r] * *b[r]);
        ++ab_valid;
      }
      if (m[r] && *m[r] != 0) {
        want_km += k[r] / *m[r];
        ++km_ok;
      }
      a_sum += a[r];
      want_kmax = std::max(want_kmax, k[r]);
    }
    REQUIRE(ab.has_value() == (ab_valid > 0));
    if (ab.has_value()) {
      CHECK(ab.value() == within(static_cast<double>(want_ab), 2.0 * static_cast<double>(ab_valid) * unit_roundoff * static_cast<double>(ab_abs)));
    }
    CHECK(km_sum == (km_ok > 0 ? colx::scalar<std::int64_t>(want_km) : colx::scalar<std::int64_t>{}));
    CHECK(km_rows == km_valid);  // count(e) counts valid values, as count_valid(e)
    CHECK(km_valid == colx::scalar<size_type>(km_ok));
    REQUIRE(a_mean.has_value() == (n > 0));
    if (n > 0) {
      CHECK(a_mean.value() == within(static_cast<double>(a_sum / static_cast<long double>(n)), 8.0 * static_cast<double>(n) * unit_roundoff));
      CHECK(k_max == colx::scalar<std::int32_t>(want_kmax));
    }

    // Behind a filter (one pass, nothing compacted) and behind two chained filters.
    auto const [kept, kept_b, b_sum] =
        f | colx::filter("k"_c >= 3) | colx::reduce(colx::count(), colx::count_valid("b"_c), colx::sum("b"_c));
    auto const [kept2, m_sum] = f | colx::filter("k"_c >= 3) | colx::filter("m"_c != 0) | colx::reduce(colx::count(), colx::sum("m"_c));
    size_type want_kept = 0, want_kept_b = 0, want_kept2 = 0;
    long double want_b = 0, b_abs = 0;
    std::int64_t want_m = 0;
    for (std::size_t r = 0; r < nn; ++r) {
      if (k[r] < 3) { continue; }
      ++want_kept;
      if (b[r]) {
        ++want_kept_b;
        want_b += *b[r];
        b_abs += std::fabs(*b[r]);
      }
      if (m[r] && *m[r] != 0) {
        ++want_kept2;
        want_m += *m[r];
      }
    }
    CHECK(kept == colx::scalar<size_type>(want_kept));
    CHECK(kept_b == colx::scalar<size_type>(want_kept_b));
    REQUIRE(b_sum.has_value() == (want_kept_b > 0));
    if (b_sum.has_value()) {
      CHECK(b_sum.value() == within(static_cast<double>(want_b), 2.0 * static_cast<double>(want_kept_b) * unit_roundoff * static_cast<double>(b_abs)));
    }
    CHECK(kept2 == colx::scalar<size_type>(want_kept2));
    CHECK(m_sum == (want_kept2 > 0 ? colx::scalar<std::int64_t>(want_m) : colx::scalar<std::int64_t>{}));
  }
}

// ---- reproducibility -------------------------------------------------------------------------------

TEST_CASE("reduce: floating-point results repeat bit for bit", "[expr][reduce]") {
  using S = colx::schema<colx::field<"x", double>, colx::field<"y", double>>;
  for (size_type const n : {size_type{4097}, size_type{100003}}) {
    INFO("rows: " << n);
    auto const nn = static_cast<std::size_t>(n);
    // Mixed signs and magnitudes (1e-3 to 1e6): the result depends on the order of additions, so
    // it repeats only if the order is fixed.
    auto x = random_optionals<double>(nn, 261, 0.1, -1.0, 1.0);
    auto const scale = random_optionals<std::int32_t>(nn, 262, 0.0, -3, 6);
    for (std::size_t r = 0; r < nn; ++r) {
      if (x[r]) { *x[r] *= std::pow(10.0, *scale[r]); }
    }
    auto const y = random_optionals<double>(nn, 263, 0.1, -1.0, 1.0);
    colx::frame<S> const f(column_of(x), column_of(y));
    auto const run = [&] {
      return f | colx::reduce(colx::sum("x"_c), colx::sum("x"_c * "y"_c), colx::mean("x"_c), colx::var("x"_c), colx::std("y"_c));
    };
    auto const first = run();
    auto const filtered = f | colx::filter("y"_c > 0.0) | colx::reduce(colx::sum("x"_c), colx::var("x"_c));
    for (int round = 0; round < 3; ++round) {
      auto const again = run();
      CHECK(same_bits(std::get<0>(again).value(), std::get<0>(first).value()));
      CHECK(same_bits(std::get<1>(again).value(), std::get<1>(first).value()));
      CHECK(same_bits(std::get<2>(again).value(), std::get<2>(first).value()));
      CHECK(same_bits(std::get<3>(again).value(), std::get<3>(first).value()));
      CHECK(same_bits(std::get<4>(again).value(), std::get<4>(first).value()));
      auto const filtered_again = f | colx::filter("y"_c > 0.0) | colx::reduce(colx::sum("x"_c), colx::var("x"_c));
      CHECK(same_bits(std::get<0>(filtered_again).value(), std::get<0>(filtered).value()));
      CHECK(same_bits(std::get<1>(filtered_again).value(), std::get<1>(filtered).value()));
    }
    // And the sum is right.
    reference<double> const ref(x);
    CHECK(std::get<0>(first).value() == within(static_cast<double>(ref.sum), ref.sum_tolerance()));
  }
}

// Found by the DuckDB differential harness: the variance of values that include an infinity is
// NaN (inf - inf), as in DuckDB and NumPy; colx's group-by clamped it to 0.
TEST_CASE("reduce and group-by: var and std of values with an infinity are NaN", "[expr][reduce]") {
  using S = colx::schema<colx::field<"k", std::int32_t, colx::not_null>, colx::field<"x", double>>;
  double const inf = std::numeric_limits<double>::infinity();
  colx::frame<S> const f(column_of(std::vector<std::int32_t>{0, 0, 1, 1, 1, 2}),
                         column_of(optionals<double>{{1.0}, {inf}, {2.0}, {4.0}, std::nullopt, {-inf}}));
  auto const [v, s] = f | colx::reduce(colx::var("x"_c), colx::std("x"_c));
  CHECK(std::isnan(v.value()));
  CHECK(std::isnan(s.value()));
  auto const g = f | colx::group_by(colx::group_by_options{.sorted = true}, "k"_c) |
                 colx::aggregate(colx::var("x"_c).as<"v">(), colx::std("x"_c).as<"s">());
  auto const var = colx::to_optional_vector(g["v"_c].view());
  auto const sd = colx::to_optional_vector(g["s"_c].view());
  REQUIRE(var.size() == 3);
  CHECK((var[0] && std::isnan(*var[0])));
  CHECK(var[1] == std::optional<double>(2.0));  // 2 and 4
  CHECK_FALSE(var[2].has_value());              // one value: no sample variance
  CHECK((sd[0] && std::isnan(*sd[0])));
}
