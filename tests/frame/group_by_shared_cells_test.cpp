// SPDX-License-Identifier: Apache-2.0
// Aggregations that share cells, against std::map on the same rows. A group keeps its row count
// once for count(), count_valid and count of never-null values, and the means and variances of
// never-null values; a sum of a column once for sum("x") and every mean("x") beside it. Each
// result must still be its own: means over counts, variances of values far from zero, sums of
// integer columns (kept apart from their float means) and of expressions (never shared: their
// constants are not in their types), beside min and first, which keep their own cells. Few groups
// and many, filtered or not, at 0, 1, 1,000 and 100,003 rows; explain() gives the bytes a group.
// A decimal's sum and mean share one exact 128-bit sum.
#include "support/backend.hpp"

#include <catch2/catch.hpp>

#include <cmath>
#include <cstdint>
#include <map>
#include <optional>
#include <random>
#include <string>
#include <vector>

using namespace colx::literals;

namespace {
using colx::size_type;

using S = colx::schema<colx::field<"k", std::int32_t, colx::not_null>, colx::field<"x", double, colx::not_null>,
                       colx::field<"n", std::int64_t, colx::not_null>, colx::field<"w", std::int32_t, colx::not_null>>;

struct group_ref {
  long double sum_x = 0;
  long double sum_x2 = 0;  // of x - 1e9, for the variance
  std::int64_t sum_n = 0;
  long double sum_twice = 0;
  std::int64_t rows = 0;
  double min_x = 0;
  std::int64_t first_n = 0;
  std::int32_t first_w = -1;
};

template <class Source>
auto shared_aggregations(Source const& source) {
  return source | colx::group_by(colx::group_by_options{.sorted = true}, "k"_c) |
         colx::aggregate(colx::sum("x"_c).as<"sum_x">(), colx::mean("x"_c).as<"mean_x">(), colx::var("x"_c).as<"var_x">(),
                         colx::std("x"_c).as<"std_x">(), colx::count().as<"rows">(), colx::count_valid("x"_c).as<"valid_x">(),
                         colx::count("n"_c).as<"count_n">(), colx::sum("n"_c).as<"sum_n">(), colx::mean("n"_c).as<"mean_n">(),
                         colx::mean("x"_c).as<"mean_x_again">(), colx::sum("x"_c * 2.0).as<"sum_twice">(),
                         colx::min("x"_c).as<"min_x">(), colx::first("n"_c).as<"first_n">());
}

// Every result but the variances is never null here (means of never-null values included).
template <class C>
auto values(C const& c) {
  return colx::to_vector(c.view());
}
template <class C>
auto optionals(C const& c) {
  return colx::to_optional_vector(c.view());
}

template <class Out>
void check(Out const& out, std::map<std::int32_t, group_ref> const& want) {
  REQUIRE(out.num_rows() == static_cast<size_type>(want.size()));
  auto const k = values(out["k"_c]);
  auto const sum_x = values(out["sum_x"_c]);
  auto const mean_x = values(out["mean_x"_c]);
  auto const mean_again = values(out["mean_x_again"_c]);
  auto const var_x = optionals(out["var_x"_c]);
  auto const std_x = optionals(out["std_x"_c]);
  auto const rows = values(out["rows"_c]);
  auto const valid_x = values(out["valid_x"_c]);
  auto const count_n = values(out["count_n"_c]);
  auto const sum_n = values(out["sum_n"_c]);
  auto const mean_n = values(out["mean_n"_c]);
  auto const sum_twice = values(out["sum_twice"_c]);
  auto const min_x = values(out["min_x"_c]);
  auto const first_n = values(out["first_n"_c]);
  std::size_t g = 0;
  for (auto const& [key, r] : want) {
    CAPTURE(g, key, r.rows);
    REQUIRE(k[g] == key);
    auto const count = static_cast<long double>(r.rows);
    CHECK(rows[g] == r.rows);
    CHECK(valid_x[g] == r.rows);
    CHECK(count_n[g] == r.rows);
    CHECK(sum_x[g] == Approx(static_cast<double>(r.sum_x)).epsilon(1e-12));
    CHECK(mean_x[g] == Approx(static_cast<double>(r.sum_x / count)).epsilon(1e-12));
    CHECK(mean_again[g] == mean_x[g]);
    CHECK(sum_n[g] == r.sum_n);  // integers: exact
    CHECK(mean_n[g] == Approx(static_cast<double>(static_cast<long double>(r.sum_n) / count)).epsilon(1e-12));
    CHECK(sum_twice[g] == Approx(static_cast<double>(r.sum_twice)).epsilon(1e-12));
    CHECK(min_x[g] == r.min_x);
    CHECK(first_n[g] == r.first_n);
    if (r.rows < 2) {
      CHECK_FALSE(var_x[g]);
      CHECK_FALSE(std_x[g]);
    } else {
      // x - 1e9 is exact in double, so its mean and squares in long double make the reference.
      long double const centred_mean = (r.sum_x - 1e9L * count) / count;
      long double const m2 = r.sum_x2 - count * centred_mean * centred_mean;
      auto const var = static_cast<double>(m2 / (count - 1));
      REQUIRE(var_x[g]);
      REQUIRE(std_x[g]);
      CHECK(*var_x[g] == Approx(var).epsilon(1e-9));
      CHECK(*std_x[g] == Approx(std::sqrt(var)).epsilon(1e-9));
    }
    ++g;
  }
}
}  // namespace

