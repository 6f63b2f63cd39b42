// SPDX-License-Identifier: Apache-2.0
#pragma once
// TPC-H Q15, the top supplier: the suppliers of the largest revenue of a quarter (a view, its maximum, and the rows that reach it).
// ---- SQL ----
// with revenue as (
//     select l_suppkey as supplier_no, sum(l_extendedprice * (1 - l_discount)) as total_revenue
//     from lineitem
//     where l_shipdate >= date '1996-01-01' and l_shipdate < date '1996-04-01'
//     group by l_suppkey)
// select s_suppkey, s_name, s_address, s_phone, total_revenue
// from supplier, revenue
// where s_suppkey = supplier_no and total_revenue = (select max(total_revenue) from revenue)
// order by s_suppkey
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
[[nodiscard]] auto q15_of(Tables const& db) {
  auto const revenue = db.lineitem | filter("l_shipdate"_c >= date(1996, 1, 1) && "l_shipdate"_c < date(1996, 4, 1)) |
                       group_by("l_suppkey"_c.as<"supplier_no">()) |
                       aggregate(sum("l_extendedprice"_c * (1 - "l_discount"_c)).as<"total_revenue">());
  auto const top = revenue | reduce(max("total_revenue"_c));
  return db.supplier | select("s_suppkey"_c, "s_name"_c, "s_address"_c, "s_phone"_c) |
         join(revenue | filter("total_revenue"_c == top.value()), on("s_suppkey"_c), on("supplier_no"_c)) |
         select("s_suppkey"_c, "s_name"_c, "s_address"_c, "s_phone"_c, "total_revenue"_c) | sort_by("s_suppkey"_c);
}

[[nodiscard]] inline auto q15(database const& db) { return q15_of(db); }

}  // namespace colx::tpch::queries
