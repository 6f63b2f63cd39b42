// SPDX-License-Identifier: Apache-2.0
// String shapes (issue 16): with_columns storing strings computed from t.s and t.k2 (parts,
// case, concatenation, replacement, padding) with random positions, and text casts both ways
// (a value written as text and read back: CAST(CAST(x AS VARCHAR) AS type)). The tables' strings
// hold ASCII and é, whose upper-case form DuckDB and colx agree on.
#include "differential/harness.hpp"

#include <string>

namespace colx::differential {
namespace {

void string_compute(case_context& c) {
  auto const start = static_cast<std::int32_t>(c.pick(-6, 6));
  auto const length = static_cast<std::int32_t>(c.pick(-3, 8));
  auto const width = static_cast<std::int32_t>(c.pick(0, 12));
  auto const r = c.t |
                 with_columns(substr("s"_c, start, length).as<"sb">(), substr("k2"_c, start).as<"sf">(), upper("s"_c).as<"up">(),
                              lower("k2"_c).as<"lo">(), trim("s"_c).as<"tr">(), rtrim("s"_c, " ,").as<"rt">(),
                              concat("k2"_c, "-", "s"_c).as<"cc">(), concat_strict("k2"_c, "s"_c).as<"cs">(),
                              replace("s"_c, "a", "xy").as<"rp">(), lpad("k2"_c, width, "é.").as<"lp">(), rpad("s"_c, width, "_").as<"rp2">(),
                              length_bytes("s"_c).as<"nb">()) |
                 select("id"_c, "sb"_c, "sf"_c, "up"_c, "lo"_c, "tr"_c, "rt"_c, "cc"_c, "cs"_c, "rp"_c, "lp"_c, "rp2"_c, "nb"_c);
  auto const s = std::to_string(start);
  auto const l = std::to_string(length);
  auto const w = std::to_string(width);
  c.description = "t | with_columns(substr(s, " + s + ", " + l + "), substr(k2, " + s +
                  "), upper(s), lower(k2), trim(s), rtrim(s, \" ,\"), concat(k2, \"-\", s), concat_strict(k2, s), "
                  "replace(s, \"a\", \"xy\"), lpad(k2, " + w + ", \"é.\"), rpad(s, " + w + ", \"_\"), length_bytes(s))";
  emit(c, r,
       "SELECT id, substr(s, " + s + ", " + l + ") AS sb, substr(k2, " + s +
           ") AS sf, upper(s) AS up, lower(k2) AS lo, trim(s) AS tr, rtrim(s, ' ,') AS rt, concat(k2, '-', s) AS cc, "
           "k2 || s AS cs, replace(s, 'a', 'xy') AS rp, lpad(k2, " + w + ", 'é.') AS lp, rpad(s, " + w +
           ", '_') AS rp2, CAST(strlen(s) AS INTEGER) AS nb FROM t",
       false);
}

void text_casts(case_context& c) {
  auto const r = c.t |
                 with_columns(cast<string_view>("i32"_c).as<"ti">(), cast<string_view>("i64"_c).as<"tl">(),
                              cast<string_view>("pm"_c).as<"tp">(), cast<string_view>("qr"_c).as<"tq">(),
                              cast<string_view>("d"_c).as<"td">(), cast<string_view>("b"_c).as<"tb">()) |
                 with_columns(cast<std::int32_t>("tp"_c).as<"pi">(), cast<dec<15, 2>>("tp"_c).as<"pp">(),
                              cast<dec<9, 1>>("tq"_c).as<"q1">(), cast<double>("tq"_c).as<"qd">(), cast<std::int64_t>("tl"_c).as<"ll">(),
                              cast<date32>("td"_c).as<"dd">(), cast<bool>("tb"_c).as<"bb">()) |
                 select("id"_c, "ti"_c, "tl"_c, "tp"_c, "tq"_c, "td"_c, "tb"_c, "pi"_c, "pp"_c, "q1"_c, "qd"_c, "ll"_c, "dd"_c, "bb"_c);
  c.description = "t | with_columns(cast<string_view>(i32, i64, pm, qr, d, b)) | with_columns(cast<int32>(tp), cast<dec<15,2>>(tp), "
                  "cast<dec<9,1>>(tq), cast<double>(tq), cast<int64>(tl), cast<date32>(td), cast<bool>(tb))";
  emit(c, r,
       "SELECT id, CAST(i32 AS VARCHAR) AS ti, CAST(i64 AS VARCHAR) AS tl, CAST(pm AS VARCHAR) AS tp, CAST(qr AS VARCHAR) AS tq, "
       "CAST(d AS VARCHAR) AS td, CAST(b AS VARCHAR) AS tb, TRY_CAST(CAST(pm AS VARCHAR) AS INTEGER) AS pi, "
       "TRY_CAST(CAST(pm AS VARCHAR) AS DECIMAL(15,2)) AS pp, TRY_CAST(CAST(qr AS VARCHAR) AS DECIMAL(9,1)) AS q1, "
       "TRY_CAST(CAST(qr AS VARCHAR) AS DOUBLE) AS qd, TRY_CAST(CAST(i64 AS VARCHAR) AS BIGINT) AS ll, "
       "TRY_CAST(CAST(d AS VARCHAR) AS DATE) AS dd, TRY_CAST(CAST(b AS VARCHAR) AS BOOLEAN) AS bb FROM t",
       false);
}

// t's key strings and its strings as dictionary columns: a group-by on the dictionary key (its
// codes), with the other dictionary column's min and max and a filter that compares it with a
// literal; the kept rows keep their codes.
using coded_schema = schema<field<"id", std::int64_t, not_null>, field<"k2", dictionary<string_view, std::int32_t>>,
                            field<"s", dictionary<string_view, std::uint16_t>>, field<"i64", std::int64_t>, field<"f64", double>>;

frame<coded_schema> coded_table(frame<t_schema> const& t) {
  return frame<coded_schema>(column<std::int64_t>(any_column(t["id"_c].untyped())), encode<std::int32_t>(t["k2"_c]),
                             encode<std::uint16_t>(t["s"_c]), column<std::int64_t>(any_column(t["i64"_c].untyped())),
                             column<double>(any_column(t["f64"_c].untyped())));
}

void dictionary_group(case_context& c) {
  auto const d = coded_table(c.t);
  auto const cut = c.pick(-50, 50);
  bool const sorted = c.coin();
  auto const r = d | filter("i64"_c > cut && "s"_c != "a") | group_by(group_by_options{.sorted = sorted}, "k2"_c) |
                 aggregate(sum("i64"_c).as<"sm">(), count().as<"n">(), min("s"_c).as<"mn">(), max("s"_c).as<"mx">(),
                           mean("f64"_c).as<"me">(), count("s"_c).as<"ns">());
  auto const x = std::to_string(cut);
  c.description = "t (k2, s dictionary-encoded) | filter(i64 > " + x + " && s != \"a\") | group_by(" +
                  (sorted ? "sorted, " : "") + "k2) | aggregate(sum(i64), count(), min(s), max(s), mean(f64), count(s))";
  emit(c, r,
       "SELECT k2, sum(i64) AS sm, count(*) AS n, min(s) AS mn, max(s) AS mx, avg(f64) AS me, count(s) AS ns FROM t WHERE i64 > " +
           x + " AND s != 'a' GROUP BY k2" + (sorted ? " ORDER BY k2 NULLS LAST" : ""),
       sorted);
}

void dictionary_rows(case_context& c) {
  auto const d = coded_table(c.t);
  auto const cut = c.pick(-50, 50);
  auto const r = d | filter("i64"_c <= cut || is_null("k2"_c)) | sort_by("s"_c, "id"_c) | select("id"_c, "k2"_c, "s"_c);
  auto const x = std::to_string(cut);
  c.description = "t (k2, s dictionary-encoded) | filter(i64 <= " + x + " || is_null(k2)) | sort_by(s, id) | select(id, k2, s)";
  emit(c, r, "SELECT id, k2, s FROM t WHERE i64 <= " + x + " OR k2 IS NULL ORDER BY s NULLS LAST, id", true);
}

}  // namespace

void add_string_shapes(registry& r) {
  r.push_back({"string_compute", string_compute});
  r.push_back({"text_casts", text_casts});
  r.push_back({"dictionary_group", dictionary_group});
  r.push_back({"dictionary_rows", dictionary_rows});
}

}  // namespace colx::differential
