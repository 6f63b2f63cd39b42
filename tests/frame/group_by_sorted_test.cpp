// SPDX-License-Identifier: Apache-2.0
// A sorted group-by whose keys bound its groups (dictionaries of a few entries, booleans: TPC-H
// Q1's flags) writes its rows in key order straight from its table (group_by/sorted_groups.hpp).
// Checked against a host loop over the decoded keys: dictionaries whose entries are not in value
// order, null keys (last), a boolean key, a filter, empty, one-row and unaligned slices, and sizes
// that are not multiples of a block.
#include "support/backend.hpp"

#include <catch2/catch.hpp>

#include <cstdint>
#include <map>
#include <optional>
#include <random>
#include <string>
#include <tuple>
#include <vector>

using namespace colx::literals;

namespace {

using colx::size_type;
using flag = colx::dictionary<colx::string_view, std::uint8_t>;
using lines = colx::schema<colx::field<"rf", flag>, colx::field<"ls", flag>, colx::field<"b", bool>,
                           colx::field<"x", std::int64_t, colx::not_null>>;
using codes = std::vector<std::optional<std::uint8_t>>;
using key = std::tuple<std::optional<std::string>, std::optional<std::string>, std::optional<bool>>;

// Nulls after every value, as sort_by orders by default.
template <class T>
bool null_last_less(std::optional<T> const& a, std::optional<T> const& b) {
  if (!a || !b) { return a.has_value() && !b.has_value(); }
  return *a < *b;
}
struct key_less {
  bool operator()(key const& a, key const& b) const {
    if (std::get<0>(a) != std::get<0>(b)) { return null_last_less(std::get<0>(a), std::get<0>(b)); }
    if (std::get<1>(a) != std::get<1>(b)) { return null_last_less(std::get<1>(a), std::get<1>(b)); }
    return null_last_less(std::get<2>(a), std::get<2>(b));
  }
};
// Two keys in key order, each with nulls last.
struct pair_less {
  template <class Pair>
  bool operator()(Pair const& a, Pair const& b) const {
    if (a.first != b.first) { return null_last_less(a.first, b.first); }
    return null_last_less(a.second, b.second);
  }
};
struct sums {
  std::int64_t rows = 0;
  std::int64_t total = 0;
};

// Entries out of value order, so that a code's order is not its entry's.
std::vector<std::string> const returnflags{"R", "A", "N"};
std::vector<std::string> const linestatuses{"O", "F"};

struct table {
  codes rf, ls;
  std::vector<std::optional<bool>> b;
  std::vector<std::int64_t> x;
};
table random_table(size_type n, unsigned seed, bool rf_nulls) {
  std::mt19937 rng(seed);
  table t;
  for (size_type i = 0; i < n; ++i) {
    t.rf.push_back(rf_nulls && rng() % 5 == 0 ? std::nullopt : std::optional<std::uint8_t>(static_cast<std::uint8_t>(rng() % 3)));
    t.ls.push_back(static_cast<std::uint8_t>(rng() % 2));
    t.b.push_back(rng() % 4 == 0 ? std::nullopt : std::optional<bool>(rng() % 2 == 0));
    t.x.push_back(static_cast<std::int64_t>(rng() % 1000) - 400);
  }
  return t;
}
colx::frame<lines> frame_of(table const& t) {
  auto const mr = colx::test::backend_resource();
  auto const dictionary = [&](std::vector<std::string> const& entries) {
    std::vector<std::optional<std::string>> values(entries.begin(), entries.end());
    return colx::make_column(values, {}, mr);
  };
  return colx::frame<lines>(colx::make_dictionary_column(colx::make_column(t.rf, {}, mr), dictionary(returnflags)),
                            colx::make_dictionary_column(colx::make_column(t.ls, {}, mr), dictionary(linestatuses)),
                            colx::make_column(t.b, {}, mr), colx::make_column(t.x, {}, mr));
}
std::optional<std::string> decode(std::optional<std::uint8_t> code, std::vector<std::string> const& entries) {
  return code ? std::optional<std::string>(entries[*code]) : std::nullopt;
}

// The result's rows, decoded, against the host loop's groups of rows [begin, end) with x > -300.
template <class Result>
void check_sorted_groups(Result const& r, table const& t, size_type begin, size_type end, bool with_bool) {
  std::map<key, sums, key_less> want;
  for (size_type i = begin; i < end; ++i) {
    if (t.x[i] <= -300) { continue; }
    auto& cell = want[{decode(t.rf[i], returnflags), decode(t.ls[i], linestatuses), with_bool ? t.b[i] : std::nullopt}];
    cell.rows += 1;
    cell.total += t.x[i];
  }
  REQUIRE(r.num_rows() == static_cast<size_type>(want.size()));
  auto const rf = colx::to_strings(colx::decode(r["rf"_c]).view());
  auto const ls = colx::to_strings(colx::decode(r["ls"_c]).view());
  auto const rows = colx::to_vector(r["rows"_c].view());
  auto const totals = colx::to_optional_vector(r["total"_c].view());
  std::size_t g = 0;
  for (auto const& [k, cell] : want) {
    CAPTURE(g);
    CHECK(rf[g] == std::get<0>(k));
    CHECK(ls[g] == std::get<1>(k));
    CHECK(rows[g] == cell.rows);
    CHECK(totals[g] == std::optional<std::int64_t>(cell.total));
    ++g;
  }
  size_type null_groups = 0;
  for (auto const& [k, cell] : want) { null_groups += std::get<0>(k) ? 0 : 1; }
  CHECK(r["rf"_c].null_count() == null_groups);
}

}  // namespace

