// SPDX-License-Identifier: Apache-2.0
// Group shapes: group-by on one to three keys (null keys form a group, as SQL) with every
// aggregation, an expression key, distinct, running sums over the frame and per group, ranks.
#include "differential/harness.hpp"

#include <string>

namespace colx::differential {
namespace {

void group_one_key(case_context& c) {
  auto const r = c.t | group_by("k1"_c) |
                 aggregate(sum("i64"_c).as<"s">(), min("f64"_c).as<"mn">(), max("i32"_c).as<"mx">(), mean("f32"_c).as<"me">(),
                           count().as<"n">(), count("s"_c).as<"ns">(), nunique("i16"_c).as<"u">(), var("f64"_c).as<"va">(),
                           max("d"_c).as<"md">());
  c.description = "t | group_by(\"k1\"_c) | aggregate(sum(i64), min(f64), max(i32), mean(f32), count(), count(s), nunique(i16), "
                  "var(f64), max(d))";
  emit(c, r,
       "SELECT k1, sum(i64) AS s, min(f64) AS mn, max(i32) AS mx, avg(f32) AS me, count(*) AS n, count(s) AS ns, "
       "count(DISTINCT i16) AS u, var_samp(f64) AS va, max(d) AS md FROM t GROUP BY k1",
       false);
}

void group_two_keys(case_context& c) {
  auto const c1 = static_cast<std::int8_t>(c.pick(-128, 127));
  auto const r = c.t | filter("i8"_c > c1) | group_by("k2"_c, "k1"_c) |
                 aggregate(sum("f64"_c).as<"s">(), count().as<"n">(), min("i8"_c).as<"mn">(), any("b"_c).as<"an">(),
                           std("u32"_c).as<"sd">(), nunique("k2"_c).as<"u">());
  c.description = "t | filter(\"i8\"_c > " + std::to_string(c1) +
                  ") | group_by(\"k2\"_c, \"k1\"_c) | aggregate(sum(f64), count(), min(i8), any(b), std(u32), nunique(k2))";
  emit(c, r,
       "SELECT k2, k1, sum(f64) AS s, count(*) AS n, min(i8) AS mn, coalesce(bool_or(b), false) AS an, stddev_samp(u32) AS sd, "
       "count(DISTINCT k2) AS u FROM t WHERE i8 > " +
           std::to_string(c1) + " GROUP BY k2, k1",
       false);
}

void group_three_keys(case_context& c) {
  bool const drop = c.coin();
  auto const r = c.t | group_by(group_by_options{.sorted = true, .drop_null_keys = drop}, "k1"_c, "k2"_c, "b"_c) |
                 aggregate(sum("i16"_c).as<"s">(), mean("f64"_c).as<"me">(), count("f64"_c).as<"n">());
  c.description = std::string("t | group_by({.sorted = true, .drop_null_keys = ") + (drop ? "true" : "false") +
                  "}, \"k1\"_c, \"k2\"_c, \"b\"_c) | aggregate(sum(i16), mean(f64), count(f64))";
  // sorted: ascending keys, nulls last, as ORDER BY ... NULLS LAST.
  emit(c, r,
       std::string("SELECT k1, k2, b, sum(i16) AS s, avg(f64) AS me, count(f64) AS n FROM t ") +
           (drop ? "WHERE k1 IS NOT NULL AND k2 IS NOT NULL AND b IS NOT NULL " : "") +
           "GROUP BY k1, k2, b ORDER BY k1 NULLS LAST, k2 NULLS LAST, b NULLS LAST",
       true);
}

void group_expression_key(case_context& c) {
  auto const m = static_cast<std::int32_t>(c.pick(1, 7));
  auto const r = c.t | group_by(("i32"_c % m).as<"g">()) | aggregate(count().as<"n">(), sum("i8"_c).as<"s">());
  c.description = "t | group_by((\"i32\"_c % " + std::to_string(m) + ").as<\"g\">()) | aggregate(count(), sum(i8))";
  emit(c, r, "SELECT i32 % " + std::to_string(m) + " AS g, count(*) AS n, sum(i8) AS s FROM t GROUP BY g", false);
}

void distinct_keys(case_context& c) {
  auto const r = c.t | select("k1"_c, "k2"_c) | distinct();
  c.description = "t | select(\"k1\"_c, \"k2\"_c) | distinct()";
  emit(c, r, "SELECT DISTINCT k1, k2 FROM t", false);
}

void running_sums(case_context& c) {
  auto const all = cumsum(c.t, "i32"_c);
  auto const per_key = cumsum(c.t | group_by("k1"_c), "i16"_c);
  frame<schema<field<"id", std::int64_t, not_null>, field<"cs", std::int64_t>, field<"gs", std::int64_t>>> const r(
      c.t["id"_c], all, per_key);
  c.description = "cumsum(t, \"i32\"_c), cumsum(t | group_by(\"k1\"_c), \"i16\"_c)";
  // A null row stays null and the running value carries past it (pandas); SQL's window would
  // write the running value there.
  emit(c, r,
       "SELECT id, CASE WHEN i32 IS NULL THEN NULL ELSE sum(i32) OVER (ORDER BY id ROWS UNBOUNDED PRECEDING) END AS cs, "
       "CASE WHEN i16 IS NULL THEN NULL ELSE sum(i16) OVER (PARTITION BY k1 ORDER BY id ROWS UNBOUNDED PRECEDING) END AS gs "
       "FROM t",
       false);
}

void ranks(case_context& c) {
  auto const minimum = rank(c.t, rank_method::min, "f64"_c);
  auto const dense = rank(c.t, rank_method::dense, desc("i16"_c));
  auto const first = rank(c.t, rank_method::first, "k2"_c);
  auto const average = rank(c.t, rank_method::average, "i8"_c);
  frame<schema<field<"id", std::int64_t, not_null>, field<"rmin", double>, field<"rdense", double>, field<"rfirst", double>,
               field<"ravg", double>>> const r(c.t["id"_c], minimum, dense, first, average);
  c.description = "rank(t, min, f64), rank(t, dense, desc(i16)), rank(t, first, k2), rank(t, average, i8)";
  // A null key has a null rank and takes no place from others: NULLS LAST keeps it out of the way.
  emit(c, r,
       "SELECT id, CASE WHEN f64 IS NULL THEN NULL ELSE rank() OVER (ORDER BY f64 NULLS LAST) END AS rmin, "
       "CASE WHEN i16 IS NULL THEN NULL ELSE dense_rank() OVER (ORDER BY i16 DESC NULLS LAST) END AS rdense, "
       "CASE WHEN k2 IS NULL THEN NULL ELSE row_number() OVER (ORDER BY k2 NULLS LAST, id) END AS rfirst, "
       "CASE WHEN i8 IS NULL THEN NULL ELSE (2 * rank() OVER (ORDER BY i8 NULLS LAST) + count(*) OVER (PARTITION BY i8) - 1) / 2.0 "
       "END AS ravg FROM t",
       false);
}

}  // namespace

void add_group_shapes(registry& r) {
  r.push_back({"group_one_key", group_one_key});
  r.push_back({"group_two_keys", group_two_keys});
  r.push_back({"group_three_keys", group_three_keys});
  r.push_back({"group_expression_key", group_expression_key});
  r.push_back({"distinct_keys", distinct_keys});
  r.push_back({"running_sums", running_sums});
  r.push_back({"ranks", ranks});
}

}  // namespace colx::differential
