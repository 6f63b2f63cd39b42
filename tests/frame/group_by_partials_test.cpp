// SPDX-License-Identifier: Apache-2.0
// A thread's private cells in narrow form (group_by/partials.hpp): decimal sums of up to 18 digits
// in 64 bits and the row count in 32, flushed to the table whenever a row would not fit. Sums of
// values near the types' limits, whose 64-bit partial sums overflow within a few rows, against
// 128-bit sums of a loop: not-null and nullable columns, their means (which keep the same cell),
// positive and negative runs, on every path of the pass, at 0, 1, 1,000 and 100,003 rows. And the
// narrow cell's own bounds: the largest sum that fits, the smallest that does not, a full count.
#include "support/backend.hpp"
#include "support/forced_path.hpp"

#include <catch2/catch.hpp>

#include <colx/frame/group_by/partials.hpp>

#include <cstdint>
#include <limits>
#include <map>
#include <optional>
#include <random>
#include <set>
#include <string>
#include <vector>

using namespace colx::literals;

namespace {
using colx::size_type;
using colx::detail::group_by_path;
using big = colx::dec<18, 0>;   // up to 10^18 - 1: ten of them overflow 64 bits
using small = colx::dec<9, 3>;  // 32-bit storage, summed in 64 bits

using S = colx::schema<colx::field<"k", std::int32_t, colx::not_null>, colx::field<"b", big, colx::not_null>,
                       colx::field<"e", big>, colx::field<"s", small, colx::not_null>>;

struct group_ref {
  std::set<std::int32_t> distinct_s;
  colx::int128_t sum_b = 0;
  colx::int128_t sum_e = 0;
  std::int64_t valid_e = 0;
  colx::int128_t sum_s = 0;
  std::int64_t rows = 0;
  void add(big b, std::optional<big> e, small s) {
    sum_b += b.unscaled;
    if (e) {
      sum_e += e->unscaled;
      ++valid_e;
    }
    sum_s += s.unscaled;
    distinct_s.insert(s.unscaled);
    ++rows;
  }
};

colx::frame<S> input(std::vector<std::int32_t> const& k, std::vector<big> const& b, std::vector<std::optional<big>> const& e,
                     std::vector<small> const& s) {
  auto const mr = colx::test::backend_resource();
  return colx::frame<S>(colx::make_column<std::int32_t>(k, {}, mr), colx::make_column<big>(b, {}, mr),
                        colx::make_column<big>(e, {}, mr), colx::make_column<small>(s, {}, mr));
}

template <class Source>
auto sums(Source const& source) {
  return source | colx::group_by(colx::group_by_options{.sorted = true}, "k"_c) |
         colx::aggregate(colx::sum("b"_c).as<"sum_b">(), colx::mean("b"_c).as<"mean_b">(), colx::sum("e"_c).as<"sum_e">(),
                         colx::mean("e"_c).as<"mean_e">(), colx::sum("s"_c).as<"sum_s">(), colx::count().as<"rows">(),
                         colx::nunique("s"_c).as<"distinct_s">());
}

template <class Out>
void check(Out const& out, std::map<std::int32_t, group_ref> const& want) {
  REQUIRE(out.num_rows() == static_cast<size_type>(want.size()));
  auto const k = colx::to_vector(out["k"_c].view());
  auto const sum_b = colx::to_optional_vector(out["sum_b"_c].view());
  auto const mean_b = colx::to_optional_vector(out["mean_b"_c].view());
  auto const sum_e = colx::to_optional_vector(out["sum_e"_c].view());
  auto const mean_e = colx::to_optional_vector(out["mean_e"_c].view());
  auto const sum_s = colx::to_optional_vector(out["sum_s"_c].view());
  auto const rows = colx::to_vector(out["rows"_c].view());
  auto const distinct_s = colx::to_vector(out["distinct_s"_c].view());
  std::size_t g = 0;
  for (auto const& [key, r] : want) {
    CAPTURE(g, key, r.rows, r.valid_e);
    CHECK(k[g] == key);
    CHECK(rows[g] == r.rows);
    REQUIRE(sum_b[g].has_value());
    CHECK(sum_b[g]->unscaled == r.sum_b);
    CHECK(*mean_b[g] == Approx(static_cast<double>(r.sum_b) / static_cast<double>(r.rows)).epsilon(1e-12));
    REQUIRE(sum_e[g].has_value() == (r.valid_e > 0));
    REQUIRE(mean_e[g].has_value() == (r.valid_e > 0));
    if (r.valid_e > 0) {
      CHECK(sum_e[g]->unscaled == r.sum_e);
      CHECK(*mean_e[g] == Approx(static_cast<double>(r.sum_e) / static_cast<double>(r.valid_e)).epsilon(1e-12));
    }
    REQUIRE(sum_s[g].has_value());
    CHECK(sum_s[g]->unscaled == r.sum_s);
    // nunique claims a row's (group, value) pair as it adds: a row the narrow cells refuse, and
    // take again after their flush, must not count its value twice (or lose it).
    CHECK(distinct_s[g] == static_cast<std::int64_t>(r.distinct_s.size()));
    ++g;
  }
}
}  // namespace

