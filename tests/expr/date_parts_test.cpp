// SPDX-License-Identifier: Apache-2.0
// Date parts (issue 16): year, month, day, quarter, day of week (DuckDB's 0 = Sunday, and ISO's
// 1 = Monday), day of year, for every day from 1600 to 2400 against a calendar walked one day at a
// time, and of millisecond timestamps on both sides of the epoch, on the backend under test.
#include "support/columns.hpp"

#include <catch2/catch.hpp>

#include <cstdint>
#include <optional>
#include <vector>

using namespace colx::literals;

namespace {

struct civil {
  int year, month, day, day_of_week, day_of_year;  // day_of_week: 0 = Sunday
};

// Every day from 1600-01-01 (a Saturday) to 2400-12-31, one step at a time.
std::vector<civil> walk_calendar() {
  std::vector<civil> out;
  int dow = 6;
  for (int y = 1600; y <= 2400; ++y) {
    bool const leap = (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;
    int const lengths[] = {31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
    int doy = 0;
    for (int m = 1; m <= 12; ++m) {
      for (int d = 1; d <= lengths[m - 1]; ++d) {
        out.push_back({y, m, d, dow, ++doy});
        dow = (dow + 1) % 7;
      }
    }
  }
  return out;
}

}  // namespace

TEST_CASE("date parts: every day of eight centuries against a walked calendar", "[expr][dates]") {
  auto const days = walk_calendar();
  std::int32_t const first = colx::date(1600, 1, 1).ticks;
  std::vector<std::optional<colx::date32>> d;
  for (std::size_t i = 0; i < days.size(); ++i) { d.push_back(i % 97 == 5 ? std::nullopt : std::optional(colx::date32(first + static_cast<std::int32_t>(i)))); }
  using S = colx::schema<colx::field<"d", colx::date32>>;
  colx::frame<S> const f(colx::test::column_of(d));
  auto const r = f | colx::with_columns(colx::year("d"_c).as<"y">(), colx::month("d"_c).as<"m">(), colx::day("d"_c).as<"dd">(),
                                        colx::quarter("d"_c).as<"q">(), colx::day_of_week("d"_c).as<"w">(),
                                        colx::iso_day_of_week("d"_c).as<"iw">(), colx::day_of_year("d"_c).as<"dy">());
  auto const y = colx::to_optional_vector(r["y"_c].view());
  auto const m = colx::to_optional_vector(r["m"_c].view());
  auto const dd = colx::to_optional_vector(r["dd"_c].view());
  auto const q = colx::to_optional_vector(r["q"_c].view());
  auto const w = colx::to_optional_vector(r["w"_c].view());
  auto const iw = colx::to_optional_vector(r["iw"_c].view());
  auto const dy = colx::to_optional_vector(r["dy"_c].view());
  std::size_t wrong = 0;
  for (std::size_t i = 0; i < days.size(); ++i) {
    auto const& c = days[i];
    if (!d[i]) {
      wrong += (y[i] || q[i] || w[i] || dy[i]) ? 1 : 0;
      continue;
    }
    bool const ok = *y[i] == c.year && *m[i] == c.month && *dd[i] == c.day && *q[i] == (c.month - 1) / 3 + 1 &&
                    *w[i] == c.day_of_week && *iw[i] == (c.day_of_week == 0 ? 7 : c.day_of_week) && *dy[i] == c.day_of_year;
    wrong += ok ? 0 : 1;
  }
  CHECK(days.size() == 292560);  // 801 years, 195 of them leap years
  CHECK(wrong == 0);
}

TEST_CASE("date parts: of millisecond timestamps before and after the epoch", "[expr][dates]") {
  // 1969-12-31 23:59:59.999 (a Wednesday, day 365), 1970-01-01 00:00 (Thursday), 2024-02-29 12:00
  // (Thursday, day 60, quarter 1), 2023-12-31 23:00 (Sunday, day 365, quarter 4).
  std::vector<std::optional<colx::timestamp_ms>> t{colx::timestamp_ms(-1), colx::timestamp_ms(0),
                                                   colx::timestamp_ms(std::int64_t{1709208000000}),
                                                   colx::timestamp_ms(std::int64_t{1704063600000}), std::nullopt};
  using S = colx::schema<colx::field<"t", colx::timestamp_ms>>;
  colx::frame<S> const f(colx::test::column_of(t));
  auto const r = f | colx::with_columns(colx::day_of_week("t"_c).as<"w">(), colx::day_of_year("t"_c).as<"dy">(),
                                        colx::quarter("t"_c).as<"q">());
  using v = std::vector<std::optional<std::int32_t>>;
  CHECK(colx::to_optional_vector(r["w"_c].view()) == v{3, 4, 4, 0, std::nullopt});
  CHECK(colx::to_optional_vector(r["dy"_c].view()) == v{365, 1, 60, 365, std::nullopt});
  CHECK(colx::to_optional_vector(r["q"_c].view()) == v{4, 1, 1, 4, std::nullopt});
}
