// SPDX-License-Identifier: Apache-2.0
// Dictionary columns in frames: encode and decode against the plain strings, make_dictionary_column's
// checks, and pipelines over a dictionary field (filter, with_columns, collect, group-by on the
// codes, join, sort) against a host loop over the decoded values, at sizes that are not
// multiples of a block, with nulls, empty and one-row frames, and unaligned slices.
#include "support/backend.hpp"

#include <catch2/catch.hpp>

#include <algorithm>
#include <array>
#include <map>
#include <optional>
#include <random>
#include <set>
#include <span>
#include <string>
#include <vector>

using namespace colx::literals;

namespace {

using flag = colx::dictionary<colx::string_view, std::uint8_t>;
using coded = colx::schema<colx::field<"s", flag>, colx::field<"x", std::int64_t>>;
using plain = colx::schema<colx::field<"s", colx::string_view>, colx::field<"x", std::int64_t>>;

using strings = std::vector<std::optional<std::string>>;
using codes8 = std::vector<std::optional<std::uint8_t>>;

strings random_strings(colx::size_type n, unsigned seed, int distinct = 6) {
  std::mt19937 rng(seed);
  char const* words[] = {"north", "", "héllo", "a", "south-west by a long way", "b", "Z", "ok"};
  strings out;
  for (colx::size_type i = 0; i < n; ++i) {
    if (rng() % 6 == 0) {
      out.emplace_back(std::nullopt);
    } else {
      out.emplace_back(words[rng() % static_cast<unsigned>(distinct)]);
    }
  }
  return out;
}
std::vector<std::int64_t> random_values(colx::size_type n, unsigned seed) {
  std::mt19937 rng(seed);
  std::vector<std::int64_t> out;
  for (colx::size_type i = 0; i < n; ++i) { out.push_back(static_cast<std::int64_t>(rng() % 1000) - 300); }
  return out;
}

colx::frame<coded> coded_frame(strings const& s, std::vector<std::int64_t> const& x) {
  return colx::frame<coded>(colx::encode<std::uint8_t>(colx::make_strings_column(s)), colx::make_column(x));
}

template <class V, class Code>
strings decoded(colx::dictionary_column<V, Code> const& c) {
  return colx::to_strings(colx::decode(c).view());
}
strings decoded(colx::any_column c) {
  return decoded(colx::dictionary_column<colx::string_view, std::uint8_t>(std::move(c)));
}

}  // namespace

// (At 0, 1 and 7 rows most values are distinct and the rows are sorted; at 1000 and more a few
// values repeat and encode hashes them: both ways give the same dictionary and codes.)
TEST_CASE("dictionary: encode and decode give back the strings; the dictionary is distinct and sorted", "[dictionary]") {
  for (colx::size_type n : {0, 1, 7, 1000, 4099}) {
    CAPTURE(n);
    strings const s = random_strings(n, 11u + static_cast<unsigned>(n));
    auto const d = colx::encode<std::uint8_t>(colx::make_strings_column(s));
    CHECK(d.size() == n);
    CHECK(d.null_count() == static_cast<colx::size_type>(std::count(s.begin(), s.end(), std::nullopt)));
    CHECK(decoded(d) == s);
    std::set<std::string> distinct;
    for (auto const& v : s) {
      if (v) { distinct.insert(*v); }
    }
    strings const dictionary = colx::to_strings(colx::strings_column_view(d.dictionary().view()));
    CHECK(dictionary == strings(distinct.begin(), distinct.end()));  // ascending, each value once
    // Codes follow the dictionary's order.
    auto const codes = colx::to_optional_vector(d.codes());
    for (std::size_t i = 0; i < s.size(); ++i) {
      if (!s[i]) { continue; }
      REQUIRE(codes[i].has_value());
      CHECK(*dictionary.at(*codes[i]) == *s[i]);
    }
  }
}

TEST_CASE("dictionary: an unaligned slice encodes and decodes", "[dictionary]") {
  strings const s = random_strings(1029, 5);
  auto const f = colx::frame<plain>(colx::make_strings_column(s), colx::make_column(random_values(1029, 6)));
  auto const part = f.slice(3, 1020);
  auto const d = colx::encode<std::int32_t>(part["s"_c]);
  CHECK(decoded(d) == strings(s.begin() + 3, s.begin() + 1020));
  // And a slice of a dictionary frame keeps the encoding.
  auto const g = coded_frame(s, random_values(1029, 6)).slice(5, 1001);
  CHECK(decoded(g["s"_c]) == strings(s.begin() + 5, s.begin() + 1001));
}

TEST_CASE("dictionary: more distinct values than the codes can number is an error", "[dictionary]") {
  strings s;
  for (int i = 0; i < 300; ++i) { s.emplace_back(std::string("v").append(std::to_string(i))); }  // not "v" + ...: GCC 12 warns falsely
  auto const column = colx::make_strings_column(s);
  CHECK_THROWS_WITH(colx::encode<std::uint8_t>(column), Catch::Contains("300 distinct values do not fit codes of type uint8"));
  CHECK(colx::encode<std::int16_t>(column).dictionary_size() == 300);
  // The same values ten times each: few distinct values for the rows, encoded by hashing, not sorting.
  strings repeated;
  for (int r = 0; r < 10; ++r) { repeated.insert(repeated.end(), s.begin(), s.end()); }
  auto const many = colx::make_strings_column(repeated);
  CHECK_THROWS_WITH(colx::encode<std::uint8_t>(many), Catch::Contains("300 distinct values do not fit codes of type uint8"));
  auto const d = colx::encode<std::int16_t>(many);
  CHECK(d.dictionary_size() == 300);
  CHECK(decoded(d) == repeated);
}