TEST_CASE("group_by: decimal sums whose 64-bit private sums overflow, every path", "[frame]") {
  constexpr std::int64_t most = 999999999999999999;  // 10^18 - 1
  for (std::size_t const n : {std::size_t{0}, std::size_t{1}, std::size_t{1000}, std::size_t{100003}}) {
    CAPTURE(n);
    std::mt19937_64 rng(n + 11);
    std::vector<std::int32_t> k(n);
    std::vector<big> b(n);
    std::vector<std::optional<big>> e(n);
    std::vector<small> s(n);
    for (std::size_t i = 0; i < n; ++i) {
      k[i] = static_cast<std::int32_t>(rng() % 3);
      // Runs of one sign, so that a thread's partial sums climb to the limit and past it, and
      // stray values of the other sign between them.
      bool const negative = ((i / 5000) % 2 == 1) != (rng() % 16 == 0);
      std::int64_t const magnitude = most - static_cast<std::int64_t>(rng() % 1000);
      b[i] = big{negative ? -magnitude : magnitude};
      if (k[i] != 2 && rng() % 4 != 0) { e[i] = big{negative ? magnitude : -magnitude}; }  // group 2's all null
      s[i] = small{(rng() % 2 == 0 ? 1 : -1) * static_cast<std::int32_t>(999999999 - rng() % 100)};
    }
    std::map<std::int32_t, group_ref> all;
    std::map<std::int32_t, group_ref> kept;
    for (std::size_t i = 0; i < n; ++i) {
      for (auto* want : {&all, &kept}) {
        if (want == &kept && k[i] == 1) { continue; }
        (*want)[k[i]].add(b[i], e[i], s[i]);
      }
    }
    auto const f = input(k, b, e, s);
    auto const filtered = f | colx::filter("k"_c != 1);
    for (auto const path : {group_by_path::by_sample, group_by_path::private_caches, group_by_path::few_groups,
                            group_by_path::many_groups, group_by_path::partitioned}) {
      CAPTURE(static_cast<int>(path));
      colx::test::forced_path const force(path);
      check(sums(f), all);
      check(sums(filtered), kept);
    }
  }
}

