// SPDX-License-Identifier: Apache-2.0
// colx: host-only
// Frames printed through fmt, checked as whole texts: the layout is the feature, so a stray
// space is a failure. fmt does not compile under nvcc, so this file is host-only.
#include <colx/colx.hpp>
#include <colx/io/format.hpp>
#include <colx/io/format_frame.hpp>

#include <catch2/catch.hpp>
#include <fmt/format.h>

#include <algorithm>
#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <vector>

namespace {

using std::nullopt;

using mixed = colx::schema<colx::field<"id", std::int32_t, colx::not_null>, colx::field<"value", double>,
                           colx::field<"name", colx::string_view>, colx::field<"day", colx::date32>,
                           colx::field<"flag", bool>, colx::field<"price", colx::decimal64>>;

colx::frame<mixed> mixed_frame() {
  return colx::frame<mixed>(
      colx::make_column<std::int32_t>(std::vector<std::int32_t>{1, 2, 3, 4}),
      colx::make_column<double>({{0.05}, nullopt, {1234.5678}, {3.5e7}}),
      colx::make_strings_column({"north", "south", nullopt, "héllo wörld"}),
      colx::make_column<colx::date32>(
          {colx::date(1994, 1, 1), nullopt, colx::date(2026, 11, 21), colx::date(1970, 1, 1)}),
      colx::make_column<bool>({{true}, {false}, nullopt, {true}}),
      colx::make_decimal_column<std::int64_t>({colx::decimal64{12345}, nullopt, colx::decimal64{-5}, colx::decimal64{100}},
                                              -2));
}

using numbered = colx::schema<colx::field<"n", std::int64_t>, colx::field<"s", colx::string_view>>;

// Row i holds 100 * i (null when i % 7 == 3) and "r<i>".
colx::frame<numbered> numbered_frame(int rows) {
  std::vector<std::optional<std::int64_t>> n;
  std::vector<std::optional<std::string>> s;
  for (int i = 0; i < rows; ++i) {
    n.push_back(i % 7 == 3 ? std::optional<std::int64_t>() : std::optional<std::int64_t>(100 * i));
    // append, not "r" + ...: g++ 12.2 at -O3 inlines that operator+ (an insert at position 0) and
    // warns falsely (-Wrestrict) of copies of 2^63 bytes (GCC PR 105329, libstdc++'s _M_replace).
    s.push_back(std::string("r").append(std::to_string(i)));
  }
  return colx::frame<numbered>(colx::make_column(n), colx::make_strings_column(s));
}

template <class T>
colx::frame<colx::schema<colx::field<"x", T>>> one_column(std::vector<std::optional<T>> const& values) {
  return colx::frame<colx::schema<colx::field<"x", T>>>(colx::make_column<T>(values));
}

}  // namespace

TEST_CASE("format_frame: nulls, strings, dates, bools, floats and decimals", "[io]") {
  std::string const expected =
      "  id       value         name         day   flag   price\n"
      "0  1        0.05        north  1994-01-01   True  123.45\n"
      "1  2        <NA>        south        <NA>  False    <NA>\n"
      "2  3   1234.5678         <NA>  2026-11-21   <NA>   -0.05\n"
      "3  4  35000000.0  héllo wörld  1970-01-01   True    1.00";
  auto const f = mixed_frame();
  CHECK(colx::to_string(f) == expected);
  CHECK(fmt::format("{}", f) == expected);
}

TEST_CASE("format_frame: an empty frame prints its header and its size", "[io]") {
  auto const f = colx::frame<numbered>(colx::make_column<std::int64_t>(std::vector<std::int64_t>{}),
                                       colx::make_strings_column({}));
  CHECK(fmt::format("{}", f) == "n s\n\n[0 rows x 2 columns]");
}

TEST_CASE("format_frame: one row", "[io]") {
  using schema = colx::schema<colx::field<"x", double>, colx::field<"s", colx::string_view>>;
  auto const f = colx::frame<schema>(colx::make_column<double>(std::vector<double>{1.0}), colx::make_strings_column({"a"}));
  CHECK(fmt::format("{}", f) ==
        "     x  s\n"
        "0  1.0  a");
}

