// SPDX-License-Identifier: Apache-2.0
// SQL's LIKE and ILIKE (issue 16): every string of up to five characters from a small alphabet
// (ASCII, a two-byte and a three-byte code point) against every pattern of up to four symbols,
// checked against a recursive matcher over code points; then as a filter and a derived column over
// columns with nulls and empty strings, on the backend under test.
#include "support/columns.hpp"

#include <catch2/catch.hpp>

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

using namespace colx::literals;

namespace {

using colx::test::strings;

// Code points of a UTF-8 string.
std::vector<char32_t> code_points(std::string const& s) {
  std::vector<char32_t> out;
  for (std::size_t i = 0; i < s.size();) {
    auto const b = static_cast<unsigned char>(s[i]);
    std::size_t const n = b < 0xC0 ? 1 : b < 0xE0 ? 2 : b < 0xF0 ? 3 : 4;
    char32_t cp = n == 1 ? b : b & (0xFF >> (n + 1));
    for (std::size_t k = 1; k < n; ++k) { cp = (cp << 6) | (static_cast<unsigned char>(s[i + k]) & 0x3F); }
    out.push_back(cp);
    i += n;
  }
  return out;
}

char32_t fold(char32_t c, bool ci) { return ci && c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c; }

// The reference: SQL's definition, recursively, one code point at a time.
bool reference_like(std::vector<char32_t> const& s, std::size_t i, std::vector<char32_t> const& p, std::size_t j, bool ci) {
  if (j == p.size()) { return i == s.size(); }
  if (p[j] == U'%') {
    for (std::size_t k = i; k <= s.size(); ++k) {
      if (reference_like(s, k, p, j + 1, ci)) { return true; }
    }
    return false;
  }
  if (i == s.size()) { return false; }
  if (p[j] == U'_' || fold(p[j], ci) == fold(s[i], ci)) { return reference_like(s, i + 1, p, j + 1, ci); }
  return false;
}
bool reference_like(std::string const& s, std::string const& p, bool ci = false) {
  return reference_like(code_points(s), 0, code_points(p), 0, ci);
}

// Every sequence of up to `most` pieces.
std::vector<std::string> all_of(std::vector<std::string> const& pieces, int most) {
  std::vector<std::string> out{""};
  std::vector<std::string> last{""};
  for (int len = 1; len <= most; ++len) {
    std::vector<std::string> next;
    for (auto const& s : last) {
      for (auto const& p : pieces) { next.push_back(s + p); }
    }
    out.insert(out.end(), next.begin(), next.end());
    last = std::move(next);
  }
  return out;
}

}  // namespace

TEST_CASE("like: every short string against every short pattern, as SQL defines it", "[expr][strings]") {
  auto const texts = all_of({"a", "B", "é", "本"}, 5);
  auto const patterns = all_of({"a", "b", "é", "_", "%"}, 4);
  std::size_t wrong = 0, wrong_ci = 0, wrong_shaped = 0, matches = 0, shaped = 0;
  for (auto const& p : patterns) {
    colx::string_view const pv(p.data(), static_cast<colx::size_type>(p.size()));
    auto const shape = colx::expr::ops::shape_of(pv);  // what like(s, "constant") uses
    shaped += shape.kind != colx::expr::ops::like_shape::general ? 1 : 0;
    for (auto const& s : texts) {
      colx::string_view const sv(s.data(), static_cast<colx::size_type>(s.size()));
      bool const want = reference_like(s, p);
      matches += want ? 1 : 0;
      wrong += colx::expr::ops::like::apply(sv, pv) == want ? 0 : 1;
      wrong_ci += colx::expr::ops::ilike::apply(sv, pv) == reference_like(s, p, true) ? 0 : 1;
      wrong_shaped += colx::expr::ops::like_shaped(sv, pv, shape) == want ? 0 : 1;
    }
  }
  CHECK(texts.size() * patterns.size() > 500000);
  CHECK(matches > 10000);
  CHECK(wrong == 0);
  CHECK(wrong_ci == 0);
  CHECK(shaped > 100);  // exact, prefix, suffix and infix patterns, each tested by its fast path
  CHECK(wrong_shaped == 0);
}

