// SPDX-License-Identifier: Apache-2.0
#pragma once
// The differential harness against DuckDB (issue 15): random tables, random pipelines from a fixed
// set of shapes, the colx result and the same query in SQL written side by side for run.py, which
// runs the SQL in DuckDB and compares. A shape is a pipeline compiled once (its columns and stages
// are types); each case draws its data (sizes, nulls, distinct values, skew) and the shape's
// run-time parameters (constants, directions, k) from the case's seed, so thousands of cases cost
// a few dozen instantiations.
//
// Files of a case (in its own directory): t.csv and u.csv (the two input tables), query.sql, and
// colx.csv with the result, whose header line holds name:DUCKDBTYPE per column; ordered.txt when
// the result's row order is part of the answer (ORDER BY), else the rows compare as a multiset.
#include <colx/colx.hpp>

#include <cstdint>
#include <functional>
#include <optional>
#include <random>
#include <string>
#include <vector>

namespace colx::differential {

using namespace colx::literals;

// The left table, t: every kind of column, all nullable but the row id.
using t_schema = schema<field<"id", std::int64_t, not_null>, field<"k1", std::int32_t>, field<"k2", string_view>,
                        field<"i8", std::int8_t>, field<"i16", std::int16_t>, field<"i32", std::int32_t>,
                        field<"i64", std::int64_t>, field<"u32", std::uint32_t>, field<"f32", float>, field<"f64", double>,
                        field<"d", date32>, field<"s", string_view>, field<"b", bool>, field<"pm", dec<15, 2>>,
                        field<"qr", dec<9, 3>>>;
// The right table, u: join keys of another width (k1 is int64 here) and payloads.
using u_schema = schema<field<"id", std::int64_t, not_null>, field<"k1", std::int64_t>, field<"k2", string_view>,
                        field<"v", double>, field<"w", std::int32_t>>;

// What a shape reads and writes for one case.
struct case_context {
  frame<t_schema> t;
  frame<u_schema> u;
  std::mt19937_64 rng;        // the shape's run-time parameters
  std::string dir;            // where the case's files go
  std::string description;    // the pipeline in colx's words, for a failure's reproduction

