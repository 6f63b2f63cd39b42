// SPDX-License-Identifier: Apache-2.0
#pragma once
// TPC-H Q1 as a colx pipeline over the generated tables (tpch/generator.hpp). One query a header:
// a query's kernels are instantiated wherever its function is compiled, so a program that runs
// one query includes only that one (tpch/queries.hpp has all three).
#include <colx/frame/group_by.hpp>
#include <colx/frame/pipeline.hpp>
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

}  // namespace colx::tpch
