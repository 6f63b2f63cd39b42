// SPDX-License-Identifier: Apache-2.0
// group_by + aggregate on the backend under test, against a std::map of each group's rows built
// here: every aggregation (sum, min, max, count(), count(e), count_valid(e), mean, var, std, any,
// all, argmin, argmax, first, last) over nullable keys and values; one key and two (int and
// string); named key expressions; drop_null_keys; sorted output; a filter in front (Kleene: a null
// predicate drops the row); empty input, one row, every row filtered out; few groups (3) and many
// (about n/2, and a skewed mix of 5 heavy keys and unique ones) at sizes that use the sampled
// table size and, for the skewed mix, the rerun with a larger table; NaN, dates and narrow
// integers in min/max. Integer results must be exact; floating-point ones within a bound.
#include "support/backend.hpp"
#include "support/rows.hpp"

#include <colx/frame/group_by.hpp>

#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <map>
#include <optional>
#include <random>
#include <sstream>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

using namespace colx::literals;

namespace {

using colx::size_type;
using colx::test::backend_resource;

template <class T>
using optionals = std::vector<std::optional<T>>;

constexpr double unit_roundoff = 0x1p-53;

// k: the key; s: a string (second key, and first/last); v, i: values; b: any/all; w: the row
// number, for filters.
using G = colx::schema<colx::field<"k", std::int32_t>, colx::field<"s", colx::string_view>, colx::field<"v", double>,
                       colx::field<"i", std::int64_t>, colx::field<"b", bool>, colx::field<"w", std::int32_t, colx::not_null>>;

struct rows {
  optionals<std::int32_t> k;
  optionals<std::string> s;
  optionals<double> v;
  optionals<std::int64_t> i;
  optionals<bool> b;
  std::vector<std::int32_t> w;
  [[nodiscard]] std::size_t size() const { return w.size(); }
};

// few: 3 keys; many: about n/2; skewed: 90% of rows in 5 keys, the rest unique; few_then_many:
// 3 keys in the first 99% of the rows, unique keys after (a sample of the leading rows sees few
// groups: the table is sized for them and must grow, and a GPU few-groups path must not lose the
// groups that do not fit its per-block table).
enum class keys_are { few, many, skewed, few_then_many };

rows random_rows(std::size_t n, keys_are dist, std::uint64_t seed) {
  std::mt19937_64 gen(seed);
  auto const chance = [&](double p) { return std::bernoulli_distribution(p)(gen); };
  rows r;
  for (std::size_t row = 0; row < n; ++row) {
    std::int32_t key = 0;
    switch (dist) {
      case keys_are::few: key = static_cast<std::int32_t>(gen() % 3); break;
      case keys_are::many: key = static_cast<std::int32_t>(gen() % std::max<std::size_t>(1, n / 2)); break;
      case keys_are::skewed:  // 90% of rows in 5 keys, the rest unique
        key = chance(0.9) ? static_cast<std::int32_t>(gen() % 5) : static_cast<std::int32_t>(10 + row);
        break;
      case keys_are::few_then_many:
        key = row < n - n / 100 ? static_cast<std::int32_t>(gen() % 3) : static_cast<std::int32_t>(10 + row);
        break;
    }
    r.k.push_back(chance(0.05) ? std::nullopt : std::optional<std::int32_t>(key));
    // append, not "s" + ...: g++ 12 at -O3 warns falsely (-Wstringop-overflow) about that operator+.
    r.s.push_back(chance(0.2) ? std::nullopt : std::optional<std::string>(std::string("s").append(std::to_string(gen() % 97))));
    r.v.push_back(chance(0.2) ? std::nullopt : std::optional<double>(std::uniform_real_distribution<double>(-100.0, 1000.0)(gen)));
    // A narrow range: argmin has ties to break (the first row wins).
    r.i.push_back(chance(0.2) ? std::nullopt : std::optional<std::int64_t>(static_cast<std::int64_t>(gen() % 2001) - 1000));
    r.b.push_back(chance(0.3) ? std::nullopt : std::optional<bool>(gen() % 8 != 0));
    r.w.push_back(static_cast<std::int32_t>(row));
  }
  return r;
}

colx::frame<G> make_frame(rows const& r) {
  auto const mr = backend_resource();
  return colx::frame<G>(colx::make_column<std::int32_t>(r.k, {}, mr), colx::make_strings_column(r.s, colx::type_id::int32, {}, mr),
                        colx::make_column<double>(r.v, {}, mr), colx::make_column<std::int64_t>(r.i, {}, mr),
                        colx::make_column<bool>(r.b, {}, mr), colx::make_column<std::int32_t>(r.w, {}, mr));
}

using colx::test::read;

// Collects mismatches (a CHECK per value would be millions of assertions) and reports the first.
struct mismatches {
  std::size_t count = 0;
  std::vector<std::string> first;

