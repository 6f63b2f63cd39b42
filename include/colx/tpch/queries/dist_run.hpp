// SPDX-License-Identifier: Apache-2.0
#pragma once
// What the distributed TPC-H runners (examples/tpch/colx_tpch_dist.cpp, bench/dist/dist_tpch.cu)
// need of a query: its answer on rank 0, from a query over dist_database (qNN_of), and the
// functions run_dist_q01 ... run_dist_q22 that each query's unit of its own defines, by number
// (dist_queries). A query's result is a dist_frame, gathered to rank 0, or a plain frame every
// rank made alike (a scalar answer), rank 0's taken.
#include <colx/dist/dist_frame.hpp>
#include <colx/tpch/queries/dist_tables.hpp>
#include <colx/tpch/queries/run.hpp>

#include <cstdlib>
#include <map>

namespace colx::tpch::queries {

template <class Schema>
[[nodiscard]] query_answer dist_answer_of(dist::dist_frame<Schema> const& answer) {
  return answer_of(dist::gather(answer));
}
template <class Schema>
[[nodiscard]] query_answer dist_answer_of(frame<Schema> const& answer) {
  return answer_of(answer);
}

#define COLX_TPCH_QUERY(n) query_answer run_dist_q##n(dist_database const& db);
#include "query_list.inc"
#undef COLX_TPCH_QUERY

using dist_query_fn = query_answer (*)(dist_database const&);

// The built queries by number, what the runners (colx-tpch-dist, bench_dist_tpch) look one up in.
[[nodiscard]] inline std::map<int, dist_query_fn> const& dist_queries() {
  static std::map<int, dist_query_fn> const queries = {
#define COLX_TPCH_QUERY(n) {std::atoi(#n), &run_dist_q##n},
#include "query_list.inc"
#undef COLX_TPCH_QUERY
  };
  return queries;
}

}  // namespace colx::tpch::queries