TEST_CASE("like: a filter and a derived column, with nulls and empty strings", "[expr][strings]") {
  using S = colx::schema<colx::field<"s", colx::string_view>>;
  strings s{"forest green", "green", std::nullopt, "", "evergreen tree", "GREEN", "gren", "grüne", "g"};
  for (colx::size_type const n : colx::test::sizes) {
    CAPTURE(n);
    strings v;
    for (colx::size_type i = 0; i < n; ++i) { v.push_back(s[static_cast<std::size_t>(i) % s.size()]); }
    colx::frame<S> const f(colx::test::strings_of(v));
    std::int64_t want = 0;
    std::vector<std::optional<bool>> want_rows;
    for (auto const& e : v) {
      want += e && reference_like(*e, "%green%") ? 1 : 0;
      want_rows.push_back(e ? std::optional<bool>(!reference_like(*e, "gr_n%")) : std::nullopt);
    }
    CHECK((f | colx::count_if(colx::like("s"_c, "%green%"))) == want);
    auto const r = f | colx::with_columns(colx::not_like("s"_c, "gr_n%").as<"nl">(), colx::ilike("s"_c, "green").as<"il">());
    CHECK(colx::to_optional_vector(r["nl"_c].view()) == want_rows);
    std::int64_t ci = 0;
    for (auto const& e : v) { ci += e && reference_like(*e, "green", true) ? 1 : 0; }
    CHECK((r | colx::count_if("il"_c)) == ci);
  }
}

// Found by review: a multi-byte sequence cut short at the end of the string ends there.
TEST_CASE("like: a code point cut short at the end of a string", "[expr][strings]") {
  auto const like = [](std::string const& s, std::string const& p) {
    return colx::expr::ops::like::apply(colx::string_view(s.data(), static_cast<colx::size_type>(s.size())),
                                         colx::string_view(p.data(), static_cast<colx::size_type>(p.size())));
  };
  CHECK(like("a\xE2", "a%"));
  CHECK(like("\xE2", "%"));
  CHECK(like("\xE2", "_"));
  CHECK(like("a\xE2\x82", "a_"));
  CHECK_FALSE(like("a\xE2", "a__"));
}