  template <class... Parts>
  void add(Parts const&... parts) {
    ++count;
    if (first.size() < 10) {
      std::ostringstream out;
      (out << ... << parts);
      first.push_back(out.str());
    }
  }
  template <class T>
  static std::string show(std::optional<T> const& v) {
    if (!v) { return "null"; }
    std::ostringstream out;
    if constexpr (std::is_same_v<T, bool>) {
      out << (*v ? "true" : "false");
    } else if constexpr (std::is_same_v<T, colx::date32>) {
      out << "date32(" << v->ticks << ")";
    } else if constexpr (sizeof(T) == 1) {
      out << static_cast<int>(*v);
    } else {
      out.precision(17);
      out << *v;
    }
    return out.str();
  }
  template <class T>
  void exact(char const* what, std::size_t group, std::optional<T> const& got, std::optional<T> const& want) {
    if (got != want) { add(what, " of group ", group, ": got ", show(got), ", want ", show(want)); }
  }
  void close(char const* what, std::size_t group, std::optional<double> const& got, std::optional<long double> const& want,
             double tolerance) {
    if (got.has_value() != want.has_value() ||
        (got && !(std::fabs(*got - static_cast<double>(*want)) <= tolerance))) {
      add(what, " of group ", group, ": got ", show(got), ", want ",
          want ? show(std::optional<double>(static_cast<double>(*want))) : std::string("null"), " (tolerance ", tolerance, ")");
    }
  }
  void report() const {
    for (auto const& m : first) { UNSCOPED_INFO(m); }
    CHECK(count == 0);
  }
};

// ---- the reference: each group's rows, and what the aggregations of them are ----------------------

struct expected {
  size_type row_count = 0;
  std::optional<std::int64_t> sum_i, min_i, max_i, first_i;
  long double sum_v = 0, abs_v = 0, sum_i_ld = 0;
  size_type valid_v = 0, valid_i = 0;
  std::optional<double> min_v, max_v, last_v;
  std::optional<size_type> argmin_i, argmax_v;
  bool any_b = false, all_b = true;
  std::optional<std::string> first_s, last_s, min_s, max_s;
  long double m2_v = 0;