TEST_CASE("format_frame: a long frame prints its first and last rows", "[io]") {
  std::string const expected =
      "       n    s\n"
      "0      0   r0\n"
      "1    100   r1\n"
      "2    200   r2\n"
      "3   <NA>   r3\n"
      "4    400   r4\n"
      "..   ...  ...\n"
      "20  2000  r20\n"
      "21  2100  r21\n"
      "22  2200  r22\n"
      "23  2300  r23\n"
      "24  <NA>  r24\n"
      "\n"
      "[25 rows x 2 columns]";
  auto const f = numbered_frame(25);
  CHECK(colx::to_string(f, {.max_rows = 20}) == expected);
  CHECK(fmt::format("{:20}", f) == expected);

  SECTION("pandas' limits by default: 60 rows print whole, 61 are cut to 10") {
    auto const whole = fmt::format("{}", numbered_frame(60));
    CHECK(std::count(whole.begin(), whole.end(), '\n') == 60);
    CHECK(whole.find("...") == std::string::npos);
    CHECK(whole.ends_with("\n58  5800  r58\n59  <NA>  r59"));
    auto const cut = fmt::format("{}", numbered_frame(61));
    CHECK(cut ==
          "       n    s\n"
          "0      0   r0\n"
          "1    100   r1\n"
          "2    200   r2\n"
          "3   <NA>   r3\n"
          "4    400   r4\n"
          "..   ...  ...\n"
          "56  5600  r56\n"
          "57  5700  r57\n"
          "58  5800  r58\n"
          "59  <NA>  r59\n"
          "60  6000  r60\n"
          "\n"
          "[61 rows x 2 columns]");
  }
  SECTION("max_rows 0 (or {:0}) prints every row") {
    auto const all = fmt::format("{:0}", numbered_frame(100));
    CHECK(std::count(all.begin(), all.end(), '\n') == 100);
    CHECK(colx::to_string(numbered_frame(100), {.max_rows = 0}) == all);
  }
  SECTION("min_rows sets how many rows a cut frame keeps") {
    CHECK(colx::to_string(numbered_frame(25), {.max_rows = 20, .min_rows = 2}) ==
          "       n    s\n"
          "0      0   r0\n"
          "..   ...  ...\n"
          "24  <NA>  r24\n"
          "\n"
          "[25 rows x 2 columns]");
  }
}

TEST_CASE("format_frame: floats print every digit they need, integral ones with .0", "[io]") {
  double const inf = std::numeric_limits<double>::infinity();
  auto const f = one_column<double>({{1.0}, {-2.0}, {std::numeric_limits<double>::quiet_NaN()}, {inf}, {-inf},
                                     {1e-7}, {123456789.0}, {0.1 + 0.2}, {100000.0}, {1e6}, {10520003.68}, nullopt});
  CHECK(fmt::format("{}", f) ==
        "                      x\n"
        "0                   1.0\n"
        "1                  -2.0\n"
        "2                   NaN\n"
        "3                   inf\n"
        "4                  -inf\n"
        "5                 1e-07\n"
        "6           123456789.0\n"
        "7   0.30000000000000004\n"
        "8              100000.0\n"
        "9             1000000.0\n"
        "10          10520003.68\n"
        "11                 <NA>");
  CHECK(colx::to_string(one_column<float>({{0.1f}, {3.14159274f}, {16777216.0f}})) ==
        "            x\n"
        "0         0.1\n"
        "1   3.1415927\n"
        "2  16777216.0");
  CHECK(colx::to_string(one_column<float>({{0.1f}, {3.14159274f}, {16777216.0f}}), {.precision = 6}) ==
        "             x\n"
        "0          0.1\n"
        "1      3.14159\n"
        "2  1.67772e+07");
  CHECK(colx::to_string(one_column<double>({{1234.5678}}), {.precision = 10}) ==
        "           x\n"
        "0  1234.5678");
}

TEST_CASE("format_frame: scalars through fmt", "[io][scalar]") {
  CHECK(fmt::format("{}", colx::scalar<double>(10520003.68)) == "10520003.68");
  CHECK(fmt::format("{}", colx::null_scalar<std::int32_t>()) == "<NA>");
  CHECK(fmt::format("{}", colx::scalar<bool>(true)) == "True");
  CHECK(fmt::format("[{:>6}]", colx::scalar<std::int64_t>(42)) == "[    42]");
  CHECK(fmt::format("[{:<6}]", colx::null_scalar<double>()) == "[<NA>  ]");
}

