// SPDX-License-Identifier: Apache-2.0
#pragma once
// TPC-H Q11, the important stock identification: the parts of GERMANY whose stock value passes a fraction (0.0001 / SF) of the total (the scalar subquery computed first).
// ---- SQL ----
// select ps_partkey, sum(ps_supplycost * ps_availqty) as value
// from partsupp, supplier, nation
// where ps_suppkey = s_suppkey and s_nationkey = n_nationkey and n_name = 'GERMANY'
// group by ps_partkey
// having sum(ps_supplycost * ps_availqty) > (
//     select sum(ps_supplycost * ps_availqty) * (0.0001 / :sf)
//     from partsupp, supplier, nation
//     where ps_suppkey = s_suppkey and s_nationkey = n_nationkey and n_name = 'GERMANY')
// order by value desc
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
[[nodiscard]] auto q11_of(Tables const& db) {
  auto const suppliers = db.supplier | join<join_kind::semi>(db.nation | filter("n_name"_c == "GERMANY"), on("s_nationkey"_c), on("n_nationkey"_c));
  auto const stock = db.partsupp | join<join_kind::semi>(suppliers, on("ps_suppkey"_c), on("s_suppkey"_c)) | group_by("ps_partkey"_c) |
                     aggregate(sum("ps_supplycost"_c * "ps_availqty"_c).as<"value">());
  auto const total = stock | reduce(sum("value"_c));
  double const threshold = total.has_value() ? total.value().to_double() * (0.0001 / db.scale_factor) : 0.0;
  return (stock | filter(cast<double>("value"_c) > threshold)).collect() | sort_by(desc("value"_c));
}

[[nodiscard]] inline auto q11(database const& db) { return q11_of(db); }

}  // namespace colx::tpch::queries
