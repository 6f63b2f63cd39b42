// SPDX-License-Identifier: Apache-2.0
#pragma once
// Calendar arithmetic on dates and timestamps (the contract: expr/ops.hpp), as DuckDB's: months
// and years added with the day clamped to the month's end, truncation to a calendar unit, and
// differences counted in calendar boundaries. A date stays a date and a timestamp keeps its unit
// (DuckDB gives a TIMESTAMP for date + INTERVAL and date_trunc of a date: the same instants).
#include <colx/core/config.hpp>
#include <colx/expr/ops_dates.hpp>
#include <colx/types/chrono.hpp>

#include <concepts>
#include <cstdint>

namespace colx {

// The calendar and clock units of date_trunc and date_diff.
enum class date_part : std::uint8_t { year, quarter, month, week, day, hour, minute, second };

}  // namespace colx

namespace colx::expr::ops {

namespace detail {
// A timestamp (or date) with its date replaced by f(date) and its time of day kept.
template <class A, class F>
constexpr COLX_HOST_DEVICE A with_date(A a, F f) {
  constexpr std::int64_t per_day = ticks_per_day<A::unit>;
  date32 const d = to_date(a);
  std::int64_t const time_of_day = static_cast<std::int64_t>(a.ticks) - static_cast<std::int64_t>(d.ticks) * per_day;
  return A(static_cast<typename A::rep>(static_cast<std::int64_t>(f(d).ticks) * per_day + time_of_day));
}
constexpr COLX_HOST_DEVICE date32 plus_months(date32 d, std::int64_t n) {
  civil_date const c = to_civil(d);
  std::int64_t const total = static_cast<std::int64_t>(c.year) * 12 + (c.month - 1) + n;
  std::int64_t const year = colx::detail::floor_div(total, 12);
  auto const month = static_cast<unsigned>(total - year * 12 + 1);
  unsigned const last = days_in_month(static_cast<int>(year), month);
  return date(static_cast<int>(year), month, c.day < last ? c.day : last);
}
template <class A>
concept calendar_value = requires(A a) {
  A::unit;
  a.ticks;
};
// cast<T>(a) between time units, as DuckDB: to a finer unit exactly; to a coarser one rounded to
// the nearest (half away from zero); a timestamp to a date is its day (floor), a date to a
// timestamp its midnight.
template <class T, class A>
constexpr COLX_HOST_DEVICE T convert_unit(A a) {
  if constexpr (T::unit == A::unit) {
    return T(static_cast<typename T::rep>(a.ticks));
  } else if constexpr (T::unit == time_unit::days) {
    return T(to_date(a).ticks);
  } else if constexpr (A::unit == time_unit::days) {
    return T(static_cast<typename T::rep>(static_cast<std::int64_t>(a.ticks) * ticks_per_day<T::unit>));
  } else if constexpr (ticks_per_second<T::unit> >= ticks_per_second<A::unit>) {
    return T(static_cast<typename T::rep>(a.ticks * (ticks_per_second<T::unit> / ticks_per_second<A::unit>)));
  } else {
    constexpr std::int64_t f = ticks_per_second<A::unit> / ticks_per_second<T::unit>;
    std::int64_t const q = a.ticks / f;
    std::int64_t const r = a.ticks % f;
    return T(static_cast<typename T::rep>(q + (2 * (r < 0 ? -r : r) >= f ? (r < 0 ? -1 : 1) : 0)));
  }
}
}  // namespace detail

// add_months(t, n), add_years(t, n): Jan 31 + 1 month is Feb 29 in a leap year; the time of day stays.
template <int MonthsPerStep>
struct add_calendar_months {
  static constexpr char const* symbol = MonthsPerStep == 12 ? "add_years" : "add_months";
  template <detail::calendar_value A, std::integral N>
  static constexpr COLX_HOST_DEVICE A apply(A a, N n) {
    return detail::with_date(a, [&](date32 d) { return detail::plus_months(d, static_cast<std::int64_t>(n) * MonthsPerStep); });
  }
};
using add_months = add_calendar_months<1>;
using add_years = add_calendar_months<12>;

// add_days(t, n).
struct add_days {
  static constexpr char const* symbol = "add_days";
  template <detail::calendar_value A, std::integral N>
  static constexpr COLX_HOST_DEVICE A apply(A a, N n) {
    return A(static_cast<typename A::rep>(a.ticks + static_cast<std::int64_t>(n) * ticks_per_day<A::unit>));
  }
};

// date_trunc<part>(t): the start of t's year, quarter, month, ISO week (Monday), day, hour,
// minute or second, in t's type.
template <date_part Part>
struct trunc_to {
  static constexpr char const* symbol = "date_trunc";
  template <detail::calendar_value A>
  static constexpr COLX_HOST_DEVICE A apply(A a) {
    if constexpr (Part >= date_part::hour) {
      if constexpr (A::unit == time_unit::days) {
        return a;
      } else {
        constexpr std::int64_t unit = ticks_per_second<A::unit> * (Part == date_part::hour ? 3600 : Part == date_part::minute ? 60 : 1);
        return A(static_cast<typename A::rep>(colx::detail::floor_div(a.ticks, unit) * unit));
      }
    } else {
      return A(static_cast<typename A::rep>(static_cast<std::int64_t>(start(to_date(a)).ticks) * ticks_per_day<A::unit>));
    }
  }
  static constexpr COLX_HOST_DEVICE date32 start(date32 d) {
    civil_date const c = to_civil(d);
    switch (Part) {
      case date_part::year: return date(c.year, 1, 1);
      case date_part::quarter: return date(c.year, (c.month - 1) / 3 * 3 + 1, 1);
      case date_part::month: return date(c.year, c.month, 1);
      case date_part::week: return date32(d.ticks - iso_day_of_week::apply(d) + 1);
      default: return d;
    }
  }
};

// date_diff<part>(a, b): the boundaries of `part` crossed from a to b, as DuckDB's date_diff
// (weeks: whole weeks of days between the dates, toward zero).
template <date_part Part>
struct diff_in {
  static constexpr char const* symbol = "date_diff";
  template <detail::calendar_value A>
  static constexpr COLX_HOST_DEVICE std::int64_t apply(A a, A b) {
    if constexpr (Part >= date_part::hour) {
      constexpr std::int64_t unit = Part == date_part::hour ? 3600 : Part == date_part::minute ? 60 : 1;
      if constexpr (A::unit == time_unit::days) {
        return (static_cast<std::int64_t>(b.ticks) - a.ticks) * (86400 / unit);
      } else {
        constexpr std::int64_t ticks = ticks_per_second<A::unit> * unit;
        return colx::detail::floor_div(b.ticks, ticks) - colx::detail::floor_div(a.ticks, ticks);
      }
    } else {
      date32 const x = to_date(a);
      date32 const y = to_date(b);
      civil_date const cx = to_civil(x);
      civil_date const cy = to_civil(y);
      switch (Part) {
        case date_part::year: return cy.year - cx.year;
        case date_part::quarter:
          return (static_cast<std::int64_t>(cy.year) * 4 + (cy.month - 1) / 3) - (static_cast<std::int64_t>(cx.year) * 4 + (cx.month - 1) / 3);
        case date_part::month: return (static_cast<std::int64_t>(cy.year) * 12 + cy.month) - (static_cast<std::int64_t>(cx.year) * 12 + cx.month);
        case date_part::week: return (static_cast<std::int64_t>(y.ticks) - x.ticks) / 7;
        default: return static_cast<std::int64_t>(y.ticks) - x.ticks;
      }
    }
  }
};

// hour(t), minute(t), second(t) of a timestamp (whole seconds, as DuckDB's second()).
template <int Divisor, int Modulus>
struct clock_part {
  static constexpr char const* symbol = Divisor == 3600 ? "hour" : Divisor == 60 ? "minute" : "second";
  template <detail::calendar_value A>
  static constexpr COLX_HOST_DEVICE std::int32_t apply(A a) {
    static_assert(A::unit != time_unit::days, "colx: hour(), minute() and second() need a timestamp column, not a date");
    std::int64_t const seconds_of_day = colx::detail::floor_div(a.ticks, ticks_per_second<A::unit>) -
                                        static_cast<std::int64_t>(to_date(a).ticks) * 86400;
    return static_cast<std::int32_t>(seconds_of_day / Divisor % Modulus);
  }
};
using hour = clock_part<3600, 24>;
using minute = clock_part<60, 60>;
using second = clock_part<1, 60>;

}  // namespace colx::expr::ops
