// SPDX-License-Identifier: Apache-2.0
#pragma once
// TPC-H Q7, the volume shipping: trade between FRANCE and GERMANY by year (the nation table twice, under two names).
// ---- SQL ----
// select supp_nation, cust_nation, l_year, sum(volume) as revenue
// from (select n1.n_name as supp_nation, n2.n_name as cust_nation,
//              extract(year from l_shipdate) as l_year, l_extendedprice * (1 - l_discount) as volume
//       from supplier, lineitem, orders, customer, nation n1, nation n2
//       where s_suppkey = l_suppkey and o_orderkey = l_orderkey and c_custkey = o_custkey
//         and s_nationkey = n1.n_nationkey and c_nationkey = n2.n_nationkey
//         and ((n1.n_name = 'FRANCE' and n2.n_name = 'GERMANY')
//           or (n1.n_name = 'GERMANY' and n2.n_name = 'FRANCE'))
//         and l_shipdate between date '1995-01-01' and date '1996-12-31') as shipping
// group by supp_nation, cust_nation, l_year
// order by supp_nation, cust_nation, l_year
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
[[nodiscard]] auto q07_of(Tables const& db) {
  auto const pair = db.nation | filter("n_name"_c == "FRANCE" || "n_name"_c == "GERMANY");
  auto const suppliers = db.supplier | select("s_suppkey"_c, "s_nationkey"_c) |
                         join(pair | select("n_nationkey"_c.as<"sn_key">(), "n_name"_c.as<"supp_nation">()), on("s_nationkey"_c), on("sn_key"_c)) |
                         select("s_suppkey"_c, "supp_nation"_c);
  auto const customers = db.customer | select("c_custkey"_c, "c_nationkey"_c) |
                         join(pair | select("n_nationkey"_c.as<"cn_key">(), "n_name"_c.as<"cust_nation">()), on("c_nationkey"_c), on("cn_key"_c)) |
                         select("c_custkey"_c, "cust_nation"_c);
  auto const orders = db.orders | select("o_orderkey"_c, "o_custkey"_c) | join(customers, on("o_custkey"_c), on("c_custkey"_c));
  return db.lineitem | filter("l_shipdate"_c >= date(1995, 1, 1) && "l_shipdate"_c <= date(1996, 12, 31)) |
         select("l_orderkey"_c, "l_suppkey"_c, "l_shipdate"_c, "l_extendedprice"_c, "l_discount"_c) |
         join(suppliers, on("l_suppkey"_c), on("s_suppkey"_c)) | join(orders, on("l_orderkey"_c), on("o_orderkey"_c)) |
         filter("supp_nation"_c != "cust_nation"_c) |
         group_by("supp_nation"_c, "cust_nation"_c, year("l_shipdate"_c).as<"l_year">()) |
         aggregate(sum("l_extendedprice"_c * (1 - "l_discount"_c)).as<"revenue">()) |
         sort_by("supp_nation"_c, "cust_nation"_c, "l_year"_c);
}

[[nodiscard]] inline auto q07(database const& db) { return q07_of(db); }

}  // namespace colx::tpch::queries
