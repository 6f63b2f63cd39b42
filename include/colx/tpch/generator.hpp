// SPDX-License-Identifier: Apache-2.0
#pragma once
// TPC-H-shaped customer, orders and lineitem tables at any scale factor, generated where the
// memory resource's memory lives: by the CUDA backend into device memory, by the host backend
// into host memory. Every value is an integer function of (scale factor, column, row) computed
// from a counter-based generator (tpch/random.hpp), and doubles are made from integer cents by one
// correctly rounded division, so both backends write bit-identical tables, run after run.
//
// The shape follows dbgen (sparse order keys, no orders for every third customer, 1 to 7 lines
// an order, the date rules of TPC-H 4.2.3), not its random streams: the values differ from
// dbgen's own, and the text columns no query of ours reads are left out.
#include <colx/column/column.hpp>
#include <colx/column/factories.hpp>
#include <colx/column/strings_column.hpp>
#include <colx/core/error.hpp>
#include <colx/exec/dispatch.hpp>
#include <colx/frame/frame.hpp>
#include <colx/memory/current_resource.hpp>
#include <colx/memory/uvector.hpp>
#include <colx/tpch/random.hpp>
#include <colx/tpch/text_columns.hpp>
#include <colx/tpch/values.hpp>
#include <colx/tpch/schemas.hpp>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <initializer_list>
#include <limits>
#include <optional>
#include <string_view>
#include <utility>
#include <vector>

namespace colx::tpch {

// The rows the scale factor fixes; lineitem's count is drawn (1 to 7 lines an order, ~4 on
// average), so it is known only once the tables are generated.
struct table_sizes {
  size_type customer;
  size_type orders;
  size_type part;  // l_partkey takes values 1..part
};

// TPC-H's base cardinalities times the scale factor, rounded (so 0.07 x 1,500,000 is 105,000
// whichever way the product rounds), at least one row each.
[[nodiscard]] inline table_sizes sizes_for(double scale_factor) {
  COLX_EXPECTS(std::isfinite(scale_factor) && scale_factor > 0,
               "tpch: the scale factor must be a finite number greater than 0, not ", scale_factor);
  // TPC-H's largest scale factor; it also keeps every key far from overflowing 64 bits.
  COLX_EXPECTS(scale_factor <= 100000, "tpch: the scale factor ", scale_factor, " is above TPC-H's largest, 100000");
  auto const rows = [&](double base) { return std::max<size_type>(1, std::llround(base * scale_factor)); };
  return {rows(150'000), rows(1'500'000), rows(200'000)};
}

namespace detail {

// ---- kernels ------------------------------------------------------------------------------------

struct customer_fn {
  std::int64_t* custkey;
  std::int32_t* nationkey;
  double* acctbal;
  COLX_HOST_DEVICE void operator()(size_type i) const {
    auto const c = static_cast<std::uint64_t>(i);
    custkey[i] = i + 1;
    nationkey[i] = static_cast<std::int32_t>(uniform(stream_id::c_nationkey, c, 0, 24));
    acctbal[i] = static_cast<double>(uniform(stream_id::c_acctbal, c, -99'999, 999'999)) / 100.0;
  }
};

// The index into market_segments() of customer i's segment.
struct segment_of {
  COLX_HOST_DEVICE std::int32_t operator()(size_type i) const {
    return static_cast<std::int32_t>(uniform(stream_id::c_mktsegment, static_cast<std::uint64_t>(i), 0, 4));
  }
};

[[nodiscard]] inline name_table market_segments() {
  return make_name_table({"AUTOMOBILE", "BUILDING", "FURNITURE", "MACHINERY", "HOUSEHOLD"});
}

struct line_count_fn {
  COLX_HOST_DEVICE std::int64_t operator()(size_type order) const { return line_count(order); }
};

// Where the orders kernel writes; a null orderkey means the orders table is not wanted.
struct orders_out {
  std::int64_t* orderkey = nullptr;
  std::int64_t* custkey = nullptr;
  char* orderstatus = nullptr;  // one char a row: the strings column's chars
  double* totalprice = nullptr;
  date32* orderdate = nullptr;
  std::int32_t* shippriority = nullptr;
};

// A null first means the lineitem table is not wanted.
struct lineitem_out {
  size_type const* first = nullptr;  // each order's first lineitem row
  std::int64_t* orderkey = nullptr;
  std::int32_t* linenumber = nullptr;
  std::int64_t* partkey = nullptr;
  double* quantity = nullptr;
  double* extendedprice = nullptr;
  double* discount = nullptr;
  double* tax = nullptr;
  char* returnflag = nullptr;
  char* linestatus = nullptr;
  date32* shipdate = nullptr;
  date32* commitdate = nullptr;
  date32* receiptdate = nullptr;
};

// One thread per order writes the order and all its lines. An order's status and total price
// are functions of its lines, so this computes each line once and needs no second pass, no
// atomics and no search; a thread per lineitem (finding its order by binary search in `first`)
// would coalesce the lineitem stores better but would then need a segmented reduction for the
// order columns. With at most 7 lines an order the loop is short, and a warp's stores still
// fall within a few hundred consecutive rows of each column.
struct orders_fn {
  size_type customers;
  size_type parts;
  orders_out orders;
  lineitem_out lines;

