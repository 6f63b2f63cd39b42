// SPDX-License-Identifier: Apache-2.0
// Sixteen fixed expression trees over five random columns of different types (four nullable),
// each evaluated by with_columns and by reduce (sum, min, max, count_valid) on the backend under
// test and checked against a row-by-row reference written with std::optional. The data is random
// with fixed seeds; the trees are fixed, as templates must be. Each group of four trees is one
// with_columns and one reduce, so the file instantiates eight kernels, not thirty-two.
#include "support/backend.hpp"

#include <catch2/catch.hpp>

#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <optional>
#include <random>
#include <sstream>
#include <string>
#include <tuple>
#include <type_traits>
#include <vector>

namespace {

using colx::size_type;
using colx::test::backend_resource;

template <class T>
using optionals = std::vector<std::optional<T>>;

// Column references spelled as types rather than with "name"_c: the trees below are
// namespace-scope constants, and nvcc must be able to write out their types.
constexpr colx::col<"i"> ci{};  // int32, nullable, [-50, 50]: zeros, negative shifts
constexpr colx::col<"x"> cx{};  // double, nullable, [-10, 10]
constexpr colx::col<"s"> cs{};  // int8, nullable, full range
constexpr colx::col<"l"> cl{};  // int64, not_null, [-2^40, 2^40]: l * l overflows
constexpr colx::col<"b"> cb{};  // bool, nullable

using random_schema = colx::schema<colx::field<"i", std::int32_t>, colx::field<"x", double>, colx::field<"s", std::int8_t>,
                            colx::field<"l", std::int64_t, colx::not_null>, colx::field<"b", bool>>;

struct row {
  std::optional<std::int32_t> i;
  std::optional<double> x;
  std::optional<std::int8_t> s;
  std::int64_t l;
  std::optional<bool> b;
};

struct data {
  optionals<std::int32_t> i;
  optionals<double> x;
  optionals<std::int8_t> s;
  std::vector<std::int64_t> l;
  optionals<bool> b;

