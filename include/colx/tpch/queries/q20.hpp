// SPDX-License-Identifier: Apache-2.0
#pragma once
// TPC-H Q20, the potential part promotion: the suppliers of CANADA with a surplus of forest parts (nested IN and a correlated sum as semi joins and a two-key join).
// ---- SQL ----
// select s_name, s_address
// from supplier, nation
// where s_suppkey in (
//     select ps_suppkey from partsupp
//     where ps_partkey in (select p_partkey from part where p_name like 'forest%')
//       and ps_availqty > (select 0.5 * sum(l_quantity) from lineitem
//                          where l_partkey = ps_partkey and l_suppkey = ps_suppkey
//                            and l_shipdate >= date '1994-01-01' and l_shipdate < date '1995-01-01'))
//   and s_nationkey = n_nationkey and n_name = 'CANADA'
// order by s_name
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
[[nodiscard]] auto q20_of(Tables const& db) {
  auto const forest = db.part | filter(starts_with("p_name"_c, "forest")) | select("p_partkey"_c);
  auto const shipped = db.lineitem | select("l_partkey"_c, "l_suppkey"_c, "l_quantity"_c, "l_shipdate"_c) |
                       filter("l_shipdate"_c >= date(1994, 1, 1) && "l_shipdate"_c < date(1995, 1, 1)) | join<join_kind::semi>(forest, on("l_partkey"_c), on("p_partkey"_c)) |
                       group_by("l_partkey"_c, "l_suppkey"_c) | aggregate(sum("l_quantity"_c).as<"shipped">());
  auto const surplus = db.partsupp | select("ps_partkey"_c, "ps_suppkey"_c, "ps_availqty"_c) |
                       join(shipped, on("ps_partkey"_c, "ps_suppkey"_c), on("l_partkey"_c, "l_suppkey"_c)) |
                       filter("ps_availqty"_c > dec<2, 1>::from_unscaled(5) * "shipped"_c);
  return db.supplier | join<join_kind::semi>(db.nation | filter("n_name"_c == "CANADA"), on("s_nationkey"_c), on("n_nationkey"_c)) |
         join<join_kind::semi>(surplus, on("s_suppkey"_c), on("ps_suppkey"_c)) | select("s_name"_c, "s_address"_c) | sort_by("s_name"_c);
}

[[nodiscard]] inline auto q20(database const& db) { return q20_of(db); }

}  // namespace colx::tpch::queries
