// SPDX-License-Identifier: Apache-2.0
// Strings that compute (issue 16): with_columns stores string-valued expressions (parts of
// strings, computed strings, casts to text) beside fixed-width ones in one pass, over columns with
// nulls, empty strings and multi-byte characters at every test size, against host references
// written over code points; then the text casts against DuckDB's answers.
#include "support/columns.hpp"

#include <catch2/catch.hpp>

#include <algorithm>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

using namespace colx::literals;

namespace {

using colx::test::strings;
using opt = std::optional<std::string>;

// A UTF-8 string as its characters (each a string of 1 to 4 bytes).
std::vector<std::string> characters(std::string const& s) {
  std::vector<std::string> out;
  for (std::size_t i = 0; i < s.size();) {
    auto const b = static_cast<unsigned char>(s[i]);
    std::size_t const n = std::min(s.size() - i, std::size_t{b < 0xC0 ? 1u : b < 0xE0 ? 2u : b < 0xF0 ? 3u : 4u});
    out.push_back(s.substr(i, n));
    i += n;
  }
  return out;
}
std::string joined(std::vector<std::string> const& cs, std::int64_t b, std::int64_t e) {
  std::string out;
  for (std::int64_t k = b; k < e; ++k) { out += cs[static_cast<std::size_t>(k)]; }
  return out;
}
// DuckDB's substring over characters (its answers for 0, negative starts and lengths are checked below).
std::string ref_substr(std::string const& s, std::int64_t start, std::int64_t length) {
  auto const cs = characters(s);
  auto const n = static_cast<std::int64_t>(cs.size());
  std::int64_t b = start > 0 ? start - 1 : start == 0 ? -1 : n + start;
  std::int64_t e = length >= 0 ? b + length : b;
  if (length < 0) { b += length; }
  b = std::clamp<std::int64_t>(b, 0, n);
  e = std::clamp<std::int64_t>(e, 0, n);
  return e > b ? joined(cs, b, e) : "";
}
std::string ref_upper(std::string s) {
  // The letters the test data holds: ASCII, é/É, ö/Ö, ж/Ж, ω/Ω; ß has no same-length capital and stays.
  std::string out;
  for (auto const& c : characters(s)) {
    if (c.size() == 1) { out += static_cast<char>(c[0] >= 'a' && c[0] <= 'z' ? c[0] - 32 : c[0]); }
    else if (c == "é") { out += "É"; }
    else if (c == "ö") { out += "Ö"; }
    else if (c == "ж") { out += "Ж"; }
    else if (c == "ω") { out += "Ω"; }
    else { out += c; }
  }
  return out;
}
std::string ref_replace(std::string const& s, std::string const& from, std::string const& to) {
  std::string out;
  for (std::size_t i = 0; i < s.size();) {
    if (s.compare(i, from.size(), from) == 0) { out += to; i += from.size(); }
    else { out += s[i++]; }
  }
  return out;
}
std::string ref_lpad(std::string const& s, std::int64_t width, std::string const& fill) {
  auto const cs = characters(s);
  if (static_cast<std::int64_t>(cs.size()) >= width) { return joined(cs, 0, width); }
  auto const fs = characters(fill);
  std::string pad;
  for (std::int64_t k = 0; k < width - static_cast<std::int64_t>(cs.size()); ++k) { pad += fs[static_cast<std::size_t>(k) % fs.size()]; }
  return pad + s;
}
std::string ref_trim(std::string const& s) {
  auto const b = s.find_first_not_of(' ');
  return b == std::string::npos ? "" : s.substr(b, s.find_last_not_of(' ') - b + 1);
}

template <class F>
std::vector<opt> each(strings const& v, F f) {
  std::vector<opt> out;
  for (auto const& e : v) { out.push_back(e ? opt(f(*e)) : std::nullopt); }
  return out;
}

}  // namespace