  expected(rows const& r, std::vector<std::size_t> const& members) {
    row_count = static_cast<size_type>(members.size());
    for (auto const m : members) {
      if (auto const i = r.i[m]) {
        sum_i = sum_i.value_or(0) + *i;
        sum_i_ld += static_cast<long double>(*i);
        ++valid_i;
        if (!min_i || *i < *min_i) {
          min_i = *i;
          argmin_i = static_cast<size_type>(m);
        }
        if (!max_i || *i > *max_i) { max_i = *i; }
        if (!first_i) { first_i = *i; }
      }
      if (auto const v = r.v[m]) {
        ++valid_v;
        sum_v += *v;
        abs_v += std::fabs(*v);
        if (!min_v || *v < *min_v) { min_v = *v; }
        if (!max_v || *v > *max_v) {
          max_v = *v;
          argmax_v = static_cast<size_type>(m);
        }
        last_v = *v;
      }
      if (auto const b = r.b[m]) {
        any_b = any_b || *b;
        all_b = all_b && *b;
      }
      if (auto const& s = r.s[m]) {
        if (!first_s) { first_s = *s; }
        last_s = *s;
        if (!min_s || *s < *min_s) { min_s = *s; }  // byte order, which is code-point order
        if (!max_s || *s > *max_s) { max_s = *s; }
      }
    }
    if (valid_v > 0) {
      long double const mean = sum_v / static_cast<long double>(valid_v);
      for (auto const m : members) {
        if (r.v[m]) { m2_v += (*r.v[m] - mean) * (*r.v[m] - mean); }
      }
    }
  }
  [[nodiscard]] std::optional<long double> mean_v() const {
    return valid_v > 0 ? std::optional<long double>(sum_v / static_cast<long double>(valid_v)) : std::nullopt;
  }
  [[nodiscard]] std::optional<long double> var_v() const {
    return valid_v > 1 ? std::optional<long double>(m2_v / static_cast<long double>(valid_v - 1)) : std::nullopt;
  }
  [[nodiscard]] std::optional<long double> std_v() const {
    auto const v = var_v();
    return v ? std::optional<long double>(std::sqrt(*v)) : std::nullopt;
  }
  [[nodiscard]] std::optional<long double> mean_i() const {
    return valid_i > 0 ? std::optional<long double>(sum_i_ld / static_cast<long double>(valid_i)) : std::nullopt;
  }
  [[nodiscard]] double sum_tolerance() const { return 4.0 * static_cast<double>(valid_v) * unit_roundoff * static_cast<double>(abs_v); }
  [[nodiscard]] double var_tolerance() const {
    auto const v = var_v();
    return v ? 1e-9 * static_cast<double>(*v) + 1e-9 : 0.0;
  }
};

// Rows kept by `f | filter(("w"_c % 4 != 1) && ("i"_c > threshold))`: null i makes the predicate
// null or false, and the row goes.
bool kept_by_filter(rows const& r, std::size_t m, std::int64_t threshold) {
  if (r.w[m] % 4 == 1) { return false; }
  return r.i[m].has_value() && *r.i[m] > threshold;
}
auto filter_of(std::int64_t threshold) { return colx::filter(("w"_c % 4 != 1) && ("i"_c > threshold)); }

// The one aggregation list of the broad tests, for a frame or a filtered frame.
template <class Source>
auto aggregate_all(Source const& source, colx::group_by_options options) {
  return source | colx::group_by(options, "k"_c) |
         colx::aggregate(colx::sum("i"_c).as<"sum_i">(), colx::sum("v"_c).as<"sum_v">(), colx::min("i"_c).as<"min_i">(),
                         colx::max("i"_c).as<"max_i">(), colx::min("v"_c).as<"min_v">(), colx::max("v"_c).as<"max_v">(),
                         colx::count().as<"n">(), colx::count("v"_c).as<"n_v">(), colx::count_valid("v"_c).as<"valid_v">(),
                         colx::mean("v"_c).as<"mean_v">(), colx::var("v"_c).as<"var_v">(), colx::std("v"_c).as<"std_v">(),
                         colx::mean("i"_c).as<"mean_i">(), colx::any("b"_c).as<"any_b">(), colx::all("b"_c).as<"all_b">(),
                         colx::argmin("i"_c).as<"argmin_i">(), colx::argmax("v"_c).as<"argmax_v">(),
                         colx::first("s"_c).as<"first_s">(), colx::last("s"_c).as<"last_s">(),
                         colx::min("s"_c).as<"min_s">(), colx::max("s"_c).as<"max_s">(), colx::first("i"_c).as<"first_i">(), colx::last("v"_c).as<"last_v">());
}

// Null keys after every value (the sorted order).
template <class K>
bool key_less(std::optional<K> const& a, std::optional<K> const& b) {
  if (!a || !b) { return a.has_value() && !b.has_value(); }
  return *a < *b;
}

// The output of aggregate_all against the groups of the rows `keep` keeps.
template <class Out, class Keep>
void check_all(Out const& out, rows const& r, colx::group_by_options options, Keep keep) {
  std::map<std::optional<std::int32_t>, std::vector<std::size_t>> groups;
  for (std::size_t m = 0; m < r.size(); ++m) {
    if (!keep(m)) { continue; }
    if (options.drop_null_keys && !r.k[m]) { continue; }
    groups[r.k[m]].push_back(m);
  }
  REQUIRE(out.num_rows() == static_cast<size_type>(groups.size()));
  auto const key = read(out["k"_c]);
  auto const sum_i = read(out["sum_i"_c]);
  auto const sum_v = read(out["sum_v"_c]);
  auto const min_i = read(out["min_i"_c]);
  auto const max_i = read(out["max_i"_c]);
  auto const min_v = read(out["min_v"_c]);
  auto const max_v = read(out["max_v"_c]);
  auto const n = read(out["n"_c]);
  auto const n_v = read(out["n_v"_c]);
  auto const valid_v = read(out["valid_v"_c]);
  auto const mean_v = read(out["mean_v"_c]);
  auto const var_v = read(out["var_v"_c]);
  auto const std_v = read(out["std_v"_c]);
  auto const mean_i = read(out["mean_i"_c]);
  auto const any_b = read(out["any_b"_c]);
  auto const all_b = read(out["all_b"_c]);
  auto const argmin_i = read(out["argmin_i"_c]);
  auto const argmax_v = read(out["argmax_v"_c]);
  auto const first_s = read(out["first_s"_c]);
  auto const last_s = read(out["last_s"_c]);
  auto const min_s = read(out["min_s"_c]);
  auto const max_s = read(out["max_s"_c]);
  auto const first_i = read(out["first_i"_c]);
  auto const last_v = read(out["last_v"_c]);
  // Counts, any and all are never null.
  CHECK(out["n"_c].null_count() == 0);
  CHECK(out["n_v"_c].null_count() == 0);
  CHECK(out["valid_v"_c].null_count() == 0);
  CHECK(out["any_b"_c].null_count() == 0);
  CHECK(out["all_b"_c].null_count() == 0);

  mismatches bad;
  std::map<std::optional<std::int32_t>, std::size_t> seen;
  for (std::size_t g = 0; g < key.size(); ++g) {
    if (!seen.emplace(key[g], g).second) {
      bad.add("key ", mismatches::show(key[g]), " is in output rows ", seen[key[g]], " and ", g);
      continue;
    }
    if (options.sorted && g > 0 && !key_less(key[g - 1], key[g])) {
      bad.add("sorted output: key ", mismatches::show(key[g - 1]), " before ", mismatches::show(key[g]));
    }
    auto const found = groups.find(key[g]);
    if (found == groups.end()) {
      bad.add("key ", mismatches::show(key[g]), " is not a group of the input");
      continue;
    }
    expected const e(r, found->second);
    bad.exact("n", g, n[g], std::optional<size_type>(e.row_count));
    bad.exact("n_v", g, n_v[g], std::optional<size_type>(e.valid_v));  // count(e): valid values, as SQL
    bad.exact("valid_v", g, valid_v[g], std::optional<size_type>(e.valid_v));
    bad.exact("sum_i", g, sum_i[g], e.sum_i);
    bad.exact("min_i", g, min_i[g], e.min_i);
    bad.exact("max_i", g, max_i[g], e.max_i);
    bad.exact("min_v", g, min_v[g], e.min_v);
    bad.exact("max_v", g, max_v[g], e.max_v);
    bad.close("sum_v", g, sum_v[g], e.valid_v > 0 ? std::optional<long double>(e.sum_v) : std::nullopt, e.sum_tolerance());
    bad.close("mean_v", g, mean_v[g], e.mean_v(),
              e.valid_v > 0 ? e.sum_tolerance() / static_cast<double>(e.valid_v) + 1e-12 : 0.0);
    bad.close("var_v", g, var_v[g], e.var_v(), e.var_tolerance());
    bad.close("std_v", g, std_v[g], e.std_v(), e.var_v() ? std::sqrt(e.var_tolerance()) + 1e-9 * static_cast<double>(*e.std_v()) : 0.0);
    bad.close("mean_i", g, mean_i[g], e.mean_i(), 1e-12 * 1000);
    bad.exact("any_b", g, any_b[g], std::optional<bool>(e.any_b));
    bad.exact("all_b", g, all_b[g], std::optional<bool>(e.all_b));
    bad.exact("argmin_i", g, argmin_i[g], e.argmin_i);
    bad.exact("argmax_v", g, argmax_v[g], e.argmax_v);
    if (first_s[g] != e.first_s) { bad.add("first_s of group ", g, " differs"); }
    if (last_s[g] != e.last_s) { bad.add("last_s of group ", g, " differs"); }
    if (min_s[g] != e.min_s) { bad.add("min_s of group ", g, " differs"); }
    if (max_s[g] != e.max_s) { bad.add("max_s of group ", g, " differs"); }
    bad.exact("first_i", g, first_i[g], e.first_i);
    bad.exact("last_v", g, last_v[g], e.last_v);
  }
  bad.report();
}

}  // namespace