TEST_CASE("group_by sorted: dictionary and boolean keys come out in key order, nulls last", "[frame]") {
  for (size_type const n : {0, 1, 2, 257, 100003}) {
    for (bool const rf_nulls : {false, true}) {
      CAPTURE(n, rf_nulls);
      table const t = random_table(n, 11u + static_cast<unsigned>(n), rf_nulls);
      auto const f = frame_of(t);
      {
        INFO("two dictionaries (3 or 4 by 2 groups at most)");
        auto const r = f | colx::filter("x"_c > -300) | colx::group_by(colx::group_by_options{.sorted = true}, "rf"_c, "ls"_c) |
                       colx::aggregate(colx::count().as<"rows">(), colx::sum("x"_c).as<"total">());
        check_sorted_groups(r, t, 0, n, false);
      }
      if (!rf_nulls) {
        INFO("with a boolean with nulls too: 3 by 2 by 3, over 8, the compaction then a sort");
        auto const r = f | colx::filter("x"_c > -300) |
                       colx::group_by(colx::group_by_options{.sorted = true}, "rf"_c, "ls"_c, "b"_c) |
                       colx::aggregate(colx::count().as<"rows">(), colx::sum("x"_c).as<"total">());
        std::map<key, sums, key_less> want;
        for (size_type i = 0; i < n; ++i) {
          if (t.x[i] > -300) { want[{decode(t.rf[i], returnflags), decode(t.ls[i], linestatuses), t.b[i]}].rows += 1; }
        }
        REQUIRE(r.num_rows() == static_cast<size_type>(want.size()));
        auto const b = colx::to_optional_vector(r["b"_c].view());
        auto const rows = colx::to_vector(r["rows"_c].view());
        std::size_t g = 0;
        for (auto const& [k, cell] : want) {
          CAPTURE(g);
          CHECK(b[g] == std::get<2>(k));
          CHECK(rows[g] == cell.rows);
          ++g;
        }
      }
    }
  }
}

