// SPDX-License-Identifier: Apache-2.0
#pragma once
// TPC-H Q16, the parts/supplier relationship: suppliers without complaints per brand, type and size (NOT IN as an anti join, count(distinct)).
// ---- SQL ----
// select p_brand, p_type, p_size, count(distinct ps_suppkey) as supplier_cnt
// from partsupp, part
// where p_partkey = ps_partkey and p_brand <> 'Brand#45'
//   and p_type not like 'MEDIUM POLISHED%' and p_size in (49, 14, 23, 45, 19, 3, 36, 9)
//   and ps_suppkey not in (select s_suppkey from supplier where s_comment like '%Customer%Complaints%')
// group by p_brand, p_type, p_size
// order by supplier_cnt desc, p_brand, p_type, p_size
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
[[nodiscard]] auto q16_of(Tables const& db) {
  auto const parts = db.part |
                     filter("p_brand"_c != "Brand#45" && not_like("p_type"_c, "MEDIUM POLISHED%") && isin("p_size"_c, 49, 14, 23, 45, 19, 3, 36, 9)) |
                     select("p_partkey"_c, "p_brand"_c, "p_type"_c, "p_size"_c);
  auto const complained = db.supplier | filter(like("s_comment"_c, "%Customer%Complaints%"));
  return db.partsupp | select("ps_partkey"_c, "ps_suppkey"_c) | join<join_kind::anti>(complained, on("ps_suppkey"_c), on("s_suppkey"_c)) |
         join(parts, on("ps_partkey"_c), on("p_partkey"_c)) | group_by("p_brand"_c, "p_type"_c, "p_size"_c) |
         aggregate(nunique("ps_suppkey"_c).as<"supplier_cnt">()) | sort_by(desc("supplier_cnt"_c), "p_brand"_c, "p_type"_c, "p_size"_c);
}

[[nodiscard]] inline auto q16(database const& db) { return q16_of(db); }

}  // namespace colx::tpch::queries