TEST_CASE("dictionary: make_dictionary_column checks its parts", "[dictionary]") {
  auto const dictionary = [] { return colx::make_strings_column({"a", "b", "c"}); };
  auto const good = colx::make_dictionary_column(colx::make_column(codes8{2, std::nullopt, 0, 1}), dictionary());
  CHECK(decoded(good) == strings{"c", std::nullopt, "a", "b"});
  CHECK_THROWS_WITH(colx::make_dictionary_column(colx::make_column(codes8{2, 3}), dictionary()),
                    Catch::Contains("1 of 2 codes are outside the dictionary's 3 entries"));
  CHECK_THROWS_WITH(colx::make_dictionary_column(colx::make_column(std::vector<std::optional<std::int32_t>>{-1}), dictionary()),
                    Catch::Contains("outside the dictionary"));
  // A null row's code is not read, whatever it is.
  CHECK_NOTHROW(colx::make_dictionary_column(colx::make_column(codes8{std::nullopt}), dictionary()));
  CHECK_THROWS_WITH(colx::make_dictionary_column(colx::make_column(codes8{0}), colx::make_strings_column({"a", "b", "a"})),
                    Catch::Contains("repeat 1 times"));
  CHECK_THROWS_WITH(colx::make_dictionary_column(colx::make_column(codes8{0}), colx::make_strings_column({"a", std::nullopt})),
                    Catch::Contains("null values"));
  // Numbers as values: -0.0 and 0.0 are one value.
  CHECK_THROWS_WITH(colx::make_dictionary_column(colx::make_column(codes8{0}), colx::make_column(std::vector<double>{0.0, -0.0})),
                    Catch::Contains("repeat"));
  auto const numbers = colx::make_dictionary_column(colx::make_column(codes8{1, 0, 1}), colx::make_column(std::vector<double>{2.5, -1.0}));
  auto const values = colx::decode(numbers);
  CHECK(colx::to_vector(values.view()) == std::vector<double>{-1.0, 2.5, -1.0});
}

TEST_CASE("dictionary: filter, with_columns and collect over a dictionary field", "[dictionary]") {
  for (colx::size_type n : {0, 1, 257, 4099}) {
    CAPTURE(n);
    strings const s = random_strings(n, 21u + static_cast<unsigned>(n));
    auto const x = random_values(n, 22u + static_cast<unsigned>(n));
    auto const f = coded_frame(s, x);
    // A comparison with a literal, LIKE, and a computed string read the decoded values.
    colx::size_type expected_b = 0, expected_like = 0;
    for (auto const& v : s) {
      expected_b += v && *v == "b" ? 1 : 0;
      expected_like += v && v->find("th") != std::string::npos ? 1 : 0;
    }
    CHECK((f | colx::count_if("s"_c == "b")) == expected_b);
    CHECK((f | colx::count_if(colx::like("s"_c, "%th%"))) == expected_like);
    auto const upper = f | colx::with_columns(colx::upper("s"_c).as<"u">());
    strings const u = colx::to_strings(upper["u"_c].view());
    for (std::size_t i = 0; i < s.size(); ++i) {
      if (!s[i]) {
        CHECK(!u[i]);
        continue;
      }
      std::string want = *s[i];
      for (auto& ch : want) { ch = static_cast<char>(std::toupper(static_cast<unsigned char>(ch))); }
      if (*s[i] == "héllo") { want = "HÉLLO"; }
      CHECK(u[i] == want);
    }
    // collect keeps the encoding: the kept rows' codes over the same dictionary.
    auto const kept = (f | colx::filter("x"_c > 100 && colx::is_valid("s"_c))).collect();
    strings want;
    for (std::size_t i = 0; i < s.size(); ++i) {
      if (x[i] > 100 && s[i]) { want.push_back(s[i]); }
    }
    CHECK(decoded(kept["s"_c]) == want);
    CHECK(kept["s"_c].dictionary().data().read() == f["s"_c].dictionary().data().read());
    auto const sorted = f | colx::sort_by("s"_c, "x"_c);
    strings const sorted_s = decoded(sorted["s"_c]);
    CHECK(std::is_sorted(sorted_s.begin(), sorted_s.end(), [](auto const& a, auto const& b) {
      if (!a || !b) { return a.has_value() && !b.has_value(); }  // nulls last
      return *a < *b;
    }));
  }
}

TEST_CASE("dictionary: group-by on a dictionary key groups its codes and gives a dictionary key back", "[dictionary]") {
  for (colx::size_type n : {0, 1, 7, 4099, 70001}) {
    CAPTURE(n);
    strings const s = random_strings(n, 31u + static_cast<unsigned>(n), 8);
    auto const x = random_values(n, 32u + static_cast<unsigned>(n));
    auto const f = coded_frame(s, x);
    std::map<std::optional<std::string>, std::pair<std::int64_t, std::int64_t>> want;  // sum, count
    for (std::size_t i = 0; i < s.size(); ++i) {
      auto& cell = want[s[i]];
      cell.first += x[i];
      cell.second += 1;
    }
    auto const r = f | colx::group_by(colx::group_by_options{.sorted = true}, "s"_c) |
                   colx::aggregate(colx::sum("x"_c).as<"total">(), colx::count().as<"rows">(), colx::max("s"_c).as<"top">());
    static_assert(std::is_same_v<std::remove_cvref_t<decltype(r["s"_c])>, colx::dictionary_column<colx::string_view, std::uint8_t>>);
    REQUIRE(r.num_rows() == static_cast<colx::size_type>(want.size()));
    strings const keys = decoded(r["s"_c]);
    auto const totals = colx::to_optional_vector(r["total"_c].view());
    auto const rows = colx::to_vector(r["rows"_c].view());
    strings const tops = colx::to_strings(r["top"_c].view());
    // Sorted by value, nulls last.
    std::vector<std::optional<std::string>> order;
    for (auto const& [k, cell] : want) {
      if (k) { order.push_back(k); }
    }
    if (want.count(std::nullopt) != 0) { order.push_back(std::nullopt); }
    CHECK(keys == order);
    for (std::size_t g = 0; g < keys.size(); ++g) {
      CAPTURE(g);
      CHECK(totals[g] == want[keys[g]].first);
      CHECK(rows[g] == want[keys[g]].second);
      CHECK(tops[g] == keys[g]);
    }
    // The same groups as grouping the decoded strings.
    auto const p = colx::frame<plain>(colx::make_strings_column(s), colx::make_column(x));
    auto const q = p | colx::group_by(colx::group_by_options{.sorted = true}, "s"_c) | colx::aggregate(colx::sum("x"_c).as<"total">());
    CHECK(colx::to_strings(q["s"_c].view()) == keys);
    CHECK(colx::to_optional_vector(q["total"_c].view()) == totals);
  }
}

