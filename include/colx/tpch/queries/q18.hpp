// SPDX-License-Identifier: Apache-2.0
#pragma once
// TPC-H Q18, the large volume customer: orders of more than 300 units, the 100 largest (IN (subquery) as a join with a filtered group-by).
// ---- SQL ----
// select c_name, c_custkey, o_orderkey, o_orderdate, o_totalprice, sum(l_quantity)
// from customer, orders, lineitem
// where o_orderkey in (select l_orderkey from lineitem group by l_orderkey having sum(l_quantity) > 300)
//   and c_custkey = o_custkey and o_orderkey = l_orderkey
// group by c_name, c_custkey, o_orderkey, o_orderdate, o_totalprice
// order by o_totalprice desc, o_orderdate
// limit 100
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
[[nodiscard]] auto q18_of(Tables const& db) {
  auto const large = db.lineitem | group_by("l_orderkey"_c) | aggregate(sum("l_quantity"_c).as<"sum_quantity">()) |
                     filter("sum_quantity"_c > 300);
  auto const orders = db.orders | select("o_orderkey"_c, "o_custkey"_c, "o_orderdate"_c, "o_totalprice"_c) |
                      join(large, on("o_orderkey"_c), on("l_orderkey"_c)) |
                      join(db.customer | select("c_custkey"_c, "c_name"_c), on("o_custkey"_c), on("c_custkey"_c));
  return top_k(orders, 100, desc("o_totalprice"_c), "o_orderdate"_c) |
         select("c_name"_c, "c_custkey"_c, "o_orderkey"_c, "o_orderdate"_c, "o_totalprice"_c, "sum_quantity"_c);
}

[[nodiscard]] inline auto q18(database const& db) { return q18_of(db); }

}  // namespace colx::tpch::queries
