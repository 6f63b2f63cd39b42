// SPDX-License-Identifier: Apache-2.0
// Calendar arithmetic (issue 16): add_months/add_years with the day clamped to the month's end,
// date_trunc and date_diff in every unit, and hour/minute/second, over every day from 1900 to
// 2100 (months) and around the epoch (timestamps), against std::chrono's calendar; then in a
// pipeline with nulls, and DuckDB's answers at the edges.
#include "support/columns.hpp"

#include <catch2/catch.hpp>

#include <chrono>
#include <cstdint>
#include <optional>
#include <vector>

using namespace colx::literals;
namespace ch = std::chrono;

namespace {

colx::date32 to_colx(ch::year_month_day ymd) { return colx::date32(static_cast<std::int32_t>(ch::sys_days(ymd).time_since_epoch().count())); }
ch::year_month_day to_ymd(colx::date32 d) { return ch::year_month_day(ch::sys_days(ch::days(d.ticks))); }

// The reference: std::chrono month arithmetic, clamped to the last day as SQL's.
colx::date32 ref_add_months(colx::date32 d, int n) {
  auto ymd = to_ymd(d) + ch::months(n);
  if (!ymd.ok()) { ymd = ymd.year() / ymd.month() / ch::last; }
  return to_colx(ymd);
}

}  // namespace

TEST_CASE("date math: add_months, add_years and date_trunc on every day from 1900 to 2100", "[expr][dates]") {
  namespace ops = colx::expr::ops;
  std::size_t wrong_add = 0, wrong_trunc = 0, wrong_diff = 0, days = 0;
  for (auto d = colx::date(1900, 1, 1); d.ticks <= colx::date(2100, 12, 31).ticks; d = colx::date32(d.ticks + 1)) {
    ++days;
    auto const ymd = to_ymd(d);
    for (int n : {-25, -13, -12, -1, 0, 1, 2, 11, 12, 13, 49}) {
      wrong_add += ops::add_months::apply(d, n) == ref_add_months(d, n) ? 0 : 1;
      wrong_diff += ops::diff_in<colx::date_part::month>::apply(d, ref_add_months(d, n)) == n ? 0 : 1;
    }
    wrong_add += ops::add_years::apply(d, 3) == ref_add_months(d, 36) ? 0 : 1;
    wrong_trunc += ops::trunc_to<colx::date_part::month>::apply(d) == to_colx(ymd.year() / ymd.month() / 1) ? 0 : 1;
    wrong_trunc += ops::trunc_to<colx::date_part::year>::apply(d) == to_colx(ymd.year() / 1 / 1) ? 0 : 1;
    unsigned const quarter_month = (static_cast<unsigned>(ymd.month()) - 1) / 3 * 3 + 1;
    wrong_trunc += ops::trunc_to<colx::date_part::quarter>::apply(d) == to_colx(ymd.year() / ch::month(quarter_month) / 1) ? 0 : 1;
    auto const monday = ch::sys_days(ymd) - (ch::weekday(ch::sys_days(ymd)) - ch::Monday);
    wrong_trunc += ops::trunc_to<colx::date_part::week>::apply(d) == to_colx(ch::year_month_day(monday)) ? 0 : 1;
  }
  CHECK(days == 73414);
  CHECK(wrong_add == 0);
  CHECK(wrong_trunc == 0);
  CHECK(wrong_diff == 0);
}