// On the device a search in a strings column reads the column's bytes in aligned words, 16 bytes
// a step (types/string_search.hpp): rows start at every byte alignment here, run past one step,
// end at the end of the chars buffer, hold matches across the steps' edges, and come with int64
// offsets, nulls and a fixed width; every count is checked against std::string::find.
TEST_CASE("like and contains: a search in a column's bytes, at every alignment and the buffer's end", "[expr][strings]") {
  using S = colx::schema<colx::field<"s", colx::string_view>>;
  using F = colx::schema<colx::field<"s", colx::string_view, colx::not_null>>;
  std::uint64_t state = 12345;
  auto const next = [&] {
    state = state * 6364136223846793005ULL + 1442695040888963407ULL;
    return static_cast<std::uint32_t>(state >> 33);
  };
  char const* const letters[] = {"g", "r", "e", "n", "a", "é", " "};
  auto const word = [&](std::size_t length) {
    std::string out;
    while (out.size() < length) { out += letters[next() % 7]; }
    return out;
  };
  for (colx::size_type const n : {1, 3, 33, 257, 4097}) {
    CAPTURE(n);
    strings v;
    std::vector<std::string> fixed;
    for (colx::size_type i = 0; i < n; ++i) {
      std::string s = word(next() % 41);
      if (next() % 5 == 0) { s.insert(next() % (s.size() + 1), "green"); }
      v.push_back(next() % 9 == 0 ? std::nullopt : std::optional<std::string>(s));
      std::string f7;
      while (f7.size() < 7) { f7 += "grena "[next() % 6]; }  // one byte a letter: 7 bytes exactly
      fixed.push_back(f7);
    }
    v.back() = word(4 * (next() % 5) + 1 + next() % 3) + "gr";  // the last row ends off a word, at the buffer's end
    std::string fixed_chars;
    for (auto const& s : fixed) { fixed_chars += s; }
    auto const mr = colx::test::backend_resource();
    colx::frame<F> const fixed_frame(colx::make_fixed_width_strings(
        n, 7, colx::buffer(fixed_chars.data(), colx::memory_kind::host, fixed_chars.size(), {}, mr), {}, 0, {}, mr));
    for (auto const offsets : {colx::type_id::int32, colx::type_id::int64}) {
      colx::frame<S> const f(colx::test::strings_of(v, offsets));
      auto const count = [&](strings const& rows, std::string const& lit, std::size_t from) {
        std::int64_t c = 0;
        for (std::size_t i = from; i < rows.size(); ++i) { c += rows[i] && rows[i]->find(lit) != std::string::npos ? 1 : 0; }
        return c;
      };
      strings const fixed_rows(fixed.begin(), fixed.end());
      CHECK((f | colx::count_if(colx::like("s"_c, "%g%"))) == count(v, "g", 0));
      CHECK((f | colx::count_if(colx::like("s"_c, "%gr%"))) == count(v, "gr", 0));
      CHECK((f | colx::count_if(colx::like("s"_c, "%gre%"))) == count(v, "gre", 0));
      CHECK((f | colx::count_if(colx::like("s"_c, "%green%"))) == count(v, "green", 0));
      CHECK((f | colx::count_if(colx::like("s"_c, "%é%"))) == count(v, "é", 0));
      // Every literal size the device searches whole-word (1 to 8 bytes), and 9, which it does not.
      auto const check_contains = [&](auto const& lit) {
        CAPTURE(lit);
        CHECK((f | colx::count_if(colx::contains("s"_c, lit))) == count(v, lit, 0));
      };
      check_contains("a");
      check_contains("een");
      check_contains("gree");
      check_contains("agreen");
      check_contains("agreen ");
      check_contains("n agreen");
      check_contains("n agreen ");
      CHECK((f | colx::count_if(colx::like("s"_c, "%n egreen é%"))) == count(v, "n egreen é", 0));
      CHECK((f | colx::count_if(colx::contains("s"_c, "en"))) == count(v, "en", 0));
      CHECK((f | colx::count_if(colx::contains("s"_c, "eeeeeeeeeeeeeeeeee"))) == count(v, "eeeeeeeeeeeeeeeeee", 0));
      CHECK((f | colx::count_if(colx::contains("s"_c, ""))) == count(v, "", 0));
      auto const tail = f.slice(n / 2, n);
      CHECK((tail | colx::count_if(colx::like("s"_c, "%gr%"))) == count(v, "gr", static_cast<std::size_t>(n / 2)));
      auto const flagged = f | colx::with_columns(colx::contains("s"_c, "gre").as<"m">());
      std::vector<std::optional<bool>> want;
      for (auto const& e : v) { want.push_back(e ? std::optional<bool>(e->find("gre") != std::string::npos) : std::nullopt); }
      CHECK(colx::to_optional_vector(flagged["m"_c].view()) == want);
      CHECK((fixed_frame | colx::count_if(colx::like("s"_c, "%gr%"))) == count(fixed_rows, "gr", 0));
      CHECK((fixed_frame | colx::count_if(colx::contains("s"_c, "a"))) == count(fixed_rows, "a", 0));
    }
  }
}

