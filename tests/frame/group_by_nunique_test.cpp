// SPDX-License-Identifier: Apache-2.0
// nunique(e) inside aggregate(...), in the group-by's one pass, against std::map<key,
// std::set<value>> built by plain loops over the same rows: the distinct valid values of int64s,
// of doubles (every NaN one value, -0.0 the same as 0.0, as group-by keys) and of strings (the
// empty string a value, null none), beside sum and count; filtered or not, one key or two, few
// groups and many, at 0, 1, 1,000 and 100,003 rows. Also: a filter the sample does not see (the
// pair sets start far too small and grow on the rerun), dates, decimals and bools, the two-pass
// nunique(grouped, value) agreeing, and explain() naming the pair set.
#include "support/backend.hpp"

#include <colx/frame/distinct.hpp>

#include <catch2/catch.hpp>

#include <cmath>
#include <cstdint>
#include <limits>
#include <map>
#include <optional>
#include <random>
#include <set>
#include <string>
#include <utility>
#include <vector>

using namespace colx::literals;

namespace {
using colx::size_type;
template <class T>
using optionals = std::vector<std::optional<T>>;

using S = colx::schema<colx::field<"k", std::int32_t, colx::not_null>, colx::field<"g", colx::string_view>,
                       colx::field<"x", double, colx::not_null>, colx::field<"i", std::int64_t>, colx::field<"d", double>,
                       colx::field<"s", colx::string_view>, colx::field<"w", std::int32_t, colx::not_null>>;

struct rows {
  std::vector<std::int32_t> k;
  optionals<std::string> g;
  std::vector<double> x;
  optionals<std::int64_t> i;
  optionals<double> d;
  optionals<std::string> s;
  std::vector<std::int32_t> w;  // the row number
};

rows random_rows(std::size_t n, std::int32_t groups, std::uint64_t seed) {
  constexpr double nan = std::numeric_limits<double>::quiet_NaN();
  constexpr double doubles[] = {0.0, -0.0, nan, -nan, 1.5, -2.25, 1e300, std::numeric_limits<double>::infinity()};
  // Short strings (which may pack with the keys), one past 6 bytes, and the empty string.
  char const* words[] = {"", "a", "b", "h\xc3\xa9llo", "a longer string"};
  std::mt19937_64 rng(seed);
  rows r;
  for (std::size_t row = 0; row < n; ++row) {
    r.k.push_back(static_cast<std::int32_t>(rng() % static_cast<std::uint64_t>(groups)) - 1);
    r.g.push_back(rng() % 6 == 0 ? std::nullopt : std::optional<std::string>(words[1 + rng() % 2]));
    r.x.push_back(static_cast<double>(rng() % 100));  // small integers: every sum is exact
    r.i.push_back(rng() % 7 == 0 ? std::nullopt : std::optional<std::int64_t>(static_cast<std::int64_t>(rng() % 50) - 25));
    r.d.push_back(rng() % 5 == 0 ? std::nullopt : std::optional<double>(doubles[rng() % 8]));
    r.s.push_back(rng() % 4 == 0 ? std::nullopt : std::optional<std::string>(words[rng() % 5]));
    r.w.push_back(static_cast<std::int32_t>(row));
  }
  return r;
}

colx::frame<S> make_frame(rows const& r) {
  auto const mr = colx::test::backend_resource();
  return colx::frame<S>(colx::make_column<std::int32_t>(r.k, {}, mr), colx::make_strings_column(r.g, colx::type_id::int32, {}, mr),
                        colx::make_column<double>(r.x, {}, mr), colx::make_column<std::int64_t>(r.i, {}, mr),
                        colx::make_column<double>(r.d, {}, mr), colx::make_strings_column(r.s, colx::type_id::int32, {}, mr),
                        colx::make_column<std::int32_t>(r.w, {}, mr));
}

// A double as group-by keys see it, in a form std::set orders: every NaN alike, -0.0 as 0.0.
std::pair<bool, double> as_key(double v) { return std::isnan(v) ? std::pair(true, 0.0) : std::pair(false, v == 0.0 ? 0.0 : v); }

struct group_ref {
  double sum_x = 0;
  size_type rows = 0;
  std::set<std::int64_t> i;
  std::set<std::pair<bool, double>> d;
  std::set<std::string> s;
};

template <class Key, class KeyOf, class Keep>
std::map<Key, group_ref> reference(rows const& r, KeyOf const& key_of, Keep const& keep) {
  std::map<Key, group_ref> want;
  for (std::size_t row = 0; row < r.k.size(); ++row) {
    if (!keep(row)) { continue; }
    group_ref& g = want[key_of(row)];
    g.sum_x += r.x[row];
    ++g.rows;
    if (r.i[row]) { g.i.insert(*r.i[row]); }
    if (r.d[row]) { g.d.insert(as_key(*r.d[row])); }
    if (r.s[row]) { g.s.insert(*r.s[row]); }
  }
  return want;
}

template <class Source, class... Keys>
auto with_nunique(Source const& source, Keys const&... keys) {
  return source | colx::group_by(colx::group_by_options{.sorted = true}, keys...) |
         colx::aggregate(colx::sum("x"_c).as<"sum_x">(), colx::nunique("i"_c).as<"u_i">(), colx::count().as<"rows">(),
                         colx::nunique("d"_c).as<"u_d">(), colx::nunique("s"_c).as<"u_s">());
}

// Each output row's keys (key_at(row)) found once in `want`, with its sum, count and nunique.
template <class Out, class Key, class KeyAt>
void check(Out const& out, std::map<Key, group_ref> const& want, KeyAt const& key_at) {
  using schema_type = typename Out::schema_type;
  using u_field = typename colx::field_of<schema_type, colx::col<"u_s">>::type;
  static_assert(std::is_same_v<typename u_field::type, size_type> && !u_field::is_nullable, "nunique is a size_type, never null");
  REQUIRE(out.num_rows() == static_cast<size_type>(want.size()));
  auto const sum_x = colx::to_optional_vector(out["sum_x"_c].view());
  auto const count = colx::to_vector(out["rows"_c].view());
  auto const u_i = colx::to_vector(out["u_i"_c].view());
  auto const u_d = colx::to_vector(out["u_d"_c].view());
  auto const u_s = colx::to_vector(out["u_s"_c].view());
  std::set<Key> seen;
  for (std::size_t row = 0; row < count.size(); ++row) {
    CAPTURE(row);
    Key const key = key_at(row);
    auto const found = want.find(key);
    REQUIRE(found != want.end());
    CHECK(seen.insert(key).second);
    group_ref const& g = found->second;
    CHECK(sum_x[row] == std::optional<double>(g.sum_x));
    CHECK(count[row] == g.rows);
    CHECK(u_i[row] == static_cast<size_type>(g.i.size()));
    CHECK(u_d[row] == static_cast<size_type>(g.d.size()));
    CHECK(u_s[row] == static_cast<size_type>(g.s.size()));
  }
}
}  // namespace

