// SPDX-License-Identifier: Apache-2.0
#pragma once
// TPC-H Q3, the shipping priority: the open orders of BUILDING customers (a semi join), their lines shipped after the date, revenue per order, the ten largest.
// ---- SQL ----
// select l_orderkey, sum(l_extendedprice * (1 - l_discount)) as revenue, o_orderdate, o_shippriority
// from customer, orders, lineitem
// where c_mktsegment = 'BUILDING' and c_custkey = o_custkey and l_orderkey = o_orderkey
//   and o_orderdate < date '1995-03-15' and l_shipdate > date '1995-03-15'
// group by l_orderkey, o_orderdate, o_shippriority
// order by revenue desc, o_orderdate
// limit 10
// ---- end ----
#include <colx/expr/functions_strings.hpp>
#include <colx/frame/distinct.hpp>
#include <colx/frame/group_by.hpp>
#include <colx/frame/join.hpp>
#include <colx/frame/make_frame.hpp>
#include <colx/frame/pipeline.hpp>
#include <colx/frame/select.hpp>
#include <colx/frame/sort.hpp>
#include <colx/frame/with_columns.hpp>
#include <colx/tpch/queries/tables.hpp>

namespace colx::tpch::queries {

using namespace colx::literals;

// Over any tables: a database of frames, or of dist::dist_frames (dist_tables.hpp).
template <class Tables>
[[nodiscard]] auto q03_of(Tables const& db) {
  auto const open_orders = db.orders | filter("o_orderdate"_c < date(1995, 3, 15)) |
                           join<join_kind::semi>(db.customer | filter("c_mktsegment"_c == "BUILDING"), on("o_custkey"_c), on("c_custkey"_c)) |
                           select("o_orderkey"_c, "o_orderdate"_c, "o_shippriority"_c);
  // (select before filter: the filter then runs inside the join's probe, and no filtered copy of
  // lineitem is collected first.)
  auto const revenue = db.lineitem | select("l_orderkey"_c, "l_extendedprice"_c, "l_discount"_c, "l_shipdate"_c) |
                       filter("l_shipdate"_c > date(1995, 3, 15)) | join(open_orders, on("l_orderkey"_c), on("o_orderkey"_c)) |
                       group_by("l_orderkey"_c, "o_orderdate"_c, "o_shippriority"_c) |
                       aggregate(sum("l_extendedprice"_c * (1 - "l_discount"_c)).as<"revenue">());
  return top_k(revenue, 10, desc("revenue"_c), "o_orderdate"_c) | select("l_orderkey"_c, "revenue"_c, "o_orderdate"_c, "o_shippriority"_c);
}

[[nodiscard]] inline auto q03(database const& db) { return q03_of(db); }

}  // namespace colx::tpch::queries
