// SPDX-License-Identifier: Apache-2.0
// The TPC-H generator: sizes, value ranges, keys, dates, flags and order totals of every table
// checked against plain host loops; determinism; values that depend on the row alone; and, with
// the CUDA backend, host and device tables bit for bit the same.
#include "support/backend.hpp"

#include <colx/tpch/generator.hpp>

#include <catch2/catch.hpp>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <set>
#include <string>
#include <vector>

using namespace colx::literals;

namespace {

using colx::size_type;
using colx::tpch::table_sizes;

// 300 customers, 3,000 orders; 2,055 and 20,550; 4,500 and 45,000 (the last above the host
// executor's parallel threshold): no count a multiple of 256.
constexpr double scale_factors[] = {0.002, 0.0137, 0.03};

std::vector<std::string> strings_of(colx::strings_column const& c) {
  std::vector<std::string> out;
  for (auto const& s : colx::to_strings(c.view())) { out.push_back(s.value_or("<null>")); }
  return out;
}

// Every column of each table, on the host.
struct customer_rows {
  std::vector<std::int64_t> custkey;
  std::vector<std::int32_t> nationkey;
  std::vector<double> acctbal;
  std::vector<std::string> mktsegment;

  explicit customer_rows(colx::frame<colx::tpch::customer_schema> const& f)
      : custkey(colx::to_vector(f["c_custkey"_c].view())), nationkey(colx::to_vector(f["c_nationkey"_c].view())),
        acctbal(colx::to_vector(f["c_acctbal"_c].view())), mktsegment(strings_of(f["c_mktsegment"_c])) {}
};

struct orders_rows {
  std::vector<std::int64_t> orderkey, custkey;
  std::vector<std::string> orderstatus;
  std::vector<double> totalprice;
  std::vector<colx::date32> orderdate;
  std::vector<std::int32_t> shippriority;

  explicit orders_rows(colx::frame<colx::tpch::orders_schema> const& f)
      : orderkey(colx::to_vector(f["o_orderkey"_c].view())), custkey(colx::to_vector(f["o_custkey"_c].view())),
        orderstatus(strings_of(f["o_orderstatus"_c])), totalprice(colx::to_vector(f["o_totalprice"_c].view())),
        orderdate(colx::to_vector(f["o_orderdate"_c].view())), shippriority(colx::to_vector(f["o_shippriority"_c].view())) {}
};

struct lineitem_rows {
  std::vector<std::int64_t> orderkey;
  std::vector<std::int32_t> linenumber;
  std::vector<std::int64_t> partkey;
  std::vector<double> quantity, extendedprice, discount, tax;
  std::vector<std::string> returnflag, linestatus;
  std::vector<colx::date32> shipdate, commitdate, receiptdate;

