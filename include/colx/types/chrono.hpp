// SPDX-License-Identifier: Apache-2.0
#pragma once
// Timestamps and durations as Arrow stores them: a signed tick count since the Unix epoch in a
// fixed unit (days are 32-bit, the rest 64-bit). Plain, trivially copyable, usable in kernels.
#include <colx/core/config.hpp>

#include <cstdint>
#include <type_traits>

namespace colx {

enum class time_unit : std::uint8_t { days, seconds, milliseconds, microseconds, nanoseconds };

[[nodiscard]] constexpr char const* to_string(time_unit unit) noexcept {
  switch (unit) {
    case time_unit::days: return "days";
    case time_unit::seconds: return "s";
    case time_unit::milliseconds: return "ms";
    case time_unit::microseconds: return "us";
    case time_unit::nanoseconds: return "ns";
  }
  return "?";
}

namespace detail {
// Equality and ordering by tick count, for both wrappers below.
template <class Derived>
struct ordered_by_ticks {
  friend constexpr COLX_HOST_DEVICE bool operator==(Derived a, Derived b) noexcept { return a.ticks == b.ticks; }
  friend constexpr COLX_HOST_DEVICE bool operator!=(Derived a, Derived b) noexcept { return a.ticks != b.ticks; }
  friend constexpr COLX_HOST_DEVICE bool operator<(Derived a, Derived b) noexcept { return a.ticks < b.ticks; }
  friend constexpr COLX_HOST_DEVICE bool operator<=(Derived a, Derived b) noexcept { return a.ticks <= b.ticks; }
  friend constexpr COLX_HOST_DEVICE bool operator>(Derived a, Derived b) noexcept { return a.ticks > b.ticks; }
  friend constexpr COLX_HOST_DEVICE bool operator>=(Derived a, Derived b) noexcept { return a.ticks >= b.ticks; }
};
}  // namespace detail

template <time_unit Unit>
struct duration : detail::ordered_by_ticks<duration<Unit>> {
  using rep = std::conditional_t<Unit == time_unit::days, std::int32_t, std::int64_t>;
  static constexpr time_unit unit = Unit;
  rep ticks{};

  constexpr duration() noexcept = default;
  constexpr COLX_HOST_DEVICE explicit duration(rep t) noexcept : ticks(t) {}

  friend constexpr COLX_HOST_DEVICE duration operator+(duration a, duration b) noexcept { return duration(a.ticks + b.ticks); }
  friend constexpr COLX_HOST_DEVICE duration operator-(duration a, duration b) noexcept { return duration(a.ticks - b.ticks); }
};

template <time_unit Unit>
struct timestamp : detail::ordered_by_ticks<timestamp<Unit>> {
  using rep = typename duration<Unit>::rep;
  static constexpr time_unit unit = Unit;
  rep ticks{};  // since 1970-01-01T00:00:00

  constexpr timestamp() noexcept = default;
  constexpr COLX_HOST_DEVICE explicit timestamp(rep t) noexcept : ticks(t) {}

