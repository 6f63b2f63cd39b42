// SPDX-License-Identifier: Apache-2.0
#pragma once
// The element-wise date parts (the contract: expr/ops.hpp): year(), month(), day(), quarter(),
// day_of_week(), iso_day_of_week() and day_of_year() of a date or a timestamp of any unit.
#include <colx/core/config.hpp>
#include <colx/types/chrono.hpp>

#include <cstdint>

namespace colx::expr::ops {


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
      date32 const d = to_date(a);                                        \
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