TEST_CASE("strings: with_columns stores parts of strings and computed strings, beside numbers, in one pass", "[expr][strings]") {
  using S = colx::schema<colx::field<"s", colx::string_view>, colx::field<"t", colx::string_view>, colx::field<"n", std::int32_t>>;
  strings const base{"  héllo wörld ", "ab", std::nullopt, "", "ßtraße", "жω", "aaaa", " x ", "abcabcab", "本日は晴天"};
  strings const other{"-", std::nullopt, "é", "", "本", "zz", "a", "", "bc", "++"};
  for (colx::size_type const n : colx::test::sizes) {
    CAPTURE(n);
    strings s, t;
    std::vector<std::optional<std::int32_t>> num;
    for (colx::size_type i = 0; i < n; ++i) {
      s.push_back(base[static_cast<std::size_t>(i) % base.size()]);
      t.push_back(other[static_cast<std::size_t>(i * 7 + 3) % other.size()]);
      num.push_back(i % 5 == 4 ? std::nullopt : std::optional<std::int32_t>(i % 9 - 4));
    }
    colx::frame<S> const f(colx::test::strings_of(s), colx::test::strings_of(t), colx::test::column_of(num));
    auto const r = f | colx::with_columns(colx::substr("s"_c, 2, 3).as<"sub">(), colx::upper("s"_c).as<"up">(),
                                          colx::trim("s"_c).as<"tr">(), colx::concat("s"_c, "|", "t"_c).as<"cat">(),
                                          colx::concat_strict("s"_c, "t"_c).as<"strict">(), (colx::length("s"_c) + 1).as<"len">(),
                                          colx::replace("s"_c, "ab", "X").as<"rep">(), colx::lpad("t"_c, 3, "é.").as<"pad">(),
                                          colx::substr("s"_c, "n"_c, 2).as<"subn">(), colx::lower(colx::upper("s"_c)).as<"low">());
    CHECK(colx::to_strings(r["sub"_c].view()) == each(s, [](auto const& x) { return ref_substr(x, 2, 3); }));
    CHECK(colx::to_strings(r["up"_c].view()) == each(s, ref_upper));
    CHECK(colx::to_strings(r["tr"_c].view()) == each(s, ref_trim));
    std::vector<opt> cat, strict, subn;
    for (std::size_t i = 0; i < s.size(); ++i) {
      cat.push_back(s[i].value_or("") + "|" + t[i].value_or(""));
      strict.push_back(s[i] && t[i] ? opt(*s[i] + *t[i]) : std::nullopt);
      subn.push_back(s[i] && num[i] ? opt(ref_substr(*s[i], *num[i], 2)) : std::nullopt);
    }
    CHECK(colx::to_strings(r["cat"_c].view()) == cat);
    CHECK(r["cat"_c].null_count() == 0);
    CHECK(colx::to_strings(r["strict"_c].view()) == strict);
    CHECK(colx::to_strings(r["subn"_c].view()) == subn);
    CHECK(colx::to_strings(r["rep"_c].view()) == each(s, [](auto const& x) { return ref_replace(x, "ab", "X"); }));
    CHECK(colx::to_strings(r["pad"_c].view()) == each(t, [](auto const& x) { return ref_lpad(x, 3, "é."); }));
    std::vector<std::optional<std::int32_t>> len;
    for (auto const& e : s) { len.push_back(e ? std::optional<std::int32_t>(static_cast<std::int32_t>(characters(*e).size()) + 1) : std::nullopt); }
    CHECK(colx::to_optional_vector(r["len"_c].view()) == len);
    // lower(upper(s)) is s wherever every letter has a same-length partner (not "ßtraße": ß stays, but so do the rest).
    auto const low = colx::to_strings(r["low"_c].view());
    for (std::size_t i = 0; i < s.size(); ++i) {
      if (s[i] && *s[i] != "  héllo wörld ") { CHECK(low[i] == s[i]); }
    }
    // A computed string in a branch of if_else or coalesce: the branch taken is written.
    auto const b = f | colx::with_columns(colx::if_else("n"_c > 0, colx::upper("s"_c), "t"_c).as<"ie">(),
                                          colx::coalesce(colx::upper("t"_c), "s"_c).as<"co">());
    std::vector<opt> ie, co;
    for (std::size_t i = 0; i < s.size(); ++i) {
      if (!num[i]) {
        ie.push_back(std::nullopt);
      } else {
        ie.push_back(*num[i] > 0 ? (s[i] ? opt(ref_upper(*s[i])) : std::nullopt) : t[i]);
      }
      co.push_back(t[i] ? opt(ref_upper(*t[i])) : s[i]);
    }
    CHECK(colx::to_strings(b["ie"_c].view()) == ie);
    CHECK(colx::to_strings(b["co"_c].view()) == co);
    // The stored strings read back as strings anywhere: a filter on a computed column.
    std::int64_t starts = 0;
    for (auto const& e : s) { starts += e && ref_upper(*e).rfind("AB", 0) == 0 ? 1 : 0; }
    CHECK((r | colx::count_if(colx::starts_with("up"_c, "AB"))) == starts);
  }
}

