// SPDX-License-Identifier: Apache-2.0
// Running aggregates (cumsum, cummin, cummax, cumcount) over a frame and per group, and rank
// with every method, on the backend under test against plain loops over the same rows: nulls
// skipped (null in, null out, the running value carried past), NaN, null keys as a group or
// dropped, ties, and sizes off the block size.
#include "support/backend.hpp"

#include <colx/frame/rank.hpp>
#include <colx/frame/scan.hpp>

#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <map>
#include <numeric>
#include <optional>
#include <random>
#include <vector>

using namespace colx::literals;

namespace {

using colx::size_type;
template <class T>
using optionals = std::vector<std::optional<T>>;

using S = colx::schema<colx::field<"k", std::int32_t>, colx::field<"x", std::int32_t>, colx::field<"d", double>>;

struct rows {
  optionals<std::int32_t> k;
  optionals<std::int32_t> x;
  optionals<double> d;
};

rows random_rows(std::size_t n, unsigned seed, int groups) {
  std::mt19937 rng(seed);
  rows r;
  for (std::size_t i = 0; i < n; ++i) {
    r.k.push_back(rng() % 9 == 0 ? std::nullopt : std::optional<std::int32_t>(static_cast<std::int32_t>(rng() % static_cast<unsigned>(groups))));
    r.x.push_back(rng() % 6 == 0 ? std::nullopt : std::optional<std::int32_t>(static_cast<std::int32_t>(rng() % 2001) - 1000));
    double const d = rng() % 50 == 0 ? std::numeric_limits<double>::quiet_NaN() : static_cast<double>(rng() % 100) / 4;
    r.d.push_back(rng() % 7 == 0 ? std::nullopt : std::optional<double>(d));
  }
  return r;
}

colx::frame<S> make_frame(rows const& r) {
  auto const mr = colx::test::backend_resource();
  return colx::frame<S>(colx::make_column<std::int32_t>(r.k, {}, mr), colx::make_column<std::int32_t>(r.x, {}, mr),
                        colx::make_column<double>(r.d, {}, mr));
}

bool less_nan_last(double a, double b) { return std::isnan(b) ? !std::isnan(a) : (!std::isnan(a) && a < b); }

struct expected_scans {
  optionals<std::int64_t> sum_x, min_x, max_x, count;
  optionals<double> sum_d, min_d, max_d;
};

// Plain loops, one running state per group (every row one group when `grouped` is false).
expected_scans run_scans(rows const& r, bool grouped, bool drop_null_keys) {
  struct state {
    std::optional<std::int64_t> sum_x, min_x, max_x;
    std::optional<double> sum_d, min_d, max_d;
    std::int64_t count = 0;
  };
  std::map<std::optional<std::int32_t>, state> states;
  expected_scans e;
  for (std::size_t i = 0; i < r.x.size(); ++i) {
    bool const dropped = grouped && drop_null_keys && !r.k[i];
    state& s = states[grouped ? r.k[i] : std::optional<std::int32_t>(0)];
    if (!dropped && r.x[i]) {
      std::int64_t const v = *r.x[i];
      s.sum_x = s.sum_x.value_or(0) + v;
      s.min_x = std::min(s.min_x.value_or(v), v);
      s.max_x = std::max(s.max_x.value_or(v), v);
    }
    if (!dropped && r.d[i]) {
      double const v = *r.d[i];
      s.sum_d = s.sum_d.value_or(0.0) + v;
      s.min_d = !s.min_d || less_nan_last(v, *s.min_d) ? v : *s.min_d;
      s.max_d = !s.max_d || less_nan_last(*s.max_d, v) ? v : *s.max_d;
    }
    bool const x_valid = !dropped && r.x[i];
    bool const d_valid = !dropped && r.d[i];
    e.sum_x.push_back(x_valid ? s.sum_x : std::nullopt);
    e.min_x.push_back(x_valid ? s.min_x : std::nullopt);
    e.max_x.push_back(x_valid ? s.max_x : std::nullopt);
    e.sum_d.push_back(d_valid ? s.sum_d : std::nullopt);
    e.min_d.push_back(d_valid ? s.min_d : std::nullopt);
    e.max_d.push_back(d_valid ? s.max_d : std::nullopt);
    e.count.push_back(dropped ? std::nullopt : std::optional<std::int64_t>(s.count++));
  }
  return e;
}

template <class T>
optionals<std::int64_t> widen(optionals<T> const& v) {
  optionals<std::int64_t> out;
  for (auto const& x : v) { out.push_back(x ? std::optional<std::int64_t>(*x) : std::nullopt); }
  return out;
}

// Doubles compared with a tolerance for the order of additions; NaN equals NaN.
void check_close(optionals<double> const& got, optionals<double> const& want, char const* what) {
  INFO(what);
  REQUIRE(got.size() == want.size());
  std::size_t bad = 0;
  for (std::size_t i = 0; i < got.size(); ++i) {
    if (got[i].has_value() != want[i].has_value()) {
      ++bad;
    } else if (got[i] && !(std::isnan(*got[i]) && std::isnan(*want[i])) &&
               !(std::abs(*got[i] - *want[i]) <= 1e-9 * (1 + std::abs(*want[i])))) {
      ++bad;
    }
  }
  CHECK(bad == 0);
}

template <class Source>
void check_scans(Source const& source, expected_scans const& e) {
  CHECK(colx::to_optional_vector(colx::cumsum(source, "x"_c).view()) == e.sum_x);
  CHECK(widen(colx::to_optional_vector(colx::cummin(source, "x"_c).view())) == e.min_x);
  CHECK(widen(colx::to_optional_vector(colx::cummax(source, "x"_c).view())) == e.max_x);
  check_close(colx::to_optional_vector(colx::cumsum(source, "d"_c).view()), e.sum_d, "cumsum d");
  check_close(colx::to_optional_vector(colx::cummin(source, "d"_c).view()), e.min_d, "cummin d");
  check_close(colx::to_optional_vector(colx::cummax(source, "d"_c).view()), e.max_d, "cummax d");
  CHECK(colx::to_optional_vector(colx::cumcount(source).view()) == e.count);
}

}  // namespace

