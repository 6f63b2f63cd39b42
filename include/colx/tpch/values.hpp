// SPDX-License-Identifier: Apache-2.0
#pragma once
// The TPC-H generator's values as integer functions of (scale factor, column, row): dates, the
// sparse keys, the customers that order, and one lineitem's values (tpch/generator.hpp writes them).
#include <colx/core/config.hpp>
#include <colx/tpch/random.hpp>
#include <colx/types/chrono.hpp>

#include <cstdint>

namespace colx::tpch::detail {

// Day counts rather than date32: a constexpr scalar may be read in device code, a constant of
// class type may not.
inline constexpr std::int32_t start_day = date(1992, 1, 1).ticks;       // STARTDATE
inline constexpr std::int32_t current_day = date(1995, 6, 17).ticks;    // CURRENTDATE
inline constexpr std::int32_t last_order_day = date(1998, 8, 2).ticks;  // ENDDATE (1998-12-31) - 151 days

// dbgen's sparse keys: of each 32 keys, only the first 8 are used, so that refresh functions
// have room to insert orders.
[[nodiscard]] constexpr COLX_HOST_DEVICE std::int64_t order_key(size_type order) noexcept {
  return order / 8 * 32 + order % 8 + 1;
}
[[nodiscard]] constexpr COLX_HOST_DEVICE std::int32_t line_count(size_type order) noexcept {
  return static_cast<std::int32_t>(uniform(stream_id::o_line_count, static_cast<std::uint64_t>(order), 1, 7));
}
[[nodiscard]] constexpr COLX_HOST_DEVICE std::int32_t order_day(size_type order) noexcept {
  return static_cast<std::int32_t>(
      uniform(stream_id::o_orderdate, static_cast<std::uint64_t>(order), start_day, last_order_day));
}
// A third of the customers place no orders (dbgen's CUST_MORTALITY): the k-th key not divisible
// by 3, drawn uniformly among the customers' such keys.
[[nodiscard]] constexpr COLX_HOST_DEVICE std::int64_t order_customer(size_type order, size_type customers) noexcept {
  std::int64_t const k = uniform(stream_id::o_custkey, static_cast<std::uint64_t>(order), 0, customers - customers / 3 - 1);
  return k / 2 * 3 + k % 2 + 1;
}
// P_RETAILPRICE of TPC-H 4.2.3, in cents.
[[nodiscard]] constexpr COLX_HOST_DEVICE std::int64_t retail_cents(std::int64_t partkey) noexcept {
  return 90000 + partkey / 10 % 20001 + 100 * (partkey % 1000);
}

// One lineitem as integers: prices in cents, rates in percent, dates in days.
struct line_values {
  std::int64_t partkey;
  std::int64_t extended_cents;
  std::int32_t quantity;
  std::int32_t discount;
  std::int32_t tax;
  std::int32_t ship_day;
  std::int32_t commit_day;
  std::int32_t receipt_day;
  char returnflag;
  char linestatus;
};

// Line `line` (0-based) of order `order`. Its counter is order * 8 + line, not its lineitem row,
// so a line's values do not depend on how many lines the orders before it have.
[[nodiscard]] constexpr COLX_HOST_DEVICE line_values make_line(size_type order, std::int32_t line, std::int32_t ordered,
                                                                size_type parts) noexcept {
  auto const c = static_cast<std::uint64_t>(order) * 8 + static_cast<std::uint64_t>(line);
  line_values l{};
  l.partkey = uniform(stream_id::l_partkey, c, 1, parts);
  l.quantity = static_cast<std::int32_t>(uniform(stream_id::l_quantity, c, 1, 50));
  l.extended_cents = l.quantity * retail_cents(l.partkey);
  l.discount = static_cast<std::int32_t>(uniform(stream_id::l_discount, c, 0, 10));
  l.tax = static_cast<std::int32_t>(uniform(stream_id::l_tax, c, 0, 8));
  l.ship_day = ordered + static_cast<std::int32_t>(uniform(stream_id::l_ship_days, c, 1, 121));
  l.commit_day = ordered + static_cast<std::int32_t>(uniform(stream_id::l_commit_days, c, 30, 90));
  l.receipt_day = l.ship_day + static_cast<std::int32_t>(uniform(stream_id::l_receipt_days, c, 1, 30));
  l.returnflag = l.receipt_day > current_day ? 'N' : (uniform(stream_id::l_returnflag, c, 0, 1) == 0 ? 'R' : 'A');
  l.linestatus = l.ship_day > current_day ? 'O' : 'F';
  return l;
}

// What the line adds to O_TOTALPRICE, as dbgen computes it: discounted, then taxed, each step
// truncated to whole cents.
[[nodiscard]] constexpr COLX_HOST_DEVICE std::int64_t charge_cents(line_values const& l) noexcept {
  return l.extended_cents * (100 - l.discount) / 100 * (100 + l.tax) / 100;
}

}  // namespace colx::tpch::detail
