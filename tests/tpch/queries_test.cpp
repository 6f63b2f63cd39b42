// SPDX-License-Identifier: Apache-2.0
// TPC-H Q1, Q3 and Q6 (tpch/queries.hpp) on generated tables, each against a reference computed
// here with plain loops over host copies of the same columns.
#include "support/backend.hpp"

#include <colx/tpch/generator.hpp>
#include <colx/tpch/queries.hpp>

#include <catch2/catch.hpp>

#include <algorithm>
#include <map>
#include <set>
#include <string>
#include <tuple>
#include <vector>

using namespace colx::literals;

namespace {

constexpr double scale_factor = 0.01;

template <class Frame, class C>
auto values(Frame const& f, C c) {
  return colx::to_vector(f[c].view());
}
template <class Frame, class C>
std::vector<std::string> strings(Frame const& f, C c) {
  std::vector<std::string> out;
  for (auto const& s : colx::to_strings(f[c].view())) { out.push_back(s.value()); }
  return out;
}
std::int32_t day(int y, int m, int d) { return colx::date(y, m, d).ticks; }

colx::tpch::tables const& tables() {
  static colx::tpch::tables const t = colx::tpch::generate(scale_factor, {}, colx::test::backend_resource());
  return t;
}

}  // namespace

TEST_CASE("tpch: Q1 matches a plain loop", "[tpch]") {
  auto const& li = tables().lineitem;
  auto const q = colx::tpch::q1(li);

  struct group {
    double qty = 0, base = 0, disc_price = 0, charge = 0, disc = 0;
    std::int64_t n = 0;
  };
  std::map<std::pair<std::string, std::string>, group> expected;
  auto const ship = values(li, "l_shipdate"_c);
  auto const qty = values(li, "l_quantity"_c);
  auto const price = values(li, "l_extendedprice"_c);
  auto const disc = values(li, "l_discount"_c);
  auto const tax = values(li, "l_tax"_c);
  auto const flag = strings(li, "l_returnflag"_c);
  auto const status = strings(li, "l_linestatus"_c);
  for (std::size_t i = 0; i < ship.size(); ++i) {
    if (ship[i].ticks > day(1998, 9, 2)) { continue; }
    auto& g = expected[{flag[i], status[i]}];
    g.qty += qty[i];
    g.base += price[i];
    g.disc_price += price[i] * (1 - disc[i]);
    g.charge += price[i] * (1 - disc[i]) * (1 + tax[i]);
    g.disc += disc[i];
    ++g.n;
  }

  REQUIRE(q.num_rows() == static_cast<colx::size_type>(expected.size()));
  auto const rf = strings(q, "l_returnflag"_c);
  auto const ls = strings(q, "l_linestatus"_c);
  auto const sum_qty = values(q, "sum_qty"_c);
  auto const sum_base = values(q, "sum_base_price"_c);
  auto const sum_disc_price = values(q, "sum_disc_price"_c);
  auto const sum_charge = values(q, "sum_charge"_c);
  auto const avg_qty = values(q, "avg_qty"_c);
  auto const avg_price = values(q, "avg_price"_c);
  auto const avg_disc = values(q, "avg_disc"_c);
  auto const count = values(q, "count_order"_c);
  std::size_t row = 0;
  for (auto const& [key, g] : expected) {  // std::map order is the query's ORDER BY
    INFO("group " << key.first << key.second);
    CHECK(rf[row] == key.first);
    CHECK(ls[row] == key.second);
    CHECK(count[row] == g.n);
    CHECK(sum_qty[row] == Approx(g.qty).epsilon(1e-12));
    CHECK(sum_base[row] == Approx(g.base).epsilon(1e-12));
    CHECK(sum_disc_price[row] == Approx(g.disc_price).epsilon(1e-12));
    CHECK(sum_charge[row] == Approx(g.charge).epsilon(1e-12));
    CHECK(avg_qty[row] == Approx(g.qty / static_cast<double>(g.n)).epsilon(1e-12));
    CHECK(avg_price[row] == Approx(g.base / static_cast<double>(g.n)).epsilon(1e-12));
    CHECK(avg_disc[row] == Approx(g.disc / static_cast<double>(g.n)).epsilon(1e-12));
    ++row;
  }
}