TEST_CASE("group_by sorted: a boolean with nulls and a dictionary, and unaligned slices", "[frame]") {
  size_type const n = 70001;
  table const t = random_table(n, 29, true);
  auto const f = frame_of(t);
  for (auto const [begin, end] : {std::pair<size_type, size_type>{3, n - 5}, {1, 2}, {7, 7}, {64, 64 + 33}}) {
    CAPTURE(begin, end);
    auto const part = f.slice(begin, end);
    // A boolean with nulls (3 values) by 2 linestatuses: at most 6 groups, in place.
    auto const r = part | colx::group_by(colx::group_by_options{.sorted = true}, "b"_c, "ls"_c) |
                   colx::aggregate(colx::count().as<"rows">(), colx::sum("x"_c).as<"total">());
    std::map<std::pair<std::optional<bool>, std::optional<std::string>>, sums, pair_less> want;
    for (size_type i = begin; i < end; ++i) {
      auto& cell = want[{t.b[i], decode(t.ls[i], linestatuses)}];
      cell.rows += 1;
      cell.total += t.x[i];
    }
    REQUIRE(r.num_rows() == static_cast<size_type>(want.size()));
    auto const b = colx::to_optional_vector(r["b"_c].view());
    auto const ls = colx::to_strings(colx::decode(r["ls"_c]).view());
    auto const rows = colx::to_vector(r["rows"_c].view());
    auto const totals = colx::to_optional_vector(r["total"_c].view());
    std::size_t g = 0;
    for (auto const& [k, cell] : want) {
      CAPTURE(g);
      CHECK(b[g] == k.first);
      CHECK(ls[g] == k.second);
      CHECK(rows[g] == cell.rows);
      CHECK(totals[g] == std::optional<std::int64_t>(cell.total));
      ++g;
    }
    // The same rows as the unsorted group-by sorted afterwards.
    auto const unsorted = part | colx::group_by("b"_c, "ls"_c) | colx::aggregate(colx::count().as<"rows">(), colx::sum("x"_c).as<"total">()) |
                          colx::sort_by("b"_c, "ls"_c);
    CHECK(colx::to_optional_vector(unsorted["b"_c].view()) == b);
    CHECK(colx::to_vector(unsorted["rows"_c].view()) == rows);
  }
}

TEST_CASE("group_by sorted: null keys dropped, and a filter that keeps no row", "[frame]") {
  size_type const n = 4099;
  table const t = random_table(n, 37, true);
  auto const f = frame_of(t);
  {
    INFO("drop_null_keys: the rows of null booleans go (2 linestatuses by 3 values bound 6 groups: in place)");
    auto const r = f | colx::filter("x"_c > -300) |
                   colx::group_by(colx::group_by_options{.sorted = true, .drop_null_keys = true}, "ls"_c, "b"_c) |
                   colx::aggregate(colx::count().as<"rows">());
    std::map<std::pair<std::string, bool>, std::int64_t> want;  // (ls, b), both valid
    for (size_type i = 0; i < n; ++i) {
      if (t.x[i] > -300 && t.b[i]) { ++want[{linestatuses[*t.ls[i]], *t.b[i]}]; }
    }
    REQUIRE(r.num_rows() == static_cast<size_type>(want.size()));
    auto const ls = colx::to_strings(colx::decode(r["ls"_c]).view());
    auto const b = colx::to_optional_vector(r["b"_c].view());
    auto const rows = colx::to_vector(r["rows"_c].view());
    std::size_t g = 0;
    for (auto const& [k, count] : want) {
      CAPTURE(g);
      CHECK(ls[g] == k.first);
      CHECK(b[g] == std::optional<bool>(k.second));
      CHECK(rows[g] == count);
      ++g;
    }
  }
  {
    INFO("no row passes: no group");
    auto const r = f | colx::filter("x"_c > 10000) | colx::group_by(colx::group_by_options{.sorted = true}, "rf"_c, "ls"_c) |
                   colx::aggregate(colx::count().as<"rows">(), colx::sum("x"_c).as<"total">());
    CHECK(r.num_rows() == 0);
    CHECK(r["rf"_c].null_count() == 0);
  }
}

