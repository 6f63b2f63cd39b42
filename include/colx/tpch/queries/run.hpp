// SPDX-License-Identifier: Apache-2.0
#pragma once
// What the TPC-H runner (examples/tpch) needs of a query: its answer as a table and as text, and
// the functions run_q01 ... run_q22 that each query's unit of its own defines.
#include <colx/io/print.hpp>
#include <colx/table/any_table.hpp>
#include <colx/tpch/queries/tables.hpp>

#include <functional>
#include <string>
#include <utility>

namespace colx::tpch::queries {

// A query's answer: as a table (to write it, to compare it), and as pandas-like text.
struct query_answer {
  any_table table;
  std::function<std::string(print_options const&)> print;
};

template <class Schema>
[[nodiscard]] query_answer answer_of(frame<Schema> answer) {
  any_table table = to_table(answer);
  return {std::move(table), [f = std::move(answer)](print_options const& o) { return to_string(f, o); }};
}

#define COLX_TPCH_QUERY(n) query_answer run_q##n(database const& db);
#include "query_list.inc"
#undef COLX_TPCH_QUERY

}  // namespace colx::tpch::queries
