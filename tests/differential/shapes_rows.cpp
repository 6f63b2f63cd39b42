// SPDX-License-Identifier: Apache-2.0
// Row shapes: filters with Kleene logic, derived columns (mixed widths and signedness, integer
// division, casts, functions, CASE WHEN), reductions, sorts with nulls first or last, top-k.
#include "differential/harness.hpp"

#include <string>

namespace colx::differential {
namespace {

std::string num(double v) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.17g", v);
  return std::string(buf) + "::DOUBLE";
}

void filter_kleene(case_context& c) {
  auto const c1 = static_cast<std::int32_t>(c.pick(-1000000, 1000000));
  double const c2 = static_cast<double>(c.pick(-1000, 1000));
  auto const r = c.t | filter(("i32"_c > c1 && "f64"_c < c2) || !"b"_c || is_null("s"_c)) | select("id"_c);
  c.description = "t | filter((\"i32\"_c > " + std::to_string(c1) + " && \"f64\"_c < " + num(c2) +
                  ") || !\"b\"_c || is_null(\"s\"_c)) | select(\"id\"_c)";
  emit(c, r, "SELECT id FROM t WHERE (i32 > " + std::to_string(c1) + " AND f64 < " + num(c2) + ") OR NOT b OR s IS NULL", false);
}

void derive_arith(case_context& c) {
  auto const k = static_cast<std::int32_t>(c.pick(1, 9));
  auto const r = c.t | with_columns(("i32"_c + "i64"_c).as<"a">(), ("i16"_c * "i8"_c).as<"m">(), ("u32"_c - "i32"_c).as<"df">(),
                                    ("i32"_c / "i16"_c).as<"q">(), ("i32"_c % k).as<"r">(), ("f64"_c * 2.5 + "f32"_c).as<"x">(),
                                    ("u32"_c > "i32"_c).as<"g">()) |
                 select("id"_c, "a"_c, "m"_c, "df"_c, "q"_c, "r"_c, "x"_c, "g"_c);
  c.description = "t | with_columns(i32 + i64, i16 * i8, u32 - i32, i32 / i16, i32 % " + std::to_string(k) +
                  ", f64 * 2.5 + f32, u32 > i32)";
  // Integer division truncates toward zero and is null for a zero divisor; the one overflowing
  // quotient (INT32_MIN / -1) wraps, where DuckDB raises;
  // i16 * i8 is an int, as C++ promotes (DuckDB would keep SMALLINT and overflow).
  emit(c, r,
       "SELECT id, i32 + i64 AS a, CAST(i16 AS INTEGER) * i8 AS m, u32 - i32 AS df, "
       "CASE WHEN i16 = 0 THEN NULL WHEN i32 = -2147483648 AND i16 = -1 THEN i32 "
       "ELSE CAST(trunc(i32::DOUBLE / i16) AS INTEGER) END AS q, i32 % " +
           std::to_string(k) + " AS r, f64 * 2.5 + f32 AS x, u32 > i32 AS g FROM t",
       false);
}

void functions(case_context& c) {
  auto const r = c.t |
                 with_columns(abs("i16"_c).as<"ab">(), round("f64"_c).as<"ro">(), floor("f32"_c).as<"fl">(),
                              cast<std::int32_t>("f64"_c).as<"tr">(), case_when("i8"_c > 0, 1, "i16"_c > 0, 2, 0).as<"cw">(),
                              if_else("b"_c, "i32"_c, "i16"_c).as<"ie">(), coalesce("i32"_c, "i16"_c).as<"co">(),
                              year("d"_c).as<"yr">(), month("d"_c).as<"mo">(), length("s"_c).as<"ln">(),
                              starts_with("s"_c, "a").as<"sw">(), contains("s"_c, "x1").as<"ct">(), is_null("f32"_c).as<"nu">()) |
                 select("id"_c, "ab"_c, "ro"_c, "fl"_c, "tr"_c, "cw"_c, "ie"_c, "co"_c, "yr"_c, "mo"_c, "ln"_c, "sw"_c, "ct"_c, "nu"_c);
  c.description = "t | with_columns(abs(i16), round(f64), floor(f32), cast<int32>(f64), case_when(i8 > 0, 1, i16 > 0, 2, 0), "
                  "if_else(b, i32, i16), coalesce(i32, i16), year(d), month(d), length(s), starts_with(s, \"a\"), "
                  "contains(s, \"x1\"), is_null(f32))";
  // cast<int32>(double) truncates and is null out of range: TRY_CAST of trunc (CAST would round).
  // if_else is null where its condition is; CASE WHEN would take the else branch.
  emit(c, r,
       "SELECT id, abs(i16) AS ab, round(f64) AS ro, floor(f32) AS fl, TRY_CAST(trunc(f64) AS INTEGER) AS tr, "
       "CASE WHEN i8 > 0 THEN 1 WHEN i16 > 0 THEN 2 ELSE 0 END AS cw, "
       "CASE WHEN b IS NULL THEN NULL WHEN b THEN i32 ELSE i16 END AS ie, coalesce(i32, i16) AS co, "
       "year(d) AS yr, month(d) AS mo, length(s) AS ln, starts_with(s, 'a') AS sw, contains(s, 'x1') AS ct, "
       "f32 IS NULL AS nu FROM t",
       false);
}

void reduce_all(case_context& c) {
  auto const c1 = static_cast<std::int8_t>(c.pick(-128, 127));
  auto const values = c.t | filter("i8"_c > c1) |
                      reduce(sum("i32"_c), min("f64"_c), max("i16"_c), mean("f32"_c), var("f64"_c), std("i32"_c), count(),
                             count("i8"_c), any("b"_c), all("b"_c), min("d"_c));
  c.description = "t | filter(\"i8\"_c > " + std::to_string(c1) +
                  ") | reduce(sum(i32), min(f64), max(i16), mean(f32), var(f64), std(i32), count(), count(i8), any(b), all(b), "
                  "min(d))";
  // any/all of no valid value are false/true (pandas); SQL's bool_or/bool_and give null.
  emit_scalars(c, {"s", "mn", "mx", "me", "va", "sd", "n", "nv", "an", "al", "md"}, values,
               "SELECT sum(i32), min(f64), max(i16), avg(f32), var_samp(f64), stddev_samp(i32), count(*), count(i8), "
               "coalesce(bool_or(b), false), coalesce(bool_and(b), true), min(d) FROM t WHERE i8 > " +
                   std::to_string(c1));
}

void sort_head(case_context& c) {
  bool const descending = c.coin();
  bool const nulls_first = c.coin();
  auto const k = static_cast<size_type>(c.pick(0, 40));
  auto key = descending ? desc("f64"_c) : asc("f64"_c);
  if (nulls_first) { key = key.nulls_first(); }
  auto const r = c.t | sort_by(key, asc("k2"_c).nulls_first(), desc("i16"_c), "id"_c) | head(k) |
                 select("id"_c, "f64"_c, "k2"_c, "i16"_c);
  std::string const dir = std::string(descending ? "DESC" : "ASC") + (nulls_first ? " NULLS FIRST" : " NULLS LAST");
  c.description = "t | sort_by(" + std::string(descending ? "desc" : "asc") + "(\"f64\"_c)" +
                  (nulls_first ? ".nulls_first()" : "") + ", asc(\"k2\"_c).nulls_first(), desc(\"i16\"_c), \"id\"_c) | head(" +
                  std::to_string(k) + ")";
  emit(c, r,
       "SELECT id, f64, k2, i16 FROM t ORDER BY f64 " + dir + ", k2 ASC NULLS FIRST, i16 DESC NULLS LAST, id LIMIT " +
           std::to_string(k),
       true);
}

void top_k_strings(case_context& c) {
  auto const k = static_cast<size_type>(c.pick(0, 30));
  auto const r = top_k(c.t, k, desc("s"_c), "u32"_c, "id"_c) | select("id"_c, "s"_c, "u32"_c);
  c.description = "top_k(t, " + std::to_string(k) + ", desc(\"s\"_c), \"u32\"_c, \"id\"_c)";
  emit(c, r, "SELECT id, s, u32 FROM t ORDER BY s DESC NULLS LAST, u32 NULLS LAST, id LIMIT " + std::to_string(k), true);
}

// Calendar arithmetic: months and years added with the day clamped (DuckDB's date + INTERVAL,
// cast back to DATE: DuckDB gives a TIMESTAMP), date_trunc, and date_diff in four units.
void date_math(case_context& c) {
  auto const k = static_cast<std::int32_t>(c.pick(-30, 30));
  auto const r = c.t |
                 with_columns(add_months("d"_c, k).as<"am">(), add_years("d"_c, k).as<"ay">(), add_days("d"_c, "i16"_c).as<"ad">(),
                              date_trunc<date_part::quarter>("d"_c).as<"tq">(), date_trunc<date_part::week>("d"_c).as<"tw">(),
                              date_diff<date_part::month>("d"_c, add_days("d"_c, "i16"_c)).as<"dm">(),
                              date_diff<date_part::week>("d"_c, add_days("d"_c, "i16"_c)).as<"dw">(),
                              date_diff<date_part::year>("d"_c, add_months("d"_c, k)).as<"dy">()) |
                 select("id"_c, "am"_c, "ay"_c, "ad"_c, "tq"_c, "tw"_c, "dm"_c, "dw"_c, "dy"_c);
  auto const ks = std::to_string(k);
  c.description = "t | with_columns(add_months(d, " + ks + "), add_years(d, " + ks +
                  "), add_days(d, i16), date_trunc<quarter>(d), date_trunc<week>(d), date_diff<month>(d, add_days(d, i16)), "
                  "date_diff<week>(d, add_days(d, i16)), date_diff<year>(d, add_months(d, " + ks + ")))";
  emit(c, r,
       "SELECT id, CAST(d + INTERVAL (" + ks + ") MONTH AS DATE) AS am, CAST(d + INTERVAL (" + ks +
           ") YEAR AS DATE) AS ay, CAST(d + INTERVAL (i16) DAY AS DATE) AS ad, CAST(date_trunc('quarter', d) AS DATE) AS tq, "
           "CAST(date_trunc('week', d) AS DATE) AS tw, date_diff('month', d, CAST(d + INTERVAL (i16) DAY AS DATE)) AS dm, "
           "date_diff('week', d, CAST(d + INTERVAL (i16) DAY AS DATE)) AS dw, "
           "date_diff('year', d, CAST(d + INTERVAL (" + ks + ") MONTH AS DATE)) AS dy FROM t",
       false);
}

}  // namespace