  data(std::size_t n, std::uint64_t seed) : i(n), x(n), s(n), l(n), b(n) {
    std::mt19937_64 gen(seed);
    std::bernoulli_distribution null20(0.2), null15(0.15), null10(0.1), null25(0.25), coin(0.5);
    std::uniform_int_distribution<std::int32_t> small(-50, 50);
    std::uniform_real_distribution<double> real(-10.0, 10.0);
    std::uniform_int_distribution<int> byte(-128, 127);
    std::uniform_int_distribution<std::int64_t> wide(-(std::int64_t{1} << 40), std::int64_t{1} << 40);
    for (std::size_t r = 0; r < n; ++r) {
      if (!null20(gen)) { i[r] = small(gen); }
      if (!null15(gen)) { x[r] = real(gen); }
      if (!null10(gen)) { s[r] = static_cast<std::int8_t>(byte(gen)); }
      l[r] = wide(gen);
      if (!null25(gen)) { b[r] = coin(gen); }
    }
  }
  [[nodiscard]] std::size_t size() const { return l.size(); }
  [[nodiscard]] row at(std::size_t r) const { return {i[r], x[r], s[r], l[r], b[r]}; }
  [[nodiscard]] colx::frame<random_schema> frame() const {
    auto const mr = backend_resource();
    return colx::frame<random_schema>(colx::make_column(i, {}, mr), colx::make_column(x, {}, mr), colx::make_column(s, {}, mr),
                               colx::make_column(l, {}, mr), colx::make_column(b, {}, mr));
  }
};

// ---- the trees and their references ----------------------------------------------------------------

template <class T>
using opt = std::optional<T>;

// Kleene logic and wrapping int64 arithmetic, written independently of the library.
opt<bool> k_and(opt<bool> p, opt<bool> q) {
  if ((p && !*p) || (q && !*q)) { return false; }
  if (p && q) { return true; }
  return std::nullopt;
}
opt<bool> k_or(opt<bool> p, opt<bool> q) {
  if ((p && *p) || (q && *q)) { return true; }
  if (p && q) { return false; }
  return std::nullopt;
}
std::int64_t wrap_mul_add(std::int64_t a, std::int64_t b, std::int64_t c) {
  return static_cast<std::int64_t>(static_cast<std::uint64_t>(a) * static_cast<std::uint64_t>(b) + static_cast<std::uint64_t>(c));
}

// Group 1: arithmetic with promotion, division and remainder that make nulls.
constexpr auto t1 = ci * 3 + cs;
opt<int> r1(row const& r) { return r.i && r.s ? opt<int>(*r.i * 3 + *r.s) : std::nullopt; }
constexpr auto t2 = (cx - ci) * cx;
opt<double> r2(row const& r) { return r.x && r.i ? opt<double>((*r.x - *r.i) * *r.x) : std::nullopt; }
constexpr auto t3 = cl / ci;
opt<std::int64_t> r3(row const& r) { return r.i && *r.i != 0 ? opt<std::int64_t>(r.l / *r.i) : std::nullopt; }
constexpr auto t4 = cl % (cs + 1);
opt<std::int64_t> r4(row const& r) {
  return r.s && *r.s + 1 != 0 ? opt<std::int64_t>(r.l % (std::int64_t{*r.s} + 1)) : std::nullopt;
}

// Group 2: conditionals, Kleene logic, null handling.
constexpr auto t5 = colx::where(cb, cx, -cx);
opt<double> r5(row const& r) { return r.b && r.x ? opt<double>(*r.b ? *r.x : -*r.x) : std::nullopt; }
constexpr auto t6 = (ci > 0 && cx < 0.0) || cb;
opt<bool> r6(row const& r) {
  opt<bool> const p = r.i ? opt<bool>(*r.i > 0) : std::nullopt;
  opt<bool> const q = r.x ? opt<bool>(*r.x < 0.0) : std::nullopt;
  return k_or(k_and(p, q), r.b);
}
constexpr auto t7 = colx::coalesce(cx, colx::cast<double>(ci)) * 2.0;
opt<double> r7(row const& r) {
  if (r.x) { return *r.x * 2.0; }
  if (r.i) { return *r.i * 2.0; }
  return std::nullopt;
}
constexpr auto t8 = colx::if_else(colx::is_null(ci), cs, ci);
opt<int> r8(row const& r) {
  if (r.i) { return *r.i; }
  if (r.s) { return *r.s; }
  return std::nullopt;
}

// Group 3: bitwise, shifts that make nulls, functions on integers.
constexpr auto t9 = colx::abs(cs) + (ci & 7);
opt<int> r9(row const& r) { return r.s && r.i ? opt<int>(std::abs(int{*r.s}) + (*r.i & 7)) : std::nullopt; }
constexpr auto t10 = (cs << ci) ^ ci;
opt<int> r10(row const& r) {
  if (!r.s || !r.i || *r.i < 0 || *r.i >= 32) { return std::nullopt; }
  return static_cast<int>(static_cast<unsigned>(int{*r.s}) << *r.i) ^ *r.i;
}
constexpr auto t11 = (ci * ci - cs * cs) / (ci - cs);
opt<int> r11(row const& r) { return r.i && r.s && *r.i != *r.s ? opt<int>(*r.i + *r.s) : std::nullopt; }  // (i^2 - s^2) / (i - s)
constexpr auto t12 = cl * cl + ci;
opt<std::int64_t> r12(row const& r) { return r.i ? opt<std::int64_t>(wrap_mul_add(r.l, r.l, *r.i)) : std::nullopt; }

// Group 4: predicates and math.
constexpr auto t13 = !(cx >= 1.5) && colx::between(ci, -10, 10);
opt<bool> r13(row const& r) {
  opt<bool> const p = r.x ? opt<bool>(!(*r.x >= 1.5)) : std::nullopt;
  opt<bool> const q = r.i ? opt<bool>(-10 <= *r.i && *r.i <= 10) : std::nullopt;
  return k_and(p, q);
}
constexpr auto t14 = colx::floor(cx * 0.5) + colx::cast<double>(cl % 1000);
opt<double> r14(row const& r) { return r.x ? opt<double>(std::floor(*r.x * 0.5) + static_cast<double>(r.l % 1000)) : std::nullopt; }
constexpr auto t15 = colx::isin(cs, 1, 2, 3, -128) || colx::is_null(cx);
opt<bool> r15(row const& r) {
  opt<bool> const p = r.s ? opt<bool>(*r.s == 1 || *r.s == 2 || *r.s == 3 || *r.s == -128) : std::nullopt;
  return k_or(p, !r.x.has_value());
}
constexpr auto t16 = colx::sqrt(colx::abs(cx)) * colx::cast<double>(cb);
opt<double> r16(row const& r) { return r.x && r.b ? opt<double>(std::sqrt(std::fabs(*r.x)) * (*r.b ? 1.0 : 0.0)) : std::nullopt; }

// ---- checking ----------------------------------------------------------------------------------------

// Doubles: the trees round at most three times on values below 10^3, and the backends may differ
// by an fma contraction or an ulp of a library function; 1e-14 relative is ~45 ulps, far below
// any real mistake (a wrong operand or branch).
template <class T>
bool close(T got, T want) {
  if constexpr (std::is_floating_point_v<T>) {
    return std::fabs(got - want) <= 1e-14 * (1.0 + std::fabs(want));
  } else {
    return got == want;
  }
}

template <class T>
std::string show(opt<T> const& v) {
  if (!v) { return "null"; }
  std::ostringstream out;
  out.precision(17);
  if constexpr (sizeof(T) == 1) {
    out << static_cast<int>(*v);
  } else {
    out << *v;
  }
  return out.str();
}

template <class T, class Ref>
void check_column(char const* tree, colx::column<T> const& got_column, data const& d, Ref ref) {
  using want_t = typename decltype(ref(d.at(0)))::value_type;
  STATIC_REQUIRE(std::is_same_v<T, want_t>);  // the tree's type is the reference's
  INFO("tree " << tree);
  auto const got = colx::to_optional_vector(got_column.view());
  REQUIRE(got.size() == d.size());
  std::size_t bad = 0;
  std::string first;
  size_type nulls = 0;
  for (std::size_t r = 0; r < d.size(); ++r) {
    auto const want = ref(d.at(r));
    nulls += want ? 0 : 1;
    bool const ok = got[r].has_value() == want.has_value() && (!want || close(*got[r], *want));
    if (!ok && bad++ == 0) { first = "row " + std::to_string(r) + ": got " + show(got[r]) + ", want " + show(want); }
  }
  INFO(bad << " of " << d.size() << " rows differ; first " << first);
  CHECK(bad == 0);
  CHECK(got_column.null_count() == nulls);
  // Every tree has both null and valid rows, so neither half of the comparison is vacuous.
  if (d.size() >= 1000) {
    CHECK(nulls > 0);
    CHECK(nulls < static_cast<size_type>(d.size()));
  }
}

// sum, min, max and count_valid of a tree against the reference's valid values.
template <class Sum, class T, class Ref>
void check_aggregates(char const* tree, colx::scalar<Sum> const& sum, colx::scalar<T> const& min, colx::scalar<T> const& max,
                      colx::scalar<size_type> const& count, data const& d, Ref ref) {
  INFO("tree " << tree);
  size_type valid = 0;
  long double fsum = 0;
  long double magnitude = 0;
  std::uint64_t isum = 0;  // wraps, as the library's integer sums
  opt<T> lo, hi;
  for (std::size_t r = 0; r < d.size(); ++r) {
    auto const v = ref(d.at(r));
    if (!v) { continue; }
    ++valid;
    if constexpr (std::is_floating_point_v<T>) {
      fsum += *v;
      magnitude += std::fabs(static_cast<long double>(*v));
    } else {
      isum += static_cast<std::uint64_t>(static_cast<std::int64_t>(*v));
    }
    if (!lo || *v < *lo) { lo = *v; }
    if (!hi || *hi < *v) { hi = *v; }
  }
  CHECK(count == colx::scalar<size_type>(valid));
  REQUIRE(sum.has_value() == (valid > 0));
  REQUIRE(min.has_value() == (valid > 0));
  REQUIRE(max.has_value() == (valid > 0));
  if (valid == 0) { return; }
  if constexpr (std::is_floating_point_v<T>) {
    // Any order of n additions errs by at most n u sum|x| (twice that for the reference and fma).
    double const tolerance = 2.0 * static_cast<double>(valid) * 0x1p-53 * static_cast<double>(magnitude) + 1e-12;
    CHECK(sum.value() == Approx(static_cast<double>(fsum)).epsilon(0).margin(tolerance));
    CHECK(close(min.value(), *lo));
    CHECK(close(max.value(), *hi));
  } else {
    CHECK(sum.value() == static_cast<Sum>(isum));
    CHECK(min.value() == *lo);
    CHECK(max.value() == *hi);
  }
}

// One with_columns and one reduce over four trees, checked tree by tree.
template <class E1, class E2, class E3, class E4, class R1, class R2, class R3, class R4>
void check_group(data const& d, E1 e1, E2 e2, E3 e3, E4 e4, R1 r1, R2 r2, R3 r3, R4 r4) {
  auto const f = d.frame();
  auto const g = f | colx::with_columns(e1.template as<"e1">(), e2.template as<"e2">(), e3.template as<"e3">(),
                                        e4.template as<"e4">());
  check_column("1", g[colx::col<"e1">{}], d, r1);
  check_column("2", g[colx::col<"e2">{}], d, r2);
  check_column("3", g[colx::col<"e3">{}], d, r3);
  check_column("4", g[colx::col<"e4">{}], d, r4);

  auto const a = f | colx::reduce(colx::sum(e1), colx::min(e1), colx::max(e1), colx::count_valid(e1),  //
                                  colx::sum(e2), colx::min(e2), colx::max(e2), colx::count_valid(e2),  //
                                  colx::sum(e3), colx::min(e3), colx::max(e3), colx::count_valid(e3),  //
                                  colx::sum(e4), colx::min(e4), colx::max(e4), colx::count_valid(e4));
  check_aggregates("1", std::get<0>(a), std::get<1>(a), std::get<2>(a), std::get<3>(a), d, r1);
  check_aggregates("2", std::get<4>(a), std::get<5>(a), std::get<6>(a), std::get<7>(a), d, r2);
  check_aggregates("3", std::get<8>(a), std::get<9>(a), std::get<10>(a), std::get<11>(a), d, r3);
  check_aggregates("4", std::get<12>(a), std::get<13>(a), std::get<14>(a), std::get<15>(a), d, r4);
}

// Sizes around words, blocks and host chunks; two seeds each below 10^4 rows.
struct run {
  std::size_t rows;
  std::uint64_t seed;
};
constexpr run runs[] = {{0, 1},    {1, 2},    {1, 3},     {31, 4},    {32, 5},    {33, 6},   {255, 7},
                        {256, 8},  {257, 9},  {1000, 10}, {1000, 11}, {4097, 12}, {4097, 13}, {100003, 14}};

}  // namespace