TEST_CASE("format_frame: decimals print at their scale", "[io]") {
  using decimal_schema = colx::schema<colx::field<"d32", colx::decimal32>, colx::field<"d64", colx::decimal64>,
                                      colx::field<"d128", colx::decimal128>>;
  colx::int128_t const max128 = std::numeric_limits<colx::int128_t>::max();
  auto const f = colx::frame<decimal_schema>(
      colx::make_decimal_column<std::int32_t>({colx::decimal32{7}, colx::decimal32{-1234}, colx::decimal32{0}}, -3),
      colx::make_decimal_column<std::int64_t>({colx::decimal64{12}, colx::decimal64{0}, nullopt}, 2),
      colx::make_decimal_column<colx::int128_t>(
          {colx::decimal128{max128}, colx::decimal128{-max128 - 1}, colx::decimal128{-1}}, -2));
  CHECK(fmt::format("{}", f) ==
        "      d32   d64                                       d128\n"
        "0   0.007  1200   1701411834604692317316873037158841057.27\n"
        "1  -1.234     0  -1701411834604692317316873037158841057.28\n"
        "2   0.000  <NA>                                      -0.01");

  SECTION("a column prints at its scale too") {
    auto const c = colx::make_decimal_column<std::int64_t>({colx::decimal64{12345}, nullopt}, -2);
    CHECK(colx::to_string(colx::any_column_view(c)) == "[123.45, null]");
  }
}

TEST_CASE("format_frame: timestamps and durations", "[io]") {
  using time_schema = colx::schema<colx::field<"t", colx::timestamp_s>, colx::field<"ms", colx::timestamp_ms>,
                                   colx::field<"d", colx::duration_s>, colx::field<"days", colx::duration_days>>;
  auto const f = colx::frame<time_schema>(
      colx::make_column<colx::timestamp_s>({colx::timestamp_s(0), colx::timestamp_s(-1)}),
      colx::make_column<colx::timestamp_ms>({colx::timestamp_ms(1'700'000'000'123), nullopt}),
      colx::make_column<colx::duration_s>({colx::duration_s(93'784), colx::duration_s(-1)}),
      colx::make_column<colx::duration_days>({colx::duration_days(3), colx::duration_days(-2)}));
  CHECK(fmt::format("{}", f) ==
        "                     t                       ms                 d     days\n"
        "0  1970-01-01 00:00:00  2023-11-14 22:13:20.123   1 days 02:03:04   3 days\n"
        "1  1969-12-31 23:59:59                     <NA>  -0 days 00:00:01  -2 days");
}

TEST_CASE("format_frame: long strings are cut, wide characters count once", "[io]") {
  std::string const long_text(60, 'a');
  using s_schema = colx::schema<colx::field<"s", colx::string_view>>;
  auto const g = colx::frame<s_schema>(colx::make_strings_column({long_text, "ünï", ""}));
  CHECK(colx::to_string(g) ==
        "                                                    s\n"
        "0  " + std::string(47, 'a') + "...\n"
        "1                                                 ünï\n"
        "2                                                    ");
  CHECK(colx::to_string(g, {.max_colwidth = 5}) ==
        "       s\n"
        "0  aa...\n"
        "1    ünï\n"
        "2       ");
}

TEST_CASE("format_frame: a format spec other than a row count is an error", "[io]") {
  auto const f = numbered_frame(3);
  CHECK_THROWS_AS(fmt::format(fmt::runtime("{:x}"), f), fmt::format_error);
  CHECK(fmt::format(fmt::runtime("{:2}"), f) ==
        "      n   s\n"
        "0     0  r0\n"
        "..  ...  ..\n"
        "2   200  r2\n"
        "\n"
        "[3 rows x 2 columns]");
}

TEST_CASE("format: a dictionary column prints its decoded values", "[io]") {
  auto d = colx::encode<std::uint8_t>(colx::make_strings_column({"b", std::nullopt, "a", "b"}));
  CHECK(colx::to_string(colx::any_column_view(d)) == "[\"b\", null, \"a\", \"b\"]");
  auto const numbers = colx::make_dictionary_column(colx::make_column(std::vector<std::optional<std::int16_t>>{1, 0, std::nullopt}),
                                                    colx::make_column(std::vector<std::int64_t>{7, -3}));
  CHECK(colx::to_string(colx::any_column_view(numbers)) == "[-3, 7, null]");
}
