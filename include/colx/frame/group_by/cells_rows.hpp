// SPDX-License-Identifier: Apache-2.0
#pragma once
// Group-by cells that keep a row (the contract: group_by/cells.hpp): argmin and argmax, first and
// last. The value is read at the kept row when the group finishes.
#include <colx/frame/group_by/cells.hpp>

#include <type_traits>

namespace colx::detail {

// argmin/argmax: the row; values are compared by evaluating the expression at the held row.
// Ties go to the first row.
template <bool IsMin, class T, bool Nullable>
struct group_cell<expr::kinds::arg_extremum<IsMin>, T, Nullable> {
  static constexpr bool supported = !std::is_same_v<T, string_view>;
  static constexpr bool uses_group_rows = false;
  static constexpr bool shares_sum = false;
  static constexpr bool reads_rows = true;
  using value_type = size_type;
  static constexpr bool always_valid = false;
  struct type {
    size_type row;
  };
  static constexpr COLX_HOST_DEVICE type identity() { return {-1}; }
  template <class Ctx>
  static COLX_HOST_DEVICE bool wins(T v, size_type row, size_type held, Ctx const& ctx) {
    if (held < 0) { return true; }
    T const h = ctx.value_at(held).value;
    if (expr::kinds::extremum<IsMin>::template better<T>(v, h)) { return true; }
    if (expr::kinds::extremum<IsMin>::template better<T>(h, v)) { return false; }
    return row < held;
  }
  template <class Ctx>
  static COLX_HOST_DEVICE void add(type& c, T v, size_type row, Ctx const& ctx) {
    if (wins(v, row, c.row, ctx)) { c.row = row; }
  }
  template <class Ctx>
  static COLX_HOST_DEVICE void merge(type* dst, type const& src, size_type, Ctx const& ctx) {
    if (src.row < 0) { return; }
    T const v = ctx.value_at(src.row).value;
    size_type held = atomic_load(&dst->row);
    while (wins(v, src.row, held, ctx)) {
      size_type const seen = atomic_cas(&dst->row, held, src.row);
      if (seen == held) { return; }
      held = seen;
    }
  }
  template <class Ctx>
  static COLX_HOST_DEVICE expr::maybe<size_type, true> finish(type const& c, size_type, Ctx const&) {
    return {c.row, c.row >= 0};
  }
};

// min/max of strings: a string does not fit an atomic word, so the cell keeps the row of the
// best string (argmin/argmax's cell: compared at the held row, ties to the first row) and reads
// the string there when the group finishes.
template <bool IsMin, bool Nullable>
struct group_cell<expr::kinds::extremum<IsMin>, string_view, Nullable>
    : group_cell<expr::kinds::arg_extremum<IsMin>, string_view, Nullable> {
  using row_cell = group_cell<expr::kinds::arg_extremum<IsMin>, string_view, Nullable>;
  using typename row_cell::type;
  static constexpr bool supported = true;
  using value_type = string_view;
  template <class Ctx>
  static COLX_HOST_DEVICE void add(type& c, string_view v, size_type row, Ctx const& ctx) {
    if (row_cell::wins(v, row, c.row, ctx)) { c.row = row; }
  }
  template <class Ctx>
  static COLX_HOST_DEVICE expr::maybe<string_view, true> finish(type const& c, size_type, Ctx const& ctx) {
    if (c.row < 0) { return {string_view{}, false}; }
    return {ctx.value_at(c.row).value, true};
  }
};

// first/last: the smallest (largest) row with a valid value; its value is read at the end.
template <bool IsFirst, class T, bool Nullable>
struct group_cell<expr::kinds::positional<IsFirst>, T, Nullable> {
  static constexpr bool supported = true;
  static constexpr bool uses_group_rows = false;
  static constexpr bool shares_sum = false;
  static constexpr bool reads_rows = true;
  using value_type = T;
  static constexpr bool always_valid = false;
  static constexpr size_type none = IsFirst ? std::numeric_limits<size_type>::max() : -1;
  struct type {
    size_type row;
  };
  static constexpr COLX_HOST_DEVICE type identity() { return {none}; }
  template <class Ctx>
  static COLX_HOST_DEVICE void add(type& c, T, size_type row, Ctx const&) {
    if (IsFirst ? row < c.row : row > c.row) { c.row = row; }
  }
  template <class Ctx>
  static COLX_HOST_DEVICE void merge(type* dst, type const& src, size_type, Ctx const&) {
    if (src.row == none) { return; }
    if constexpr (IsFirst) {
      atomic_min(&dst->row, src.row);
    } else {
      atomic_max(&dst->row, src.row);
    }
  }
  template <class Ctx>
  static COLX_HOST_DEVICE expr::maybe<T, true> finish(type const& c, size_type, Ctx const& ctx) {
    if (c.row == none) { return {T{}, false}; }
    return {ctx.value_at(c.row).value, true};
  }
};

}  // namespace colx::detail