TEST_CASE("date math: timestamps keep their time of day and truncate to the clock", "[expr][dates]") {
  namespace ops = colx::expr::ops;
  using ts = colx::timestamp_us;
  std::size_t wrong = 0;
  for (std::int64_t s = -3 * 86400 - 7; s < 3 * 86400; s += 977) {
    ts const t(s * 1000000 + 250000);
    auto const tp = ch::sys_time<ch::microseconds>(ch::microseconds(t.ticks));
    auto const day = ch::floor<ch::days>(tp);
    auto const tod = ch::hh_mm_ss<ch::microseconds>(tp - day);
    wrong += ops::hour::apply(t) == tod.hours().count() ? 0 : 1;
    wrong += ops::minute::apply(t) == tod.minutes().count() ? 0 : 1;
    wrong += ops::second::apply(t) == tod.seconds().count() ? 0 : 1;
    wrong += ops::trunc_to<colx::date_part::hour>::apply(t).ticks == ch::sys_time<ch::microseconds>(ch::floor<ch::hours>(tp)).time_since_epoch().count() ? 0 : 1;
    wrong += ops::trunc_to<colx::date_part::day>::apply(t).ticks == ch::sys_time<ch::microseconds>(day).time_since_epoch().count() ? 0 : 1;
    auto const moved = ops::add_months::apply(t, 1);
    auto const want = ch::sys_days(ref_add_months(colx::date32(static_cast<std::int32_t>(day.time_since_epoch().count())), 1).ticks * ch::days(1)) +
                      (tp - day);
    wrong += moved.ticks == want.time_since_epoch().count() ? 0 : 1;
    wrong += ops::add_days::apply(t, -2).ticks == t.ticks - 2 * 86400000000LL ? 0 : 1;
  }
  CHECK(wrong == 0);
}

TEST_CASE("date math: DuckDB's answers at the edges, and a pipeline with nulls", "[expr][dates]") {
  namespace ops = colx::expr::ops;
  using colx::date;
  using colx::date_part;
  CHECK(ops::add_months::apply(date(2024, 1, 31), 1) == date(2024, 2, 29));
  CHECK(ops::add_years::apply(date(2024, 2, 29), 1) == date(2025, 2, 28));
  CHECK(ops::add_months::apply(date(2024, 3, 31), -1) == date(2024, 2, 29));
  CHECK(ops::trunc_to<date_part::week>::apply(date(2024, 3, 17)) == date(2024, 3, 11));
  CHECK(ops::diff_in<date_part::week>::apply(date(2024, 3, 17), date(2024, 3, 18)) == 0);
  CHECK(ops::diff_in<date_part::week>::apply(date(2024, 3, 11), date(2024, 3, 18)) == 1);
  CHECK(ops::diff_in<date_part::week>::apply(date(2024, 3, 18), date(2024, 3, 10)) == -1);
  CHECK(ops::diff_in<date_part::month>::apply(date(2024, 1, 31), date(2024, 2, 1)) == 1);
  CHECK(ops::diff_in<date_part::year>::apply(date(2024, 12, 31), date(2025, 1, 1)) == 1);
  CHECK(ops::diff_in<date_part::quarter>::apply(date(2024, 3, 31), date(2024, 4, 1)) == 1);
  CHECK(ops::diff_in<date_part::day>::apply(date(2024, 12, 31), date(2025, 1, 2)) == 2);
  using ts = colx::timestamp_ms;
  CHECK(ops::diff_in<date_part::hour>::apply(ts(36000000 - 1000), ts(36000000)) == 1);
  CHECK(ops::diff_in<date_part::second>::apply(ts(900), ts(1100)) == 1);
  CHECK(ops::minute::apply(ts(-1000)) == 59);

  using S = colx::schema<colx::field<"d", colx::date32>, colx::field<"n", std::int32_t>>;
  for (colx::size_type const rows : colx::test::sizes) {
    CAPTURE(rows);
    std::vector<std::optional<colx::date32>> d;
    std::vector<std::optional<std::int32_t>> n;
    for (colx::size_type i = 0; i < rows; ++i) {
      d.push_back(i % 7 == 3 ? std::nullopt : std::optional<colx::date32>(colx::date32(i * 37 % 20000 - 5000)));
      n.push_back(i % 5 == 1 ? std::nullopt : std::optional<std::int32_t>(i % 31 - 15));
    }
    colx::frame<S> const f(colx::test::column_of(d), colx::test::column_of(n));
    auto const r = f | colx::with_columns(colx::add_months("d"_c, "n"_c).as<"m">(), colx::date_trunc<date_part::quarter>("d"_c).as<"q">(),
                                          colx::date_diff<date_part::month>("d"_c, colx::add_months("d"_c, 14)).as<"dm">());
    std::vector<std::optional<colx::date32>> m, q;
    std::vector<std::optional<std::int64_t>> dm;
    for (std::size_t i = 0; i < d.size(); ++i) {
      m.push_back(d[i] && n[i] ? std::optional<colx::date32>(ref_add_months(*d[i], *n[i])) : std::nullopt);
      if (d[i]) {
        auto const ymd = to_ymd(*d[i]);
        q.push_back(to_colx(ymd.year() / ch::month((static_cast<unsigned>(ymd.month()) - 1) / 3 * 3 + 1) / 1));
        dm.push_back(14);
      } else {
        q.push_back(std::nullopt);
        dm.push_back(std::nullopt);
      }
    }
    CHECK(colx::to_optional_vector(r["m"_c].view()) == m);
    CHECK(colx::to_optional_vector(r["q"_c].view()) == q);
    CHECK(colx::to_optional_vector(r["dm"_c].view()) == dm);
  }
}

