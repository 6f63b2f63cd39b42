// SPDX-License-Identifier: Apache-2.0
// Decimal shapes (issue 16): arithmetic with DuckDB's result types (run.py compares the types of
// decimal columns too), comparisons across scales, casts, and sum/min/max/mean/count in a
// reduction and per group (with the strings' min and max beside them). t.pm is DECIMAL(15,2), t.qr DECIMAL(9,3).
#include "differential/harness.hpp"

#include <string>

namespace colx::differential {
namespace {

void decimal_arith(case_context& c) {
  auto const k = static_cast<std::int32_t>(c.pick(-9, 9));
  auto const r = c.t |
                 with_columns(("pm"_c + "qr"_c).as<"ad">(), ("pm"_c - "qr"_c).as<"sb">(), ("pm"_c * "qr"_c).as<"mu">(),
                              ("pm"_c * k).as<"mk">(), (1 - "pm"_c).as<"om">(), ("pm"_c > "qr"_c).as<"gt">(), ("pm"_c == "qr"_c).as<"eq">(),
                              ("i32"_c + "pm"_c).as<"im">(), cast<dec<12, 1>>("pm"_c).as<"c1">(), cast<std::int32_t>("qr"_c).as<"ci">(),
                              cast<dec<9, 3>>("i16"_c).as<"fi">()) |
                 select("id"_c, "ad"_c, "sb"_c, "mu"_c, "mk"_c, "om"_c, "gt"_c, "eq"_c, "im"_c, "c1"_c, "ci"_c, "fi"_c);
  c.description = "t | with_columns(pm + qr, pm - qr, pm * qr, pm * " + std::to_string(k) +
                  ", 1 - pm, pm > qr, pm == qr, i32 + pm, cast<dec<12,1>>(pm), cast<int32>(qr), cast<dec<9,3>>(i16))";
  emit(c, r,
       "SELECT id, pm + qr AS ad, pm - qr AS sb, pm * qr AS mu, pm * " + std::to_string(k) +
           " AS mk, 1 - pm AS om, pm > qr AS gt, pm = qr AS eq, i32 + pm AS im, CAST(pm AS DECIMAL(12,1)) AS c1, "
           "CAST(qr AS INTEGER) AS ci, CAST(i16 AS DECIMAL(9,3)) AS fi FROM t",
       false);
}

void decimal_reduce(case_context& c) {
  auto const limit = static_cast<std::int32_t>(c.pick(-10000000, 10000000));
  auto const [s, lo, hi, n, avg] = c.t | filter("pm"_c > "qr"_c || "pm"_c < limit) |
                                    reduce(sum("pm"_c), min("qr"_c), max("pm"_c), count("pm"_c), mean("qr"_c));
  c.description = "t | filter(pm > qr || pm < " + std::to_string(limit) + ") | reduce(sum(pm), min(qr), max(pm), count(pm), mean(qr))";
  emit_scalars(c, {"s", "lo", "hi", "n", "me"}, std::tuple(s, lo, hi, n, avg),
               "SELECT sum(pm), min(qr), max(pm), count(pm), avg(qr) FROM t WHERE pm > qr OR pm < " + std::to_string(limit));
}

void decimal_group(case_context& c) {
  auto const r = c.t | group_by("k1"_c) |
                 aggregate(sum("pm"_c).as<"s">(), sum("qr"_c).as<"sr">(), min("pm"_c).as<"lo">(), max("qr"_c).as<"hi">(),
                           mean("pm"_c).as<"me">(), count("qr"_c).as<"n">(), min("s"_c).as<"ls">(), max("k2"_c).as<"hs">());
  c.description = "t | group_by(\"k1\"_c) | aggregate(sum(pm), sum(qr), min(pm), max(qr), mean(pm), count(qr), min(s), max(k2))";
  emit(c, r,
       "SELECT k1, sum(pm) AS s, sum(qr) AS sr, min(pm) AS lo, max(qr) AS hi, avg(pm) AS me, count(qr) AS n, min(s) AS ls, "
       "max(k2) AS hs FROM t GROUP BY k1",
       false);
}

}  // namespace

void add_decimal_shapes(registry& r) {
  r.push_back({"decimal_arith", decimal_arith});
  r.push_back({"decimal_reduce", decimal_reduce});
  r.push_back({"decimal_group", decimal_group});
}

}  // namespace colx::differential
