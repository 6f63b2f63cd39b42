// SPDX-License-Identifier: Apache-2.0
#pragma once
// TPC-H Q6, the forecasting revenue change: one fused filter and sum over lineitem.
// ---- SQL ----
// select sum(l_extendedprice * l_discount) as revenue
// from lineitem
// where l_shipdate >= date '1994-01-01' and l_shipdate < date '1995-01-01'
//   and l_discount between 0.05 and 0.07 and l_quantity < 24
// ---- end ----
#include <colx/frame/make_frame.hpp>
#include <colx/frame/pipeline.hpp>
#include <colx/tpch/queries/tables.hpp>

namespace colx::tpch::queries {

using namespace colx::literals;

// The revenue over any lineitem rows: a frame, or a dist::dist_frame split over ranks
// (bench/dist/dist_tpch.cu).
template <class Lineitem>
[[nodiscard]] auto q06_revenue(Lineitem const& lineitem) {
  return lineitem |
         filter("l_shipdate"_c >= date(1994, 1, 1) && "l_shipdate"_c < date(1995, 1, 1) &&
                between("l_discount"_c, money::from_unscaled(5), money::from_unscaled(7)) && "l_quantity"_c < 24) |
         reduce(sum("l_extendedprice"_c * "l_discount"_c));
}

// The answer over any tables: a database of frames, or of dist::dist_frames (a frame on every rank).
template <class Tables>
[[nodiscard]] auto q06_of(Tables const& db) {
  auto const revenue = q06_revenue(db.lineitem);
  return make_frame(values<"revenue", decltype(revenue.value())>({revenue.value()}), memory_kind_of(db.lineitem));
}
[[nodiscard]] inline auto q06(database const& db) { return q06_of(db); }

}  // namespace colx::tpch::queries
