// SPDX-License-Identifier: Apache-2.0
#pragma once
// TPC-H Q12, the shipping modes and order priority: late lines by ship mode, counted as high or low priority (CASE WHEN as sums of conditions).
// ---- SQL ----
// select l_shipmode,
//        sum(case when o_orderpriority = '1-URGENT' or o_orderpriority = '2-HIGH' then 1 else 0 end) as high_line_count,
//        sum(case when o_orderpriority <> '1-URGENT' and o_orderpriority <> '2-HIGH' then 1 else 0 end) as low_line_count
// from orders, lineitem
// where o_orderkey = l_orderkey and l_shipmode in ('MAIL', 'SHIP')
//   and l_commitdate < l_receiptdate and l_shipdate < l_commitdate
//   and l_receiptdate >= date '1994-01-01' and l_receiptdate < date '1995-01-01'
// group by l_shipmode
// order by l_shipmode
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
[[nodiscard]] auto q12_of(Tables const& db) {
  auto const high = "o_orderpriority"_c == "1-URGENT" || "o_orderpriority"_c == "2-HIGH";
  return db.lineitem | select("l_orderkey"_c, "l_shipmode"_c, "l_shipdate"_c, "l_commitdate"_c, "l_receiptdate"_c) |
         filter(("l_shipmode"_c == "MAIL" || "l_shipmode"_c == "SHIP") && "l_commitdate"_c < "l_receiptdate"_c &&
                "l_shipdate"_c < "l_commitdate"_c && "l_receiptdate"_c >= date(1994, 1, 1) && "l_receiptdate"_c < date(1995, 1, 1)) |
         join(db.orders | select("o_orderkey"_c, "o_orderpriority"_c), on("l_orderkey"_c), on("o_orderkey"_c)) |
         group_by(group_by_options{.sorted = true}, "l_shipmode"_c) |
         aggregate(sum(if_else(high, 1, 0)).as<"high_line_count">(), sum(if_else(high, 0, 1)).as<"low_line_count">());
}

[[nodiscard]] inline auto q12(database const& db) { return q12_of(db); }

}  // namespace colx::tpch::queries
