// SPDX-License-Identifier: Apache-2.0
#pragma once
// TPC-H Q8, the national market share: the share of BRAZIL in the steel volume of AMERICA by year (CASE WHEN in a sum).
// ---- SQL ----
// select o_year, sum(case when nation = 'BRAZIL' then volume else 0 end) / sum(volume) as mkt_share
// from (select extract(year from o_orderdate) as o_year,
//              l_extendedprice * (1 - l_discount) as volume, n2.n_name as nation
//       from part, supplier, lineitem, orders, customer, nation n1, nation n2, region
//       where p_partkey = l_partkey and s_suppkey = l_suppkey and l_orderkey = o_orderkey
//         and o_custkey = c_custkey and c_nationkey = n1.n_nationkey
//         and n1.n_regionkey = r_regionkey and r_name = 'AMERICA' and s_nationkey = n2.n_nationkey
//         and o_orderdate between date '1995-01-01' and date '1996-12-31'
//         and p_type = 'ECONOMY ANODIZED STEEL') as all_nations
// group by o_year
// order by o_year
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
[[nodiscard]] auto q08_of(Tables const& db) {
  auto const america = db.nation | join<join_kind::semi>(db.region | filter("r_name"_c == "AMERICA"), on("n_regionkey"_c), on("r_regionkey"_c));
  auto const customers = db.customer | join<join_kind::semi>(america, on("c_nationkey"_c), on("n_nationkey"_c)) | select("c_custkey"_c);
  auto const orders = db.orders | filter("o_orderdate"_c >= date(1995, 1, 1) && "o_orderdate"_c <= date(1996, 12, 31)) |
                      join<join_kind::semi>(customers, on("o_custkey"_c), on("c_custkey"_c)) | select("o_orderkey"_c, "o_orderdate"_c);
  auto const steel = db.part | filter("p_type"_c == "ECONOMY ANODIZED STEEL");
  auto const suppliers = db.supplier | select("s_suppkey"_c, "s_nationkey"_c) |
                         join(db.nation | select("n_nationkey"_c, "n_name"_c.as<"nation">()), on("s_nationkey"_c), on("n_nationkey"_c));
  auto const volume = "l_extendedprice"_c * (1 - "l_discount"_c);
  return db.lineitem | select("l_orderkey"_c, "l_partkey"_c, "l_suppkey"_c, "l_extendedprice"_c, "l_discount"_c) |
         join<join_kind::semi>(steel, on("l_partkey"_c), on("p_partkey"_c)) | join(orders, on("l_orderkey"_c), on("o_orderkey"_c)) |
         join(suppliers, on("l_suppkey"_c), on("s_suppkey"_c)) | group_by(year("o_orderdate"_c).as<"o_year">()) |
         aggregate(sum(if_else("nation"_c == "BRAZIL", volume, volume * 0)).as<"brazil">(), sum(volume).as<"total">()) |
         with_columns((cast<double>("brazil"_c) / cast<double>("total"_c)).as<"mkt_share">()) | select("o_year"_c, "mkt_share"_c) |
         sort_by("o_year"_c);
}

[[nodiscard]] inline auto q08(database const& db) { return q08_of(db); }

}  // namespace colx::tpch::queries
