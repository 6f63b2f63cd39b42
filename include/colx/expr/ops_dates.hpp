// SPDX-License-Identifier: Apache-2.0
#pragma once
// The element-wise date parts (the contract: expr/ops.hpp): year(), month(), day(), quarter(),
// day_of_week(), iso_day_of_week() and day_of_year() of a date or a timestamp of any unit.
#include <colx/core/config.hpp>
#include <colx/types/chrono.hpp>

#include <cstdint>

namespace colx::expr::ops {

namespace detail {
template <time_unit U>
constexpr COLX_HOST_DEVICE date32 to_date(timestamp<U> t) {
  if constexpr (U == time_unit::days) {
    return t;
  } else {
    constexpr std::int64_t per_day = U == time_unit::seconds        ? 86400LL
                                     : U == time_unit::milliseconds ? 86400000LL
                                     : U == time_unit::microseconds ? 86400000000LL
                                                                    : 86400000000000LL;
    std::int64_t days = t.ticks / per_day;
    if (t.ticks % per_day < 0) { --days; }  // floor, for instants before the epoch
    return date32(static_cast<std::int32_t>(days));
  }
}
}  // namespace detail

// Each part of a date d (a timestamp's day): year, month and day, and what DuckDB's EXTRACT and
// date_part give beyond them: quarter 1-4, day of week 0 (Sunday) to 6, ISO day of week 1
// (Monday) to 7, day of year 1-366.
#define COLX_DATE_PART(Name, Body)                                        \
  struct Name {                                                           \
    static constexpr char const* symbol = #Name;                          \
    template <class A>                                                    \
    static constexpr COLX_HOST_DEVICE std::int32_t apply(A a) {           \
      static_assert(requires { A::unit; } && requires { a.ticks; },       \
                    "colx: " #Name "() needs a date or timestamp column"); \
      date32 const d = detail::to_date(a);                                \
      Body                                                                \
    }                                                                     \
  };
COLX_DATE_PART(year, return static_cast<std::int32_t>(to_civil(d).year);)
COLX_DATE_PART(month, return static_cast<std::int32_t>(to_civil(d).month);)
COLX_DATE_PART(day, return static_cast<std::int32_t>(to_civil(d).day);)
COLX_DATE_PART(quarter, return static_cast<std::int32_t>((to_civil(d).month - 1) / 3 + 1);)
// 1970-01-01 was a Thursday (4); floor modulo for days before it.
COLX_DATE_PART(day_of_week, return static_cast<std::int32_t>(((d.ticks + 4) % 7 + 7) % 7);)
COLX_DATE_PART(iso_day_of_week, return static_cast<std::int32_t>(((d.ticks + 3) % 7 + 7) % 7 + 1);)
COLX_DATE_PART(day_of_year, return d.ticks - date(to_civil(d).year, 1, 1).ticks + 1;)
#undef COLX_DATE_PART

}  // namespace colx::expr::ops