TEST_CASE("group_by: nunique of ints, doubles and strings beside sum and count, few groups and many", "[frame]") {
  for (std::size_t const n : {std::size_t{0}, std::size_t{1}, std::size_t{1000}, std::size_t{100003}}) {
    for (bool const many : {false, true}) {
      auto const groups = many ? std::max<std::int32_t>(1, static_cast<std::int32_t>(n / 2)) : 3;
      CAPTURE(n, groups);
      auto const r = random_rows(n, groups, n * 3 + (many ? 1 : 0));
      auto const f = make_frame(r);
      auto const every = [](std::size_t) { return true; };
      auto const some = [&](std::size_t row) { return r.w[row] % 3 != 0; };
      auto const one_key = [&](std::size_t row) { return r.k[row]; };
      using pair_key = std::pair<std::int32_t, std::optional<std::string>>;
      auto const two_keys = [&](std::size_t row) { return pair_key(r.k[row], r.g[row]); };
      {
        INFO("one key");
        auto const out = with_nunique(f, "k"_c);
        auto const k = colx::to_vector(out["k"_c].view());
        check(out, reference<std::int32_t>(r, one_key, every), [&](std::size_t row) { return k[row]; });
        for (std::size_t row = 1; row < k.size(); ++row) { CHECK(k[row - 1] < k[row]); }  // sorted
      }
      {
        INFO("one key, filtered");
        auto const out = with_nunique(f | colx::filter("w"_c % 3 != 0), "k"_c);
        auto const k = colx::to_vector(out["k"_c].view());
        check(out, reference<std::int32_t>(r, one_key, some), [&](std::size_t row) { return k[row]; });
      }
      {
        INFO("two keys, one a nullable string, filtered or not");
        for (bool const filtered : {false, true}) {
          CAPTURE(filtered);
          auto const out = filtered ? with_nunique(f | colx::filter("w"_c % 3 != 0), "k"_c, "g"_c)
                                    : with_nunique(f | colx::filter(true), "k"_c, "g"_c);
          auto const k = colx::to_vector(out["k"_c].view());
          auto const g = colx::to_strings(out["g"_c].view());
          auto const want = filtered ? reference<pair_key>(r, two_keys, some) : reference<pair_key>(r, two_keys, every);
          check(out, want, [&](std::size_t row) { return pair_key(k[row], g[row]); });
        }
      }
      {
        INFO("nunique(grouped, value) agrees");
        auto const fused = f | colx::group_by(colx::group_by_options{.sorted = true}, "k"_c) |
                           colx::aggregate(colx::nunique("s"_c).as<"nunique">());
        auto const shorthand = colx::nunique(f | colx::group_by(colx::group_by_options{.sorted = true}, "k"_c), "s"_c);
        CHECK(colx::to_vector(fused["k"_c].view()) == colx::to_vector(shorthand["k"_c].view()));
        CHECK(colx::to_vector(fused["nunique"_c].view()) == colx::to_vector(shorthand["nunique"_c].view()));
      }
    }
  }
}

