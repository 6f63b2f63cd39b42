// SPDX-License-Identifier: Apache-2.0
#pragma once
// TPC-H Q9, the product type profit measure: profit on green parts by nation and year (a two-key join to partsupp).
// ---- SQL ----
// select nation, o_year, sum(amount) as sum_profit
// from (select n_name as nation, extract(year from o_orderdate) as o_year,
//              l_extendedprice * (1 - l_discount) - ps_supplycost * l_quantity as amount
//       from part, supplier, lineitem, partsupp, orders, nation
//       where s_suppkey = l_suppkey and ps_suppkey = l_suppkey and ps_partkey = l_partkey
//         and p_partkey = l_partkey and o_orderkey = l_orderkey and s_nationkey = n_nationkey
//         and p_name like '%green%') as profit
// group by nation, o_year
// order by nation, o_year desc
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
[[nodiscard]] auto q09_of(Tables const& db) {
  auto const green = db.part | filter(like("p_name"_c, "%green%"));
  auto const suppliers = db.supplier | select("s_suppkey"_c, "s_nationkey"_c) |
                         join(db.nation | select("n_nationkey"_c, "n_name"_c.as<"nation">()), on("s_nationkey"_c), on("n_nationkey"_c));
  return db.lineitem | select("l_orderkey"_c, "l_partkey"_c, "l_suppkey"_c, "l_quantity"_c, "l_extendedprice"_c, "l_discount"_c) |
         join<join_kind::semi>(green, on("l_partkey"_c), on("p_partkey"_c)) |
         join(db.partsupp | select("ps_partkey"_c, "ps_suppkey"_c, "ps_supplycost"_c), on("l_partkey"_c, "l_suppkey"_c),
              on("ps_partkey"_c, "ps_suppkey"_c)) |
         join(suppliers, on("l_suppkey"_c), on("s_suppkey"_c)) |
         join(db.orders | select("o_orderkey"_c, "o_orderdate"_c), on("l_orderkey"_c), on("o_orderkey"_c)) |
         group_by("nation"_c, year("o_orderdate"_c).as<"o_year">()) |
         aggregate(sum("l_extendedprice"_c * (1 - "l_discount"_c) - "ps_supplycost"_c * "l_quantity"_c).as<"sum_profit">()) |
         sort_by("nation"_c, desc("o_year"_c));
}

[[nodiscard]] inline auto q09(database const& db) { return q09_of(db); }

}  // namespace colx::tpch::queries
