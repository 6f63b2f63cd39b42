// SPDX-License-Identifier: Apache-2.0
#pragma once
// The element-wise date parts (the contract: expr/ops.hpp): year(), month() and day() of a date
// or a timestamp of any unit.
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

#define COLX_DATE_PART(Name, Member)                                        \
  struct Name {                                                             \
    static constexpr char const* symbol = #Name;                            \
    template <class A>                                                      \
    static constexpr COLX_HOST_DEVICE std::int32_t apply(A a) {             \
      static_assert(requires { A::unit; } && requires { a.ticks; },         \
                    "colx: " #Name "() needs a date or timestamp column");   \
      return static_cast<std::int32_t>(to_civil(detail::to_date(a)).Member); \
    }                                                                       \
  };
COLX_DATE_PART(year, year)
COLX_DATE_PART(month, month)
COLX_DATE_PART(day, day)
#undef COLX_DATE_PART

}  // namespace colx::expr::ops