TEST_CASE("group_by: aggregations sharing a row count and sums give each its own result", "[frame]") {
  for (std::size_t const n : {std::size_t{0}, std::size_t{1}, std::size_t{1000}, std::size_t{100003}}) {
    for (std::int32_t const groups : {3, 40000}) {
      CAPTURE(n, groups);
      std::mt19937_64 rng(n * 7 + static_cast<std::size_t>(groups));
      std::vector<std::int32_t> k(n);
      std::vector<double> x(n);
      std::vector<std::int64_t> v(n);
      std::vector<std::int32_t> w(n);
      for (std::size_t i = 0; i < n; ++i) {
        k[i] = static_cast<std::int32_t>(rng() % static_cast<std::uint64_t>(groups)) - 7;
        x[i] = 1e9 + static_cast<double>(rng() % 1000) / 8;  // far from zero: the variance needs its shift
        v[i] = static_cast<std::int64_t>(rng() % 2000001) - 1000000;
        w[i] = static_cast<std::int32_t>(i);
      }
      std::map<std::int32_t, group_ref> all;
      std::map<std::int32_t, group_ref> kept;
      for (std::size_t i = 0; i < n; ++i) {
        for (auto* want : {&all, &kept}) {
          if (want == &kept && (w[i] % 3 == 0)) { continue; }
          group_ref& r = (*want)[k[i]];
          r.sum_x += x[i];
          r.sum_x2 += (x[i] - 1e9) * (x[i] - 1e9);
          r.sum_n += v[i];
          r.sum_twice += x[i] * 2.0;
          r.min_x = r.rows == 0 ? x[i] : std::min(r.min_x, x[i]);
          if (r.rows == 0) { r.first_n = v[i]; }
          ++r.rows;
        }
      }
      auto const mr = colx::test::backend_resource();
      colx::frame<S> const f(colx::make_column<std::int32_t>(k, {}, mr), colx::make_column<double>(x, {}, mr),
                             colx::make_column<std::int64_t>(v, {}, mr), colx::make_column<std::int32_t>(w, {}, mr));
      check(shared_aggregations(f), all);
      check(shared_aggregations(f | colx::filter("w"_c % 3 != 0)), kept);
    }
  }
}