// Issue 15's report: with drop_null_keys, a group whose values are all null was lost by
// nunique(grouped, value), whose first pass grouped by (key, value) and so dropped null values.
TEST_CASE("group_by: nunique(grouped, value) keeps a group of null values with drop_null_keys", "[frame]") {
  auto const f = colx::make_frame(colx::values<"k", std::optional<std::int32_t>>({1, 1, 2, std::nullopt}),
                                  colx::values<"v", std::optional<std::int32_t>>({5, 6, std::nullopt, 7}));
  for (bool const drop : {false, true}) {
    CAPTURE(drop);
    auto const out = colx::nunique(f | colx::group_by(colx::group_by_options{.sorted = true, .drop_null_keys = drop}, "k"_c), "v"_c);
    auto const k = colx::to_optional_vector(out["k"_c].view());
    auto const u = colx::to_vector(out["nunique"_c].view());
    if (drop) {
      CHECK(k == std::vector<std::optional<std::int32_t>>{1, 2});
      CHECK(u == std::vector<colx::size_type>{2, 0});
    } else {  // the null key is a group of its own, sorted last
      CHECK(k == std::vector<std::optional<std::int32_t>>{1, 2, std::nullopt});
      CHECK(u == std::vector<colx::size_type>{2, 0, 1});
    }
  }
}

TEST_CASE("group_by: nunique's pair sets grow when the sample sees none of the kept rows", "[frame]") {
  // The sample reads the first 65,536 rows of 100,003; the filter keeps only later ones. The
  // table and the pair sets are sized for one kept row, and every kept row is a pair of its own.
  std::size_t const n = 100003;
  auto const late = [](std::size_t row) { return row >= 70000; };
  for (bool const many : {false, true}) {
    CAPTURE(many);
    // Few groups: only the pair sets overflow. Many (two rows a group): the table as well.
    auto r = random_rows(n, 3, 11);
    for (std::size_t row = 0; row < n; ++row) {
      r.i[row] = static_cast<std::int64_t>(row);
      if (many) { r.k[row] = static_cast<std::int32_t>(row / 2); }
    }
    auto const f = make_frame(r);
    auto const out = with_nunique(f | colx::filter("w"_c >= 70000), "k"_c);
    auto const k = colx::to_vector(out["k"_c].view());
    check(out, reference<std::int32_t>(r, [&](std::size_t row) { return r.k[row]; }, late), [&](std::size_t row) { return k[row]; });
  }
}

