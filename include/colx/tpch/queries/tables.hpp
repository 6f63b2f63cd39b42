// SPDX-License-Identifier: Apache-2.0
#pragma once
// The eight TPC-H tables as tpchgen-cli writes them to Parquet (the dbgen data of the
// specification): int64 keys, DECIMAL(15,2) money as dec<15, 2>, DATE as date32, VARCHAR as
// strings. Columns of a few distinct values (flags, modes, segments, brands, types, names) are
// dictionary columns of one-byte codes, encoded as they are read (colx::encode), and filters,
// sorts and group-by keys on them work on the codes (issue 16; a join on one still compares
// values). Every field is not_null, as in TPC-H, so kernels read no validity masks.
// A schema names the columns the 22 queries read, not every column of the table: the Parquet
// reader reads only those (no query reads l_comment, ps_comment, p_comment, n_comment, r_comment,
// o_clerk, l_linenumber or p_retailprice, which are two fifths of the bytes at scale factor 100).
#include <colx/frame/frame.hpp>
#include <colx/io/parquet.hpp>
#include <colx/types/chrono.hpp>
#include <colx/types/dec.hpp>
#include <colx/types/dictionary.hpp>
#include <colx/types/schema.hpp>
#include <colx/types/string_view.hpp>

#include <chrono>
#include <cstdint>
#include <string>
#include <vector>

namespace colx::tpch::queries {

using money = dec<15, 2>;
using text = string_view;
using coded = dictionary<string_view, std::uint8_t>;

using nation_schema = schema<
    field<"n_nationkey", std::int64_t, not_null>, field<"n_name", coded, not_null>,
    field<"n_regionkey", std::int64_t, not_null>>;

using region_schema = schema<
    field<"r_regionkey", std::int64_t, not_null>, field<"r_name", coded, not_null>>;

using part_schema = schema<
    field<"p_partkey", std::int64_t, not_null>, field<"p_name", text, not_null>, field<"p_mfgr", coded, not_null>,
    field<"p_brand", coded, not_null>, field<"p_type", coded, not_null>, field<"p_size", std::int32_t, not_null>,
    field<"p_container", coded, not_null>>;

using supplier_schema = schema<
    field<"s_suppkey", std::int64_t, not_null>, field<"s_name", text, not_null>, field<"s_address", text, not_null>,
    field<"s_nationkey", std::int64_t, not_null>, field<"s_phone", text, not_null>, field<"s_acctbal", money, not_null>,
    field<"s_comment", text, not_null>>;

using partsupp_schema = schema<
    field<"ps_partkey", std::int64_t, not_null>, field<"ps_suppkey", std::int64_t, not_null>,
    field<"ps_availqty", std::int32_t, not_null>, field<"ps_supplycost", money, not_null>>;

using customer_schema = schema<
    field<"c_custkey", std::int64_t, not_null>, field<"c_name", text, not_null>, field<"c_address", text, not_null>,
    field<"c_nationkey", std::int64_t, not_null>, field<"c_phone", text, not_null>, field<"c_acctbal", money, not_null>,
    field<"c_mktsegment", coded, not_null>, field<"c_comment", text, not_null>>;

using orders_schema = schema<
    field<"o_orderkey", std::int64_t, not_null>, field<"o_custkey", std::int64_t, not_null>,
    field<"o_orderstatus", coded, not_null>, field<"o_totalprice", money, not_null>, field<"o_orderdate", date32, not_null>,
    field<"o_orderpriority", coded, not_null>, field<"o_shippriority", std::int32_t, not_null>,
    field<"o_comment", text, not_null>>;

using lineitem_schema = schema<
    field<"l_orderkey", std::int64_t, not_null>, field<"l_partkey", std::int64_t, not_null>,
    field<"l_suppkey", std::int64_t, not_null>,
    field<"l_quantity", money, not_null>, field<"l_extendedprice", money, not_null>, field<"l_discount", money, not_null>,
    field<"l_tax", money, not_null>, field<"l_returnflag", coded, not_null>, field<"l_linestatus", coded, not_null>,
    field<"l_shipdate", date32, not_null>, field<"l_commitdate", date32, not_null>, field<"l_receiptdate", date32, not_null>,
    field<"l_shipinstruct", coded, not_null>, field<"l_shipmode", coded, not_null>>;

// The tables, resident where `mr` allocates (device memory: the CUDA backend runs the queries).
struct database {
  frame<nation_schema> nation;
  frame<region_schema> region;
  frame<part_schema> part;
  frame<supplier_schema> supplier;
  frame<partsupp_schema> partsupp;
  frame<customer_schema> customer;
  frame<orders_schema> orders;
  frame<lineitem_schema> lineitem;
  double scale_factor = 1;  // (Q11's fraction is 0.0001 / SF)
};

// The memory a table's rows are in: a frame's, or a rank's share of a dist::dist_frame's (the
// generic queries make their one-row answers there).
template <class Table>
[[nodiscard]] memory_kind memory_kind_of(Table const& t) {
  if constexpr (requires { t.kind(); }) {
    return t.kind();
  } else {
    return t.local().kind();
  }
}

// How long reading one table took (colx-tpch prints them).
struct table_read {
  char const* table;
  double ms;
};

namespace detail {
template <class Schema>
frame<Schema> read_table(std::string const& dir, char const* table, stream_ref stream, resource_ref mr,
                         std::vector<table_read>* timings) {
  auto const started = std::chrono::steady_clock::now();
  auto f = read_parquet<Schema>(dir + "/" + table + ".parquet", {}, stream, mr);
  if (timings != nullptr) {
    stream.synchronize();
    timings->push_back({table, std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - started).count()});
  }
  return f;
}
}  // namespace detail

// The scale factor of tables with this many suppliers: 10,000 per unit, as TPC-H generates them.
[[nodiscard]] constexpr double scale_factor_of(size_type supplier_rows) noexcept { return static_cast<double>(supplier_rows) / 10000.0; }

// Reads DIR/<table>.parquet for the eight tables (tpchgen-cli parquet -s SF --output-dir DIR),
// noting each read's time in `timings` when given.
[[nodiscard]] inline database load_database(std::string const& dir, stream_ref stream = {}, resource_ref mr = get_current_resource(),
                                            std::vector<table_read>* timings = nullptr) {
  database db{detail::read_table<nation_schema>(dir, "nation", stream, mr, timings),
              detail::read_table<region_schema>(dir, "region", stream, mr, timings),
              detail::read_table<part_schema>(dir, "part", stream, mr, timings),
              detail::read_table<supplier_schema>(dir, "supplier", stream, mr, timings),
              detail::read_table<partsupp_schema>(dir, "partsupp", stream, mr, timings),
              detail::read_table<customer_schema>(dir, "customer", stream, mr, timings),
              detail::read_table<orders_schema>(dir, "orders", stream, mr, timings),
              detail::read_table<lineitem_schema>(dir, "lineitem", stream, mr, timings)};
  db.scale_factor = scale_factor_of(db.supplier.num_rows());
  return db;
}

}  // namespace colx::tpch::queries
