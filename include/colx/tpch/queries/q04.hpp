// SPDX-License-Identifier: Apache-2.0
#pragma once
// TPC-H Q4, the order priority checking: orders of a quarter with a line received late (EXISTS as a semi join), counted by priority.
// ---- SQL ----
// select o_orderpriority, count(*) as order_count
// from orders
// where o_orderdate >= date '1993-07-01' and o_orderdate < date '1993-10-01'
//   and exists (select * from lineitem where l_orderkey = o_orderkey and l_commitdate < l_receiptdate)
// group by o_orderpriority
// order by o_orderpriority
// ---- end ----
#include <colx/expr/functions_strings.hpp>
#include <colx/frame/distinct.hpp>
#include <colx/frame/group_by.hpp>
#include <colx/frame/join.hpp>
#include <colx/frame/make_frame.hpp>
#include <colx/frame/pipeline.hpp>
#include <colx/frame/select.hpp>
#include <colx/frame/with_columns.hpp>
#include <colx/tpch/queries/tables.hpp>

namespace colx::tpch::queries {

using namespace colx::literals;

// Over any tables: a database of frames, or of dist::dist_frames (dist_tables.hpp).
template <class Tables>
[[nodiscard]] auto q04_of(Tables const& db) {
  auto const late = db.lineitem | filter("l_commitdate"_c < "l_receiptdate"_c);
  return db.orders | filter("o_orderdate"_c >= date(1993, 7, 1) && "o_orderdate"_c < date(1993, 10, 1)) |
         join<join_kind::semi>(late, on("o_orderkey"_c), on("l_orderkey"_c)) |
         group_by(group_by_options{.sorted = true}, "o_orderpriority"_c) | aggregate(count().as<"order_count">());
}

[[nodiscard]] inline auto q04(database const& db) { return q04_of(db); }

}  // namespace colx::tpch::queries
