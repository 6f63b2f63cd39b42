// SPDX-License-Identifier: Apache-2.0
#pragma once
// Test columns from host values and back: the standard list of sizes, columns of optionals on the
// backend under test, random values with nulls, and a row-by-row check that names the first
// mismatch. Shared by the expression and frame tests.
#include "support/backend.hpp"

#include <catch2/catch.hpp>

#include <cmath>
#include <cstdint>
#include <optional>
#include <random>
#include <sstream>
#include <string>
#include <type_traits>
#include <vector>

namespace colx::test {

template <class T>
using optionals = std::vector<std::optional<T>>;
using strings = std::vector<std::optional<std::string>>;

// Empty, one row, around a 32-row mask word (a GPU warp's tile), around a 256-thread block, and
// sizes that leave partial words and, at 100003, span several host chunks (2^14) and run the host
// backend in parallel (from 2^15 rows).
inline constexpr size_type sizes[] = {0, 1, 31, 32, 33, 255, 256, 257, 1000, 4097, 100003};

template <class T>
column<T> column_of(optionals<T> const& v) {
  return make_column<T>(v, {}, backend_resource());
}
template <class T>
column<T> column_of(std::vector<T> const& v) {
  return make_column<T>(v, {}, backend_resource());
}
inline strings_column strings_of(strings const& v, type_id offsets = type_id::int32) {
  return make_strings_column(v, offsets, {}, backend_resource());
}

// A column's rows as optionals on the host.
template <class C>
auto rows(C const& column) {
  return to_optional_vector(column.view());
}

template <class T>
std::string show(std::optional<T> const& v) {
  if (!v) { return "null"; }
  std::ostringstream out;
  if constexpr (requires { v->ticks; }) {
    out << v->ticks << " ticks";
  } else if constexpr (sizeof(T) == 1) {
    out << static_cast<int>(*v);
  } else {
    out.precision(17);
    out << *v;
  }
  return out.str();
}

// Equality that also holds between two NaNs.
struct same_value {
  template <class T>
  bool operator()(T a, T b) const {
    if constexpr (std::is_floating_point_v<T>) {
      if (std::isnan(a) || std::isnan(b)) { return std::isnan(a) && std::isnan(b); }
    }
    return a == b;
  }
};

// At most `ulps` representable values apart (NaN matches NaN, infinities match exactly). The
// CUDA math library documents its double exp and log within 1 ulp and pow within 2 of the exact
// result, glibc's within 1: 4 ulps covers both sides.
struct within_ulps {
  int ulps = 4;
  template <class T>
  bool operator()(T a, T b) const {
    if (std::isnan(a) || std::isnan(b)) { return std::isnan(a) && std::isnan(b); }
    if (std::isinf(a) || std::isinf(b) || a == b) { return a == b; }
    T x = a;
    for (int i = 0; i < ulps; ++i) { x = std::nextafter(x, b); }
    return a < b ? x >= b : x <= b;
  }
};

// Checks every row (validity and value) and reports the first mismatch; one assertion per
// column, however long.
template <class T, class Eq = same_value>
void check_rows(optionals<T> const& got, optionals<T> const& want, Eq eq = {}) {
  REQUIRE(got.size() == want.size());
  std::size_t bad = 0;
  std::string first;
  for (std::size_t i = 0; i < got.size(); ++i) {
    bool const ok = got[i].has_value() == want[i].has_value() && (!got[i] || eq(*got[i], *want[i]));
    if (!ok && bad++ == 0) { first = "row " + std::to_string(i) + ": got " + show(got[i]) + ", want " + show(want[i]); }
  }
  INFO(bad << " of " << got.size() << " rows differ; first " << first);
  CHECK(bad == 0);
}

// Random values in [lo, hi], each null with probability `nulls`.
template <class T>
optionals<T> random_optionals(std::size_t n, std::uint64_t seed, double nulls, T lo, T hi) {
  std::mt19937_64 gen(seed);
  std::bernoulli_distribution is_null(nulls);
  optionals<T> out(n);
  for (auto& v : out) {
    if constexpr (std::is_floating_point_v<T>) {
      T const x = std::uniform_real_distribution<T>(lo, hi)(gen);
      if (!is_null(gen)) { v = x; }
    } else if constexpr (std::is_same_v<T, bool>) {
      bool const x = std::bernoulli_distribution(0.5)(gen);
      if (!is_null(gen)) { v = x; }
    } else {
      T const x = static_cast<T>(std::uniform_int_distribution<std::int64_t>(lo, hi)(gen));
      if (!is_null(gen)) { v = x; }
    }
  }
  return out;
}

// The values alone, a null as `fill`: for never-null columns.
template <class T>
std::vector<T> dense(optionals<T> const& v, T fill = T{}) {
  std::vector<T> out(v.size());
  for (std::size_t i = 0; i < v.size(); ++i) { out[i] = v[i].value_or(fill); }
  return out;
}

// Whether the field a column reference C names in a frame's schema may be null, and whether it
// holds T. Through deduction, so that nvcc never has to spell a type holding a column reference
// made by "x"_c, such as a derived frame's (see the note on nvcc at the end of with_columns_test).
template <class Frame, class C>
constexpr bool nullable_field(Frame const&, C) {
  using schema = typename Frame::schema_type;
  return schema::template field_at<schema::template index_of<C>>::is_nullable;
}
template <class T, class Frame, class C>
constexpr bool field_is(Frame const&, C) {
  using schema = typename Frame::schema_type;
  return std::is_same_v<typename schema::template field_at<schema::template index_of<C>>::type, T>;
}

}  // namespace colx::test