// A constant LIKE '%literal%' of every literal size the device searches whole-word (1 to 8 bytes),
// and 9: literals cut across rows (which must not match), rows empty, long (several 16-byte steps)
// and null, the frame sliced, the pattern first and last in a filter and in a derived column.
TEST_CASE("like: constant substring patterns of every size, rows that only join to match", "[expr][strings]") {
  using S = colx::schema<colx::field<"s", colx::string_view>, colx::field<"x", std::int32_t, colx::not_null>>;
  strings const pieces{"xxgre", "enyy", "green", "", "gre", "en", std::nullopt, "g",
                       "reen", "abcdefgh", "abcdefghabcdefghabcdefghabcdefghabcdefghgreen", "ngreengreen", "green"};
  for (colx::size_type const n : colx::test::sizes) {
    CAPTURE(n);
    strings v;
    std::vector<std::int32_t> x;
    for (colx::size_type i = 0; i < n; ++i) {
      v.push_back(pieces[static_cast<std::size_t>(i * 7 + i / 13) % pieces.size()]);
      x.push_back(static_cast<std::int32_t>(i % 3));
    }
    colx::frame<S> const f(colx::test::strings_of(v), colx::make_column(x, {}, colx::test::backend_resource()));
    for (colx::size_type const from : {colx::size_type{0}, std::min<colx::size_type>(n, 3)}) {
      auto const g = f.slice(from, n);
      // A constant pattern (a string literal) makes a like_constant; each literal size 1 to 8, and 9.
      auto const check = [&](auto const& pattern) {
        std::string const lit = std::string(pattern).substr(1, std::string(pattern).size() - 2);
        CAPTURE(from, lit);
        std::int64_t want = 0, want_x = 0;
        for (std::size_t i = static_cast<std::size_t>(from); i < v.size(); ++i) {
          bool const hit = v[i] && v[i]->find(lit) != std::string::npos;
          want += hit ? 1 : 0;
          want_x += hit && x[i] == 1 ? 1 : 0;
        }
        CHECK((g | colx::count_if(colx::like("s"_c, pattern))) == want);
        CHECK((g | colx::count_if(colx::like("s"_c, pattern) && "x"_c == 1)) == want_x);
        CHECK((g | colx::count_if("x"_c == 1 && colx::like("s"_c, pattern))) == want_x);
        auto const flagged = g | colx::filter("x"_c == 1) | colx::with_columns(colx::like("s"_c, pattern).template as<"m">());
        CHECK((flagged | colx::count_if("m"_c)) == want_x);
      };
      check("%g%");
      check("%gr%");
      check("%gre%");
      check("%gree%");
      check("%green%");
      check("%bcdefg%");
      check("%bcdefgh%");
      check("%hgreeng%");
      check("%abcdefgh%");
      check("%abcdefgha%");
    }
  }
}

