// SPDX-License-Identifier: Apache-2.0
#pragma once
// TPC-H Q13, the customer distribution: customers by their number of orders not about special requests (a left outer join with a count).
// ---- SQL ----
// select c_count, count(*) as custdist
// from (select c_custkey, count(o_orderkey) as c_count
//       from customer left outer join orders
//         on c_custkey = o_custkey and o_comment not like '%special%requests%'
//       group by c_custkey) as c_orders
// group by c_count
// order by custdist desc, c_count desc
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
[[nodiscard]] auto q13_of(Tables const& db) {
  auto const per_customer = db.orders | filter(not_like("o_comment"_c, "%special%requests%")) | group_by("o_custkey"_c) |
                            aggregate(count().as<"orders">());
  return db.customer | select("c_custkey"_c) | join<join_kind::left>(per_customer, on("c_custkey"_c), on("o_custkey"_c)) |
         group_by(fill_null("orders"_c, std::int64_t{0}).as<"c_count">()) | aggregate(count().as<"custdist">()) |
         sort_by(desc("custdist"_c), desc("c_count"_c));
}

[[nodiscard]] inline auto q13(database const& db) { return q13_of(db); }

}  // namespace colx::tpch::queries
