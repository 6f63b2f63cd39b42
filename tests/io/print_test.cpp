// SPDX-License-Identifier: Apache-2.0
// Frames printed by colx/io/print.hpp (no fmt), checked as whole texts on the backend under test:
// with CUDA the frames live in device memory and only their shown rows come to the host.
#include "support/backend.hpp"

#include <catch2/catch.hpp>

#include <algorithm>
#include <cstdint>
#include <limits>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

namespace {

using std::nullopt;

using mixed = colx::schema<colx::field<"id", std::int32_t, colx::not_null>, colx::field<"value", double>,
                           colx::field<"name", colx::string_view>, colx::field<"day", colx::date32>,
                           colx::field<"flag", bool>, colx::field<"price", colx::decimal64>>;

colx::frame<mixed> mixed_frame(colx::resource_ref mr) {
  return colx::frame<mixed>(
      colx::make_column<std::int32_t>(std::vector<std::int32_t>{1, 2, 3, 4}, {}, mr),
      colx::make_column<double>({{0.05}, nullopt, {1234.5678}, {3.5e7}}, {}, mr),
      colx::make_strings_column({"north", "south", nullopt, "héllo wörld"}, colx::type_id::int32, {}, mr),
      colx::make_column<colx::date32>(
          {colx::date(1994, 1, 1), nullopt, colx::date(2026, 11, 21), colx::date(1970, 1, 1)}, {}, mr),
      colx::make_column<bool>({{true}, {false}, nullopt, {true}}, {}, mr),
      colx::make_decimal_column<std::int64_t>(
          {colx::decimal64{12345}, nullopt, colx::decimal64{-5}, colx::decimal64{100}}, -2, {}, mr));
}

using numbered = colx::schema<colx::field<"n", std::int64_t>, colx::field<"s", colx::string_view>>;

// Row i holds 100 * i (null when i % 7 == 3) and "r<i>"; the strings have int64 offsets.
colx::frame<numbered> numbered_frame(int rows, colx::resource_ref mr) {
  std::vector<std::optional<std::int64_t>> n;
  std::vector<std::optional<std::string>> s;
  for (int i = 0; i < rows; ++i) {
    n.push_back(i % 7 == 3 ? std::optional<std::int64_t>() : std::optional<std::int64_t>(100 * i));
    s.push_back(std::string("r").append(std::to_string(i)));
  }
  return colx::frame<numbered>(colx::make_column(n, {}, mr), colx::make_strings_column(s, colx::type_id::int64, {}, mr));
}

}  // namespace

TEST_CASE("print: nulls, strings, dates, bools, floats and decimals", "[io]") {
  colx::test::tracked_resource mr;
  {
    auto const f = mixed_frame(mr.ref());
    REQUIRE(f.column_at<0>().kind() == colx::test::backend_kind());
    std::string const expected =
        "  id       value         name         day   flag   price\n"
        "0  1        0.05        north  1994-01-01   True  123.45\n"
        "1  2        <NA>        south        <NA>  False    <NA>\n"
        "2  3   1234.5678         <NA>  2026-11-21   <NA>   -0.05\n"
        "3  4  35000000.0  héllo wörld  1970-01-01   True    1.00";
    CHECK(colx::to_string(f) == expected);
    std::ostringstream os;
    os << f;
    CHECK(os.str() == expected);
  }
  CHECK(mr.outstanding_bytes() == 0);
}

TEST_CASE("print: an empty frame prints its header and its size", "[io]") {
  auto const mr = colx::test::backend_resource();
  auto const f = colx::frame<numbered>(colx::make_column<std::int64_t>(std::vector<std::int64_t>{}, {}, mr),
                                       colx::make_strings_column({}, colx::type_id::int32, {}, mr));
  CHECK(colx::to_string(f) == "n s\n\n[0 rows x 2 columns]");
}