// ---------------------------------------------------------------------------------------------------

TEST_CASE("group_by: every aggregation against a map, few and many groups, filtered, sorted", "[frame]") {
  struct run_case {
    std::size_t n;
    keys_are dist;
  };
  // The table size is estimated from a sample of at most 2^16 rows (every row of a smaller
  // input, else rows drawn at random): few_then_many at 300000 rows makes that estimate too small
  // (the sample sees about a fifth of the 3,000 unique keys at the end), and the pass reruns with
  // larger tables. (Larger inputs cost more than they test in the sanitizer build.)
  std::vector<run_case> const cases{{0, keys_are::few},         {1, keys_are::few},          {2, keys_are::many},
                                    {33, keys_are::few},        {33, keys_are::many},        {1000, keys_are::few},
                                    {1000, keys_are::many},     {1000, keys_are::skewed},    {1000, keys_are::few_then_many},
                                    {100000, keys_are::few},    {100000, keys_are::many},    {100000, keys_are::skewed},
                                    {100000, keys_are::few_then_many}, {300000, keys_are::few},
                                    {300000, keys_are::few_then_many}};
  for (auto const& c : cases) {
    CAPTURE(c.n, static_cast<int>(c.dist));
    auto const r = random_rows(c.n, c.dist, 1000 * c.n + static_cast<std::size_t>(c.dist));
    auto const f = make_frame(r);
    auto const all = [](std::size_t) { return true; };
    {
      INFO("unsorted, null keys a group");
      colx::group_by_options const o{};
      check_all(aggregate_all(f, o), r, o, all);
    }
    // The other variants at smaller sizes only (a sanitizer build pays for every row).
    if (c.n <= 1000) {
      INFO("sorted, null keys dropped");
      colx::group_by_options const o{.sorted = true, .drop_null_keys = true};
      check_all(aggregate_all(f, o), r, o, all);
    }
    if (c.n <= 100000) {
      INFO("filtered, sorted");
      colx::group_by_options const o{.sorted = true};
      check_all(aggregate_all(f | filter_of(-500), o), r, o, [&](std::size_t m) { return kept_by_filter(r, m, -500); });
    }
    if (c.n <= 1000) {
      INFO("filtered, unsorted, null keys dropped");
      colx::group_by_options const o{.drop_null_keys = true};
      check_all(aggregate_all(f | filter_of(0), o), r, o, [&](std::size_t m) { return kept_by_filter(r, m, 0); });
      INFO("every row filtered out");
      auto const none = aggregate_all(f | filter_of(1000000), colx::group_by_options{});
      CHECK(none.num_rows() == 0);
    }
  }
}

