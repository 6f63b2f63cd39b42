// SPDX-License-Identifier: Apache-2.0
#pragma once
// TPC-H Q17, the small-quantity-order revenue: the yearly revenue lost without the small orders of one kind of part (the correlated average as a group-by and a join).
// ---- SQL ----
// select sum(l_extendedprice) / 7.0 as avg_yearly
// from lineitem, part
// where p_partkey = l_partkey and p_brand = 'Brand#23' and p_container = 'MED BOX'
//   and l_quantity < (select 0.2 * avg(l_quantity) from lineitem where l_partkey = p_partkey)
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

#include <optional>

namespace colx::tpch::queries {

using namespace colx::literals;

// The average yearly loss over any tables: a database of frames, or of dist::dist_frames.
template <class Tables>
[[nodiscard]] std::optional<double> q17_avg_yearly_of(Tables const& db) {
  auto const lines = db.lineitem | select("l_partkey"_c, "l_quantity"_c, "l_extendedprice"_c) |
                     join<join_kind::semi>(db.part | filter("p_brand"_c == "Brand#23" && "p_container"_c == "MED BOX"), on("l_partkey"_c),
                                           on("p_partkey"_c));
  auto const average = lines | group_by("l_partkey"_c) | aggregate(mean("l_quantity"_c).as<"avg_quantity">());
  auto const total = lines | join(average, on("l_partkey"_c)) | filter(cast<double>("l_quantity"_c) < 0.2 * "avg_quantity"_c) |
                     reduce(sum("l_extendedprice"_c));
  // SQL's sum of no rows is null, and so is the answer (at scale factor 0.01 no line qualifies).
  return total.has_value() ? std::optional<double>(total.value().to_double() / 7.0) : std::nullopt;
}

template <class Tables>
[[nodiscard]] auto q17_of(Tables const& db) {
  return make_frame(values<"avg_yearly">(std::vector<std::optional<double>>{q17_avg_yearly_of(db)}), memory_kind_of(db.lineitem));
}
[[nodiscard]] inline auto q17(database const& db) { return q17_of(db); }

}  // namespace colx::tpch::queries