// On the device, a fold whose first stage is a constant LIKE '%literal%' searches four rows a
// thread as one span of bytes (gpu/reduce_rows.cuh): matches must go to their rows, never across
// a row's edge, nulls never match, later stages still test each row, and adds arrive out of row
// order (argmin and argmax must still break ties by the lowest row). 4.5M rows on the device are
// more groups of four than one grid's threads, so threads take several steps; the frame is
// sliced at odd rows at both ends, so the last warp's rows are a partial step.
TEST_CASE("like: a fold searching four rows at once, over whole grid steps and their tail", "[expr][strings]") {
  using S = colx::schema<colx::field<"s", colx::string_view>, colx::field<"x", std::int32_t, colx::not_null>,
                         colx::field<"w", std::int64_t, colx::not_null>>;
  char const* const words[] = {"green", "gre", "en", "", "navy", "seagreen", "grey", "e", "lime green", "g"};
  colx::size_type const n = colx::test::on_device() ? 4'500'001 : 100'003;
  std::uint64_t state = 99;
  auto const next = [&] {
    state = state * 6364136223846793005ULL + 1442695040888963407ULL;
    return static_cast<std::uint32_t>(state >> 33);
  };
  strings v;
  std::vector<std::int32_t> x;
  std::vector<std::int64_t> w;
  for (colx::size_type i = 0; i < n; ++i) {
    std::string s = words[next() % 10];
    if (next() % 2 == 0) { s += std::string(" ") + words[next() % 10]; }
    v.push_back(next() % 11 == 0 ? std::nullopt : std::optional<std::string>(s));
    x.push_back(static_cast<std::int32_t>(next() % 3));
    w.push_back(static_cast<std::int64_t>(next() % 5));  // ties everywhere
  }
  auto const mr = colx::test::backend_resource();
  colx::frame<S> const f(colx::test::strings_of(v), colx::make_column(x, {}, mr), colx::make_column(w, {}, mr));
  for (colx::size_type const from : {colx::size_type{0}, colx::size_type{1}, colx::size_type{6}}) {
    colx::size_type const to = n - from / 2;
    CAPTURE(from, to);
    auto const g = f.slice(from, to);
    auto const has = [&](std::size_t i, char const* lit) { return v[i] && v[i]->find(lit) != std::string::npos; };
    std::int64_t green = 0, gr_x = 0, een = 0, sum = 0;
    std::int64_t low = 0, high = 0;
    colx::size_type amin = -1, amax = -1;
    for (auto i = static_cast<std::size_t>(from); i < static_cast<std::size_t>(to); ++i) {
      green += has(i, "green") ? 1 : 0;
      gr_x += has(i, "gr") && x[i] == 1 ? 1 : 0;
      if (!has(i, "een")) { continue; }
      ++een;
      sum += 2 * x[i];
      auto const row = static_cast<colx::size_type>(i) - from;
      if (amin < 0 || w[i] < low) { low = w[i], amin = row; }
      if (amax < 0 || w[i] > high) { high = w[i], amax = row; }
    }
    CHECK((g | colx::count_if(colx::like("s"_c, "%green%"))) == green);
    CHECK((g | colx::count_if(colx::like("s"_c, "%gr%") && "x"_c == 1)) == gr_x);
    auto const [s2, lo, hi, rows] = g | colx::filter(colx::like("s"_c, "%een%")) |
                                    colx::reduce(colx::sum("x"_c * 2), colx::argmin("w"_c), colx::argmax("w"_c), colx::count());
    CHECK(rows.value() == een);
    CHECK(s2.value() == sum);
    CHECK(lo.value() == amin);
    CHECK(hi.value() == amax);
  }
}

