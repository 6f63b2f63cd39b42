// SPDX-License-Identifier: Apache-2.0
#pragma once
// The columns each TPC-H query reads, from its SQL, and their bytes in a database, each column
// once: the runner sets each query's time beside them (GB/s). That is what a plan loading every
// row of its inputs reads; a filter whose later stages load only where earlier ones pass reads
// less (TPC-H Q6 about a third, so its rate passes the memory's). The lists are checked against
// the queries' SQL text by tests/tpch/check_inputs.py (which also prints them).
#include <colx/core/error.hpp>
#include <colx/frame/explain.hpp>
#include <colx/tpch/queries/tables.hpp>

#include <algorithm>
#include <array>
#include <cstddef>
#include <string_view>
#include <vector>

namespace colx::tpch::queries {

struct query_input_list {
  int query;
  std::string_view columns;  // separated by spaces, each named with its table's prefix (l_, o_, ps_...)
};
inline constexpr std::array<query_input_list, 22> query_inputs{{
    {1, "l_quantity l_extendedprice l_discount l_tax l_returnflag l_linestatus l_shipdate"},
    {2, "n_nationkey n_name n_regionkey r_regionkey r_name p_partkey p_mfgr p_type p_size s_suppkey s_name s_address s_nationkey s_phone s_acctbal s_comment ps_partkey ps_suppkey ps_supplycost"},
    {3, "c_custkey c_mktsegment o_orderkey o_custkey o_orderdate o_shippriority l_orderkey l_extendedprice l_discount l_shipdate"},
    {4, "o_orderkey o_orderdate o_orderpriority l_orderkey l_commitdate l_receiptdate"},
    {5, "n_nationkey n_name n_regionkey r_regionkey r_name s_suppkey s_nationkey c_custkey c_nationkey o_orderkey o_custkey o_orderdate l_orderkey l_suppkey l_extendedprice l_discount"},
    {6, "l_quantity l_extendedprice l_discount l_shipdate"},
    {7, "n_nationkey n_name s_suppkey s_nationkey c_custkey c_nationkey o_orderkey o_custkey l_orderkey l_suppkey l_extendedprice l_discount l_shipdate"},
    {8, "n_nationkey n_name n_regionkey r_regionkey r_name p_partkey p_type s_suppkey s_nationkey c_custkey c_nationkey o_orderkey o_custkey o_orderdate l_orderkey l_partkey l_suppkey l_extendedprice l_discount"},
    {9, "n_nationkey n_name p_partkey p_name s_suppkey s_nationkey ps_partkey ps_suppkey ps_supplycost o_orderkey o_orderdate l_orderkey l_partkey l_suppkey l_quantity l_extendedprice l_discount"},
    {10, "n_nationkey n_name c_custkey c_name c_address c_nationkey c_phone c_acctbal c_comment o_orderkey o_custkey o_orderdate l_orderkey l_extendedprice l_discount l_returnflag"},
    {11, "n_nationkey n_name s_suppkey s_nationkey ps_partkey ps_suppkey ps_availqty ps_supplycost"},
    {12, "o_orderkey o_orderpriority l_orderkey l_shipdate l_commitdate l_receiptdate l_shipmode"},
    {13, "c_custkey o_orderkey o_custkey o_comment"},
    {14, "p_partkey p_type l_partkey l_extendedprice l_discount l_shipdate"},
    {15, "s_suppkey s_name s_address s_phone l_suppkey l_extendedprice l_discount l_shipdate"},
    {16, "p_partkey p_brand p_type p_size s_suppkey s_comment ps_partkey ps_suppkey"},
    {17, "p_partkey p_brand p_container l_partkey l_quantity l_extendedprice"},
    {18, "c_custkey c_name o_orderkey o_custkey o_totalprice o_orderdate l_orderkey l_quantity"},
    {19, "p_partkey p_brand p_size p_container l_partkey l_quantity l_extendedprice l_discount l_shipinstruct l_shipmode"},
    {20, "n_nationkey n_name p_partkey p_name s_suppkey s_name s_address s_nationkey ps_partkey ps_suppkey ps_availqty l_partkey l_suppkey l_quantity l_shipdate"},
    {21, "n_nationkey n_name s_suppkey s_name s_nationkey o_orderkey o_orderstatus l_orderkey l_suppkey l_commitdate l_receiptdate"},
    {22, "c_custkey c_phone c_acctbal o_custkey"},
}};

// The bytes of query q's input columns in db, each once, as explain() counts a stage's inputs.
[[nodiscard]] inline std::size_t input_bytes(database const& db, int q) {
  COLX_EXPECTS(q >= 1 && q <= static_cast<int>(query_inputs.size()), "TPC-H has queries 1 to 22, not ", q);
  std::vector<std::string_view> names[8];  // by table, in the order of the prefixes below
  constexpr std::array<std::string_view, 8> prefixes{"ps_", "n_", "r_", "p_", "s_", "c_", "o_", "l_"};  // ps_ before p_
  std::string_view rest = query_inputs[static_cast<std::size_t>(q - 1)].columns;
  while (!rest.empty()) {
    std::size_t const end = std::min(rest.find(' '), rest.size());
    std::string_view const name = rest.substr(0, end);
    rest.remove_prefix(std::min(end + 1, rest.size()));
    for (std::size_t t = 0; t < prefixes.size(); ++t) {
      if (name.starts_with(prefixes[t])) {
        names[t].push_back(name);
        break;
      }
    }
  }
  return bytes_of_columns(db.partsupp, names[0]) + bytes_of_columns(db.nation, names[1]) + bytes_of_columns(db.region, names[2]) +
         bytes_of_columns(db.part, names[3]) + bytes_of_columns(db.supplier, names[4]) + bytes_of_columns(db.customer, names[5]) +
         bytes_of_columns(db.orders, names[6]) + bytes_of_columns(db.lineitem, names[7]);
}

}  // namespace colx::tpch::queries