TEST_CASE("dictionary: a dictionary key with another key, and a filtered group-by", "[dictionary]") {
  colx::size_type const n = 5003;
  strings const s = random_strings(n, 41);
  auto const x = random_values(n, 42);
  auto const f = coded_frame(s, x);
  auto const r = f | colx::filter("x"_c >= 0) | colx::group_by(colx::group_by_options{.sorted = true}, "s"_c, (("x"_c % 3)).as<"m">()) |
                 colx::aggregate(colx::count().as<"rows">());
  std::map<std::pair<std::optional<std::string>, std::int64_t>, std::int64_t> want;
  for (std::size_t i = 0; i < s.size(); ++i) {
    if (x[i] >= 0) { ++want[{s[i], x[i] % 3}]; }
  }
  REQUIRE(r.num_rows() == static_cast<colx::size_type>(want.size()));
  strings const keys = decoded(r["s"_c]);
  auto const m = colx::to_optional_vector(r["m"_c].view());
  auto const rows = colx::to_vector(r["rows"_c].view());
  for (std::size_t g = 0; g < keys.size(); ++g) { CHECK(rows[g] == want.at({keys[g], *m[g]})); }
}

TEST_CASE("dictionary: joins match dictionary keys by value", "[dictionary]") {
  strings const s = random_strings(2001, 51);
  auto const x = random_values(2001, 52);
  auto const left = coded_frame(s, x);
  using names = colx::schema<colx::field<"s", colx::string_view>, colx::field<"weight", std::int64_t>>;
  auto const right = colx::frame<names>(colx::make_strings_column({"north", "b", "ok", "nowhere"}),
                                        colx::make_column<std::int64_t>({1, 10, 100, 1000}));
  std::map<std::string, std::int64_t> weight{{"north", 1}, {"b", 10}, {"ok", 100}, {"nowhere", 1000}};
  auto const joined = left | colx::join(right, colx::on("s"_c));
  std::int64_t want_rows = 0, want_sum = 0;
  for (std::size_t i = 0; i < s.size(); ++i) {
    if (s[i] && weight.count(*s[i]) != 0) {
      ++want_rows;
      want_sum += weight[*s[i]] * x[i];
    }
  }
  CHECK(joined.num_rows() == want_rows);
  auto const total = (joined | colx::reduce(colx::sum("weight"_c * "x"_c))).to_optional();
  CHECK(total.value_or(0) == want_sum);
  // The joined frame's key column is the left's dictionary column.
  static_assert(std::is_same_v<std::remove_cvref_t<decltype(joined["s"_c])>, colx::dictionary_column<colx::string_view, std::uint8_t>>);
  // Two dictionary sides, each over its own dictionary: an inner join compares values.
  auto const other = coded_frame(strings{"b", "ok", std::nullopt}, {7, 8, 9});
  auto const both = left | colx::join(other, colx::on("s"_c));
  std::int64_t want_both = 0;
  for (auto const& v : s) { want_both += v && (*v == "b" || *v == "ok") ? 1 : 0; }
  CHECK(both.num_rows() == want_both);
}

namespace {
// The (x, weight) pairs of a join of (s, x) rows with (s, weight) rows on s, by a host loop over the
// values; left: a left row without a partner pairs with a null weight; nulls_equal: null keys match.
using pair_rows = std::vector<std::pair<std::int64_t, std::optional<std::int64_t>>>;
pair_rows pairs_by_loop(strings const& ls, std::vector<std::int64_t> const& x, strings const& rs,
                        std::vector<std::int64_t> const& w, bool left, bool nulls_equal) {
  pair_rows out;
  for (std::size_t i = 0; i < ls.size(); ++i) {
    bool found = false;
    for (std::size_t j = 0; j < rs.size(); ++j) {
      if ((ls[i] && rs[j] && *ls[i] == *rs[j]) || (nulls_equal && !ls[i] && !rs[j])) {
        out.emplace_back(x[i], w[j]);
        found = true;
      }
    }
    if (left && !found) { out.emplace_back(x[i], std::nullopt); }
  }
  std::sort(out.begin(), out.end());
  return out;
}
template <class F>
pair_rows pairs_of(F const& joined) {
  auto const x = colx::to_optional_vector(joined["x"_c].view());
  auto const w = colx::to_optional_vector(joined["weight"_c].view());
  pair_rows out;
  for (std::size_t i = 0; i < x.size(); ++i) { out.emplace_back(x[i].value(), w[i]); }
  std::sort(out.begin(), out.end());
  return out;
}
}  // namespace