// SQL's LIKE, ILIKE and NOT LIKE, eight patterns at once (patterns are constants of the pipeline).
// ILIKE folds ASCII letters only, DuckDB all of Unicode: the tables hold no non-ASCII capitals.
void like_patterns(case_context& c) {
  auto const r = c.t |
                 with_columns(like("s"_c, "%a%").as<"l1">(), like("s"_c, "a%").as<"l2">(), like("s"_c, "%b").as<"l3">(),
                              like("s"_c, "_").as<"l4">(), like("s"_c, "%é_%").as<"l5">(), like("k2"_c, "a%b").as<"l6">(),
                              ilike("s"_c, "%A%Z%").as<"l7">(), not_like("s"_c, "%x1%").as<"l8">()) |
                 select("id"_c, "l1"_c, "l2"_c, "l3"_c, "l4"_c, "l5"_c, "l6"_c, "l7"_c, "l8"_c);
  c.description = "t | with_columns(like(s, \"%a%\"), like(s, \"a%\"), like(s, \"%b\"), like(s, \"_\"), like(s, \"%é_%\"), "
                  "like(k2, \"a%b\"), ilike(s, \"%A%Z%\"), not_like(s, \"%x1%\"))";
  emit(c, r,
       "SELECT id, s LIKE '%a%' AS l1, s LIKE 'a%' AS l2, s LIKE '%b' AS l3, s LIKE '_' AS l4, s LIKE '%é_%' AS l5, "
       "k2 LIKE 'a%b' AS l6, s ILIKE '%A%Z%' AS l7, s NOT LIKE '%x1%' AS l8 FROM t",
       false);
}