// '%a%b%' (2 to 4 literals between %s) is searched literal after literal, each from the end of
// the first place the one before was found (ops::like_shape::in_order): every such pattern of up
// to seven pieces against every short string, checked against the recursive matcher; then in a
// column's bytes (a word at a time on the device), as a count, a derived column and a group-by's
// filter (TPC-H Q13's form), with literals of 1 to 8 bytes and longer, int32 and int64 offsets,
// nulls, empty rows and a slice.
TEST_CASE("like: literals between %s, each searched after the one before", "[expr][strings]") {
  using colx::expr::ops::like_shape;
  auto const kind = [](std::string const& p) {
    return colx::expr::ops::shape_of(colx::string_view(p.data(), static_cast<colx::size_type>(p.size()))).kind;
  };
  CHECK(kind("%special%requests%") == like_shape::in_order);
  CHECK(kind("%%a%%%b%%c%%d%%") == like_shape::in_order);
  CHECK(kind("%a%b%c%d%e%") == like_shape::general);  // five literals
  CHECK(kind("a%b%") == like_shape::general);         // anchored at the start
  CHECK(kind("%a%b") == like_shape::general);
  CHECK(kind("%a_%b%") == like_shape::general);
  CHECK(kind("%%ab%%") == like_shape::infix);
  auto const texts = all_of({"a", "B", "é", "本"}, 4);
  auto const patterns = all_of({"a", "é", "%"}, 7);
  std::size_t wrong = 0, in_order = 0, matches = 0;
  for (auto const& p : patterns) {
    colx::string_view const pv(p.data(), static_cast<colx::size_type>(p.size()));
    auto const shape = colx::expr::ops::shape_of(pv);
    if (shape.kind != like_shape::in_order) { continue; }
    ++in_order;
    for (auto const& s : texts) {
      colx::string_view const sv(s.data(), static_cast<colx::size_type>(s.size()));
      bool const want = reference_like(s, p);
      matches += want ? 1 : 0;
      wrong += colx::expr::ops::like_shaped(sv, pv, shape) == want ? 0 : 1;
    }
  }
  CHECK(in_order > 50);
  CHECK(matches > 1000);
  CHECK(wrong == 0);

  using S = colx::schema<colx::field<"s", colx::string_view>, colx::field<"k", std::int32_t, colx::not_null>>;
  strings const pieces{"special requests", "requests special", "specialrequests", "special", std::nullopt, "", "x special y requests z",
                       "sp", "ecial requests", "gr een", "green gr", "abcdefghijk k", "k abcdefghijk", "specia lrequests"};
  for (colx::size_type const n : {colx::size_type{1}, colx::size_type{257}, colx::size_type{100003}}) {
    strings v;
    std::vector<std::int32_t> k;
    for (colx::size_type i = 0; i < n; ++i) {
      v.push_back(pieces[static_cast<std::size_t>(i * 5 + i / 14) % pieces.size()]);
      k.push_back(static_cast<std::int32_t>(i % 7));
    }
    for (auto const offsets : {colx::type_id::int32, colx::type_id::int64}) {
      colx::frame<S> const f(colx::test::strings_of(v, offsets), colx::make_column(k, {}, colx::test::backend_resource()));
      colx::size_type const from = std::min<colx::size_type>(n, 5);
      auto const g = f.slice(from, n);
      CAPTURE(n, from);
      auto const want = [&](char const* p) {
        std::int64_t c = 0;
        for (auto i = static_cast<std::size_t>(from); i < v.size(); ++i) { c += v[i] && reference_like(*v[i], p) ? 1 : 0; }
        return c;
      };
      CHECK((g | colx::count_if(colx::like("s"_c, "%special%requests%"))) == want("%special%requests%"));
      CHECK((g | colx::count_if(colx::like("s"_c, "%gr%een%"))) == want("%gr%een%"));
      CHECK((g | colx::count_if(colx::like("s"_c, "%abcdefghij%k%"))) == want("%abcdefghij%k%"));
      CHECK((g | colx::count_if(colx::like("s"_c, "%s%e%c%s%"))) == want("%s%e%c%s%"));
      auto const flagged = g | colx::with_columns(colx::not_like("s"_c, "%special%requests%").as<"m">());
      std::vector<std::optional<bool>> rows;
      std::map<std::int32_t, colx::size_type> per_key;
      for (auto i = static_cast<std::size_t>(from); i < v.size(); ++i) {
        rows.push_back(v[i] ? std::optional<bool>(!reference_like(*v[i], "%special%requests%")) : std::nullopt);
        if (v[i] && !reference_like(*v[i], "%special%requests%")) { ++per_key[k[i]]; }
      }
      CHECK(colx::to_optional_vector(flagged["m"_c].view()) == rows);
      auto const counted = g | colx::filter(colx::not_like("s"_c, "%special%requests%")) |
                           colx::group_by(colx::group_by_options{.sorted = true}, "k"_c) | colx::aggregate(colx::count().as<"n">());
      std::vector<std::int32_t> keys;
      std::vector<colx::size_type> counts;
      for (auto const& [key, c] : per_key) {
        keys.push_back(key);
        counts.push_back(c);
      }
      CHECK(colx::to_vector(counted["k"_c].view()) == keys);
      CHECK(colx::to_vector(counted["n"_c].view()) == counts);
    }
  }
}
