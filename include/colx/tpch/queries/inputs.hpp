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
// A table's columns are those of its prefix (no prefix starts another: "p_" is not "ps_").
[[nodiscard]] inline std::size_t input_bytes(database const& db, int q) {
  COLX_EXPECTS(q >= 1 && q <= static_cast<int>(query_inputs.size()), "TPC-H has queries 1 to 22, not ", q);
  std::string_view const columns = query_inputs[static_cast<std::size_t>(q - 1)].columns;
  auto const bytes_of = [&](auto const& table, std::string_view prefix) {
    std::vector<std::string_view> names;
    for (std::string_view rest = columns; !rest.empty();) {
      std::size_t const end = std::min(rest.find(' '), rest.size());
      if (rest.starts_with(prefix)) { names.push_back(rest.substr(0, end)); }
      rest.remove_prefix(std::min(end + 1, rest.size()));
    }
    return bytes_of_columns(table, names);
  };
  return bytes_of(db.nation, "n_") + bytes_of(db.region, "r_") + bytes_of(db.part, "p_") + bytes_of(db.supplier, "s_") +
         bytes_of(db.partsupp, "ps_") + bytes_of(db.customer, "c_") + bytes_of(db.orders, "o_") + bytes_of(db.lineitem, "l_");
}

}  // namespace colx::tpch::queries