// A dictionary key on the build side is keyed on its codes (frame/join/dictionary_keys.hpp): the
// probe reads its own dictionary's codes mapped into the build side's, its codes as they are when
// both share one dictionary, or each row's code looked up when its key is plain strings. Every way
// against a host loop over the values: inner, left, semi and anti joins, null keys (with and
// without nulls_equal), values on one side only, a second key, a slice, empty sides.
TEST_CASE("dictionary: joins on dictionary keys compare codes, mapped between dictionaries", "[dictionary]") {
  using weights = colx::schema<colx::field<"s", flag>, colx::field<"weight", std::int64_t>>;
  using plain_left = colx::schema<colx::field<"s", colx::string_view>, colx::field<"x", std::int64_t>>;
  using wide_flag = colx::dictionary<colx::string_view, std::int32_t>;
  using wide = colx::schema<colx::field<"s", wide_flag>, colx::field<"x", std::int64_t>>;
  for (colx::size_type const n : {0, 1, 7, 1000}) {
    CAPTURE(n);
    strings const ls = random_strings(n, 61, 8);
    auto const x = random_values(n, 62);
    // The right side lacks some of the left's values and has one the left lacks.
    strings const rs{"north", "b", std::nullopt, "ok", "nowhere", "b", "héllo"};
    std::vector<std::int64_t> const w{1, 10, 100, 1000, 10000, 100000, 1000000};
    auto const right = colx::frame<weights>(colx::encode<std::uint8_t>(colx::make_strings_column(rs)), colx::make_column(w));
    auto const left = coded_frame(ls, x);
    // The build side keys on codes: one word a key, held in the table's slots.
    static_assert(decltype(colx::build(right, colx::on("s"_c)))::key_columns::packed);
    SECTION("two dictionaries") {
      CHECK(pairs_of(left | colx::join(right, colx::on("s"_c))) == pairs_by_loop(ls, x, rs, w, false, false));
      CHECK(pairs_of(left | colx::join<colx::join_kind::left>(right, colx::on("s"_c))) ==
            pairs_by_loop(ls, x, rs, w, true, false));
      colx::join_options same_nulls;
      same_nulls.nulls_equal = true;
      CHECK(pairs_of(left | colx::join(right, colx::on("s"_c), same_nulls)) == pairs_by_loop(ls, x, rs, w, false, true));
      auto const [lrows, rrows] = colx::join_rows(left, right, colx::on("s"_c));
      CHECK(static_cast<std::size_t>(lrows.size()) == pairs_by_loop(ls, x, rs, w, false, false).size());
      std::int64_t semi = 0;
      for (auto const& v : ls) {
        semi += v && std::find(rs.begin(), rs.end(), v) != rs.end() ? 1 : 0;
      }
      CHECK((left | colx::join<colx::join_kind::semi>(right, colx::on("s"_c))).num_rows() == semi);
      CHECK((left | colx::join<colx::join_kind::anti>(right, colx::on("s"_c))).num_rows() == n - semi);
      // Codes of another width on the probe side.
      auto const wide_left = colx::frame<wide>(colx::encode<std::int32_t>(colx::make_strings_column(ls)), colx::make_column(x));
      CHECK(pairs_of(wide_left | colx::join(right, colx::on("s"_c))) == pairs_by_loop(ls, x, rs, w, false, false));
    }
    SECTION("one dictionary, the codes as they are") {
      std::vector<colx::dictionary_column<colx::string_view, std::uint8_t>> both;
      both.push_back(colx::encode<std::uint8_t>(colx::make_strings_column(ls)));
      both.push_back(colx::encode<std::uint8_t>(colx::make_strings_column(rs)));
      auto const unified = colx::unify_dictionaries(std::span<colx::dictionary_column<colx::string_view, std::uint8_t> const>(both));
      auto const l1 = colx::frame<coded>(unified[0], colx::make_column(x));
      auto const r1 = colx::frame<weights>(unified[1], colx::make_column(w));
      CHECK(pairs_of(l1 | colx::join<colx::join_kind::left>(r1, colx::on("s"_c))) == pairs_by_loop(ls, x, rs, w, true, false));
    }
    SECTION("plain strings against a dictionary") {
      auto const plain_probe = colx::frame<plain_left>(colx::make_strings_column(ls), colx::make_column(x));
      CHECK(pairs_of(plain_probe | colx::join(right, colx::on("s"_c))) == pairs_by_loop(ls, x, rs, w, false, false));
      colx::join_options same_nulls;
      same_nulls.nulls_equal = true;
      CHECK(pairs_of(plain_probe | colx::join<colx::join_kind::left>(right, colx::on("s"_c), same_nulls)) ==
            pairs_by_loop(ls, x, rs, w, true, true));
    }
    SECTION("empty dictionaries: all-null keys on either side") {
      strings const none(static_cast<std::size_t>(n), std::nullopt);
      auto const null_left = coded_frame(none, x);
      CHECK(pairs_of(null_left | colx::join<colx::join_kind::left>(right, colx::on("s"_c))) ==
            pairs_by_loop(none, x, rs, w, true, false));
      strings const null_rs(rs.size(), std::nullopt);
      auto const null_right = colx::frame<weights>(colx::encode<std::uint8_t>(colx::make_strings_column(null_rs)), colx::make_column(w));
      CHECK(pairs_of(left | colx::join(null_right, colx::on("s"_c))) == pairs_by_loop(ls, x, null_rs, w, false, false));
      auto const plain_probe = colx::frame<plain_left>(colx::make_strings_column(ls), colx::make_column(x));
      CHECK(pairs_of(plain_probe | colx::join<colx::join_kind::left>(null_right, colx::on("s"_c))) ==
            pairs_by_loop(ls, x, null_rs, w, true, false));
    }
    SECTION("a second key, and a slice of the probe") {
      using keyed = colx::schema<colx::field<"s", flag>, colx::field<"k", std::int32_t>, colx::field<"weight", std::int64_t>>;
      std::vector<std::int32_t> const rk{0, 1, 0, 1, 0, 0, 1};
      auto const right2 = colx::frame<keyed>(colx::encode<std::uint8_t>(colx::make_strings_column(rs)), colx::make_column(rk),
                                             colx::make_column(w));
      std::vector<std::int32_t> lk;
      for (colx::size_type i = 0; i < n; ++i) { lk.push_back(static_cast<std::int32_t>(x[static_cast<std::size_t>(i)] & 1)); }
      using left_keyed = colx::schema<colx::field<"s", flag>, colx::field<"k", std::int32_t>, colx::field<"x", std::int64_t>>;
      auto const left2 = colx::frame<left_keyed>(colx::encode<std::uint8_t>(colx::make_strings_column(ls)), colx::make_column(lk),
                                                 colx::make_column(x));
      colx::size_type const from = n > 3 ? 3 : 0;
      auto const sliced = left2.slice(from, n);
      pair_rows want;
      for (colx::size_type i = from; i < n; ++i) {
        auto const u = static_cast<std::size_t>(i);
        for (std::size_t j = 0; j < rs.size(); ++j) {
          if (ls[u] && rs[j] && *ls[u] == *rs[j] && lk[u] == rk[j]) { want.emplace_back(x[u], w[j]); }
        }
      }
      std::sort(want.begin(), want.end());
      CHECK(pairs_of(sliced | colx::join(right2, colx::on("s"_c, "k"_c))) == want);
    }
  }
}