TEST_CASE("strings: substr, trim and pad at the edges, as DuckDB answers", "[expr][strings]") {
  auto const sub = [](std::string const& s, std::int64_t b, std::int64_t l) {
    auto const v = colx::expr::ops::substr::apply(colx::string_view(s.data(), static_cast<colx::size_type>(s.size())), b, l);
    return std::string(v.data(), static_cast<std::size_t>(v.size_bytes()));
  };
  CHECK(sub("hello", 2, 3) == "ell");
  CHECK(sub("hello", 0, 2) == "h");
  CHECK(sub("hello", -3, 2) == "ll");
  CHECK(sub("héllo", 2, 2) == "él");
  CHECK(sub("hello", 4, 10) == "lo");
  CHECK(sub("hello", 2, -1) == "h");
  CHECK(sub("hello", 9, 2).empty());
  CHECK(sub("hello", -9, 3).empty());
  CHECK(sub("hello", 1, std::int64_t{1} << 40) == "hello");
  CHECK(sub("", 1, 1).empty());
  auto const trim = [](std::string const& s, std::string const& set) {
    auto const v = colx::expr::ops::trim::apply(colx::string_view(s.data(), static_cast<colx::size_type>(s.size())),
                                                 colx::string_view(set.data(), static_cast<colx::size_type>(set.size())));
    return std::string(v.data(), static_cast<std::size_t>(v.size_bytes()));
  };
  CHECK(trim("xxaxx", "x") == "a");
  CHECK(trim("éaé", "é") == "a");
  CHECK(trim("\ta\n", " ") == "\ta\n");
  CHECK(trim("éé", "é").empty());
  CHECK(trim("a\xC3", "x") == "a\xC3");  // a code point cut short stays
  using S = colx::schema<colx::field<"s", colx::string_view>>;
  colx::frame<S> const f(colx::test::strings_of({"abc", "abc", "abc"}));
  auto const r = f | colx::with_columns(colx::lpad("s"_c, 2, "x").as<"cut">(), colx::rpad("s"_c, 6, "é").as<"r">(),
                                        colx::lpad("s"_c, 5, "").as<"empty_fill">(), colx::lpad("s"_c, -1, "x").as<"neg">());
  CHECK(colx::to_strings(r["cut"_c].view()) == std::vector<opt>(3, "ab"));
  CHECK(colx::to_strings(r["r"_c].view()) == std::vector<opt>(3, "abcééé"));
  CHECK(colx::to_strings(r["empty_fill"_c].view()) == std::vector<opt>(3, std::nullopt));
  CHECK(colx::to_strings(r["neg"_c].view()) == std::vector<opt>(3, ""));
}