TEST_CASE("group_by: two keys, an int and a string, sorted and not", "[frame]") {
  for (std::size_t const n : {std::size_t{0}, std::size_t{1}, std::size_t{1000}, std::size_t{100000}}) {
    CAPTURE(n);
    auto const r = random_rows(n, keys_are::few, 77 + n);
    auto const f = make_frame(r);
    using key_t = std::pair<std::optional<std::int32_t>, std::optional<std::string>>;
    for (bool const sorted : {false, true}) {
      for (bool const drop : {false, true}) {
        CAPTURE(sorted, drop);
        colx::group_by_options const o{.sorted = sorted, .drop_null_keys = drop};
        auto const out = f | colx::group_by(o, "k"_c, "s"_c) |
                         colx::aggregate(colx::count().as<"n">(), colx::sum("i"_c).as<"sum_i">(), colx::min("v"_c).as<"min_v">(),
                                         colx::first("b"_c).as<"first_b">(), colx::last("w"_c).as<"last_w">());
        std::map<key_t, std::vector<std::size_t>> groups;
        for (std::size_t m = 0; m < n; ++m) {
          if (drop && (!r.k[m] || !r.s[m])) { continue; }
          groups[{r.k[m], r.s[m]}].push_back(m);
        }
        REQUIRE(out.num_rows() == static_cast<size_type>(groups.size()));
        auto const k = read(out["k"_c]);
        auto const s = read(out["s"_c]);
        auto const cnt = read(out["n"_c]);
        auto const sum_i = read(out["sum_i"_c]);
        auto const min_v = read(out["min_v"_c]);
        auto const first_b = read(out["first_b"_c]);
        auto const last_w = read(out["last_w"_c]);
        CHECK(out["last_w"_c].null_count() == 0);
        mismatches bad;
        std::map<key_t, std::size_t> seen;
        for (std::size_t g = 0; g < k.size(); ++g) {
          key_t const key{k[g], s[g]};
          if (!seen.emplace(key, g).second) { bad.add("group ", g, " repeats a key"); }
          if (sorted && g > 0) {
            key_t const prev{k[g - 1], s[g - 1]};
            bool const ordered = key_less(prev.first, key.first) || (prev.first == key.first && key_less(prev.second, key.second));
            if (!ordered) { bad.add("sorted output: group ", g - 1, " is not before group ", g); }
          }
          auto const found = groups.find(key);
          if (found == groups.end()) {
            bad.add("group ", g, " is not a group of the input");
            continue;
          }
          expected const e(r, found->second);
          std::optional<bool> want_first_b;
          for (auto const m : found->second) {
            if (r.b[m]) {
              want_first_b = r.b[m];
              break;
            }
          }
          bad.exact("n", g, cnt[g], std::optional<size_type>(e.row_count));
          bad.exact("sum_i", g, sum_i[g], e.sum_i);
          bad.exact("min_v", g, min_v[g], e.min_v);
          bad.exact("first_b", g, first_b[g], want_first_b);
          bad.exact("last_w", g, last_w[g], std::optional<std::int32_t>(r.w[found->second.back()]));
        }
        bad.report();
      }
    }
  }
}