  COLX_HOST_DEVICE void operator()(size_type order) const {
    std::int32_t const ordered = order_day(order);
    std::int32_t const count = line_count(order);
    std::int64_t const key = order_key(order);
    std::int64_t total_cents = 0;
    std::int32_t shipped = 0;  // lines with linestatus F
    for (std::int32_t j = 0; j < count; ++j) {
      line_values const l = make_line(order, j, ordered, parts);
      total_cents += charge_cents(l);
      shipped += l.linestatus == 'F' ? 1 : 0;
      if (lines.first != nullptr) { store_line(lines.first[order] + j, key, j, l); }
    }
    if (orders.orderkey != nullptr) {
      orders.orderkey[order] = key;
      orders.custkey[order] = order_customer(order, customers);
      orders.orderstatus[order] = shipped == count ? 'F' : (shipped == 0 ? 'O' : 'P');
      orders.totalprice[order] = static_cast<double>(total_cents) / 100.0;
      orders.orderdate[order] = date32(ordered);
      orders.shippriority[order] = 0;
    }
  }

 private:
  COLX_HOST_DEVICE void store_line(size_type row, std::int64_t key, std::int32_t j, line_values const& l) const {
    lines.orderkey[row] = key;
    lines.linenumber[row] = j + 1;
    lines.partkey[row] = l.partkey;
    lines.quantity[row] = static_cast<double>(l.quantity);
    lines.extendedprice[row] = static_cast<double>(l.extended_cents) / 100.0;
    lines.discount[row] = static_cast<double>(l.discount) / 100.0;
    lines.tax[row] = static_cast<double>(l.tax) / 100.0;
    lines.returnflag[row] = l.returnflag;
    lines.linestatus[row] = l.linestatus;
    lines.shipdate[row] = date32(l.ship_day);
    lines.commitdate[row] = date32(l.commit_day);
    lines.receiptdate[row] = date32(l.receipt_day);
  }
};

// ---- the tables' buffers --------------------------------------------------------------------------

struct orders_buffers {
  uvector<std::int64_t> orderkey, custkey;
  uvector<char> orderstatus;
  uvector<double> totalprice;
  uvector<date32> orderdate;
  uvector<std::int32_t> shippriority;

  orders_buffers(size_type n, stream_ref stream, resource_ref mr)
      : orderkey(n, stream, mr), custkey(n, stream, mr), orderstatus(n, stream, mr), totalprice(n, stream, mr),
        orderdate(n, stream, mr), shippriority(n, stream, mr) {}

  [[nodiscard]] orders_out out() {
    return {.orderkey = orderkey.data(),
            .custkey = custkey.data(),
            .orderstatus = orderstatus.data(),
            .totalprice = totalprice.data(),
            .orderdate = orderdate.data(),
            .shippriority = shippriority.data()};
  }
  [[nodiscard]] frame<orders_schema> finish(stream_ref stream, resource_ref mr) && {
    return frame<orders_schema>(column<std::int64_t>(std::move(orderkey)), column<std::int64_t>(std::move(custkey)),
                                one_char_strings(std::move(orderstatus), stream, mr),
                                column<double>(std::move(totalprice)), column<date32>(std::move(orderdate)),
                                column<std::int32_t>(std::move(shippriority)));
  }
};

struct lineitem_buffers {
  uvector<std::int64_t> orderkey;
  uvector<std::int32_t> linenumber;
  uvector<std::int64_t> partkey;
  uvector<double> quantity, extendedprice, discount, tax;
  uvector<char> returnflag, linestatus;
  uvector<date32> shipdate, commitdate, receiptdate;

  lineitem_buffers(size_type n, stream_ref stream, resource_ref mr)
      : orderkey(n, stream, mr), linenumber(n, stream, mr), partkey(n, stream, mr), quantity(n, stream, mr),
        extendedprice(n, stream, mr), discount(n, stream, mr), tax(n, stream, mr), returnflag(n, stream, mr),
        linestatus(n, stream, mr), shipdate(n, stream, mr), commitdate(n, stream, mr), receiptdate(n, stream, mr) {}