// Codes of uint8 past 127 read as 128 to 255, on both sides.
TEST_CASE("dictionary: a join on uint8 codes of 250 values, over two dictionaries", "[dictionary]") {
  using weights = colx::schema<colx::field<"s", flag>, colx::field<"weight", std::int64_t>>;
  strings ls, rs;
  std::vector<std::int64_t> x, w;
  for (int i = 0; i < 1000; ++i) {
    ls.emplace_back("v" + std::to_string(i * 7 % 250));
    x.push_back(i);
  }
  for (int i = 0; i < 250; i += 3) {
    rs.emplace_back("v" + std::to_string(249 - i));
    w.push_back(i);
  }
  auto const left = coded_frame(ls, x);
  auto const right = colx::frame<weights>(colx::encode<std::uint8_t>(colx::make_strings_column(rs)), colx::make_column(w));
  CHECK(pairs_of(left | colx::join<colx::join_kind::left>(right, colx::on("s"_c))) == pairs_by_loop(ls, x, rs, w, true, false));
}

TEST_CASE("dictionary: a comparison with a string literal finds the literal's code once and compares codes", "[dictionary]") {
  using bound = decltype(colx::expr::bind<coded>("s"_c == "b"));
  static_assert(std::is_same_v<bound, colx::expr::dictionary_literal<true, 0, flag, true, 2>>);
  using mirrored = decltype(colx::expr::bind<coded>("b" != "s"_c));
  static_assert(std::is_same_v<mirrored, colx::expr::dictionary_literal<false, 0, flag, true, 2>>);
  for (colx::size_type n : {0, 1, 33, 4099}) {
    CAPTURE(n);
    strings const s = random_strings(n, 61u + static_cast<unsigned>(n));
    auto const x = random_values(n, 62u + static_cast<unsigned>(n));
    auto const f = coded_frame(s, x);
    // The code found is the literal's entry in the dictionary (-1: not there).
    auto const resolved = colx::detail::resolve_literals(colx::expr::bind<coded>("s"_c == "north"), f, {});
    strings const dictionary = colx::to_strings(colx::strings_column_view(f["s"_c].dictionary().view()));
    auto const at = std::find(dictionary.begin(), dictionary.end(), std::optional<std::string>("north"));
    CHECK(resolved.code == (at == dictionary.end() ? -1 : at - dictionary.begin()));
    auto const absent = colx::detail::resolve_literals(colx::expr::bind<coded>("s"_c == "nowhere"), f, {});
    CHECK(absent.code == -1);
    colx::size_type eq_b = 0, ne_b = 0, eq_none = 0, ne_none = 0;
    std::int64_t sum_b = 0;
    for (std::size_t i = 0; i < s.size(); ++i) {
      if (!s[i]) { continue; }  // null: neither == nor != holds
      eq_b += *s[i] == "b" ? 1 : 0;
      ne_b += *s[i] != "b" ? 1 : 0;
      ne_none += 1;
      sum_b += *s[i] == "b" ? x[i] : 0;
    }
    CHECK((f | colx::count_if("s"_c == "b")) == eq_b);
    CHECK((f | colx::count_if("b" == "s"_c)) == eq_b);
    CHECK((f | colx::count_if("s"_c != "b")) == ne_b);
    CHECK((f | colx::count_if("s"_c == "nowhere")) == eq_none);
    CHECK((f | colx::count_if("s"_c != "nowhere")) == ne_none);
    CHECK((f | colx::filter("s"_c == "b") | colx::reduce(colx::sum("x"_c))).to_optional().value_or(0) == sum_b);
    CHECK((f | colx::filter("s"_c == "b")).collect().num_rows() == eq_b);
    auto const g = f | colx::filter("s"_c != "b") | colx::group_by("s"_c) | colx::aggregate(colx::count().as<"rows">());
    CHECK(g.num_rows() == static_cast<colx::size_type>(std::set<std::optional<std::string>>(s.begin(), s.end()).size()) -
                             (std::count(s.begin(), s.end(), std::optional<std::string>("b")) > 0 ? 1 : 0) -
                             (std::count(s.begin(), s.end(), std::nullopt) > 0 ? 1 : 0));
    auto const flags = f | colx::with_columns(("s"_c == "b").as<"is_b">());
    auto const is_b = colx::to_optional_vector(flags["is_b"_c].view());
    for (std::size_t i = 0; i < s.size(); ++i) {
      CHECK(is_b[i] == (s[i] ? std::optional<bool>(*s[i] == "b") : std::nullopt));
    }
  }
}

TEST_CASE("dictionary: explain and printing show the values and the encoding", "[dictionary]") {
  auto const f = coded_frame(strings{"b", std::nullopt, "a", "b"}, {1, 2, 3, 4});
  std::string const text = colx::to_string(f);
  CHECK_THAT(text, Catch::Contains("b") && Catch::Contains("<NA>"));
  std::string const plan = colx::explain(f | colx::filter("s"_c == "b"), colx::reduce(colx::sum("x"_c)));
  CHECK_THAT(plan, Catch::Contains("dictionary-encoded: uint8 codes of 2 string values"));
}

