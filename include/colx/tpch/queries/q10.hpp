// SPDX-License-Identifier: Apache-2.0
#pragma once
// TPC-H Q10, the returned item reporting: the 20 customers with the most revenue lost to returns in a quarter (the top 20 found first, their details joined after).
// ---- SQL ----
// select c_custkey, c_name, sum(l_extendedprice * (1 - l_discount)) as revenue, c_acctbal,
//        n_name, c_address, c_phone, c_comment
// from customer, orders, lineitem, nation
// where c_custkey = o_custkey and l_orderkey = o_orderkey
//   and o_orderdate >= date '1993-10-01' and o_orderdate < date '1994-01-01'
//   and l_returnflag = 'R' and c_nationkey = n_nationkey
// group by c_custkey, c_name, c_acctbal, c_phone, n_name, c_address, c_comment
// order by revenue desc
// limit 20
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
[[nodiscard]] auto q10_of(Tables const& db) {
  auto const orders = db.orders | filter("o_orderdate"_c >= date(1993, 10, 1) && "o_orderdate"_c < date(1994, 1, 1)) |
                      select("o_orderkey"_c, "o_custkey"_c);
  auto const lost = db.lineitem | select("l_orderkey"_c, "l_extendedprice"_c, "l_discount"_c, "l_returnflag"_c) |
                    filter("l_returnflag"_c == "R") | join(orders, on("l_orderkey"_c), on("o_orderkey"_c)) | group_by("o_custkey"_c) |
                    aggregate(sum("l_extendedprice"_c * (1 - "l_discount"_c)).as<"revenue">());
  // The 20 customers' details only: the customer table is hashed, not joined whole to nation.
  auto const top = top_k(lost, 20, desc("revenue"_c)) | join(db.customer, on("o_custkey"_c), on("c_custkey"_c)) |
                   join(db.nation | select("n_nationkey"_c, "n_name"_c), on("c_nationkey"_c), on("n_nationkey"_c));
  return top_k(top, 20, desc("revenue"_c)) |
         select("c_custkey"_c, "c_name"_c, "revenue"_c, "c_acctbal"_c, "n_name"_c, "c_address"_c, "c_phone"_c, "c_comment"_c);
}

[[nodiscard]] inline auto q10(database const& db) { return q10_of(db); }

}  // namespace colx::tpch::queries
