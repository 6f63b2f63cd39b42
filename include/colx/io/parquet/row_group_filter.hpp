// SPDX-License-Identifier: Apache-2.0
#pragma once
// Predicate pushdown: whether any row of a row group can pass a filter written in colx's own
// expressions, judged from the group's column statistics (min, max, null count) alone. The
// answer is "no" only when the statistics prove it; everything else is "maybe", and the rows of
// groups that may pass are filtered after the read as usual. So a predicate this does not
// understand costs nothing but the skipping.
//
// Understood: a column compared with a constant (<, <=, >, >=, ==, !=, either way round), and
// && and || of such. Constants: integers against integer, date, timestamp and decimal columns
// (a decimal's scale applied exactly), a date or timestamp against a column of the same unit,
// floating-point against floating-point columns, strings against strings (byte order). A null
// never passes a comparison, so a group whose column is all null passes none. Statistics leave
// NaN out, and NaN != x holds, so != on a floating-point column is always "maybe". The spec's
// column_orders field is not read: every writer colx has met orders as the types' own order.
#include <colx/expr/expression.hpp>
#include <colx/expr/nodes.hpp>
#include <colx/expr/ops.hpp>
#include <colx/io/parquet/file_schema.hpp>
#include <colx/io/parquet/metadata.hpp>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

namespace colx::parquet {
namespace detail {

namespace ops = colx::expr::ops;
using colx::expr::binary;
using colx::expr::kleene;

// A statistic or a constant, in one of the three orders the comparisons use.
struct stat_value {
  enum kind_t { integer, real, text } kind = integer;
  int128_t i = 0;
  double d = 0;
  std::string s;
};

// -1, 0, 1; nullopt where the two are not comparable here.
inline std::optional<int> compare(stat_value const& a, stat_value const& b) {
  if (a.kind != b.kind) { return std::nullopt; }
  switch (a.kind) {
    case stat_value::integer: return a.i < b.i ? -1 : a.i > b.i ? 1 : 0;
    case stat_value::real:
      if (std::isnan(a.d) || std::isnan(b.d)) { return std::nullopt; }
      return a.d < b.d ? -1 : a.d > b.d ? 1 : 0;
    default: {
      int const c = a.s.compare(b.s);  // std::string compares as unsigned bytes
      return c < 0 ? -1 : c > 0 ? 1 : 0;
    }
  }
}

// A column's min or max statistic as a stat_value, by its colx type.
inline std::optional<stat_value> decode_statistic(leaf_column const& c, std::string const& bytes, bool legacy) {
  auto const* p = reinterpret_cast<std::uint8_t const*>(bytes.data());
  type_id const id = c.type.id();
  stat_value v;
  if (id == type_id::string) {
    if (legacy) { return std::nullopt; }  // (the deprecated statistics ordered bytes as signed)
    v.kind = stat_value::text;
    v.s = bytes;
    return v;
  }
  if (id == type_id::float32 || id == type_id::float64) {
    v.kind = stat_value::real;
    if (id == type_id::float32 && bytes.size() == 4) {
      float f = 0;
      std::memcpy(&f, p, 4);
      v.d = f;
    } else if (id == type_id::float64 && bytes.size() == 8) {
      std::memcpy(&v.d, p, 8);
    } else {
      return std::nullopt;
    }
    return v;
  }
  if (id == type_id::bool8 || c.kind == value_kind::int96_nanos) { return std::nullopt; }
  bool const is_unsigned = id == type_id::uint8 || id == type_id::uint16 || id == type_id::uint32 || id == type_id::uint64;
  if (is_unsigned && legacy) { return std::nullopt; }  // (ordered as signed by old writers)
  if (c.kind == value_kind::big_endian) {  // a decimal in a byte array: big-endian two's complement
    if (legacy || bytes.empty() || bytes.size() > 16) { return std::nullopt; }  // (legacy: ordered as bytes)
    uint128_t u = (p[0] & 0x80) ? ~uint128_t{0} : 0;
    for (std::size_t k = 0; k < bytes.size(); ++k) { u = (u << 8) | p[k]; }
    v.i = static_cast<int128_t>(u);
    return v;
  }
  if (bytes.size() == 4) {
    std::uint32_t u = 0;
    std::memcpy(&u, p, 4);
    v.i = is_unsigned ? int128_t{u} : int128_t{static_cast<std::int32_t>(u)};
  } else if (bytes.size() == 8) {
    std::uint64_t u = 0;
    std::memcpy(&u, p, 8);
    v.i = is_unsigned ? int128_t{u} : int128_t{static_cast<std::int64_t>(u)};
  } else {
    return std::nullopt;
  }
  return v;
}

// A constant of type T as a stat_value comparable with column `c`'s statistics, if it is one.
template <class E>
std::optional<stat_value> constant_for(E const& e, leaf_column const& c) {
  type_id const id = c.type.id();
  stat_value v;
  if constexpr (requires { e.chars; e.size; }) {  // a string_literal
    if (id != type_id::string) { return std::nullopt; }
    v.kind = stat_value::text;
    v.s.assign(e.chars, static_cast<std::size_t>(e.size));
    return v;
  } else if constexpr (requires { e.value; }) {
    using T = std::remove_cvref_t<decltype(e.value)>;
    if constexpr (std::is_integral_v<T> && !std::is_same_v<T, bool>) {
      bool const integer_column = id >= type_id::int8 && id <= type_id::uint64;
      if (integer_column) {
        v.i = e.value;
        return v;
      }
      if (data_type::is_decimal(id)) {  // value * 10^-scale unscaled, exactly, if it fits
        int128_t x = e.value;
        for (int k = 0; k < -c.type.scale(); ++k) {
          if (x > (int128_t{1} << 120) || x < -(int128_t{1} << 120)) { return std::nullopt; }
          x *= 10;
        }
        v.i = x;
        return v;
      }
      return std::nullopt;
    } else if constexpr (dec_type<T>) {  // a decimal constant: exactly, at the column's scale, when it has one there
      if (!data_type::is_decimal(id) || -c.type.scale() < T::scale) { return std::nullopt; }
      int128_t x = e.value.unscaled;
      for (int k = T::scale; k < -c.type.scale(); ++k) {
        if (x > (int128_t{1} << 120) || x < -(int128_t{1} << 120)) { return std::nullopt; }
        x *= 10;
      }
      v.i = x;
      return v;
    } else if constexpr (std::is_floating_point_v<T>) {
      if (id != type_id::float32 && id != type_id::float64) { return std::nullopt; }
      v.kind = stat_value::real;
      v.d = static_cast<double>(e.value);
      return v;
    } else if constexpr (requires { e.value.ticks; }) {  // a date or timestamp of the column's unit
      if constexpr (column_element<T>) {
        if (id != type_to_id<T>) { return std::nullopt; }
        v.i = static_cast<int128_t>(e.value.ticks);
        return v;
      }
      return std::nullopt;
    } else {
      return std::nullopt;
    }
  } else {
    return std::nullopt;
  }
}

template <class E>
inline constexpr bool is_comparison = false;
template <class Op, class A, class B>
inline constexpr bool is_comparison<binary<Op, A, B>> =
    std::is_same_v<Op, ops::less> || std::is_same_v<Op, ops::less_equal> || std::is_same_v<Op, ops::greater> ||
    std::is_same_v<Op, ops::greater_equal> || std::is_same_v<Op, ops::equal> || std::is_same_v<Op, ops::not_equal>;

template <class E>
struct binary_parts;
template <class Op, class A, class B>
struct binary_parts<binary<Op, A, B>> {
  using op = Op;
  using left = A;
  using right = B;
};

template <class E>
inline constexpr bool is_kleene = false;
template <bool IsAnd, class A, class B>
inline constexpr bool is_kleene<kleene<IsAnd, A, B>> = true;
template <class E>
inline constexpr bool kleene_is_and = false;
template <class A, class B>
inline constexpr bool kleene_is_and<kleene<true, A, B>> = true;

// The statistics of one row group, by column name.
struct group_statistics {
  row_group const& group;
  std::vector<leaf_column> const& columns;

