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

}  // namespace

void add_string_shapes(registry& r) {
  r.push_back({"string_compute", string_compute});
  r.push_back({"text_casts", text_casts});
}

}  // namespace colx::differential
