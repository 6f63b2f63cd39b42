// SPDX-License-Identifier: Apache-2.0
#pragma once
// TPC-H Q2, the minimum cost supplier: per BRASS part of size 15, the EUROPE suppliers at its lowest EUROPE supply cost (the correlated subquery as a group-by, then a semi join on part and cost).
// ---- SQL ----
// select s_acctbal, s_name, n_name, p_partkey, p_mfgr, s_address, s_phone, s_comment
// from part, supplier, partsupp, nation, region
// where p_partkey = ps_partkey and s_suppkey = ps_suppkey and p_size = 15
//   and p_type like '%BRASS' and s_nationkey = n_nationkey and n_regionkey = r_regionkey
//   and r_name = 'EUROPE'
//   and ps_supplycost = (select min(ps_supplycost)
//                        from partsupp, supplier, nation, region
//                        where p_partkey = ps_partkey and s_suppkey = ps_suppkey
//                          and s_nationkey = n_nationkey and n_regionkey = r_regionkey
//                          and r_name = 'EUROPE')
// order by s_acctbal desc, n_name, s_name, p_partkey
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

// Over any tables: a database of frames, or of dist::dist_frames (dist_tables.hpp).
template <class Tables>
[[nodiscard]] auto q02_of(Tables const& db) {
  auto const europe = db.nation | join<join_kind::semi>(db.region | filter("r_name"_c == "EUROPE"), on("n_regionkey"_c), on("r_regionkey"_c)) |
                      select("n_nationkey"_c, "n_name"_c);
  auto const suppliers = db.supplier | join(europe, on("s_nationkey"_c), on("n_nationkey"_c));
  auto const brass = db.part | filter("p_size"_c == 15 && like("p_type"_c, "%BRASS")) | select("p_partkey"_c, "p_mfgr"_c);
  auto const offers = db.partsupp | select("ps_partkey"_c, "ps_suppkey"_c, "ps_supplycost"_c) |
                      join(brass, on("ps_partkey"_c), on("p_partkey"_c)) | join(suppliers, on("ps_suppkey"_c), on("s_suppkey"_c));
  auto const cheapest = offers | group_by("ps_partkey"_c) | aggregate(min("ps_supplycost"_c).as<"min_cost">());
  auto const best = offers | join<join_kind::semi>(cheapest, on("ps_partkey"_c, "ps_supplycost"_c), on("ps_partkey"_c, "min_cost"_c));
  return top_k(best, 100, desc("s_acctbal"_c), "n_name"_c, "s_name"_c, "p_partkey"_c) |
         select("s_acctbal"_c, "s_name"_c, "n_name"_c, "p_partkey"_c, "p_mfgr"_c, "s_address"_c, "s_phone"_c, "s_comment"_c);
}

[[nodiscard]] inline auto q02(database const& db) { return q02_of(db); }

}  // namespace colx::tpch::queries