TEST_CASE("group_by: a named key expression", "[frame]") {
  for (std::size_t const n : {std::size_t{0}, std::size_t{1}, std::size_t{1000}, std::size_t{100000}}) {
    CAPTURE(n);
    auto const r = random_rows(n, keys_are::many, 91 + n);
    auto const f = make_frame(r);
    for (bool const drop : {false, true}) {
      CAPTURE(drop);
      colx::group_by_options const o{.sorted = true, .drop_null_keys = drop};
      // i % 7 in C++'s terms: -6 to 6, null where i is null.
      auto const out = f | colx::group_by(o, ("i"_c % 7).as<"m">()) |
                       colx::aggregate(colx::count().as<"n">(), colx::sum("v"_c).as<"sv">(), colx::min("k"_c).as<"mk">());
      std::map<std::optional<std::int64_t>, std::vector<std::size_t>> groups;
      for (std::size_t m = 0; m < n; ++m) {
        std::optional<std::int64_t> const key = r.i[m] ? std::optional<std::int64_t>(*r.i[m] % 7) : std::nullopt;
        if (drop && !key) { continue; }
        groups[key].push_back(m);
      }
      REQUIRE(out.num_rows() == static_cast<size_type>(groups.size()));
      auto const key = read(out["m"_c]);
      auto const cnt = read(out["n"_c]);
      auto const sv = read(out["sv"_c]);
      auto const mk = read(out["mk"_c]);
      // Sorted: the keys in order, nulls last.
      std::vector<std::optional<std::int64_t>> want_keys;
      for (auto const& [k, members] : groups) {
        if (k) { want_keys.push_back(k); }
      }
      if (groups.count(std::nullopt) != 0) { want_keys.push_back(std::nullopt); }
      CHECK(key == want_keys);
      mismatches bad;
      for (std::size_t g = 0; g < key.size() && g < want_keys.size(); ++g) {
        auto const found = groups.find(key[g]);
        if (found == groups.end()) {
          bad.add("key ", mismatches::show(key[g]), " is not a group of the input");
          continue;
        }
        auto const& members = found->second;
        expected const e(r, members);
        std::optional<std::int32_t> want_mk;
        for (auto const m : members) {
          if (r.k[m] && (!want_mk || *r.k[m] < *want_mk)) { want_mk = r.k[m]; }
        }
        bad.exact("n", g, cnt[g], std::optional<size_type>(e.row_count));
        bad.close("sv", g, sv[g], e.valid_v > 0 ? std::optional<long double>(e.sum_v) : std::nullopt, e.sum_tolerance());
        bad.exact("mk", g, mk[g], want_mk);
      }
      bad.report();
    }
  }
}