TEST_CASE("dictionary: any_table to frame checks the codes' and the values' types", "[dictionary]") {
  auto const f = coded_frame(strings{"b", "a"}, {1, 2});
  colx::any_table t({{"s", f["s"_c].untyped()}, {"x", f["x"_c].untyped()}});
  auto const back = t.as<coded>();
  CHECK(decoded(back["s"_c]) == strings{"b", "a"});
  using wide_codes = colx::schema<colx::field<"s", colx::dictionary<colx::string_view, std::int32_t>>>;
  CHECK_THROWS_WITH(t.as<wide_codes>(), Catch::Contains("is dictionary(codes uint8) of string, the schema wants "
                                                        "dictionary(codes int32) of string"));
  CHECK_THROWS_WITH(t.as<plain>(), Catch::Contains("the schema wants string"));
}

TEST_CASE("dictionary: an all-null column, a copy across memories, and a frame of one row", "[dictionary]") {
  strings const nulls(70);
  auto const f = coded_frame(nulls, random_values(70, 71));
  CHECK(f["s"_c].dictionary_size() == 0);
  CHECK((f | colx::count_if("s"_c == "b")) == 0);
  auto const g = f | colx::group_by("s"_c) | colx::aggregate(colx::count().as<"rows">());
  REQUIRE(g.num_rows() == 1);
  CHECK(decoded(g["s"_c]) == strings{std::nullopt});
  CHECK(colx::to_vector(g["rows"_c].view()) == std::vector<std::int64_t>{70});
  // Host and back: the codes and the dictionary both move.
  strings const s = random_strings(300, 72);
  auto const d = coded_frame(s, random_values(300, 73));
  auto const on_host = colx::to_host(colx::any_column_view(d["s"_c]));
  CHECK(colx::is_host_accessible(on_host.kind()));
  CHECK(on_host.children().front().kind() == on_host.kind());
  CHECK(decoded(on_host) == s);
  auto const one = coded_frame(strings{"z"}, {5});
  auto const r = one | colx::group_by("s"_c) | colx::aggregate(colx::sum("x"_c).as<"t">());
  CHECK(decoded(r["s"_c]) == strings{"z"});
  CHECK(colx::to_optional_vector(r["t"_c].view()) == std::vector<std::optional<std::int64_t>>{5});
}

// A sort by a dictionary column sorts the ranks of its codes (frame/sort_dictionary.hpp): here the
// dictionary is not in value order, so codes alone would sort wrongly. Every order is checked
// against the same sort of the decoded strings, stable ties included.
TEST_CASE("dictionary: a sort by a dictionary column orders by value, through the ranks of its codes", "[dictionary]") {
  using wide = colx::schema<colx::field<"s", colx::dictionary<colx::string_view, std::int16_t>>, colx::field<"x", std::int64_t>>;
  strings const entries{"pear", "apple", "", "Zed", "héllo", "fig", "banana"};
  for (colx::size_type const n : {0, 1, 33, 257, 1000}) {
    CAPTURE(n);
    std::mt19937 rng(static_cast<unsigned>(n) + 7);
    codes8 codes;
    std::vector<std::optional<std::int16_t>> codes16;
    strings values;
    for (colx::size_type i = 0; i < n; ++i) {
      bool const null = rng() % 7 == 0;
      auto const c = static_cast<std::uint8_t>(rng() % entries.size());
      codes.push_back(null ? std::nullopt : std::optional<std::uint8_t>(c));
      codes16.push_back(null ? std::nullopt : std::optional<std::int16_t>(static_cast<std::int16_t>(c)));
      values.push_back(null ? std::nullopt : entries[c]);
    }
    auto const x = random_values(n, 99);
    colx::frame<coded> const f(colx::make_dictionary_column(colx::make_column(codes), colx::make_strings_column(entries)), colx::make_column(x));
    colx::frame<wide> const w(colx::make_dictionary_column(colx::make_column(codes16), colx::make_strings_column(entries)), colx::make_column(x));
    colx::frame<plain> const p(colx::make_strings_column(values), colx::make_column(x));
    auto const same = [&](auto const& sorted, auto const& want) {
      CHECK(decoded(sorted["s"_c].untyped()) == colx::to_strings(want["s"_c].view()));
      CHECK(colx::to_vector(sorted["x"_c].view()) == colx::to_vector(want["x"_c].view()));
    };
    same(f | colx::sort_by("s"_c), p | colx::sort_by("s"_c));
    same(f | colx::sort_by(colx::desc("s"_c)), p | colx::sort_by(colx::desc("s"_c)));
    same(f | colx::sort_by(colx::asc("s"_c).nulls_first(), colx::desc("x"_c)), p | colx::sort_by(colx::asc("s"_c).nulls_first(), colx::desc("x"_c)));
    auto const ws = w | colx::sort_by(colx::desc("s"_c).nulls_first(), "x"_c);
    auto const ps = p | colx::sort_by(colx::desc("s"_c).nulls_first(), "x"_c);
    CHECK(colx::to_strings(colx::decode(ws["s"_c]).view()) == colx::to_strings(ps["s"_c].view()));
    CHECK(colx::to_vector(ws["x"_c].view()) == colx::to_vector(ps["x"_c].view()));
    CHECK(colx::to_vector(colx::argsort(f, "s"_c, "x"_c).view()) == colx::to_vector(colx::argsort(p, "s"_c, "x"_c).view()));
  }
  // A dictionary of up to 256 entries is ranked in one pass that counts the entries before each;
  // a larger one is sorted: 300 entries, in no order.
  strings many;
  for (int e = 0; e < 300; ++e) { many.push_back("w" + std::to_string((e * 7919) % 1000)); }
  for (colx::size_type const n : {1, 1000}) {
    CAPTURE(n);
    std::mt19937 rng(static_cast<unsigned>(n) + 11);
    std::vector<std::optional<std::int16_t>> codes16;
    strings values;
    for (colx::size_type i = 0; i < n; ++i) {
      auto const c = static_cast<std::int16_t>(rng() % many.size());
      codes16.push_back(c);
      values.push_back(many[static_cast<std::size_t>(c)]);
    }
    auto const x = random_values(n, 5);
    colx::frame<wide> const w(colx::make_dictionary_column(colx::make_column(codes16), colx::make_strings_column(many)), colx::make_column(x));
    colx::frame<plain> const p(colx::make_strings_column(values), colx::make_column(x));
    auto const ws = w | colx::sort_by(colx::desc("s"_c), "x"_c);
    auto const ps = p | colx::sort_by(colx::desc("s"_c), "x"_c);
    CHECK(colx::to_strings(colx::decode(ws["s"_c]).view()) == colx::to_strings(ps["s"_c].view()));
    CHECK(colx::to_vector(ws["x"_c].view()) == colx::to_vector(ps["x"_c].view()));
  }
}