  // A uniform integer in [lo, hi].
  std::int64_t pick(std::int64_t lo, std::int64_t hi) {
    return lo + static_cast<std::int64_t>(rng() % static_cast<std::uint64_t>(hi - lo + 1));
  }
  bool coin() { return (rng() & 1) != 0; }
};

struct shape {
  std::string name;
  std::function<void(case_context&)> run;
};
using registry = std::vector<shape>;

void add_row_shapes(registry& r);    // shapes_rows.cpp: filter, derive, functions, reduce, sort
void add_group_shapes(registry& r);  // shapes_groups.cpp: group-by, distinct, scans, rank
void add_join_shapes(registry& r);   // shapes_joins.cpp: every join kind
void add_decimal_shapes(registry& r);  // shapes_decimals.cpp: decimal arithmetic, casts, aggregates
void add_string_shapes(registry& r);   // shapes_strings.cpp: computed strings, text casts

// Writes the result frame and the SQL that should give the same rows.
template <class Schema>
void emit(case_context& c, frame<Schema> const& result, std::string const& sql, bool ordered);

// ---- writing ----------------------------------------------------------------------------------

std::string csv_text(std::optional<std::string> const& v);  // quoted, "" doubled; null: empty
std::string iso_date(date32 d);
std::string decimal_digits(int128_t unscaled, int scale);  // exact: -12345 at scale 2 is -123.45
template <class T>
std::string duckdb_type();
template <class T>
std::string csv_value(std::optional<T> const& v);

void write_file(std::string const& path, std::string const& text);

template <class Schema>
void emit(case_context& c, frame<Schema> const& result, std::string const& sql, bool ordered) {
  std::vector<std::vector<std::string>> cells(static_cast<std::size_t>(result.num_rows()));
  std::string header;
  [&]<std::size_t... I>(std::index_sequence<I...>) {
    auto const one = [&]<std::size_t K>(std::integral_constant<std::size_t, K>) {
      using F = typename Schema::template field_at<K>;
      using T = value_of_t<typename F::type>;  // a dictionary column is written decoded
      if (K > 0) { header += ","; }
      header += std::string(F::name.view()) + ":" + duckdb_type<T>();
      auto const& stored = result.template column_at<K>();
      auto const& col = [&]() -> decltype(auto) {
        if constexpr (dictionary_type<typename F::type>) {
          return decode(stored);
        } else {
          return (stored);
        }
      }();
      if constexpr (std::is_same_v<T, string_view>) {
        auto const v = to_strings(col.view());
        for (std::size_t r = 0; r < v.size(); ++r) { cells[r].push_back(csv_text(v[r])); }
      } else {
        auto const v = to_optional_vector(col.view());
        for (std::size_t r = 0; r < v.size(); ++r) { cells[r].push_back(csv_value(v[r])); }
      }
    };
    (one(std::integral_constant<std::size_t, I>{}), ...);
  }(std::make_index_sequence<Schema::size>{});
  std::string text = header + "\n";
  for (auto const& row : cells) {
    for (std::size_t k = 0; k < row.size(); ++k) { text += (k > 0 ? "," : "") + row[k]; }
    text += "\n";
  }
  write_file(c.dir + "/colx.csv", text);
  write_file(c.dir + "/query.sql", sql + "\n");
  write_file(c.dir + "/colx.txt", c.description + "\n");
  if (ordered) { write_file(c.dir + "/ordered.txt", "1\n"); }
}

// A reduce's tuple of scalars as a one-row result, its columns named by `names`.
template <class... T>
void emit_scalars(case_context& c, std::vector<std::string> const& names, std::tuple<scalar<T>...> const& values,
                  std::string const& sql) {
  std::string header, row;
  std::size_t k = 0;
  std::apply(
      [&](auto const&... v) {
        auto const one = [&](auto const& s) {
          using V = std::remove_cvref_t<decltype(*s)>;
          header += (k > 0 ? "," : "") + names[k] + ":" + duckdb_type<V>();
          row += (k > 0 ? "," : "") + csv_value(s.has_value() ? std::optional<V>(*s) : std::nullopt);
          ++k;
        };
        (one(v), ...);
      },
      values);
  write_file(c.dir + "/colx.csv", header + "\n" + row + "\n");
  write_file(c.dir + "/query.sql", sql + "\n");
  write_file(c.dir + "/colx.txt", c.description + "\n");
}

template <class T>
std::string duckdb_type() {
  if constexpr (std::is_same_v<T, bool>) return "BOOLEAN";
  else if constexpr (std::is_same_v<T, std::int8_t>) return "TINYINT";
  else if constexpr (std::is_same_v<T, std::int16_t>) return "SMALLINT";
  else if constexpr (std::is_same_v<T, std::int32_t>) return "INTEGER";
  else if constexpr (std::is_same_v<T, std::int64_t>) return "BIGINT";
  else if constexpr (std::is_same_v<T, std::uint8_t>) return "UTINYINT";
  else if constexpr (std::is_same_v<T, std::uint16_t>) return "USMALLINT";
  else if constexpr (std::is_same_v<T, std::uint32_t>) return "UINTEGER";
  else if constexpr (std::is_same_v<T, std::uint64_t>) return "UBIGINT";
  else if constexpr (std::is_same_v<T, float>) return "FLOAT";
  else if constexpr (std::is_same_v<T, double>) return "DOUBLE";
  else if constexpr (std::is_same_v<T, date32>) return "DATE";
  else if constexpr (std::is_same_v<T, string_view>) return "VARCHAR";
  else if constexpr (dec_type<T>) return "DECIMAL(" + std::to_string(T::precision) + "," + std::to_string(T::scale) + ")";
  else static_assert(sizeof(T) == 0, "no DuckDB type for this column type yet");
}

template <class T>
std::string csv_value(std::optional<T> const& v) {
  if (!v) { return ""; }
  if constexpr (std::is_same_v<T, bool>) {
    return *v ? "true" : "false";
  } else if constexpr (std::is_same_v<T, date32>) {
    return iso_date(*v);
  } else if constexpr (dec_type<T>) {
    return decimal_digits(v->unscaled, T::scale);
  } else if constexpr (std::is_floating_point_v<T>) {
    if (*v != *v) { return "nan"; }
    if (*v == std::numeric_limits<T>::infinity()) { return "inf"; }
    if (*v == -std::numeric_limits<T>::infinity()) { return "-inf"; }
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.17g", static_cast<double>(*v));
    return buf;
  } else {
    return std::to_string(*v);
  }
}

}  // namespace colx::differential
