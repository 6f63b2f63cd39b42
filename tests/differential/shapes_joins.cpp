// SPDX-License-Identifier: Apache-2.0
// Join shapes: every kind on an int32 key against an int64 one (by value), on two keys with a
// string, semi and anti joins, and a join behind a filter; duplicate and null keys come from the
// tables (few distinct keys, skew, nulls).
#include "differential/harness.hpp"

#include <string>

namespace colx::differential {
namespace {

template <join_kind How>
void join_on_k1(case_context& c, char const* sql_kind) {
  auto const left = c.t | select("id"_c, "k1"_c, "i16"_c);
  auto const r = left | join<How>(c.u, on("k1"_c)) | select("id_x"_c, "k1"_c, "i16"_c, "id_y"_c, "v"_c);
  bool const coalesces = How == join_kind::right || How == join_kind::full;
  c.description = std::string("t | select(id, k1, i16) | join<") + sql_kind + ">(u, on(\"k1\"_c))  // int32 against int64";
  emit(c, r,
       std::string("SELECT t.id AS id_x, ") + (coalesces ? "coalesce(t.k1, u.k1)" : "t.k1") +
           " AS k1, t.i16, u.id AS id_y, u.v FROM t " + sql_kind + " JOIN u ON t.k1 = u.k1",
       false);
}

void join_one_key(case_context& c) {
  switch (c.pick(0, 3)) {
    case 0: join_on_k1<join_kind::inner>(c, "INNER"); break;
    case 1: join_on_k1<join_kind::left>(c, "LEFT"); break;
    case 2: join_on_k1<join_kind::right>(c, "RIGHT"); break;
    default: join_on_k1<join_kind::full>(c, "FULL"); break;
  }
}

template <join_kind How>
void join_on_two(case_context& c, char const* sql_kind) {
  auto const r = c.t | select("id"_c, "k1"_c, "k2"_c) | join<How>(c.u, on("k2"_c, "k1"_c)) | select("id_x"_c, "id_y"_c, "w"_c);
  c.description = std::string("t | select(id, k1, k2) | join<") + sql_kind + ">(u, on(\"k2\"_c, \"k1\"_c))";
  emit(c, r, std::string("SELECT t.id AS id_x, u.id AS id_y, u.w FROM t ") + sql_kind + " JOIN u ON t.k2 = u.k2 AND t.k1 = u.k1",
       false);
}

void join_two_keys(case_context& c) {
  switch (c.pick(0, 2)) {
    case 0: join_on_two<join_kind::inner>(c, "INNER"); break;
    case 1: join_on_two<join_kind::left>(c, "LEFT"); break;
    default: join_on_two<join_kind::full>(c, "FULL"); break;
  }
}

void semi_anti(case_context& c) {
  bool const anti = c.coin();
  auto const left = c.t | select("id"_c, "k1"_c);
  auto const r = anti ? left | join<join_kind::anti>(c.u, on("k1"_c)) : left | join<join_kind::semi>(c.u, on("k1"_c));
  c.description = std::string("t | select(id, k1) | join<") + (anti ? "anti" : "semi") + ">(u, on(\"k1\"_c))";
  emit(c, r,
       std::string("SELECT id, k1 FROM t WHERE ") + (anti ? "NOT " : "") + "EXISTS (SELECT 1 FROM u WHERE u.k1 = t.k1)", false);
}

void filtered_join(case_context& c) {
  auto const c1 = static_cast<std::int16_t>(c.pick(-1000, 1000));
  double const c2 = static_cast<double>(c.pick(-50, 50));
  auto const r = c.t | filter("i16"_c < c1) | join(c.u | filter("v"_c > c2), on("k1"_c)) | select("id_x"_c, "id_y"_c);
  c.description = "t | filter(\"i16\"_c < " + std::to_string(c1) + ") | join(u | filter(\"v\"_c > " + std::to_string(c2) +
                  "), on(\"k1\"_c))";
  emit(c, r,
       "SELECT t.id AS id_x, u.id AS id_y FROM t JOIN u ON t.k1 = u.k1 WHERE t.i16 < " + std::to_string(c1) + " AND u.v > " +
           std::to_string(c2),
       false);
}

}  // namespace

void add_join_shapes(registry& r) {
  r.push_back({"join_one_key", join_one_key});
  r.push_back({"join_two_keys", join_two_keys});
  r.push_back({"semi_anti", semi_anti});
  r.push_back({"filtered_join", filtered_join});
}

}  // namespace colx::differential