// LIKE with a constant pattern over a dictionary column is matched once per dictionary entry and
// read by code (dictionary_like; resolve_literals): up to 256 entries' bits in the node, a larger
// dictionary's in a buffer. Both against the same LIKE over the decoded strings, in count_if, a
// filter, a derived column and a group-by's filter.
TEST_CASE("dictionary: LIKE with a constant pattern is matched once per entry and read by code", "[dictionary]") {
  using big = colx::schema<colx::field<"s", colx::dictionary<colx::string_view, std::uint16_t>>, colx::field<"x", std::int64_t>>;
  for (colx::size_type const n : {0, 1, 257, 1000}) {
    CAPTURE(n);
    auto const s = random_strings(n, static_cast<unsigned>(n) + 3, 8);
    auto const x = random_values(n, 5);
    auto const f = coded_frame(s, x);
    colx::frame<plain> const p(colx::make_strings_column(s), colx::make_column(x));
    // 300 entries (more than the node's bits): words, then numbered fillers.
    strings entries{"north", "", "héllo", "a", "south-west by a long way", "b", "Z", "ok"};
    for (int k = 0; static_cast<int>(entries.size()) < 300; ++k) { entries.push_back("filler " + std::to_string(k)); }
    std::mt19937 rng(static_cast<unsigned>(n));
    std::vector<std::optional<std::uint16_t>> codes;
    strings big_values;
    for (colx::size_type i = 0; i < n; ++i) {
      auto const c = static_cast<std::uint16_t>(rng() % 300);
      bool const null = rng() % 5 == 0;
      codes.push_back(null ? std::nullopt : std::optional<std::uint16_t>(c));
      big_values.push_back(null ? std::nullopt : entries[c]);
    }
    colx::frame<big> const b(colx::make_dictionary_column(colx::make_column(codes), colx::make_strings_column(entries)), colx::make_column(x));
    colx::frame<plain> const bp(colx::make_strings_column(big_values), colx::make_column(x));
    {
      auto const* fr = &f;
      auto const* pl = &p;
      CHECK((*fr | colx::count_if(colx::like("s"_c, "%o%"))) == (*pl | colx::count_if(colx::like("s"_c, "%o%"))));
      CHECK((*fr | colx::count_if(colx::like("s"_c, "so%way"))) == (*pl | colx::count_if(colx::like("s"_c, "so%way"))));
      CHECK((*fr | colx::count_if(!colx::like("s"_c, "_"))) == (*pl | colx::count_if(!colx::like("s"_c, "_"))));
      auto const kept = (*fr | colx::filter(colx::like("s"_c, "%h%"))).collect();
      auto const want = (*pl | colx::filter(colx::like("s"_c, "%h%"))).collect();
      CHECK(decoded(kept["s"_c]) == colx::to_strings(want["s"_c].view()));
      auto const flags = *fr | colx::with_columns(colx::like("s"_c, "%th%").as<"m">());
      auto const want_flags = *pl | colx::with_columns(colx::like("s"_c, "%th%").as<"m">());
      CHECK(colx::to_optional_vector(flags["m"_c].view()) == colx::to_optional_vector(want_flags["m"_c].view()));
      auto const sums = *fr | colx::filter(colx::like("s"_c, "%o%")) | colx::group_by(colx::group_by_options{.sorted = true}, "x"_c) |
                        colx::aggregate(colx::count().as<"c">());
      auto const want_sums = *pl | colx::filter(colx::like("s"_c, "%o%")) | colx::group_by(colx::group_by_options{.sorted = true}, "x"_c) |
                             colx::aggregate(colx::count().as<"c">());
      CHECK(colx::to_vector(sums["c"_c].view()) == colx::to_vector(want_sums["c"_c].view()));
      // Two LIKEs (two comparisons) of one column in one group-by: one type each pair, two cells.
      auto const two = [](auto const& g) {
        return g | colx::group_by(colx::group_by_options{.sorted = true}, "x"_c) |
               colx::aggregate(colx::sum(colx::like("s"_c, "%o%")).as<"a">(), colx::sum(colx::like("s"_c, "%h%")).as<"b">(),
                               colx::sum("s"_c == "north").as<"c">(), colx::sum("s"_c == "ok").as<"d">());
      };
      auto const got = two(*fr);
      auto const want_two = two(*pl);
      CHECK(colx::to_optional_vector(got["a"_c].view()) == colx::to_optional_vector(want_two["a"_c].view()));
      CHECK(colx::to_optional_vector(got["b"_c].view()) == colx::to_optional_vector(want_two["b"_c].view()));
      CHECK(colx::to_optional_vector(got["c"_c].view()) == colx::to_optional_vector(want_two["c"_c].view()));
      CHECK(colx::to_optional_vector(got["d"_c].view()) == colx::to_optional_vector(want_two["d"_c].view()));
    }
    CHECK((b | colx::count_if(colx::like("s"_c, "filler 1%"))) == (bp | colx::count_if(colx::like("s"_c, "filler 1%"))));
    CHECK((b | colx::count_if(colx::like("s"_c, "%o%"))) == (bp | colx::count_if(colx::like("s"_c, "%o%"))));
    // 300 entries: the entries' bits in a buffer the terminal keeps.
    auto const big_kept = (b | colx::filter(colx::like("s"_c, "%ller 2%"))).collect();
    auto const big_want = (bp | colx::filter(colx::like("s"_c, "%ller 2%"))).collect();
    CHECK(colx::to_strings(colx::decode(big_kept["s"_c]).view()) == colx::to_strings(big_want["s"_c].view()));
    auto const big_flags = b | colx::with_columns(colx::like("s"_c, "%9").as<"m">());
    auto const big_want_flags = bp | colx::with_columns(colx::like("s"_c, "%9").as<"m">());
    CHECK(colx::to_optional_vector(big_flags["m"_c].view()) == colx::to_optional_vector(big_want_flags["m"_c].view()));
    auto const big_groups = b | colx::filter(colx::like("s"_c, "%1%")) | colx::group_by(colx::group_by_options{.sorted = true}, "x"_c) |
                            colx::aggregate(colx::count().as<"c">());
    auto const big_want_groups = bp | colx::filter(colx::like("s"_c, "%1%")) |
                                 colx::group_by(colx::group_by_options{.sorted = true}, "x"_c) | colx::aggregate(colx::count().as<"c">());
    CHECK(colx::to_vector(big_groups["c"_c].view()) == colx::to_vector(big_want_groups["c"_c].view()));
  }
}

