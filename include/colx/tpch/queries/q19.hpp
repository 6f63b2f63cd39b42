// SPDX-License-Identifier: Apache-2.0
#pragma once
// TPC-H Q19, the discounted revenue: three kinds of part bought in person by air (a disjunction over both tables, after the join).
// ---- SQL ----
// select sum(l_extendedprice * (1 - l_discount)) as revenue
// from lineitem, part
// where (p_partkey = l_partkey and p_brand = 'Brand#12'
//        and p_container in ('SM CASE', 'SM BOX', 'SM PACK', 'SM PKG')
//        and l_quantity >= 1 and l_quantity <= 1 + 10 and p_size between 1 and 5
//        and l_shipmode in ('AIR', 'AIR REG') and l_shipinstruct = 'DELIVER IN PERSON')
//    or (p_partkey = l_partkey and p_brand = 'Brand#23'
//        and p_container in ('MED BAG', 'MED BOX', 'MED PKG', 'MED PACK')
//        and l_quantity >= 10 and l_quantity <= 10 + 10 and p_size between 1 and 10
//        and l_shipmode in ('AIR', 'AIR REG') and l_shipinstruct = 'DELIVER IN PERSON')
//    or (p_partkey = l_partkey and p_brand = 'Brand#34'
//        and p_container in ('LG CASE', 'LG BOX', 'LG PACK', 'LG PKG')
//        and l_quantity >= 20 and l_quantity <= 20 + 10 and p_size between 1 and 15
//        and l_shipmode in ('AIR', 'AIR REG') and l_shipinstruct = 'DELIVER IN PERSON')
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

// The revenue (a scalar) over any tables: a database of frames, or of dist::dist_frames.
template <class Tables>
[[nodiscard]] auto q19_revenue_of(Tables const& db) {
  auto const container = []<std::size_t N>(char const (&name)[N]) { return "p_container"_c == name; };
  auto const kind1 = "p_brand"_c == "Brand#12" && (container("SM CASE") || container("SM BOX") || container("SM PACK") || container("SM PKG")) &&
                     between("l_quantity"_c, 1, 11) && between("p_size"_c, 1, 5);
  auto const kind2 = "p_brand"_c == "Brand#23" && (container("MED BAG") || container("MED BOX") || container("MED PKG") || container("MED PACK")) &&
                     between("l_quantity"_c, 10, 20) && between("p_size"_c, 1, 10);
  auto const kind3 = "p_brand"_c == "Brand#34" && (container("LG CASE") || container("LG BOX") || container("LG PACK") || container("LG PKG")) &&
                     between("l_quantity"_c, 20, 30) && between("p_size"_c, 1, 15);
  auto const revenue = db.lineitem |
                       select("l_partkey"_c, "l_quantity"_c, "l_extendedprice"_c, "l_discount"_c, "l_shipmode"_c, "l_shipinstruct"_c) |
                       filter(("l_shipmode"_c == "AIR" || "l_shipmode"_c == "AIR REG") && "l_shipinstruct"_c == "DELIVER IN PERSON" &&
                              between("l_quantity"_c, 1, 30)) |
                       join(db.part | filter(between("p_size"_c, 1, 15)) | select("p_partkey"_c, "p_brand"_c, "p_container"_c, "p_size"_c),
                            on("l_partkey"_c), on("p_partkey"_c)) |
                       filter(kind1 || kind2 || kind3) | reduce(sum("l_extendedprice"_c * (1 - "l_discount"_c)));
  return revenue;
}

template <class Tables>
[[nodiscard]] auto q19_of(Tables const& db) {
  auto const revenue = q19_revenue_of(db);
  return make_frame(values<"revenue", decltype(revenue.value())>({revenue.value()}), memory_kind_of(db.lineitem));
}
[[nodiscard]] inline auto q19(database const& db) { return q19_of(db); }

}  // namespace colx::tpch::queries