TEST_CASE("scans: cumsum, cummin, cummax, cumcount over a frame and per group", "[frame]") {
  struct run_case {
    std::size_t n;
    int groups;
  };
  for (auto const c : {run_case{0, 3}, run_case{1, 3}, run_case{257, 3}, run_case{5000, 40}, run_case{20000, 20000}}) {
    CAPTURE(c.n, c.groups);
    auto const r = random_rows(c.n, static_cast<unsigned>(c.n) + 1, c.groups);
    auto const f = make_frame(r);
    {
      INFO("whole frame");
      check_scans(f, run_scans(r, false, false));
    }
    {
      INFO("per group, null keys a group");
      check_scans(f | colx::group_by("k"_c), run_scans(r, true, false));
    }
    {
      INFO("per group, null keys dropped");
      check_scans(f | colx::group_by(colx::group_by_options{.drop_null_keys = true}, "k"_c), run_scans(r, true, true));
    }
  }
}

TEST_CASE("scans: of an expression, per group of a key expression", "[frame]") {
  auto const r = random_rows(3000, 7, 50);
  auto const f = make_frame(r);
  auto const got = colx::to_optional_vector(colx::cumsum(f | colx::group_by(("k"_c % 4).as<"m">()), "x"_c * 2).view());
  std::map<std::optional<std::int32_t>, std::int64_t> running;
  optionals<std::int64_t> want;
  for (std::size_t i = 0; i < r.x.size(); ++i) {
    auto const m = r.k[i] ? std::optional<std::int32_t>(*r.k[i] % 4) : std::nullopt;
    if (!r.x[i]) {
      want.push_back(std::nullopt);
      continue;
    }
    want.push_back(running[m] += 2 * std::int64_t{*r.x[i]});
  }
  CHECK(got == want);
}

TEST_CASE("rank: every method, ties, nulls, descending and two keys", "[frame]") {
  using colx::rank_method;
  for (std::size_t const n : {0, 1, 2, 300, 4099}) {
    CAPTURE(n);
    auto const r = random_rows(n, static_cast<unsigned>(n) + 9, 5);
    auto const f = make_frame(r);
    // Reference: positions in the stable order of (k ascending, x descending) over rows with
    // both keys valid; ties are rows with equal (k, x).
    std::vector<std::size_t> order;
    for (std::size_t i = 0; i < n; ++i) {
      if (r.k[i] && r.x[i]) { order.push_back(i); }
    }
    std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
      return *r.k[a] != *r.k[b] ? *r.k[a] < *r.k[b] : *r.x[a] > *r.x[b];
    });
    std::map<rank_method, optionals<double>> want;
    for (auto const m : {rank_method::average, rank_method::min, rank_method::max, rank_method::first, rank_method::dense}) {
      want[m] = optionals<double>(n);
    }
    double dense = 0;
    for (std::size_t lo = 0; lo < order.size();) {
      std::size_t hi = lo;
      while (hi < order.size() && *r.k[order[hi]] == *r.k[order[lo]] && *r.x[order[hi]] == *r.x[order[lo]]) { ++hi; }
      dense += 1;
      for (std::size_t p = lo; p < hi; ++p) {
        std::size_t const row = order[p];
        want[rank_method::min][row] = static_cast<double>(lo + 1);
        want[rank_method::max][row] = static_cast<double>(hi);
        want[rank_method::average][row] = (static_cast<double>(lo + 1) + static_cast<double>(hi)) / 2;
        want[rank_method::first][row] = static_cast<double>(p + 1);
        want[rank_method::dense][row] = dense;
      }
      lo = hi;
    }
    for (auto const& [method, expected] : want) {
      CAPTURE(static_cast<int>(method));
      CHECK(colx::to_optional_vector(colx::rank(f, method, "k"_c, colx::desc("x"_c)).view()) == expected);
    }
    // One key, the default method (average), nulls first asked for but still null ranks.
    auto const one = colx::to_optional_vector(colx::rank(f, colx::asc("x"_c).nulls_first()).view());
    REQUIRE(one.size() == n);
    for (std::size_t i = 0; i < n; ++i) {
      if (!r.x[i]) {
        CHECK(!one[i]);
        continue;
      }
      double below = 0;
      double equal = 0;
      for (std::size_t j = 0; j < n; ++j) {
        if (!r.x[j]) { continue; }
        below += *r.x[j] < *r.x[i] ? 1 : 0;
        equal += *r.x[j] == *r.x[i] ? 1 : 0;
      }
      CHECK(one[i] == std::optional<double>(below + (equal + 1) / 2));
    }
  }
}