TEST_CASE("random expressions: arithmetic, division and remainder", "[expr][random]") {
  for (auto const& [rows, seed] : runs) {
    INFO("rows: " << rows << ", seed: " << seed);
    check_group(data(rows, 500 + seed), t1, t2, t3, t4, r1, r2, r3, r4);
  }
}

TEST_CASE("random expressions: conditionals, Kleene logic, nulls", "[expr][random]") {
  for (auto const& [rows, seed] : runs) {
    INFO("rows: " << rows << ", seed: " << seed);
    check_group(data(rows, 600 + seed), t5, t6, t7, t8, r5, r6, r7, r8);
  }
}

TEST_CASE("random expressions: bitwise, shifts, integer overflow", "[expr][random]") {
  for (auto const& [rows, seed] : runs) {
    INFO("rows: " << rows << ", seed: " << seed);
    check_group(data(rows, 700 + seed), t9, t10, t11, t12, r9, r10, r11, r12);
  }
}

TEST_CASE("random expressions: predicates and math", "[expr][random]") {
  for (auto const& [rows, seed] : runs) {
    INFO("rows: " << rows << ", seed: " << seed);
    check_group(data(rows, 800 + seed), t13, t14, t15, t16, r13, r14, r15, r16);
  }
}

TEST_CASE("random expressions: the same trees behind a filter", "[expr][random]") {
  // A filter in front of reduce drops rows without compacting; the kept rows' aggregates match
  // the reference over those rows.
  for (auto const& [rows, seed] : runs) {
    INFO("rows: " << rows << ", seed: " << seed);
    data const d(rows, 900 + seed);
    auto const f = d.frame();
    auto const [n, s3, s10, any13] =
        f | colx::filter(t6) | colx::reduce(colx::count(), colx::sum(t3), colx::sum(t10), colx::any(t13));
    size_type want_n = 0;
    std::int64_t want3 = 0, want10 = 0;
    size_type valid3 = 0, valid10 = 0;
    bool want13 = false;
    for (std::size_t r = 0; r < d.size(); ++r) {
      auto const x = d.at(r);
      if (!r6(x).value_or(false)) { continue; }
      ++want_n;
      if (auto const v = r3(x)) {
        want3 += *v;
        ++valid3;
      }
      if (auto const v = r10(x)) {
        want10 += *v;
        ++valid10;
      }
      want13 = want13 || r13(x).value_or(false);
    }
    CHECK(n.value() == want_n);
    CHECK(s3 == (valid3 > 0 ? colx::scalar<std::int64_t>(want3) : colx::scalar<std::int64_t>{}));
    CHECK(s10 == (valid10 > 0 ? colx::scalar<std::int64_t>(want10) : colx::scalar<std::int64_t>{}));
    CHECK(any13 == colx::scalar<bool>(want13));
    CHECK((f | colx::count_if(t6)) == want_n);
  }
}