  [[nodiscard]] lineitem_out out(size_type const* first) {
    return {.first = first,
            .orderkey = orderkey.data(),
            .linenumber = linenumber.data(),
            .partkey = partkey.data(),
            .quantity = quantity.data(),
            .extendedprice = extendedprice.data(),
            .discount = discount.data(),
            .tax = tax.data(),
            .returnflag = returnflag.data(),
            .linestatus = linestatus.data(),
            .shipdate = shipdate.data(),
            .commitdate = commitdate.data(),
            .receiptdate = receiptdate.data()};
  }
  [[nodiscard]] frame<lineitem_schema> finish(stream_ref stream, resource_ref mr) && {
    return frame<lineitem_schema>(
        column<std::int64_t>(std::move(orderkey)), column<std::int32_t>(std::move(linenumber)),
        column<std::int64_t>(std::move(partkey)), column<double>(std::move(quantity)),
        column<double>(std::move(extendedprice)), column<double>(std::move(discount)), column<double>(std::move(tax)),
        one_char_strings(std::move(returnflag), stream, mr), one_char_strings(std::move(linestatus), stream, mr),
        column<date32>(std::move(shipdate)), column<date32>(std::move(commitdate)),
        column<date32>(std::move(receiptdate)));
  }
};

// Runs the orders kernel writing the orders table, the lineitem table or both (a null pointer
// skips either); the lineitem layout comes from a scan of the orders' line counts.
template <class Exec>
void run_orders(Exec const& exec, table_sizes const& sizes, orders_buffers* orders,
                std::optional<lineitem_buffers>* lines, stream_ref stream, resource_ref mr) {
  orders_fn fn{sizes.customer, sizes.part, orders != nullptr ? orders->out() : orders_out{}, lineitem_out{}};
  if (lines == nullptr) {
    exec.for_each_n(sizes.orders, fn);
    return;
  }
  uvector<size_type> first(sizes.orders + 1, stream, mr);
  size_type const rows = exec.exclusive_scan(sizes.orders, size_type{0}, line_count_fn{}, first.data());
  lines->emplace(rows, stream, mr);
  fn.lines = (*lines)->out(first.data());
  exec.for_each_n(sizes.orders, fn);
}

}  // namespace detail

// ---- the tables -----------------------------------------------------------------------------------

// CUSTOMER: 150,000 x SF rows.
[[nodiscard]] inline frame<customer_schema> generate_customer(double scale_factor, stream_ref stream = {},
                                                              resource_ref mr = get_current_resource()) {
  size_type const n = sizes_for(scale_factor).customer;
  uvector<std::int64_t> custkey(n, stream, mr);
  uvector<std::int32_t> nationkey(n, stream, mr);
  uvector<double> acctbal(n, stream, mr);
  on_backend(mr.kind(), stream, [&](auto const& exec) {
    exec.for_each_n(n, detail::customer_fn{custkey.data(), nationkey.data(), acctbal.data()});
  });
  return frame<customer_schema>(column<std::int64_t>(std::move(custkey)), column<std::int32_t>(std::move(nationkey)),
                                column<double>(std::move(acctbal)),
                                detail::choice_strings(n, detail::segment_of{}, detail::market_segments(), stream, mr));
}

// ORDERS: 1,500,000 x SF rows. Status and total price come from the order's lines, which are
// computed (the same as generate_lineitem's) but not stored.
[[nodiscard]] inline frame<orders_schema> generate_orders(double scale_factor, stream_ref stream = {},
                                                          resource_ref mr = get_current_resource()) {
  auto const sizes = sizes_for(scale_factor);
  detail::orders_buffers orders(sizes.orders, stream, mr);
  on_backend(mr.kind(), stream, [&](auto const& exec) { detail::run_orders(exec, sizes, &orders, nullptr, stream, mr); });
  return std::move(orders).finish(stream, mr);
}

// LINEITEM: 1 to 7 lines for each order, about 6,000,000 x SF rows.
[[nodiscard]] inline frame<lineitem_schema> generate_lineitem(double scale_factor, stream_ref stream = {},
                                                              resource_ref mr = get_current_resource()) {
  auto const sizes = sizes_for(scale_factor);
  std::optional<detail::lineitem_buffers> lines;
  on_backend(mr.kind(), stream, [&](auto const& exec) { detail::run_orders(exec, sizes, nullptr, &lines, stream, mr); });
  return std::move(*lines).finish(stream, mr);
}

struct tables {
  frame<customer_schema> customer;
  frame<orders_schema> orders;
  frame<lineitem_schema> lineitem;
};

// All three, equal to what the generate_* functions return one by one; orders and lineitem are
// written by one pass over the orders.
[[nodiscard]] inline tables generate(double scale_factor, stream_ref stream = {}, resource_ref mr = get_current_resource()) {
  auto const sizes = sizes_for(scale_factor);
  auto customer = generate_customer(scale_factor, stream, mr);
  detail::orders_buffers orders(sizes.orders, stream, mr);
  std::optional<detail::lineitem_buffers> lines;
  on_backend(mr.kind(), stream, [&](auto const& exec) { detail::run_orders(exec, sizes, &orders, &lines, stream, mr); });
  return {std::move(customer), std::move(orders).finish(stream, mr), std::move(*lines).finish(stream, mr)};
}

}  // namespace colx::tpch