TEST_CASE("group_by sorted: null aggregates and a strings result, counted with the groups in one read", "[frame]") {
  // total (sum of y) is null in every group with no valid y (all of rf "A"'s), top (max of s) in
  // every group with no valid s: the placing pass counts them, no reduction over the masks.
  using valued = colx::schema<colx::field<"rf", flag>, colx::field<"ls", flag>, colx::field<"x", std::int64_t, colx::not_null>,
                              colx::field<"y", std::int64_t>, colx::field<"s", colx::string_view>>;
  for (size_type const n : {0, 1, 257, 100003}) {
    std::mt19937 rng(53u + static_cast<unsigned>(n));
    table const t = random_table(n, 41u + static_cast<unsigned>(n), false);  // 3 by 2 groups at most: in place
    std::vector<std::optional<std::int64_t>> y;
    std::vector<std::optional<std::string>> s;
    for (size_type i = 0; i < n; ++i) {
      bool const a = t.rf[i] == std::optional<std::uint8_t>(1);
      y.push_back(a || rng() % 3 == 0 ? std::nullopt : std::optional<std::int64_t>(static_cast<std::int64_t>(rng() % 100)));
      s.push_back(rng() % 2 == 0 ? std::nullopt : std::optional<std::string>(std::string(1 + rng() % 6, static_cast<char>('a' + rng() % 26))));
    }
    // Few rows of a group keep a valid s where the filter is selective: some groups' top is null.
    auto const mr = colx::test::backend_resource();
    auto const base = frame_of(t);
    colx::frame<valued> const f(base["rf"_c], base["ls"_c], base["x"_c], colx::make_column(y, {}, mr), colx::make_column(s, {}, mr));
    for (auto const [begin, end] : {std::pair<size_type, size_type>{0, n}, {n > 3 ? 3 : 0, n > 5 ? n - 2 : n}}) {
      for (std::int64_t const above : {std::int64_t{-300}, std::int64_t{590}}) {  // about 90% kept (loads eager), 1% kept
        CAPTURE(n, begin, end, above);
        auto const r = f.slice(begin, end) | colx::filter("x"_c > above) |
                       colx::group_by(colx::group_by_options{.sorted = true}, "rf"_c, "ls"_c) |
                       colx::aggregate(colx::sum("y"_c).as<"total">(), colx::max("s"_c).as<"top">(), colx::count().as<"rows">());
        struct cell {
          std::int64_t rows = 0;
          std::optional<std::int64_t> total;
          std::optional<std::string> top;
        };
        std::map<std::pair<std::optional<std::string>, std::optional<std::string>>, cell, pair_less> want;
        for (size_type i = begin; i < end; ++i) {
          if (t.x[i] <= above) { continue; }
          auto& c = want[{decode(t.rf[i], returnflags), decode(t.ls[i], linestatuses)}];
          c.rows += 1;
          if (y[i]) { c.total = c.total.value_or(0) + *y[i]; }
          if (s[i] && (!c.top || *s[i] > *c.top)) { c.top = s[i]; }
        }
        REQUIRE(r.num_rows() == static_cast<size_type>(want.size()));
        auto const rf = colx::to_strings(colx::decode(r["rf"_c]).view());
        auto const ls = colx::to_strings(colx::decode(r["ls"_c]).view());
        auto const totals = colx::to_optional_vector(r["total"_c].view());
        auto const tops = colx::to_strings(r["top"_c].view());
        auto const rows = colx::to_vector(r["rows"_c].view());
        size_type null_totals = 0;
        size_type null_tops = 0;
        std::size_t g = 0;
        for (auto const& [k, c] : want) {
          CAPTURE(g);
          CHECK(rf[g] == k.first);
          CHECK(ls[g] == k.second);
          CHECK(rows[g] == c.rows);
          CHECK(totals[g] == c.total);
          CHECK(tops[g] == c.top);
          null_totals += c.total ? 0 : 1;
          null_tops += c.top ? 0 : 1;
          ++g;
        }
        CHECK(r["total"_c].null_count() == null_totals);
        CHECK(r["top"_c].null_count() == null_tops);
        CHECK(r["rows"_c].null_count() == 0);
      }
    }
  }
}