  explicit lineitem_rows(colx::frame<colx::tpch::lineitem_schema> const& f)
      : orderkey(colx::to_vector(f["l_orderkey"_c].view())), linenumber(colx::to_vector(f["l_linenumber"_c].view())),
        partkey(colx::to_vector(f["l_partkey"_c].view())), quantity(colx::to_vector(f["l_quantity"_c].view())),
        extendedprice(colx::to_vector(f["l_extendedprice"_c].view())), discount(colx::to_vector(f["l_discount"_c].view())),
        tax(colx::to_vector(f["l_tax"_c].view())), returnflag(strings_of(f["l_returnflag"_c])),
        linestatus(strings_of(f["l_linestatus"_c])), shipdate(colx::to_vector(f["l_shipdate"_c].view())),
        commitdate(colx::to_vector(f["l_commitdate"_c].view())), receiptdate(colx::to_vector(f["l_receiptdate"_c].view())) {}
};

// Bit for bit: == would call 0.0 and -0.0 equal.
template <class T>
bool same_bits(std::vector<T> const& a, std::vector<T> const& b) {
  return a.size() == b.size() && (a.empty() || std::memcmp(a.data(), b.data(), a.size() * sizeof(T)) == 0);
}
bool same_bits(std::vector<std::string> const& a, std::vector<std::string> const& b) { return a == b; }

// `a` is the start of `b`: values that depend on the row alone do not change with the scale factor.
template <class T>
bool is_prefix(std::vector<T> const& a, std::vector<T> const& b) {
  return a.size() <= b.size() && std::equal(a.begin(), a.end(), b.begin());
}

void check_identical(customer_rows const& a, customer_rows const& b) {
  CHECK(same_bits(a.custkey, b.custkey));
  CHECK(same_bits(a.nationkey, b.nationkey));
  CHECK(same_bits(a.acctbal, b.acctbal));
  CHECK(same_bits(a.mktsegment, b.mktsegment));
}
void check_identical(orders_rows const& a, orders_rows const& b) {
  CHECK(same_bits(a.orderkey, b.orderkey));
  CHECK(same_bits(a.custkey, b.custkey));
  CHECK(same_bits(a.orderstatus, b.orderstatus));
  CHECK(same_bits(a.totalprice, b.totalprice));
  CHECK(same_bits(a.orderdate, b.orderdate));
  CHECK(same_bits(a.shippriority, b.shippriority));
}
void check_identical(lineitem_rows const& a, lineitem_rows const& b) {
  CHECK(same_bits(a.orderkey, b.orderkey));
  CHECK(same_bits(a.linenumber, b.linenumber));
  CHECK(same_bits(a.partkey, b.partkey));
  CHECK(same_bits(a.quantity, b.quantity));
  CHECK(same_bits(a.extendedprice, b.extendedprice));
  CHECK(same_bits(a.discount, b.discount));
  CHECK(same_bits(a.tax, b.tax));
  CHECK(same_bits(a.returnflag, b.returnflag));
  CHECK(same_bits(a.linestatus, b.linestatus));
  CHECK(same_bits(a.shipdate, b.shipdate));
  CHECK(same_bits(a.commitdate, b.commitdate));
  CHECK(same_bits(a.receiptdate, b.receiptdate));
}

// The first row where `ok` fails, or -1: one assertion per property instead of one per row.
template <class Ok>
size_type first_failure(std::size_t n, Ok ok) {
  for (std::size_t i = 0; i < n; ++i) {
    if (!ok(i)) { return static_cast<size_type>(i); }
  }
  return -1;
}

// x is a whole number of hundredths k / 100.0 (the generator's one rounding) with k in [lo, hi].
bool is_hundredths(double x, std::int64_t lo, std::int64_t hi) {
  std::int64_t const k = std::llround(x * 100);
  return lo <= k && k <= hi && static_cast<double>(k) / 100.0 == x;
}
std::int64_t cents(double x) { return std::llround(x * 100); }

constexpr colx::date32 current_date = colx::date(1995, 6, 17);

}  // namespace

TEST_CASE("tpch: the scale factor must be finite and positive", "[tpch]") {
  for (double bad : {0.0, -0.01, std::numeric_limits<double>::quiet_NaN(), std::numeric_limits<double>::infinity(), 1e6}) {
    CAPTURE(bad);
    CHECK_THROWS_AS(colx::tpch::generate_customer(bad), colx::logic_error);
    CHECK_THROWS_WITH(colx::tpch::generate(bad), Catch::Contains("scale factor"));
  }
  // Tiny scale factors still give every table a row, so orders have customers to refer to.
  auto const sizes = colx::tpch::sizes_for(1e-9);
  CHECK((sizes.customer == 1 && sizes.orders == 1 && sizes.part == 1));
  auto const t = colx::tpch::generate(1e-9, {}, colx::test::backend_resource());
  CHECK(orders_rows(t.orders).custkey == std::vector<std::int64_t>{1});
}