TEST_CASE("date math: casts between time units, rounded to the nearest as DuckDB", "[expr][dates]") {
  namespace ops = colx::expr::ops;
  using colx::timestamp_ms;
  using colx::timestamp_ns;
  using colx::timestamp_s;
  using colx::timestamp_us;
  auto const us = [](timestamp_ns t) { return ops::cast<timestamp_us>::apply(t).ticks; };
  auto const ms = [](timestamp_us t) { return ops::cast<timestamp_ms>::apply(t).ticks; };
  // DuckDB: epoch_us(CAST(TIMESTAMP_NS '1969-12-31 23:59:59.9999995' AS TIMESTAMP)) is -1, and so on.
  CHECK(us(timestamp_ns(-500)) == -1);
  CHECK(us(timestamp_ns(-100)) == 0);
  CHECK(us(timestamp_ns(-900)) == -1);
  CHECK(us(timestamp_ns(600)) == 1);
  CHECK(ms(timestamp_us(-100)) == 0);
  CHECK(ms(timestamp_us(-600)) == -1);
  CHECK(ms(timestamp_us(600)) == 1);
  CHECK(ops::cast<timestamp_s>::apply(timestamp_us(-600000)).ticks == -1);
  CHECK(ops::cast<timestamp_ns>::apply(timestamp_ms(-3)).ticks == -3000000);
  CHECK(ops::cast<colx::date32>::apply(timestamp_s(-3600)) == colx::date(1969, 12, 31));
  CHECK(ops::cast<timestamp_s>::apply(colx::date(2024, 1, 2)).ticks == colx::date(2024, 1, 2).ticks * 86400LL);
  using S = colx::schema<colx::field<"t", timestamp_us>>;
  colx::frame<S> const f(colx::make_column<timestamp_us>({timestamp_us(1500), std::nullopt, timestamp_us(-1500)}));
  auto const r = f | colx::with_columns(colx::cast<timestamp_ms>("t"_c).as<"m">(), colx::cast<colx::date32>("t"_c).as<"d">());
  CHECK(colx::to_optional_vector(r["m"_c].view()) ==
        std::vector<std::optional<timestamp_ms>>{timestamp_ms(2), std::nullopt, timestamp_ms(-2)});
  CHECK(colx::to_optional_vector(r["d"_c].view()) ==
        std::vector<std::optional<colx::date32>>{colx::date(1970, 1, 1), std::nullopt, colx::date(1969, 12, 31)});
}

