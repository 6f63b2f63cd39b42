// SPDX-License-Identifier: Apache-2.0
#pragma once
// TPC-H queries 1, 3 and 6 as colx pipelines over the generated tables (tpch/generator.hpp): what
// the examples print, the tests check against plain loops and the benchmarks time.
#include <colx/colx.hpp>
#include <colx/tpch/schemas.hpp>

namespace colx::tpch {

using namespace colx::literals;

// Q1, the pricing summary report: one fused pass (filter, derived values, eight aggregations)
// into four groups, then a sort of the four rows.
[[nodiscard]] inline auto q1(frame<lineitem_schema> const& lineitem) {
  auto const disc_price = "l_extendedprice"_c * (1.0 - "l_discount"_c);
  return lineitem | filter("l_shipdate"_c <= date(1998, 9, 2)) |
         group_by(group_by_options{.sorted = true}, "l_returnflag"_c, "l_linestatus"_c) |
         aggregate(sum("l_quantity"_c).as<"sum_qty">(), sum("l_extendedprice"_c).as<"sum_base_price">(),
                   sum(disc_price).as<"sum_disc_price">(), sum(disc_price * (1.0 + "l_tax"_c)).as<"sum_charge">(),
                   mean("l_quantity"_c).as<"avg_qty">(), mean("l_extendedprice"_c).as<"avg_price">(),
                   mean("l_discount"_c).as<"avg_disc">(), count().as<"count_order">());
}

// Q3, the shipping priority query: BUILDING customers' orders before 1995-03-15 (a semi join),
// their lines shipped after it (an inner join), revenue per order, the ten largest.
[[nodiscard]] inline auto q3(frame<customer_schema> const& customer, frame<orders_schema> const& orders,
                             frame<lineitem_schema> const& lineitem) {
  auto const open_orders = orders | filter("o_orderdate"_c < date(1995, 3, 15)) |
                           join<join_kind::semi>(customer | filter("c_mktsegment"_c == "BUILDING"), on("o_custkey"_c),
                                                 on("c_custkey"_c)) |
                           select("o_orderkey"_c, "o_orderdate"_c, "o_shippriority"_c);
  auto const lines = lineitem | select("l_orderkey"_c, "l_extendedprice"_c, "l_discount"_c, "l_shipdate"_c) |
                     filter("l_shipdate"_c > date(1995, 3, 15)) | join(open_orders, on("l_orderkey"_c), on("o_orderkey"_c));
  auto const revenue = lines | group_by("l_orderkey"_c, "o_orderdate"_c, "o_shippriority"_c) |
                       aggregate(sum("l_extendedprice"_c * (1.0 - "l_discount"_c)).as<"revenue">());
  return top_k(revenue, 10, desc("revenue"_c), "o_orderdate"_c) |
         select("l_orderkey"_c, "revenue"_c, "o_orderdate"_c, "o_shippriority"_c);
}

// Q6, the forecasting revenue change: one fused filter + sum.
[[nodiscard]] inline double q6(frame<lineitem_schema> const& lineitem) {
  return (lineitem |
          filter("l_shipdate"_c >= date(1994, 1, 1) && "l_shipdate"_c < date(1995, 1, 1) &&
                 between("l_discount"_c, 0.05, 0.07) && "l_quantity"_c < 24.0) |
          reduce(sum("l_extendedprice"_c * "l_discount"_c)))
      .to_optional()
      .value_or(0.0);
}

}  // namespace colx::tpch