TEST_CASE("strings: upper and lower map Latin, Greek and Cyrillic letters and keep the bytes' count", "[expr][strings]") {
  auto const map = [](std::string const& s, bool up) {
    std::string out(s.size(), '\0');
    colx::utf8::write_case_mapped(colx::string_view(s.data(), static_cast<colx::size_type>(s.size())), out.data(), up);
    return out;
  };
  CHECK(map("héllo ÿ ā ĺ ž", true) == "HÉLLO Ÿ Ā Ĺ Ž");
  CHECK(map("HÉLLO Ÿ Ā Ĺ Ž", false) == "héllo ÿ ā ĺ ž");
  CHECK(map("αβγ ς ё ж", true) == "ΑΒΓ Σ Ё Ж");
  CHECK(map("ΑΒΓ Ё Ж", false) == "αβγ ё ж");
  CHECK(map("ß ı ſ × ÷ 本", true) == "ß ı ſ × ÷ 本");
  CHECK(map("a\xC3", true) == "A\xC3");
}

TEST_CASE("strings: casts to text write what DuckDB writes", "[expr][strings]") {
  using colx::dec;
  using S = colx::schema<colx::field<"i", std::int64_t>, colx::field<"b", std::int8_t>, colx::field<"d", dec<15, 2>>,
                         colx::field<"z", dec<4, 4>>, colx::field<"day", colx::date32>, colx::field<"ts", colx::timestamp_us>,
                         colx::field<"ok", bool>, colx::field<"w", dec<38, 3>>>;
  auto const big = static_cast<colx::int128_t>(999999999999999999LL) * 1000000000000000000LL + 999999999999999999LL;
  colx::frame<S> const f(
      colx::make_column<std::int64_t>({0, -42, std::numeric_limits<std::int64_t>::min(), std::nullopt}),
      colx::make_column<std::int8_t>({-5, 127, -128, 0}),
      colx::make_column<dec<15, 2>>({dec<15, 2>::from_unscaled(-150), dec<15, 2>::from_unscaled(5), dec<15, 2>::from_unscaled(0),
                                      dec<15, 2>::from_unscaled(123456)}),
      colx::make_column<dec<4, 4>>({dec<4, 4>::from_unscaled(0), dec<4, 4>::from_unscaled(-5), dec<4, 4>::from_unscaled(9999),
                                     dec<4, 4>::from_unscaled(10)}),
      colx::make_column<colx::date32>({colx::date(2024, 3, 1), colx::date(-44, 3, 15), colx::date(12345, 1, 2), colx::date(1970, 1, 1)}),
      colx::make_column<colx::timestamp_us>({colx::timestamp_us(0), colx::timestamp_us(1704103200500000),
                                             colx::timestamp_us(1704103200123456), colx::timestamp_us(-1)}),
      colx::make_column<bool>({true, false, true, false}),
      colx::make_column<dec<38, 3>>({dec<38, 3>::from_unscaled(big), dec<38, 3>::from_unscaled(-big), dec<38, 3>::from_unscaled(-1),
                                      dec<38, 3>::from_unscaled(1000)}));
  using colx::cast;
  using colx::string_view;
  auto const r = f | colx::with_columns(cast<string_view>("i"_c).as<"i2">(), cast<string_view>("b"_c).as<"b2">(),
                                        cast<string_view>("d"_c).as<"d2">(), cast<string_view>("z"_c).as<"z2">(),
                                        cast<string_view>("day"_c).as<"day2">(), cast<string_view>("ts"_c).as<"ts2">(),
                                        cast<string_view>("ok"_c).as<"ok2">(), cast<string_view>("w"_c).as<"w2">());
  CHECK(colx::to_strings(r["i2"_c].view()) == std::vector<opt>{"0", "-42", "-9223372036854775808", std::nullopt});
  CHECK(colx::to_strings(r["b2"_c].view()) == std::vector<opt>{"-5", "127", "-128", "0"});
  CHECK(colx::to_strings(r["d2"_c].view()) == std::vector<opt>{"-1.50", "0.05", "0.00", "1234.56"});
  CHECK(colx::to_strings(r["z2"_c].view()) == std::vector<opt>{".0000", "-.0005", ".9999", ".0010"});
  CHECK(colx::to_strings(r["day2"_c].view()) == std::vector<opt>{"2024-03-01", "0045-03-15 (BC)", "12345-01-02", "1970-01-01"});
  CHECK(colx::to_strings(r["ts2"_c].view()) == std::vector<opt>{"1970-01-01 00:00:00", "2024-01-01 10:00:00.5",
                                                                  "2024-01-01 10:00:00.123456", "1969-12-31 23:59:59.999999"});
  CHECK(colx::to_strings(r["ok2"_c].view()) == std::vector<opt>{"true", "false", "true", "false"});
  CHECK(colx::to_strings(r["w2"_c].view()) == std::vector<opt>{"999999999999999999999999999999999.999",
                                                                 "-999999999999999999999999999999999.999", "-0.001", "1.000"});
}

