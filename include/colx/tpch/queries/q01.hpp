// SPDX-License-Identifier: Apache-2.0
#pragma once
// TPC-H Q1, the pricing summary report: one fused pass (filter, derived values, eight
// aggregations) into four groups of dictionary-coded flags, written in key order (a sorted group-by).
// ---- SQL ----
// select l_returnflag, l_linestatus, sum(l_quantity) as sum_qty,
//        sum(l_extendedprice) as sum_base_price,
//        sum(l_extendedprice * (1 - l_discount)) as sum_disc_price,
//        sum(l_extendedprice * (1 - l_discount) * (1 + l_tax)) as sum_charge,
//        avg(l_quantity) as avg_qty, avg(l_extendedprice) as avg_price,
//        avg(l_discount) as avg_disc, count(*) as count_order
// from lineitem
// where l_shipdate <= date '1998-12-01' - interval '90' day
// group by l_returnflag, l_linestatus
// order by l_returnflag, l_linestatus
// ---- end ----
#include <colx/frame/group_by.hpp>
#include <colx/frame/pipeline.hpp>
#include <colx/tpch/queries/tables.hpp>

namespace colx::tpch::queries {

using namespace colx::literals;

// Over any lineitem rows: a frame, or a dist::dist_frame split over ranks (bench/dist/dist_tpch.cu).
template <class Lineitem>
[[nodiscard]] auto q01_over(Lineitem const& lineitem) {
  auto const disc_price = "l_extendedprice"_c * (1 - "l_discount"_c);
  return lineitem | filter("l_shipdate"_c <= date(1998, 9, 2)) |
         group_by(group_by_options{.sorted = true}, "l_returnflag"_c, "l_linestatus"_c) |
         aggregate(sum("l_quantity"_c).as<"sum_qty">(), sum("l_extendedprice"_c).as<"sum_base_price">(),
                   sum(disc_price).as<"sum_disc_price">(), sum(disc_price * (1 + "l_tax"_c)).as<"sum_charge">(),
                   mean("l_quantity"_c).as<"avg_qty">(), mean("l_extendedprice"_c).as<"avg_price">(),
                   mean("l_discount"_c).as<"avg_disc">(), count().as<"count_order">());
}

// Over any tables: a database of frames, or of dist::dist_frames (dist_tables.hpp).
template <class Tables>
[[nodiscard]] auto q01_of(Tables const& db) {
  return q01_over(db.lineitem);
}
[[nodiscard]] inline auto q01(database const& db) { return q01_of(db); }

}  // namespace colx::tpch::queries