TEST_CASE("tpch: sizes, ranges, keys, dates, flags and totals", "[tpch]") {
  // The end of the order dates is TPC-H's ENDDATE less 151 days.
  STATIC_REQUIRE(colx::date(1998, 8, 2) == colx::date(1998, 12, 31) + colx::duration_days(-151));
  for (double sf : scale_factors) {
    CAPTURE(sf);
    table_sizes const sizes = colx::tpch::sizes_for(sf);
    CHECK(sizes.customer == std::llround(150'000 * sf));
    CHECK(sizes.orders == std::llround(1'500'000 * sf));
    CHECK(sizes.part == std::llround(200'000 * sf));
    auto const t = colx::tpch::generate(sf, {}, colx::test::backend_resource());
    CHECK(t.customer.kind() == colx::test::backend_kind());
    CHECK(t.lineitem.kind() == colx::test::backend_kind());
    REQUIRE(t.customer.num_rows() == sizes.customer);
    REQUIRE(t.orders.num_rows() == sizes.orders);

    customer_rows const c(t.customer);
    auto const nc = c.custkey.size();
    CHECK(first_failure(nc, [&](std::size_t i) { return c.custkey[i] == static_cast<std::int64_t>(i) + 1; }) == -1);
    CHECK(first_failure(nc, [&](std::size_t i) { return 0 <= c.nationkey[i] && c.nationkey[i] <= 24; }) == -1);
    CHECK(first_failure(nc, [&](std::size_t i) { return is_hundredths(c.acctbal[i], -99'999, 999'999); }) == -1);
    std::set<std::string> const segments{"AUTOMOBILE", "BUILDING", "FURNITURE", "MACHINERY", "HOUSEHOLD"};
    CHECK(std::set<std::string>(c.mktsegment.begin(), c.mktsegment.end()) == segments);
    CHECK(std::set<std::int32_t>(c.nationkey.begin(), c.nationkey.end()).size() == 25);

    orders_rows const o(t.orders);
    auto const no = o.orderkey.size();
    CHECK(first_failure(no, [&](std::size_t i) {
            return o.orderkey[i] == static_cast<std::int64_t>(i / 8 * 32 + i % 8 + 1);
          }) == -1);
    CHECK(first_failure(no, [&](std::size_t i) {
            return 1 <= o.custkey[i] && o.custkey[i] <= sizes.customer && o.custkey[i] % 3 != 0;
          }) == -1);
    CHECK(first_failure(no, [&](std::size_t i) {
            return colx::date(1992, 1, 1) <= o.orderdate[i] && o.orderdate[i] <= colx::date(1998, 8, 2);
          }) == -1);
    CHECK(first_failure(no, [&](std::size_t i) { return o.shippriority[i] == 0; }) == -1);

    lineitem_rows const l(t.lineitem);
    auto const nl = l.orderkey.size();
    // 1 to 7 lines an order, 4 on average (the mean of so many orders is within 0.2 of 4 by a
    // margin of more than 5 standard deviations).
    REQUIRE(nl >= no);
    REQUIRE(nl <= 7 * no);
    CHECK(std::abs(static_cast<double>(nl) / static_cast<double>(no) - 4.0) < 0.2);

    // Each order's lines follow one another, numbered 1..count, and are all the lines there are:
    // every l_orderkey is an o_orderkey. The order's status and total come from its lines.
    std::size_t row = 0;
    std::set<std::string> statuses;
    auto const bad_order = first_failure(no, [&](std::size_t i) {
      std::size_t count = 0;
      std::size_t shipped = 0;
      std::int64_t total = 0;
      double approximate = 0;
      for (; row < nl && l.orderkey[row] == o.orderkey[i]; ++row, ++count) {
        if (l.linenumber[row] != static_cast<std::int32_t>(count) + 1) { return false; }
        shipped += l.linestatus[row] == "F" ? 1 : 0;
        // dbgen's integers: discounted, then taxed, each step truncated to cents.
        total += cents(l.extendedprice[row]) * (100 - cents(l.discount[row])) / 100 * (100 + cents(l.tax[row])) / 100;
        approximate += l.extendedprice[row] * (1 + l.tax[row]) * (1 - l.discount[row]);
      }
      char const* const status = shipped == count ? "F" : (shipped == 0 ? "O" : "P");
      statuses.insert(o.orderstatus[i]);
      // Per line, the first truncation loses under 1 cent (1.08 once taxed), the second under 1 more.
      return 1 <= count && count <= 7 && o.orderstatus[i] == status &&
             o.totalprice[i] == static_cast<double>(total) / 100.0 &&
             std::abs(o.totalprice[i] - approximate) <= 0.021 * static_cast<double>(count);
    });
    CHECK(bad_order == -1);
    CHECK(row == nl);
    CHECK(statuses == std::set<std::string>{"F", "O", "P"});

    // The order date of each line, from the walk above's layout.
    std::vector<colx::date32> ordered(nl);
    for (std::size_t i = 0, r = 0; i < no; ++i) {
      for (; r < nl && l.orderkey[r] == o.orderkey[i]; ++r) { ordered[r] = o.orderdate[i]; }
    }
    CHECK(first_failure(nl, [&](std::size_t i) { return 1 <= l.partkey[i] && l.partkey[i] <= sizes.part; }) == -1);
    CHECK(first_failure(nl, [&](std::size_t i) { return is_hundredths(l.quantity[i], 100, 5000) && cents(l.quantity[i]) % 100 == 0; }) == -1);
    CHECK(first_failure(nl, [&](std::size_t i) {
            std::int64_t const p = l.partkey[i];
            std::int64_t const retail = 90000 + p / 10 % 20001 + 100 * (p % 1000);
            return l.extendedprice[i] == static_cast<double>(std::llround(l.quantity[i]) * retail) / 100.0;
          }) == -1);
    CHECK(first_failure(nl, [&](std::size_t i) { return is_hundredths(l.discount[i], 0, 10); }) == -1);
    CHECK(first_failure(nl, [&](std::size_t i) { return is_hundredths(l.tax[i], 0, 8); }) == -1);
    CHECK(first_failure(nl, [&](std::size_t i) {
            auto const ship = (l.shipdate[i] - ordered[i]).ticks;
            auto const commit = (l.commitdate[i] - ordered[i]).ticks;
            auto const receipt = (l.receiptdate[i] - l.shipdate[i]).ticks;
            return 1 <= ship && ship <= 121 && 30 <= commit && commit <= 90 && 1 <= receipt && receipt <= 30;
          }) == -1);
    CHECK(first_failure(nl, [&](std::size_t i) {
            bool const returned = l.receiptdate[i] <= current_date;
            return returned ? (l.returnflag[i] == "R" || l.returnflag[i] == "A") : l.returnflag[i] == "N";
          }) == -1);
    CHECK(first_failure(nl, [&](std::size_t i) {
            return l.linestatus[i] == (l.shipdate[i] > current_date ? "O" : "F");
          }) == -1);
    CHECK(std::set<std::string>(l.returnflag.begin(), l.returnflag.end()) == std::set<std::string>{"A", "N", "R"});
  }
}

TEST_CASE("tpch: generation is deterministic and the tables agree", "[tpch]") {
  colx::test::tracked_resource mr;
  {
    double const sf = 0.0137;
    auto const a = colx::tpch::generate(sf, {}, mr.ref());
    auto const b = colx::tpch::generate(sf, {}, mr.ref());
    check_identical(customer_rows(a.customer), customer_rows(b.customer));
    check_identical(orders_rows(a.orders), orders_rows(b.orders));
    check_identical(lineitem_rows(a.lineitem), lineitem_rows(b.lineitem));

    // The tables one at a time are those generate() writes together.
    check_identical(customer_rows(colx::tpch::generate_customer(sf, {}, mr.ref())), customer_rows(a.customer));
    check_identical(orders_rows(colx::tpch::generate_orders(sf, {}, mr.ref())), orders_rows(a.orders));
    check_identical(lineitem_rows(colx::tpch::generate_lineitem(sf, {}, mr.ref())), lineitem_rows(a.lineitem));

    // A value depends on its row, not on the scale factor, except where the scale factor sets
    // its range (o_custkey, l_partkey and the price that follows from it).
    auto const small = colx::tpch::generate(0.002, {}, mr.ref());
    customer_rows const cs(small.customer), cb(a.customer);
    CHECK(is_prefix(cs.nationkey, cb.nationkey));
    CHECK(is_prefix(cs.acctbal, cb.acctbal));
    CHECK(is_prefix(cs.mktsegment, cb.mktsegment));
    orders_rows const os(small.orders), ob(a.orders);
    CHECK(is_prefix(os.orderkey, ob.orderkey));
    CHECK(is_prefix(os.orderdate, ob.orderdate));
    CHECK(is_prefix(os.orderstatus, ob.orderstatus));
    lineitem_rows const ls(small.lineitem), lb(a.lineitem);
    CHECK(is_prefix(ls.orderkey, lb.orderkey));
    CHECK(is_prefix(ls.linenumber, lb.linenumber));
    CHECK(is_prefix(ls.quantity, lb.quantity));
    CHECK(is_prefix(ls.discount, lb.discount));
    CHECK(is_prefix(ls.returnflag, lb.returnflag));
    CHECK(is_prefix(ls.receiptdate, lb.receiptdate));
    CHECK(cs.custkey.size() < cb.custkey.size());
  }
  CHECK(mr.outstanding_bytes() == 0);
}

TEST_CASE("tpch: host and device generate the same bits", "[tpch]") {
  if constexpr (!colx::has_cuda) {
    SUCCEED("this build has only the host backend");
  } else {
    for (double sf : {0.002, 0.0137}) {
      CAPTURE(sf);
      auto const host = colx::tpch::generate(sf, {}, colx::get_current_host_resource());
      auto const device = colx::tpch::generate(sf, {}, colx::get_current_resource(colx::memory_kind::device));
      REQUIRE(host.lineitem.kind() == colx::memory_kind::host);
      REQUIRE(device.lineitem.kind() == colx::memory_kind::device);
      check_identical(customer_rows(host.customer), customer_rows(device.customer));
      check_identical(orders_rows(host.orders), orders_rows(device.orders));
      check_identical(lineitem_rows(host.lineitem), lineitem_rows(device.lineitem));
    }
  }
}
