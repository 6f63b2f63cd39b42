// SPDX-License-Identifier: Apache-2.0
#pragma once
// TPC-H Q5, the local supplier volume: revenue of the nations of ASIA from lines whose customer and supplier share a nation (a two-key join).
// ---- SQL ----
// select n_name, sum(l_extendedprice * (1 - l_discount)) as revenue
// from customer, orders, lineitem, supplier, nation, region
// where c_custkey = o_custkey and l_orderkey = o_orderkey and l_suppkey = s_suppkey
//   and c_nationkey = s_nationkey and s_nationkey = n_nationkey and n_regionkey = r_regionkey
//   and r_name = 'ASIA' and o_orderdate >= date '1994-01-01' and o_orderdate < date '1995-01-01'
// group by n_name
// order by revenue desc
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
[[nodiscard]] auto q05_of(Tables const& db) {
  auto const asia = db.nation | join<join_kind::semi>(db.region | filter("r_name"_c == "ASIA"), on("n_regionkey"_c), on("r_regionkey"_c)) |
                    select("n_nationkey"_c, "n_name"_c);
  auto const suppliers = db.supplier | select("s_suppkey"_c, "s_nationkey"_c) | join(asia, on("s_nationkey"_c), on("n_nationkey"_c));
  auto const orders = db.orders | filter("o_orderdate"_c >= date(1994, 1, 1) && "o_orderdate"_c < date(1995, 1, 1)) |
                      select("o_orderkey"_c, "o_custkey"_c) |
                      join(db.customer | select("c_custkey"_c, "c_nationkey"_c), on("o_custkey"_c), on("c_custkey"_c));
  return db.lineitem | select("l_orderkey"_c, "l_suppkey"_c, "l_extendedprice"_c, "l_discount"_c) |
         join(orders, on("l_orderkey"_c), on("o_orderkey"_c)) |
         join(suppliers, on("l_suppkey"_c, "c_nationkey"_c), on("s_suppkey"_c, "s_nationkey"_c)) | group_by("n_name"_c) |
         aggregate(sum("l_extendedprice"_c * (1 - "l_discount"_c)).as<"revenue">()) | sort_by(desc("revenue"_c));
}

[[nodiscard]] inline auto q05(database const& db) { return q05_of(db); }

}  // namespace colx::tpch::queries