TEST_CASE("tpch: Q3 matches a plain loop", "[tpch]") {
  auto const& t = tables();
  auto const q = colx::tpch::q3(t.customer, t.orders, t.lineitem);

  std::set<std::int64_t> building;
  {
    auto const key = values(t.customer, "c_custkey"_c);
    auto const segment = strings(t.customer, "c_mktsegment"_c);
    for (std::size_t i = 0; i < key.size(); ++i) {
      if (segment[i] == "BUILDING") { building.insert(key[i]); }
    }
  }
  std::map<std::int64_t, std::pair<std::int32_t, std::int32_t>> open;  // orderkey -> (orderdate, shippriority)
  {
    auto const key = values(t.orders, "o_orderkey"_c);
    auto const cust = values(t.orders, "o_custkey"_c);
    auto const date = values(t.orders, "o_orderdate"_c);
    auto const prio = values(t.orders, "o_shippriority"_c);
    for (std::size_t i = 0; i < key.size(); ++i) {
      if (date[i].ticks < day(1995, 3, 15) && building.count(cust[i]) > 0) { open[key[i]] = {date[i].ticks, prio[i]}; }
    }
  }
  std::map<std::int64_t, double> revenue;
  {
    auto const key = values(t.lineitem, "l_orderkey"_c);
    auto const price = values(t.lineitem, "l_extendedprice"_c);
    auto const disc = values(t.lineitem, "l_discount"_c);
    auto const ship = values(t.lineitem, "l_shipdate"_c);
    for (std::size_t i = 0; i < key.size(); ++i) {
      if (ship[i].ticks > day(1995, 3, 15) && open.count(key[i]) > 0) { revenue[key[i]] += price[i] * (1 - disc[i]); }
    }
  }
  std::vector<std::tuple<double, std::int32_t, std::int64_t>> ranked;  // (-revenue, orderdate, orderkey)
  for (auto const& [key, r] : revenue) { ranked.emplace_back(-r, open[key].first, key); }
  std::sort(ranked.begin(), ranked.end());
  ranked.resize(std::min<std::size_t>(ranked.size(), 10));
  REQUIRE(ranked.size() == 10);  // the scale factor is large enough for ten results

  REQUIRE(q.num_rows() == static_cast<colx::size_type>(ranked.size()));
  auto const keys = values(q, "l_orderkey"_c);
  auto const rev = values(q, "revenue"_c);
  auto const dates = values(q, "o_orderdate"_c);
  auto const prios = values(q, "o_shippriority"_c);
  for (std::size_t r = 0; r < ranked.size(); ++r) {
    INFO("row " << r);
    CHECK(keys[r] == std::get<2>(ranked[r]));
    CHECK(rev[r] == Approx(-std::get<0>(ranked[r])).epsilon(1e-12));
    CHECK(dates[r].ticks == std::get<1>(ranked[r]));
    CHECK(prios[r] == open[keys[r]].second);
  }
}

TEST_CASE("tpch: Q6 matches a plain loop", "[tpch]") {
  auto const& li = tables().lineitem;
  auto const ship = values(li, "l_shipdate"_c);
  auto const qty = values(li, "l_quantity"_c);
  auto const price = values(li, "l_extendedprice"_c);
  auto const disc = values(li, "l_discount"_c);
  double expected = 0;
  std::int64_t rows = 0;
  for (std::size_t i = 0; i < ship.size(); ++i) {
    if (ship[i].ticks >= day(1994, 1, 1) && ship[i].ticks < day(1995, 1, 1) && disc[i] >= 0.05 && disc[i] <= 0.07 &&
        qty[i] < 24) {
      expected += price[i] * disc[i];
      ++rows;
    }
  }
  REQUIRE(rows > 100);
  CHECK(colx::tpch::q6(li) == Approx(expected).epsilon(1e-12));
}