TEST_CASE("group_by: nunique of dates, decimals and bools", "[frame]") {
  using F = colx::schema<colx::field<"k", std::int32_t, colx::not_null>, colx::field<"t", colx::date32>,
                         colx::field<"m", colx::decimal64>, colx::field<"b", bool>>;
  for (std::size_t const n : {std::size_t{0}, std::size_t{1}, std::size_t{1000}, std::size_t{100003}}) {
    CAPTURE(n);
    std::mt19937_64 rng(n + 29);
    std::vector<std::int32_t> k;
    optionals<colx::date32> t;
    optionals<colx::decimal64> m;
    optionals<bool> b;
    for (std::size_t row = 0; row < n; ++row) {
      k.push_back(static_cast<std::int32_t>(rng() % 5));
      t.push_back(rng() % 6 == 0 ? std::nullopt : std::optional<colx::date32>(colx::date32(static_cast<std::int32_t>(rng() % 40) - 20)));
      m.push_back(rng() % 7 == 0 ? std::nullopt : std::optional<colx::decimal64>(colx::decimal64{static_cast<std::int64_t>(rng() % 9) - 4}));
      b.push_back(rng() % 5 == 0 ? std::nullopt : std::optional<bool>(rng() % 2 == 0));
    }
    auto const mr = colx::test::backend_resource();
    colx::frame<F> const f(colx::make_column<std::int32_t>(k, {}, mr), colx::make_column<colx::date32>(t, {}, mr),
                           colx::make_decimal_column<std::int64_t>(m, -2, {}, mr), colx::make_column<bool>(b, {}, mr));
    std::map<std::int32_t, std::set<std::int32_t>> want_t;
    std::map<std::int32_t, std::set<std::int64_t>> want_m;
    std::map<std::int32_t, std::set<bool>> want_b;
    for (std::size_t row = 0; row < n; ++row) {
      auto& wt = want_t[k[row]];
      auto& wm = want_m[k[row]];
      auto& wb = want_b[k[row]];
      if (t[row]) { wt.insert(t[row]->ticks); }
      if (m[row]) { wm.insert(m[row]->unscaled); }
      if (b[row]) { wb.insert(*b[row]); }
    }
    auto const out = f | colx::group_by(colx::group_by_options{.sorted = true}, "k"_c) |
                     colx::aggregate(colx::nunique("t"_c).as<"u_t">(), colx::nunique("m"_c).as<"u_m">(),
                                     colx::nunique("b"_c).as<"u_b">());
    REQUIRE(out.num_rows() == static_cast<size_type>(want_t.size()));
    auto const keys = colx::to_vector(out["k"_c].view());
    auto const u_t = colx::to_vector(out["u_t"_c].view());
    auto const u_m = colx::to_vector(out["u_m"_c].view());
    auto const u_b = colx::to_vector(out["u_b"_c].view());
    for (std::size_t row = 0; row < keys.size(); ++row) {
      CAPTURE(row, keys[row]);
      CHECK(u_t[row] == static_cast<size_type>(want_t.at(keys[row]).size()));
      CHECK(u_m[row] == static_cast<size_type>(want_m.at(keys[row]).size()));
      CHECK(u_b[row] == static_cast<size_type>(want_b.at(keys[row]).size()));
    }
  }
}

TEST_CASE("group_by: explain names nunique's set of (group, value) pairs", "[frame]") {
  auto const f = make_frame(random_rows(1000, 3, 5));
  auto const one = colx::explain(f | colx::group_by("k"_c), colx::aggregate(colx::nunique("s"_c).as<"u">()));
  CAPTURE(one);
  CHECK(one.find("nunique: a set of (group, value) pairs of 2048 slots") != std::string::npos);
  auto const two = colx::explain(f | colx::group_by("k"_c),
                                 colx::aggregate(colx::nunique("s"_c).as<"u">(), colx::nunique("i"_c).as<"v">()));
  CAPTURE(two);
  CHECK(two.find("nunique: 2 sets") != std::string::npos);
  auto const none = colx::explain(f | colx::group_by("k"_c), colx::aggregate(colx::count().as<"n">()));
  CHECK(none.find("nunique") == std::string::npos);
}
