// SPDX-License-Identifier: Apache-2.0
#pragma once
// TPC-H Q22, the global sales opportunity: customers of seven country codes with more than the average positive balance and no orders (NOT EXISTS as an anti join, SUBSTRING).
// ---- SQL ----
// select cntrycode, count(*) as numcust, sum(c_acctbal) as totacctbal
// from (select substring(c_phone from 1 for 2) as cntrycode, c_acctbal
//       from customer
//       where substring(c_phone from 1 for 2) in ('13', '31', '23', '29', '30', '18', '17')
//         and c_acctbal > (select avg(c_acctbal) from customer
//                          where c_acctbal > 0.00
//                            and substring(c_phone from 1 for 2) in ('13', '31', '23', '29', '30', '18', '17'))
//         and not exists (select * from orders where o_custkey = c_custkey)) as custsale
// group by cntrycode
// order by cntrycode
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
[[nodiscard]] auto q22_of(Tables const& db) {
  auto const code = []<std::size_t N>(char const (&c)[N]) { return starts_with("c_phone"_c, c); };
  auto const in_codes = code("13") || code("31") || code("23") || code("29") || code("30") || code("18") || code("17");
  auto const average = db.customer | filter(in_codes && "c_acctbal"_c > 0) | reduce(mean("c_acctbal"_c));
  return db.customer | filter(in_codes && cast<double>("c_acctbal"_c) > static_cast<double>(average.value())) |
         join<join_kind::anti>(db.orders | select("o_custkey"_c), on("c_custkey"_c), on("o_custkey"_c)) |
         group_by(substr("c_phone"_c, 1, 2).as<"cntrycode">()) |
         aggregate(count().as<"numcust">(), sum("c_acctbal"_c).as<"totacctbal">()) | sort_by("cntrycode"_c);
}

[[nodiscard]] inline auto q22(database const& db) { return q22_of(db); }

}  // namespace colx::tpch::queries