  // Whether some row may have `name` Op `constant` (Op as given, the column on the left).
  template <class Op, class Constant>
  [[nodiscard]] bool may_compare(std::string_view name, Constant const& constant) const {
    for (std::size_t k = 0; k < columns.size(); ++k) {
      leaf_column const& c = columns[k];
      if (c.name != name || !c.unsupported.empty()) { continue; }
      statistics const& s = group.columns[k].stats;
      if (s.null_count && *s.null_count >= group.num_rows && group.num_rows > 0) { return false; }  // all null
      if (!s.min || !s.max) { return true; }
      auto const lo = decode_statistic(c, *s.min, s.legacy);
      auto const hi = decode_statistic(c, *s.max, s.legacy);
      auto const x = constant_for(constant, c);
      if (!lo || !hi || !x) { return true; }
      auto const lo_x = compare(*lo, *x);
      auto const hi_x = compare(*hi, *x);
      if (!lo_x || !hi_x) { return true; }
      if constexpr (std::is_same_v<Op, ops::less>) { return *lo_x < 0; }
      if constexpr (std::is_same_v<Op, ops::less_equal>) { return *lo_x <= 0; }
      if constexpr (std::is_same_v<Op, ops::greater>) { return *hi_x > 0; }
      if constexpr (std::is_same_v<Op, ops::greater_equal>) { return *hi_x >= 0; }
      if constexpr (std::is_same_v<Op, ops::equal>) { return *lo_x <= 0 && *hi_x >= 0; }
      if constexpr (std::is_same_v<Op, ops::not_equal>) {  // (statistics leave NaN out, and NaN != x)
        return lo->kind == stat_value::real || !(*lo_x == 0 && *hi_x == 0);
      }
      return true;
    }
    return true;
  }
};

// The comparison with its operands swapped: c > 5 for 5 < c.
template <class Op>
using mirrored = std::conditional_t<std::is_same_v<Op, ops::less>, ops::greater,
                 std::conditional_t<std::is_same_v<Op, ops::greater>, ops::less,
                 std::conditional_t<std::is_same_v<Op, ops::less_equal>, ops::greater_equal,
                 std::conditional_t<std::is_same_v<Op, ops::greater_equal>, ops::less_equal, Op>>>>;

}  // namespace detail

// Whether some row of the group may pass `predicate` (an unbound colx expression).
template <class E>
[[nodiscard]] bool may_pass(E const& predicate, detail::group_statistics const& stats) {
  if constexpr (detail::is_kleene<E>) {
    bool const a = may_pass(predicate.a, stats);
    if constexpr (detail::kleene_is_and<E>) { return a && may_pass(predicate.b, stats); }
    return a || may_pass(predicate.b, stats);
  } else if constexpr (detail::is_comparison<E>) {
    using parts = detail::binary_parts<E>;
    if constexpr (expr::column_ref<typename parts::left>) {  // (a right side that is no constant: "maybe")
      return stats.template may_compare<typename parts::op>(parts::left::name.view(), predicate.b);
    } else if constexpr (expr::column_ref<typename parts::right>) {
      return stats.template may_compare<detail::mirrored<typename parts::op>>(parts::right::name.view(), predicate.a);
    } else {
      return true;
    }
  } else {
    return true;
  }
}

}  // namespace colx::parquet