// unify_dictionaries recodes columns over different dictionaries over one (their union, sorted):
// values unchanged, the dictionary shared, so they concatenate and a right join can write one key
// column; before, both are clear errors naming the way out.
TEST_CASE("dictionary: unify_dictionaries recodes columns over one dictionary", "[dictionary]") {
  using dict = colx::dictionary_column<colx::string_view, std::uint8_t>;
  for (colx::size_type const n : {0, 1, 257}) {
    CAPTURE(n);
    strings const a_values = random_strings(n, 61, 8);
    // b's dictionary in no order, with an entry ("zeta") no row uses.
    strings const b_entries{"ok", "zeta", "north", "b", "only in b"};
    std::mt19937 rng(static_cast<unsigned>(n) + 63);
    codes8 b_codes;
    strings b_values;
    for (colx::size_type i = 0; i < n + 5; ++i) {
      auto const c = static_cast<std::uint8_t>(std::array<int, 4>{0, 2, 3, 4}[rng() % 4]);
      bool const null = rng() % 6 == 0;
      b_codes.push_back(null ? std::nullopt : std::optional<std::uint8_t>(c));
      b_values.push_back(null ? std::nullopt : b_entries[c]);
    }
    auto const a = colx::encode<std::uint8_t>(colx::make_strings_column(a_values));
    auto const b = colx::make_dictionary_column(colx::make_column(b_codes), colx::make_strings_column(b_entries));
    std::vector<dict> const columns{a, b};
    auto const unified = colx::unify_dictionaries(std::span<dict const>(columns));
    REQUIRE(unified.size() == 2);
    CHECK(decoded(unified[0]) == a_values);
    CHECK(decoded(unified[1]) == b_values);
    CHECK(unified[0].dictionary().data().read() == unified[1].dictionary().data().read());
    auto const union_values = colx::to_strings(colx::strings_column_view(unified[0].dictionary().view()));
    CHECK(std::is_sorted(union_values.begin(), union_values.end()));
    CHECK(std::set<std::optional<std::string>>(union_values.begin(), union_values.end()).size() == union_values.size());
    std::vector<colx::any_column_view> const parts{unified[0], unified[1]};
    auto const joined = dict(colx::concatenate(parts));
    strings both = a_values;
    both.insert(both.end(), b_values.begin(), b_values.end());
    CHECK(decoded(joined) == both);
  }
  // Different dictionaries: concatenate and a right join say what to do.
  auto const x = coded_frame(strings{"a", "b"}, {1, 2});
  auto const y = coded_frame(strings{"b", "c"}, {3, 4});
  std::vector<colx::any_column_view> const parts{x["s"_c], y["s"_c]};
  CHECK_THROWS_WITH(colx::concatenate(parts), Catch::Contains("colx::unify_dictionaries"));
  using right_keyed = colx::schema<colx::field<"s", flag>, colx::field<"y", std::int64_t>>;
  colx::frame<right_keyed> const yr(y["s"_c], y["x"_c]);
  CHECK_THROWS_WITH(x | colx::join<colx::join_kind::right>(yr, colx::on("s"_c)), Catch::Contains("colx::unify_dictionaries"));
  std::vector<dict> const keys{x["s"_c], y["s"_c]};
  auto const u = colx::unify_dictionaries(std::span<dict const>(keys));
  colx::frame<coded> const xu(u[0], x["x"_c]);
  colx::frame<right_keyed> const yu(u[1], y["x"_c]);
  auto const r = xu | colx::join<colx::join_kind::right>(yu, colx::on("s"_c));
  CHECK(r.num_rows() == 2);
  CHECK(decoded(r["s"_c]) == strings{"b", "c"});
  // A union with more values than the codes can number.
  strings many;
  for (int k = 0; k < 200; ++k) { many.push_back("v" + std::to_string(k)); }
  strings more;
  for (int k = 200; k < 400; ++k) { more.push_back("v" + std::to_string(k)); }
  std::vector<dict> const big{colx::encode<std::uint8_t>(colx::make_strings_column(many)), colx::encode<std::uint8_t>(colx::make_strings_column(more))};
  CHECK_THROWS_WITH(colx::unify_dictionaries(std::span<dict const>(big)), Catch::Contains("do not fit codes of type uint8"));
}
