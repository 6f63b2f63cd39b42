// SPDX-License-Identifier: Apache-2.0
#pragma once
// The TPC-H columns colx generates, in the specification's column order, without the text
// columns no benchmark query of ours reads (names, addresses, comments, ship modes). Every
// field is not_null, as in TPC-H, so kernels over them read no validity masks.
#include <colx/types/schema.hpp>
#include <colx/types/chrono.hpp>
#include <colx/types/string_view.hpp>

#include <cstdint>

namespace colx::tpch {

using customer_schema = schema<
    field<"c_custkey", std::int64_t, not_null>,
    field<"c_nationkey", std::int32_t, not_null>,
    field<"c_acctbal", double, not_null>,
    field<"c_mktsegment", string_view, not_null>>;

using orders_schema = schema<
    field<"o_orderkey", std::int64_t, not_null>,
    field<"o_custkey", std::int64_t, not_null>,
    field<"o_orderstatus", string_view, not_null>,
    field<"o_totalprice", double, not_null>,
    field<"o_orderdate", date32, not_null>,
    field<"o_shippriority", std::int32_t, not_null>>;

using lineitem_schema = schema<
    field<"l_orderkey", std::int64_t, not_null>,
    field<"l_linenumber", std::int32_t, not_null>,
    field<"l_partkey", std::int64_t, not_null>,
    field<"l_quantity", double, not_null>,
    field<"l_extendedprice", double, not_null>,
    field<"l_discount", double, not_null>,
    field<"l_tax", double, not_null>,
    field<"l_returnflag", string_view, not_null>,
    field<"l_linestatus", string_view, not_null>,
    field<"l_shipdate", date32, not_null>,
    field<"l_commitdate", date32, not_null>,
    field<"l_receiptdate", date32, not_null>>;

}  // namespace colx::tpch