TEST_CASE("group_by: NaN, signed zeros, dates and narrow integers", "[frame]") {
  constexpr double nan = std::numeric_limits<double>::quiet_NaN();
  using S = colx::schema<colx::field<"k", std::int32_t>, colx::field<"x", double>, colx::field<"d", colx::date32>,
                         colx::field<"c", std::int8_t>>;
  // Group 1: NaN and numbers; group 2: NaN only; group 3: nulls only; group 4: -0.0 and 0.0.
  optionals<std::int32_t> const k{{1}, {1}, {1}, {1}, {1}, {2}, {2}, {3}, {3}, {4}, {4}};
  optionals<double> const x{{nan}, {3.0}, std::nullopt, {nan}, {-2.0}, {nan}, {nan}, std::nullopt, std::nullopt, {-0.0}, {0.0}};
  optionals<colx::date32> const d{{colx::date(2024, 2, 29)}, {colx::date(1969, 7, 20)}, std::nullopt, {colx::date(1999, 1, 1)},
                                  {colx::date(1970, 1, 1)}, std::nullopt, {colx::date(2000, 1, 1)}, std::nullopt, std::nullopt,
                                  {colx::date(1900, 1, 1)}, {colx::date(2100, 12, 31)}};
  optionals<std::int8_t> const c{{-128}, {127}, {-128}, std::nullopt, {5}, {-1}, {-1}, std::nullopt, {0}, {127}, {127}};
  auto const mr = backend_resource();
  colx::frame<S> const f(colx::make_column<std::int32_t>(k, {}, mr), colx::make_column<double>(x, {}, mr),
                         colx::make_column<colx::date32>(d, {}, mr), colx::make_column<std::int8_t>(c, {}, mr));
  auto const out = f | colx::group_by(colx::group_by_options{.sorted = true}, "k"_c) |
                   colx::aggregate(colx::min("x"_c).as<"min_x">(), colx::max("x"_c).as<"max_x">(), colx::argmin("x"_c).as<"amin">(),
                                   colx::argmax("x"_c).as<"amax">(), colx::sum("x"_c).as<"sum_x">(),
                                   colx::count_valid("x"_c).as<"valid">(), colx::min("d"_c).as<"min_d">(),
                                   colx::max("d"_c).as<"max_d">(), colx::min("c"_c).as<"min_c">(), colx::max("c"_c).as<"max_c">(),
                                   colx::sum("c"_c).as<"sum_c">(), colx::mean("c"_c).as<"mean_c">());
  STATIC_REQUIRE(std::is_same_v<std::remove_cvref_t<decltype(out["sum_c"_c])>, colx::column<std::int64_t>>);
  STATIC_REQUIRE(std::is_same_v<std::remove_cvref_t<decltype(out["min_c"_c])>, colx::column<std::int8_t>>);
  STATIC_REQUIRE(std::is_same_v<std::remove_cvref_t<decltype(out["min_d"_c])>, colx::column<colx::date32>>);
  REQUIRE(out.num_rows() == 4);
  CHECK(read(out["k"_c]) == optionals<std::int32_t>{{1}, {2}, {3}, {4}});
  auto const min_x = read(out["min_x"_c]);
  auto const max_x = read(out["max_x"_c]);
  REQUIRE(min_x[0]);
  REQUIRE(min_x[1]);
  CHECK(*min_x[0] == -2.0);  // NaN loses to any number
  CHECK(max_x[0] == std::optional<double>(3.0));
  CHECK(std::isnan(*min_x[1]));  // ... and wins when there is nothing else
  REQUIRE(max_x[1]);
  CHECK(std::isnan(*max_x[1]));
  CHECK_FALSE(min_x[2]);
  CHECK_FALSE(max_x[2]);
  REQUIRE(min_x[3]);
  CHECK(*min_x[3] == 0.0);
  CHECK(read(out["amin"_c]) == optionals<size_type>{{4}, {5}, std::nullopt, {9}});
  CHECK(read(out["amax"_c]) == optionals<size_type>{{1}, {5}, std::nullopt, {9}});  // ties: the first row
  auto const sum_x = read(out["sum_x"_c]);
  REQUIRE(sum_x[0]);
  CHECK(std::isnan(*sum_x[0]));
  CHECK_FALSE(sum_x[2]);
  CHECK(sum_x[3] == std::optional<double>(0.0));
  CHECK(read(out["valid"_c]) == optionals<size_type>{{4}, {2}, {0}, {2}});
  CHECK(read(out["min_d"_c]) ==
        optionals<colx::date32>{{colx::date(1969, 7, 20)}, {colx::date(2000, 1, 1)}, std::nullopt, {colx::date(1900, 1, 1)}});
  CHECK(read(out["max_d"_c]) ==
        optionals<colx::date32>{{colx::date(2024, 2, 29)}, {colx::date(2000, 1, 1)}, std::nullopt, {colx::date(2100, 12, 31)}});
  CHECK(read(out["min_c"_c]) == optionals<std::int8_t>{{-128}, {-1}, {0}, {127}});
  CHECK(read(out["max_c"_c]) == optionals<std::int8_t>{{127}, {-1}, {0}, {127}});
  CHECK(read(out["sum_c"_c]) == optionals<std::int64_t>{{-124}, {-2}, {0}, {254}});  // no int8 overflow
  auto const mean_c = read(out["mean_c"_c]);
  REQUIRE(mean_c[0]);
  CHECK(*mean_c[0] == Approx(-124.0 / 4));

  // A double key: NaN is one group, and -0.0 and 0.0 are one group.
  using D = colx::schema<colx::field<"x", double>, colx::field<"k", std::int32_t>>;
  colx::frame<D> const g(colx::make_column<double>(x, {}, mr), colx::make_column<std::int32_t>(k, {}, mr));
  auto const by_x = g | colx::group_by(colx::group_by_options{.sorted = true}, "x"_c) |
                    colx::aggregate(colx::count().as<"n">(), colx::sum("k"_c).as<"sum_k">());
  auto const keys = read(by_x["x"_c]);
  REQUIRE(keys.size() == 5);  // -2, 0, 3, NaN, then null (nulls last, NaN after the numbers)
  CHECK(keys[0] == std::optional<double>(-2.0));
  CHECK(keys[1] == std::optional<double>(0.0));
  CHECK(keys[2] == std::optional<double>(3.0));
  REQUIRE(keys[3]);
  CHECK(std::isnan(*keys[3]));
  CHECK_FALSE(keys[4]);
  CHECK(read(by_x["n"_c]) == optionals<size_type>{{1}, {2}, {1}, {4}, {3}});
}