// Date parts, as DuckDB's quarter, dayofweek (0 = Sunday), isodow and dayofyear.
void date_parts(case_context& c) {
  auto const r = c.t |
                 with_columns(quarter("d"_c).as<"q">(), day_of_week("d"_c).as<"w">(), iso_day_of_week("d"_c).as<"iw">(),
                              day_of_year("d"_c).as<"dy">(), day("d"_c).as<"dd">()) |
                 select("id"_c, "q"_c, "w"_c, "iw"_c, "dy"_c, "dd"_c);
  c.description = "t | with_columns(quarter(d), day_of_week(d), iso_day_of_week(d), day_of_year(d), day(d))";
  emit(c, r,
       "SELECT id, CAST(quarter(d) AS INTEGER) AS q, CAST(dayofweek(d) AS INTEGER) AS w, CAST(isodow(d) AS INTEGER) AS iw, "
       "CAST(dayofyear(d) AS INTEGER) AS dy, CAST(day(d) AS INTEGER) AS dd FROM t",
       false);
}

void add_row_shapes(registry& r) {
  r.push_back({"filter_kleene", filter_kleene});
  r.push_back({"derive_arith", derive_arith});
  r.push_back({"functions", functions});
  r.push_back({"reduce_all", reduce_all});
  r.push_back({"sort_head", sort_head});
  r.push_back({"top_k_strings", top_k_strings});
  r.push_back({"like_patterns", like_patterns});
  r.push_back({"date_parts", date_parts});
  r.push_back({"date_math", date_math});
}

}  // namespace colx::differential