  friend constexpr COLX_HOST_DEVICE timestamp operator+(timestamp t, duration<Unit> d) noexcept { return timestamp(t.ticks + d.ticks); }
  friend constexpr COLX_HOST_DEVICE duration<Unit> operator-(timestamp a, timestamp b) noexcept { return duration<Unit>(a.ticks - b.ticks); }
};

// A duration of any unit: durations sum, average and multiply by integers (an interval in SQL).
template <class T>
concept duration_type = requires {
  T::unit;
  requires std::is_same_v<T, duration<T::unit>>;
};

using date32 = timestamp<time_unit::days>;
using timestamp_s = timestamp<time_unit::seconds>;
using timestamp_ms = timestamp<time_unit::milliseconds>;
using timestamp_us = timestamp<time_unit::microseconds>;
using timestamp_ns = timestamp<time_unit::nanoseconds>;
using duration_days = duration<time_unit::days>;
using duration_s = duration<time_unit::seconds>;
using duration_ms = duration<time_unit::milliseconds>;
using duration_us = duration<time_unit::microseconds>;
using duration_ns = duration<time_unit::nanoseconds>;

// Days since the epoch of a proleptic Gregorian civil date (Howard Hinnant's algorithm).
[[nodiscard]] constexpr COLX_HOST_DEVICE date32 date(int year, unsigned month, unsigned day) noexcept {
  year -= month <= 2 ? 1 : 0;
  int const era = (year >= 0 ? year : year - 399) / 400;
  auto const year_of_era = static_cast<unsigned>(year - era * 400);
  unsigned const day_of_year = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1;
  unsigned const day_of_era = year_of_era * 365 + year_of_era / 4 - year_of_era / 100 + day_of_year;
  return date32(era * 146097 + static_cast<int>(day_of_era) - 719468);
}

struct civil_date {
  int year;
  unsigned month;
  unsigned day;
};

// The proleptic Gregorian date of a day count since the epoch (the inverse of date()).
[[nodiscard]] constexpr COLX_HOST_DEVICE civil_date to_civil(date32 d) noexcept {
  int const z = d.ticks + 719468;
  int const era = (z >= 0 ? z : z - 146096) / 146097;
  auto const day_of_era = static_cast<unsigned>(z - era * 146097);
  unsigned const year_of_era = (day_of_era - day_of_era / 1460 + day_of_era / 36524 - day_of_era / 146096) / 365;
  unsigned const day_of_year = day_of_era - (365 * year_of_era + year_of_era / 4 - year_of_era / 100);
  unsigned const mp = (5 * day_of_year + 2) / 153;
  unsigned const day = day_of_year - (153 * mp + 2) / 5 + 1;
  unsigned const month = mp < 10 ? mp + 3 : mp - 9;
  return {static_cast<int>(year_of_era) + era * 400 + (month <= 2 ? 1 : 0), month, day};
}

// Days in a month of the proleptic Gregorian calendar.
[[nodiscard]] constexpr COLX_HOST_DEVICE unsigned days_in_month(int year, unsigned month) noexcept {
  constexpr unsigned char days[] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
  bool const leap = (year % 4 == 0 && year % 100 != 0) || year % 400 == 0;
  return days[month - 1] + (month == 2 && leap ? 1u : 0u);
}

// Ticks of a clock unit (finer than days) in a second, the digits of a second's fraction it
// carries, and ticks of any unit in a day.
template <time_unit U>
inline constexpr std::int64_t ticks_per_second = U == time_unit::seconds        ? 1
                                                 : U == time_unit::milliseconds ? 1'000
                                                 : U == time_unit::microseconds ? 1'000'000
                                                                                : 1'000'000'000;
template <time_unit U>
inline constexpr int fraction_digits = U == time_unit::seconds        ? 0
                                       : U == time_unit::milliseconds ? 3
                                       : U == time_unit::microseconds ? 6
                                                                      : 9;
template <time_unit U>
inline constexpr std::int64_t ticks_per_day = U == time_unit::days ? 1 : 86'400 * ticks_per_second<U>;

namespace detail {
// a / b rounded toward negative infinity (C++'s / rounds toward zero).
[[nodiscard]] constexpr COLX_HOST_DEVICE std::int64_t floor_div(std::int64_t a, std::int64_t b) noexcept {
  return a / b - ((a % b != 0) && ((a < 0) != (b < 0)) ? 1 : 0);
}
}  // namespace detail

// The day of a timestamp: an instant before the epoch belongs to the day before.
template <time_unit U>
[[nodiscard]] constexpr COLX_HOST_DEVICE date32 to_date(timestamp<U> t) noexcept {
  if constexpr (U == time_unit::days) {
    return t;
  } else {
    return date32(static_cast<std::int32_t>(detail::floor_div(t.ticks, ticks_per_day<U>)));
  }
}

}  // namespace colx