TEST_CASE("strings: casts from text read what DuckDB's TRY_CAST reads, and null for the rest", "[expr][strings]") {
  using colx::dec;
  using S = colx::schema<colx::field<"s", colx::string_view>>;
  strings const in{" 12 ", "12a", "+12", "12.5", "-0.5", "-", "", "3000000000", "2147483647", "-2147483648", "1.005", "-1.005",
                   ".5", "5.", ".", "999.995", "1e3", "  -12.5e-1 ", "inf", "2024-02-03", "2024-2-3", "2024-02-30", "2000-02-29",
                   "1900-02-29", "true", "T", "no", std::nullopt, "0.1", "123.45"};
  colx::frame<S> const f(colx::test::strings_of(in));
  using colx::cast;
  auto const r = f | colx::with_columns(cast<std::int32_t>("s"_c).as<"i">(), cast<dec<5, 2>>("s"_c).as<"d">(),
                                        cast<double>("s"_c).as<"x">(), cast<colx::date32>("s"_c).as<"day">(),
                                        cast<bool>("s"_c).as<"b">());
  using oi = std::optional<std::int32_t>;
  auto const no = std::nullopt;
  CHECK(colx::to_optional_vector(r["i"_c].view()) ==
        std::vector<oi>{12, no, 12, 13, -1, no, no, no, 2147483647, -2147483648, 1, -1, 1, 5, no, 1000, no, no, no, no, no, no, no, no,
                        no, no, no, no, 0, 123});
  auto const d = colx::to_optional_vector(r["d"_c].view());
  std::vector<std::optional<std::int64_t>> du;
  for (auto const& v : d) { du.push_back(v ? std::optional<std::int64_t>(v->unscaled) : std::nullopt); }
  CHECK(du == std::vector<std::optional<std::int64_t>>{1200, no, 1200, 1250, -50, no, no, no, no, no, 101, -101, 50, 500, no, no, no, no,
                                                        no, no, no, no, no, no, no, no, no, no, 10, 12345});
  auto const x = colx::to_optional_vector(r["x"_c].view());
  CHECK(x[0] == 12.0);
  CHECK(!x[1]);
  CHECK(x[3] == 12.5);
  CHECK(x[16] == 1000.0);
  CHECK(x[17] == -1.25);
  CHECK(x[18] == std::numeric_limits<double>::infinity());
  CHECK(x[28] == 0.1);
  CHECK(x[29] == 123.45);
  CHECK(!x[19]);
  auto const day = colx::to_optional_vector(r["day"_c].view());
  CHECK(day[19] == colx::date(2024, 2, 3));
  CHECK(day[20] == colx::date(2024, 2, 3));
  CHECK(!day[21]);
  CHECK(day[22] == colx::date(2000, 2, 29));
  CHECK(!day[23]);
  CHECK(!day[0]);
  auto const b = colx::to_optional_vector(r["b"_c].view());
  CHECK(b[24] == true);
  CHECK(b[25] == true);
  CHECK(b[26] == false);
  CHECK(!b[0]);
  CHECK(!b[27]);
}
