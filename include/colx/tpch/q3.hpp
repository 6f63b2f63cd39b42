// SPDX-License-Identifier: Apache-2.0
#pragma once
// TPC-H Q3 as a colx pipeline over the generated tables (tpch/generator.hpp). One query a header:
// a query's kernels are instantiated wherever its function is compiled, so a program that runs
// one query includes only that one (tpch/queries.hpp has all three).
#include <colx/frame/group_by.hpp>
#include <colx/frame/join.hpp>
#include <colx/frame/pipeline.hpp>
#include <colx/frame/select.hpp>
#include <colx/frame/sort.hpp>
#include <colx/tpch/schemas.hpp>

namespace colx::tpch {

using namespace colx::literals;

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

}  // namespace colx::tpch