TEST_CASE("group_by: var and std of values far from zero, whatever a group's first row holds", "[frame]") {
  // The variance of values near 1e9 that differ by a few units is only as accurate as the sums it
  // comes from are centred: reduce (Welford) gets it right, and group_by must too, also when the
  // group's first row is null for the aggregated expression.
  using S = colx::schema<colx::field<"k", std::int32_t>, colx::field<"v", double>>;
  optionals<std::int32_t> k;
  optionals<double> v;
  auto const add = [&](std::int32_t key, std::optional<double> value) {
    k.push_back(key);
    v.push_back(value);
  };
  // Group 1: a null first, then 1e9 + 1 .. 1e9 + 4 (variance 5/3). Group 2: the same without the
  // null. Group 3: 5e8 and 5e8 + 2 around a null (variance 2). Group 4: 1000 rows of 1e9 + r % 10
  // after a null.
  add(1, std::nullopt);
  add(3, 5e8);
  for (int r = 1; r <= 4; ++r) {
    add(1, 1e9 + r);
    add(2, 1e9 + r);
  }
  add(3, std::nullopt);
  add(3, 5e8 + 2);
  add(4, std::nullopt);
  long double sum4 = 0;
  for (int r = 0; r < 1000; ++r) {
    add(4, 1e9 + r % 10);
    sum4 += r % 10;
  }
  long double m2 = 0;
  for (int r = 0; r < 1000; ++r) { m2 += (r % 10 - sum4 / 1000) * (r % 10 - sum4 / 1000); }
  double const var4 = static_cast<double>(m2 / 999);

  auto const mr = backend_resource();
  colx::frame<S> const f(colx::make_column<std::int32_t>(k, {}, mr), colx::make_column<double>(v, {}, mr));
  auto const out = f | colx::group_by(colx::group_by_options{.sorted = true}, "k"_c) |
                   colx::aggregate(colx::var("v"_c).as<"var">(), colx::std("v"_c).as<"sd">());
  REQUIRE(out.num_rows() == 4);
  auto const var = read(out["var"_c]);
  auto const sd = read(out["sd"_c]);
  std::vector<double> const want{5.0 / 3.0, 5.0 / 3.0, 2.0, var4};
  for (std::size_t g = 0; g < 4; ++g) {
    CAPTURE(g);
    REQUIRE(var[g]);
    REQUIRE(sd[g]);
    CHECK(*var[g] == Approx(want[g]).epsilon(1e-6));
    CHECK(*sd[g] == Approx(std::sqrt(want[g])).epsilon(1e-6));
  }
  // reduce agrees on group 1's rows.
  auto const group1 = f | colx::filter("k"_c == 1) | colx::reduce(colx::var("v"_c));
  REQUIRE(group1.has_value());
  CHECK(group1.value() == Approx(5.0 / 3.0).epsilon(1e-6));
}

TEST_CASE("group_by: output goes to the given memory, the work memory comes back", "[frame]") {
  auto const r = random_rows(5000, keys_are::many, 5);
  auto const f = make_frame(r);
  colx::test::tracked_resource mr;
  {
    auto const g = colx::run(f | colx::group_by(colx::group_by_options{}, "k"_c),
                             colx::aggregate(colx::count().as<"n">(), colx::sum("i"_c).as<"sum_i">(), colx::min("v"_c).as<"min_v">(),
                                             colx::first("b"_c).as<"first_b">(), colx::last("w"_c).as<"last_w">()),
                             {}, mr.ref());
    CHECK(mr.outstanding_bytes() > 0);
    std::map<std::optional<std::int32_t>, size_type> want;
    for (auto const& key : r.k) { ++want[key]; }
    CHECK(g.num_rows() == static_cast<size_type>(want.size()));
  }
  CHECK(mr.outstanding_bytes() == 0);
}

// Issue 15: count(e) counts the group's valid values of e, as SQL's COUNT(e); count() its rows.
TEST_CASE("group_by: count(e) counts valid values, count() rows", "[frame]") {
  auto const f = colx::make_frame(colx::values<"k">({1, 1, 2, 2, 2}),
                                  colx::values<"v", std::optional<std::int32_t>>({5, std::nullopt, std::nullopt, std::nullopt, 4}));
  auto const out = f | colx::group_by(colx::group_by_options{.sorted = true}, "k"_c) |
                   colx::aggregate(colx::count("v"_c).as<"count_v">(), colx::count().as<"rows">());
  CHECK(colx::to_vector(out["count_v"_c].view()) == std::vector<colx::size_type>{1, 1});
  CHECK(colx::to_vector(out["rows"_c].view()) == std::vector<colx::size_type>{2, 3});
  auto const [all_v, all_rows] = f | colx::reduce(colx::count("v"_c), colx::count());
  CHECK(all_v == colx::scalar<colx::size_type>(2));
  CHECK(all_rows == colx::scalar<colx::size_type>(5));
}
