// SPDX-License-Identifier: Apache-2.0
#pragma once
// TPC-H Q21, the suppliers who kept orders waiting: the suppliers of SAUDI ARABIA that alone were late on a finished order of several suppliers (EXISTS and NOT EXISTS as counts of distinct suppliers per order).
// ---- SQL ----
// select s_name, count(*) as numwait
// from supplier, lineitem l1, orders, nation
// where s_suppkey = l1.l_suppkey and o_orderkey = l1.l_orderkey and o_orderstatus = 'F'
//   and l1.l_receiptdate > l1.l_commitdate
//   and exists (select * from lineitem l2
//               where l2.l_orderkey = l1.l_orderkey and l2.l_suppkey <> l1.l_suppkey)
//   and not exists (select * from lineitem l3
//                   where l3.l_orderkey = l1.l_orderkey and l3.l_suppkey <> l1.l_suppkey
//                     and l3.l_receiptdate > l3.l_commitdate)
//   and s_nationkey = n_nationkey and n_name = 'SAUDI ARABIA'
// group by s_name
// order by numwait desc, s_name
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

// A late line l1 of supplier s qualifies when its order has another supplier (EXISTS l2) and no
// other supplier was late (NOT EXISTS l3): the order has two or more suppliers, and its late
// lines one, s. "Two or more" is min(l_suppkey) < max(l_suppkey) and "one" is min == max: two
// extremum cells an order, where counting distinct suppliers keeps a set of (order, supplier)
// pairs (nunique's) that the 7.3M orders' lines are looked up in at random.
// Over any tables: a database of frames, or of dist::dist_frames (dist_tables.hpp).
template <class Tables>
[[nodiscard]] auto q21_of(Tables const& db) {
  auto const finished = db.orders | filter("o_orderstatus"_c == "F") | select("o_orderkey"_c);
  auto const saudi = db.supplier | join<join_kind::semi>(db.nation | filter("n_name"_c == "SAUDI ARABIA"), on("s_nationkey"_c), on("n_nationkey"_c)) |
                     select("s_suppkey"_c, "s_name"_c);
  auto const late = db.lineitem | select("l_orderkey"_c, "l_suppkey"_c, "l_receiptdate"_c, "l_commitdate"_c) |
                    filter("l_receiptdate"_c > "l_commitdate"_c) | join<join_kind::semi>(finished, on("l_orderkey"_c), on("o_orderkey"_c));
  auto const several = db.lineitem | select("l_orderkey"_c, "l_suppkey"_c) | join<join_kind::semi>(finished, on("l_orderkey"_c), on("o_orderkey"_c)) |
                       group_by("l_orderkey"_c) | aggregate(min("l_suppkey"_c).as<"first">(), max("l_suppkey"_c).as<"last">()) |
                       filter("first"_c < "last"_c);
  auto const alone_late = late | group_by("l_orderkey"_c) |
                          aggregate(min("l_suppkey"_c).as<"first">(), max("l_suppkey"_c).as<"last">()) |
                          filter("first"_c == "last"_c);
  auto const waiting = late | join(saudi, on("l_suppkey"_c), on("s_suppkey"_c)) | join<join_kind::semi>(several, on("l_orderkey"_c)) |
                       join<join_kind::semi>(alone_late, on("l_orderkey"_c)) | group_by("s_name"_c) | aggregate(count().as<"numwait">());
  return top_k(waiting, 100, desc("numwait"_c), "s_name"_c);
}

[[nodiscard]] inline auto q21(database const& db) { return q21_of(db); }

}  // namespace colx::tpch::queries