TEST_CASE("print: a long frame prints its first and last rows", "[io]") {
  auto const mr = colx::test::backend_resource();
  // The tail starts mid mask word (row 20), so the slices must keep the null at row 24.
  CHECK(colx::to_string(numbered_frame(25, mr), {.max_rows = 20}) ==
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
        "[25 rows x 2 columns]");
  CHECK(colx::to_string(numbered_frame(25, mr), {.max_rows = 20, .min_rows = 2}) ==
        "       n    s\n"
        "0      0   r0\n"
        "..   ...  ...\n"
        "24  <NA>  r24\n"
        "\n"
        "[25 rows x 2 columns]");

  SECTION("pandas' limits by default: 60 rows print whole, 61 are cut to 10") {
    auto const whole = colx::to_string(numbered_frame(60, mr));
    CHECK(std::count(whole.begin(), whole.end(), '\n') == 60);
    CHECK(whole.ends_with("\n58  5800  r58\n59  <NA>  r59"));
    std::ostringstream os;
    os << numbered_frame(61, mr);
    CHECK(os.str() ==
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
  SECTION("max_rows 0 prints every row") {
    auto const all = colx::to_string(numbered_frame(100, mr), {.max_rows = 0});
    CHECK(std::count(all.begin(), all.end(), '\n') == 100);
    CHECK(all.find("...") == std::string::npos);
  }
  SECTION("a million rows print as ten") {
    using schema = colx::schema<colx::field<"v", std::int64_t>>;
    auto const f = colx::frame<schema>(colx::sequence<std::int64_t>(1'000'000, 0, 3, {}, mr));
    CHECK(colx::to_string(f) ==
          "              v\n"
          "0             0\n"
          "1             3\n"
          "2             6\n"
          "3             9\n"
          "4            12\n"
          "...         ...\n"
          "999995  2999985\n"
          "999996  2999988\n"
          "999997  2999991\n"
          "999998  2999994\n"
          "999999  2999997\n"
          "\n"
          "[1000000 rows x 1 columns]");
  }
}

TEST_CASE("print: floats print every digit they need, integral ones with .0", "[io]") {
  auto const mr = colx::test::backend_resource();
  double const inf = std::numeric_limits<double>::infinity();
  using schema = colx::schema<colx::field<"x", double>, colx::field<"y", float>>;
  auto const f = colx::frame<schema>(
      colx::make_column<double>({{1.0}, {-2.0}, {std::numeric_limits<double>::quiet_NaN()}, {inf}, {-inf}, {1e-7},
                                 {123456789.0}, {0.1 + 0.2}, {100000.0}, {1e6}, nullopt},
                                {}, mr),
      colx::make_column<float>({{0.1f}, {3.14159274f}, {16777216.0f}, {-0.0f}, {1e-5f}, {1e16f}, {0.5f}, nullopt,
                                {65504.0f}, {-1.5e-3f}, {2.0f}},
                               {}, mr));
  // The shortest text that reads back: a float's 0.1 is 0.1, a double's 0.1 + 0.2 is not 0.3.
  CHECK(colx::to_string(f) ==
        "                      x           y\n"
        "0                   1.0         0.1\n"
        "1                  -2.0   3.1415927\n"
        "2                   NaN  16777216.0\n"
        "3                   inf        -0.0\n"
        "4                  -inf       1e-05\n"
        "5                 1e-07       1e+16\n"
        "6           123456789.0         0.5\n"
        "7   0.30000000000000004        <NA>\n"
        "8              100000.0     65504.0\n"
        "9             1000000.0     -0.0015\n"
        "10                 <NA>         2.0");
  // precision N: N significant digits, as printf's %.Ng.
  CHECK(colx::to_string(f, {.precision = 6}) ==
        "              x            y\n"
        "0           1.0          0.1\n"
        "1          -2.0      3.14159\n"
        "2           NaN  1.67772e+07\n"
        "3           inf         -0.0\n"
        "4          -inf        1e-05\n"
        "5         1e-07        1e+16\n"
        "6   1.23457e+08          0.5\n"
        "7           0.3         <NA>\n"
        "8      100000.0      65504.0\n"
        "9         1e+06      -0.0015\n"
        "10         <NA>          2.0");
  auto const g = colx::frame<schema>(colx::make_column<double>(std::vector<double>{1234.5678}, {}, mr),
                                     colx::make_column<float>(std::vector<float>{3.14159274f}, {}, mr));
  CHECK(colx::to_string(g, {.precision = 10}) ==
        "           x            y\n"
        "0  1234.5678  3.141592741");
}

TEST_CASE("print: fixed notation from 1e-4 up to 1e16, scientific outside", "[io]") {
  auto const mr = colx::test::backend_resource();
  using schema = colx::schema<colx::field<"x", double, colx::not_null>>;
  auto const f = colx::frame<schema>(colx::make_column<double>(
      std::vector<double>{10520003.68, 1e15, 1e16, 1e-4, 9.99e-5, 0.0, -0.0, -1234567.25, 5e-324, 1.7976931348623157e308,
                          123.456},
      {}, mr));
  CHECK(colx::to_string(f) ==
        "                          x\n"
        "0               10520003.68\n"
        "1        1000000000000000.0\n"
        "2                     1e+16\n"
        "3                    0.0001\n"
        "4                  9.99e-05\n"
        "5                       0.0\n"
        "6                      -0.0\n"
        "7               -1234567.25\n"
        "8                    5e-324\n"
        "9   1.7976931348623157e+308\n"
        "10                  123.456");
  SECTION("one row") {
    auto const one = colx::frame<schema>(colx::make_column<double>(std::vector<double>{-0.125}, {}, mr));
    CHECK(colx::to_string(one) ==
          "        x\n"
          "0  -0.125");
  }
}

TEST_CASE("print: decimals print at their scale", "[io]") {
  auto const mr = colx::test::backend_resource();
  using decimal_schema = colx::schema<colx::field<"d32", colx::decimal32>, colx::field<"d64", colx::decimal64>,
                                      colx::field<"d128", colx::decimal128>>;
  colx::int128_t const max128 = std::numeric_limits<colx::int128_t>::max();
  auto const f = colx::frame<decimal_schema>(
      colx::make_decimal_column<std::int32_t>({colx::decimal32{7}, colx::decimal32{-1234}, colx::decimal32{0}}, -3, {}, mr),
      colx::make_decimal_column<std::int64_t>({colx::decimal64{12}, colx::decimal64{0}, nullopt}, 2, {}, mr),
      colx::make_decimal_column<colx::int128_t>(
          {colx::decimal128{max128}, colx::decimal128{-max128 - 1}, colx::decimal128{-1}}, -2, {}, mr));
  CHECK(colx::to_string(f) ==
        "      d32   d64                                       d128\n"
        "0   0.007  1200   1701411834604692317316873037158841057.27\n"
        "1  -1.234     0  -1701411834604692317316873037158841057.28\n"
        "2   0.000  <NA>                                      -0.01");
}

TEST_CASE("print: dates, timestamps and durations", "[io]") {
  auto const mr = colx::test::backend_resource();
  using time_schema =
      colx::schema<colx::field<"day", colx::date32>, colx::field<"t", colx::timestamp_s>,
                   colx::field<"ms", colx::timestamp_ms>, colx::field<"ns", colx::timestamp_ns>,
                   colx::field<"d", colx::duration_s>, colx::field<"days", colx::duration_days>>;
  auto const f = colx::frame<time_schema>(
      colx::make_column<colx::date32>({colx::date(2000, 2, 29), colx::date(1969, 12, 31)}, {}, mr),
      colx::make_column<colx::timestamp_s>({colx::timestamp_s(0), colx::timestamp_s(-1)}, {}, mr),
      colx::make_column<colx::timestamp_ms>({colx::timestamp_ms(1'700'000'000'123), nullopt}, {}, mr),
      colx::make_column<colx::timestamp_ns>({colx::timestamp_ns(1), colx::timestamp_ns(-1)}, {}, mr),
      colx::make_column<colx::duration_s>({colx::duration_s(93'784), colx::duration_s(-1)}, {}, mr),
      colx::make_column<colx::duration_days>({colx::duration_days(3), colx::duration_days(-2)}, {}, mr));
  CHECK(colx::to_string(f) ==
        "          day                    t                       ms                             ns"
        "                 d     days\n"
        "0  2000-02-29  1970-01-01 00:00:00  2023-11-14 22:13:20.123  1970-01-01 00:00:00.000000001"
        "   1 days 02:03:04   3 days\n"
        "1  1969-12-31  1969-12-31 23:59:59                     <NA>  1969-12-31 23:59:59.999999999"
        "  -0 days 00:00:01  -2 days");
}

TEST_CASE("print: long strings are cut, wide characters count once", "[io]") {
  auto const mr = colx::test::backend_resource();
  std::string const long_text(60, 'a');
  using s_schema = colx::schema<colx::field<"s", colx::string_view>>;
  auto const g = colx::frame<s_schema>(colx::make_strings_column({long_text, "ünï", "", nullopt}, colx::type_id::int32, {}, mr));
  std::string expected = "                                                    s\n0  ";
  expected.append(47, 'a');
  expected.append("...\n"
                  "1                                                 ünï\n"
                  "2                                                    \n"
                  "3                                                <NA>");
  CHECK(colx::to_string(g) == expected);
  CHECK(colx::to_string(g, {.max_colwidth = 5}) ==
        "       s\n"
        "0  aa...\n"
        "1    ünï\n"
        "2       \n"
        "3   <NA>");
}

TEST_CASE("print: scalars print their value or <NA>", "[io][scalar]") {
  using namespace colx::literals;
  auto const mr = colx::test::backend_resource();
  auto const str = [](auto const& s) {
    std::ostringstream os;
    os << s;
    return os.str();
  };
  CHECK(str(colx::scalar<double>(10520003.68)) == "10520003.68");
  CHECK(str(colx::scalar<double>(2.0)) == "2.0");
  CHECK(str(colx::null_scalar<double>()) == "<NA>");
  CHECK(str(colx::scalar<std::int64_t>(-7)) == "-7");
  CHECK(str(colx::scalar<bool>(false)) == "False");
  CHECK(str(colx::scalar<colx::date32>(colx::date(2024, 2, 29))) == "2024-02-29");
  CHECK(colx::to_string(colx::scalar<double>(1.0 / 3.0), {.precision = 3}) == "0.333");

  // Reductions of 0, 1 and 3 rows, one of them null.
  using schema = colx::schema<colx::field<"x", double>>;
  auto const of = [&](std::vector<std::optional<double>> const& v) { return colx::frame<schema>(colx::make_column(v, {}, mr)); };
  CHECK(str(of({}) | colx::reduce(colx::sum("x"_c))) == "<NA>");
  CHECK(str(of({{0.1}}) | colx::reduce(colx::sum("x"_c))) == "0.1");
  CHECK(str(of({{0.1}, nullopt, {0.2}}) | colx::reduce(colx::sum("x"_c))) == "0.30000000000000004");
  CHECK(str(of({{0.1}, nullopt, {0.2}}) | colx::reduce(colx::count())) == "3");
}