// Durations (an interval in SQL) sum, average and multiply by integers: a sum is a duration of the
// same unit, a mean the exact tick sum over the count rounded half away from zero (DuckDB's avg
// of an interval is an interval), a product the ticks times the integer. Checked against plain
// loops, in reduce and in a group-by, with nulls and at every standard size.
TEST_CASE("date math: durations sum, average and multiply by integers", "[expr][dates]") {
  using colx::duration_ms;
  using S = colx::schema<colx::field<"d", duration_ms>, colx::field<"k", std::int32_t, colx::not_null>, colx::field<"m", std::int32_t>>;
  for (colx::size_type const n : colx::test::sizes) {
    CAPTURE(n);
    colx::test::optionals<duration_ms> d;
    std::vector<std::int32_t> k;
    colx::test::optionals<std::int32_t> m;
    for (colx::size_type i = 0; i < n; ++i) {
      auto const h = static_cast<std::int64_t>((static_cast<std::uint64_t>(i) * 2654435761u) % 1000003);
      d.push_back(i % 7 == 3 ? std::nullopt : std::optional<duration_ms>(duration_ms(h * 1000003 - 500000000000 + i % 2)));
      k.push_back(static_cast<std::int32_t>(i % 5));
      m.push_back(i % 11 == 4 ? std::nullopt : std::optional<std::int32_t>(static_cast<std::int32_t>(i % 9) - 4));
    }
    colx::frame<S> const f(colx::test::column_of(d), colx::test::column_of(k), colx::test::column_of(m));
    // The references: 128-bit tick sums, rounded as SQL's avg of an interval.
    auto const rounded_mean = [](colx::int128_t total, std::int64_t count) {
      colx::int128_t q = total / count;
      colx::int128_t const r = total % count;
      if (2 * (r < 0 ? -r : r) >= count) { q += total < 0 ? -1 : 1; }
      return duration_ms(static_cast<std::int64_t>(q));
    };
    std::vector<colx::int128_t> total(5, 0);
    std::vector<std::int64_t> count(5, 0);
    std::uint64_t all = 0;
    for (colx::size_type i = 0; i < n; ++i) {
      auto const g = static_cast<std::size_t>(k[static_cast<std::size_t>(i)]);
      if (auto const& v = d[static_cast<std::size_t>(i)]) {
        total[g] += v->ticks;
        ++count[g];
        all += static_cast<std::uint64_t>(v->ticks);
      }
    }
    colx::int128_t const grand = total[0] + total[1] + total[2] + total[3] + total[4];
    std::int64_t const valid = count[0] + count[1] + count[2] + count[3] + count[4];
    auto const [sum, mean] = f | colx::reduce(colx::sum("d"_c), colx::mean("d"_c));
    if (valid == 0) {
      CHECK_FALSE(sum.has_value());
      CHECK_FALSE(mean.has_value());
    } else {
      CHECK(sum.value() == duration_ms(static_cast<std::int64_t>(all)));
      CHECK(mean.value() == rounded_mean(grand, valid));
    }
    auto const groups = f | colx::group_by("k"_c) | colx::aggregate(colx::sum("d"_c).as<"s">(), colx::mean("d"_c).as<"a">());
    auto const keys = colx::to_optional_vector(groups["k"_c].view());
    auto const sums = colx::to_optional_vector(groups["s"_c].view());
    auto const means = colx::to_optional_vector(groups["a"_c].view());
    REQUIRE(keys.size() == static_cast<std::size_t>(std::min<colx::size_type>(n, 5)));
    for (std::size_t r = 0; r < keys.size(); ++r) {
      auto const g = static_cast<std::size_t>(*keys[r]);
      CAPTURE(g);
      if (count[g] == 0) {
        CHECK_FALSE(sums[r].has_value());
        CHECK_FALSE(means[r].has_value());
      } else {
        CHECK(sums[r] == std::optional<duration_ms>(duration_ms(static_cast<std::int64_t>(total[g]))));
        CHECK(means[r] == std::optional<duration_ms>(rounded_mean(total[g], count[g])));
      }
    }
    auto const scaled = f | colx::with_columns(("d"_c * "m"_c).as<"x">(), (3 * "d"_c).as<"y">());
    auto const x = colx::to_optional_vector(scaled["x"_c].view());
    auto const y = colx::to_optional_vector(scaled["y"_c].view());
    std::size_t wrong = 0;
    for (std::size_t i = 0; i < static_cast<std::size_t>(n); ++i) {
      auto const& v = d[i];
      bool const has_x = v.has_value() && m[i].has_value();
      wrong += x[i].has_value() == has_x && y[i].has_value() == v.has_value() ? 0 : 1;
      if (has_x && x[i]) { wrong += x[i]->ticks == v->ticks * *m[i] ? 0 : 1; }
      if (v && y[i]) { wrong += y[i]->ticks == v->ticks * 3 ? 0 : 1; }
    }
    CHECK(wrong == 0);
  }
}