TEST_CASE("group_by: explain gives a group's cells, shared where they can be", "[frame]") {
  auto const mr = colx::test::backend_resource();
  std::vector<std::int32_t> const k{1, 2, 1};
  std::vector<double> const x{1.0, 2.0, 3.0};
  std::vector<std::int64_t> const v{4, 5, 6};
  std::vector<std::int32_t> const w{0, 1, 2};
  colx::frame<S> const f(colx::make_column<std::int32_t>(k, {}, mr), colx::make_column<double>(x, {}, mr),
                         colx::make_column<std::int64_t>(v, {}, mr), colx::make_column<std::int32_t>(w, {}, mr));
  // A float64 sum (8 bytes) shared by two means, and the row count (8) shared by the means and count().
  auto const text = colx::explain(f | colx::group_by("k"_c), colx::aggregate(colx::sum("x"_c).as<"s">(), colx::mean("x"_c).as<"m">(),
                                                                            colx::mean("x"_c).as<"m2">(), colx::count().as<"c">()));
  CAPTURE(text);
  CHECK(text.find("cells: 16 bytes a group") != std::string::npos);
  // A sum of an int64 column is no float64 sum: the mean keeps its own.
  auto const apart = colx::explain(f | colx::group_by("k"_c), colx::aggregate(colx::sum("n"_c).as<"s">(), colx::mean("n"_c).as<"m">()));
  CAPTURE(apart);
  CHECK(apart.find("cells: 24 bytes a group") != std::string::npos);
  auto const out = f | colx::group_by(colx::group_by_options{.sorted = true}, "k"_c) |
                   colx::aggregate(colx::sum("x"_c).as<"s">(), colx::mean("x"_c).as<"m">(), colx::count().as<"c">());
  CHECK(values(out["s"_c]) == std::vector<double>{4.0, 2.0});
  CHECK(values(out["m"_c]) == std::vector<double>{2.0, 2.0});
  CHECK(values(out["c"_c]) == std::vector<size_type>{2, 1});
}

// A decimal's sum and mean keep one 128-bit sum (a not-null column no count of its own), and the
// mean is that exact sum over the count: TPC-H Q1's sum and avg of l_quantity.
TEST_CASE("group_by: a decimal's sum and mean share the exact sum", "[frame]") {
  using money = colx::dec<15, 2>;
  using D = colx::schema<colx::field<"k", std::int32_t, colx::not_null>, colx::field<"d", money, colx::not_null>,
                         colx::field<"e", money>>;
  auto const mr = colx::test::backend_resource();
  // Unscaled values near 10^15 (the type's largest): their sum needs more than 64 bits.
  std::vector<std::int32_t> const k{1, 2, 1, 1, 2};
  std::vector<money> const d{money{999999999999999}, money{-5}, money{999999999999999}, money{999999999999998}, money{10}};
  std::vector<std::optional<money>> const e{money{250}, std::nullopt, std::nullopt, money{-100}, std::nullopt};
  colx::frame<D> const f(colx::make_column<std::int32_t>(k, {}, mr), colx::make_column<money>(d, {}, mr),
                         colx::make_column<money>(e, {}, mr));
  auto const text = colx::explain(f | colx::group_by("k"_c), colx::aggregate(colx::sum("d"_c).as<"s">(), colx::mean("d"_c).as<"m">(),
                                                                            colx::count().as<"c">()));
  CAPTURE(text);
  CHECK(text.find("cells: 24 bytes a group") != std::string::npos);  // the row count, one 16-byte sum
  auto const nullable = colx::explain(f | colx::group_by("k"_c), colx::aggregate(colx::sum("e"_c).as<"s">(), colx::mean("e"_c).as<"m">()));
  CAPTURE(nullable);
  CHECK(nullable.find("cells: 24 bytes a group") != std::string::npos);  // one 16-byte sum and its count of values
  auto const out = f | colx::group_by(colx::group_by_options{.sorted = true}, "k"_c) |
                   colx::aggregate(colx::sum("d"_c).as<"s">(), colx::mean("d"_c).as<"m">(), colx::count().as<"c">(),
                                   colx::sum("e"_c).as<"se">(), colx::mean("e"_c).as<"me">());
  auto const sums = colx::to_optional_vector(out["s"_c].view());
  REQUIRE(sums.size() == 2);
  CHECK(sums[0]->unscaled == colx::int128_t{2999999999999996});
  CHECK(sums[1]->unscaled == 5);
  auto const means = colx::to_optional_vector(out["m"_c].view());
  CHECK(*means[0] == Approx(29999999999999.96 / 3).epsilon(1e-15));
  CHECK(*means[1] == Approx(0.025));
  auto const se = colx::to_optional_vector(out["se"_c].view());
  CHECK(se[0]->unscaled == 150);
  CHECK_FALSE(se[1].has_value());  // every value of group 2 is null
  auto const me = colx::to_optional_vector(out["me"_c].view());
  CHECK(*me[0] == Approx(0.75));
  CHECK_FALSE(me[1].has_value());
}
