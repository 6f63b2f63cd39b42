// SPDX-License-Identifier: Apache-2.0
#pragma once
// TPC-H Q14, the promotion effect: the share of the revenue of a month from PROMO parts (CASE WHEN with LIKE).
// ---- SQL ----
// select 100.00 * sum(case when p_type like 'PROMO%' then l_extendedprice * (1 - l_discount) else 0 end)
//        / sum(l_extendedprice * (1 - l_discount)) as promo_revenue
// from lineitem, part
// where l_partkey = p_partkey and l_shipdate >= date '1995-09-01' and l_shipdate < date '1995-10-01'
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

// The promotion share over any tables: a database of frames, or of dist::dist_frames.
template <class Tables>
[[nodiscard]] double q14_share_of(Tables const& db) {
  auto const revenue = "l_extendedprice"_c * (1 - "l_discount"_c);
  auto const [promo, total] = db.lineitem | filter("l_shipdate"_c >= date(1995, 9, 1) && "l_shipdate"_c < date(1995, 10, 1)) |
                              select("l_partkey"_c, "l_extendedprice"_c, "l_discount"_c) |
                              join(db.part | select("p_partkey"_c, "p_type"_c), on("l_partkey"_c), on("p_partkey"_c)) |
                              reduce(sum(if_else(like("p_type"_c, "PROMO%"), revenue, revenue * 0)), sum(revenue));
  return 100.0 * promo.value().to_double() / total.value().to_double();
}

template <class Tables>
[[nodiscard]] auto q14_of(Tables const& db) {
  return make_frame(values<"promo_revenue">(std::vector<double>{q14_share_of(db)}), memory_kind_of(db.lineitem));
}
[[nodiscard]] inline auto q14(database const& db) { return q14_of(db); }

}  // namespace colx::tpch::queries