// One group of 2,000,003 rows near the limit, every value of one sign: a GPU thread of a grid of
// ~135,000 sees ~15 rows, and its 64-bit sum overflows at the tenth (the host's chunks, at each
// tenth row of theirs).
TEST_CASE("group_by: one group's 64-bit private sums overflow on every thread", "[frame]") {
  constexpr std::size_t n = 2000003;
  constexpr std::int64_t most = 999999999999999999;
  std::vector<std::int32_t> const k(n, 7);
  std::vector<big> b(n);
  std::vector<std::optional<big>> e(n);
  std::vector<small> s(n);
  std::map<std::int32_t, group_ref> want;
  group_ref& r = want[7];
  for (std::size_t i = 0; i < n; ++i) {
    b[i] = big{most - static_cast<std::int64_t>(i % 1000)};
    if (i % 5 != 0) { e[i] = big{-most + static_cast<std::int64_t>(i % 7)}; }
    s[i] = small{static_cast<std::int32_t>(i % 1000) - 500};
    r.add(b[i], e[i], s[i]);
  }
  auto const f = input(k, b, e, s);
  for (auto const path : {group_by_path::by_sample, group_by_path::private_caches}) {
    CAPTURE(static_cast<int>(path));
    colx::test::forced_path const force(path);
    check(sums(f), want);
  }
}

TEST_CASE("group_by: a narrow decimal sum takes values up to the 64-bit limit and no further", "[frame]") {
  using money = colx::dec<18, 2>;
  using cell = colx::detail::group_cell<colx::expr::kinds::sum, money, true>;  // nullable: counted
  using partial = colx::detail::cell_partial<cell, money>;
  static_assert(sizeof(partial::type) == 16, "a 64-bit sum and a 32-bit count");
  constexpr std::int64_t top = std::numeric_limits<std::int64_t>::max();
  constexpr std::int64_t bottom = std::numeric_limits<std::int64_t>::min();
  partial::type p{top - 5, 3};
  CHECK(partial::fits(p, money{5}));
  CHECK_FALSE(partial::fits(p, money{6}));
  CHECK(partial::fits(p, money{-999999999999999999}));
  p = {bottom + 5, 3};
  CHECK(partial::fits(p, money{-5}));
  CHECK_FALSE(partial::fits(p, money{-6}));
  CHECK(partial::fits(p, money{999999999999999999}));
  p = {0, colx::detail::most_narrow_count};
  CHECK_FALSE(partial::fits(p, money{1}));  // its count would wrap
  p = {top - 5, 7};
  partial::add(p, money{5}, 0, 0);
  CHECK(p.total == top);
  CHECK(p.n == 8);
  auto const wide = partial::widen(p);
  CHECK(colx::detail::value_of_words(wide.total) == colx::int128_t{top});
  CHECK(wide.n == 8);
  p = {bottom, 1};
  CHECK(colx::detail::value_of_words(partial::widen(p).total) == colx::int128_t{bottom});
  // A cell of a wider decimal, or of a double, is its own private form.
  using wide_cell = colx::detail::group_cell<colx::expr::kinds::sum, colx::dec<20, 2>, false>;
  static_assert(std::is_same_v<colx::detail::cell_partial<wide_cell, colx::dec<20, 2>>::type, wide_cell::type>);
  using double_cell = colx::detail::group_cell<colx::expr::kinds::sum, double, false>;
  static_assert(std::is_same_v<colx::detail::cell_partial<double_cell, double>::type, double_cell::type>);
}

TEST_CASE("group_by: explain gives the private cells' bytes", "[frame]") {
  std::vector<std::int32_t> const k{1, 2, 1};
  std::vector<big> const b{big{1}, big{2}, big{3}};
  std::vector<std::optional<big>> const e{big{1}, std::nullopt, big{3}};
  std::vector<small> const s{small{1}, small{2}, small{3}};
  auto const f = input(k, b, e, s);
  auto const text = colx::explain(f | colx::group_by("k"_c), colx::aggregate(colx::sum("b"_c).as<"sb">(), colx::mean("e"_c).as<"me">(),
                                                                            colx::count().as<"c">()));
  CAPTURE(text);
  // The row count (8), a 16-byte sum, a 16-byte sum and its count (8): 48; privately 4 (8 with
  // padding), 8, and 8 and 4 (16): 32.
  CHECK(text.find("cells: 48 bytes a group") != std::string::npos);
  CHECK(text.find("(in narrow form, 32 bytes a group,") != std::string::npos);
}
