// SPDX-License-Identifier: Apache-2.0
#pragma once
// Group-by accumulators: the catalogue of expr/aggregate.hpp in the form a hash table merges with
// atomics (this file, group_by/cells_moments.hpp for mean, var and std, group_by/cells_rows.hpp
// for the cells that keep a row). For each aggregation kind: the cell one group keeps in the table,
// how a row is added to a cell held privately (a thread's cache; group_by/partials.hpp gives the
// narrow form some cells take there), how a private cell is merged into
// the shared table with atomics, and how a cell finishes into the output value.
//
// Merges must commute, since threads flush in any order. That rules out Welford's update for
// var/std; instead a group's values are summed relative to a shift (see shifted_sums). The
// context `ctx` gives ctx.value_at(row): the aggregation's expression at any row; and for
// nunique ctx.first_of_pair(v, row): whether row's (group, value v) pair is new to the whole pass.
//
// A cell provides: type (its storage; no_storage when the group's row count is all it needs),
// uses_group_rows (whether it reads the group's row count, which the table keeps once for every
// aggregation: the rows that reached add), shares_sum (whether its storage is a sum of the values,
// and their count when nullable, that another aggregation of the same column keeping the same
// type may share), reads_rows (only where true: whether add reads its row argument, the row's
// position in the input), identity(), add(c, v, row, ctx), merge(dst, src, src_rows, ctx) and
// finish(c, rows, ctx), where src_rows and rows are the group's row counts (0 when no cell uses
// them).
#include <colx/core/bit_cast.hpp>
#include <colx/exec/atomics.hpp>
#include <colx/exec/row_keys.hpp>
#include <colx/expr/aggregate.hpp>
#include <colx/expr/maybe.hpp>

#include <cmath>
#include <limits>
#include <type_traits>

namespace colx::detail {

struct no_storage {};

// Nullable: whether the aggregated expression can be null (a sum of a never-null expression
// needs no count: every group has at least one row). The primary template is an unsupported
// aggregation: it only carries what lets the caller's static_assert be the one error shown.
template <class Kind, class T, bool Nullable>
struct group_cell {
  static constexpr bool supported = false;
  static constexpr bool uses_group_rows = false;
  static constexpr bool shares_sum = false;
  static constexpr bool always_valid = true;
  using value_type = T;
  using type = no_storage;
  static constexpr COLX_HOST_DEVICE type identity() { return {}; }
  template <class Ctx>
  static COLX_HOST_DEVICE void add(type&, T const&, size_type, Ctx const&) {}
  template <class Ctx>
  static COLX_HOST_DEVICE void merge(type*, type const&, size_type, Ctx const&) {}
  template <class Ctx>
  static COLX_HOST_DEVICE expr::maybe<T, false> finish(type const&, size_type, Ctx const&) {
    return expr::make_maybe<false>(T{}, true);
  }
};

template <class Acc>
struct counted_sum {
  Acc total;
  size_type n;
};
template <class Acc>
struct plain_sum {
  Acc total;
};

template <class T, bool Nullable>
struct group_cell<expr::kinds::sum, T, Nullable> {
  static constexpr bool supported = std::is_arithmetic_v<T>;
  using acc = expr::kinds::sum_t<T>;
  using value_type = acc;
  static constexpr bool always_valid = false;  // a group whose values are all null sums to null
  static constexpr bool uses_group_rows = false;
  static constexpr bool shares_sum = true;
  using type = std::conditional_t<Nullable, counted_sum<acc>, plain_sum<acc>>;
  static constexpr COLX_HOST_DEVICE type identity() { return type{}; }
  template <class Ctx>
  static COLX_HOST_DEVICE void add(type& c, T v, size_type, Ctx const&) {
    c.total = expr::kinds::sum::plus(c.total, static_cast<acc>(v));
    if constexpr (Nullable) { ++c.n; }
  }
  template <class Ctx>
  static COLX_HOST_DEVICE void merge(type* dst, type const& src, size_type, Ctx const&) {
    atomic_add(&dst->total, src.total);
    if constexpr (Nullable) { atomic_add(&dst->n, src.n); }
  }
  template <class Ctx>
  static COLX_HOST_DEVICE expr::maybe<acc, true> finish(type const& c, size_type, Ctx const&) {
    if constexpr (Nullable) {
      return {c.total, c.n > 0};
    } else {
      return {c.total, true};
    }
  }
};

// A duration sums to a duration of its unit: its ticks in the integer cell, wrapping as integers.
template <class T, bool Nullable>
  requires duration_type<T>
struct group_cell<expr::kinds::sum, T, Nullable> {
  using ticks_cell = group_cell<expr::kinds::sum, typename T::rep, Nullable>;
  static constexpr bool supported = true;
  using acc = T;
  using value_type = T;
  static constexpr bool always_valid = false;
  static constexpr bool uses_group_rows = false;
  static constexpr bool shares_sum = false;  // a mean of the column keeps no integer sum to share
  using type = typename ticks_cell::type;
  static constexpr COLX_HOST_DEVICE type identity() { return ticks_cell::identity(); }
  template <class Ctx>
  static COLX_HOST_DEVICE void add(type& c, T v, size_type row, Ctx const& ctx) {
    ticks_cell::add(c, v.ticks, row, ctx);
  }
  template <class Ctx>
  static COLX_HOST_DEVICE void merge(type* dst, type const& src, size_type rows, Ctx const& ctx) {
    ticks_cell::merge(dst, src, rows, ctx);
  }
  template <class Ctx>
  static COLX_HOST_DEVICE expr::maybe<acc, true> finish(type const& c, size_type rows, Ctx const& ctx) {
    auto const ticks = ticks_cell::finish(c, rows, ctx);
    return {T(static_cast<typename T::rep>(ticks.value)), ticks.valid};
  }
};

// A decimal sums to DEC(38, S) in 128 bits, kept as two 8-byte words so that a group's cells stay
// 8-byte aligned behind the slot's one-word header; merges add them with atomic_add_128. The
// count of valid values is kept only where values may be null (a never-null column's groups all
// have values). A mean of the same column keeps this very cell (group_by/cells_moments.hpp):
// TPC-H Q1's eight aggregations of DECIMAL(15,2) columns keep 104 bytes a group, not 136 (in a
// thread's cache, narrow, 64: group_by/partials.hpp).
struct sum_words {
  unsigned long long lo;
  unsigned long long hi;
};
constexpr COLX_HOST_DEVICE int128_t value_of_words(sum_words w) {
  return static_cast<int128_t>((static_cast<uint128_t>(w.hi) << 64) | w.lo);
}
constexpr COLX_HOST_DEVICE sum_words words_of_value(int128_t v) {
  auto const u = static_cast<uint128_t>(v);
  return {static_cast<unsigned long long>(u), static_cast<unsigned long long>(u >> 64)};
}
struct decimal_sum {
  sum_words total;
};
struct counted_decimal_sum {
  sum_words total;
  size_type n;  // valid values, for a nullable column's all-null groups
};
template <class T, bool Nullable>
  requires dec_type<T>
struct group_cell<expr::kinds::sum, T, Nullable> {
  static constexpr bool supported = true;
  using acc = expr::kinds::sum_t<T>;
  using value_type = acc;
  static constexpr bool always_valid = false;
  static constexpr bool uses_group_rows = false;
  static constexpr bool shares_sum = true;  // with a mean of the column
  using type = std::conditional_t<Nullable, counted_decimal_sum, decimal_sum>;
  static constexpr COLX_HOST_DEVICE type identity() { return type{}; }
  static constexpr COLX_HOST_DEVICE acc join(sum_words w) { return acc{value_of_words(w)}; }
  static constexpr COLX_HOST_DEVICE sum_words split(acc a) { return words_of_value(a.unscaled); }
  template <class Ctx>
  static COLX_HOST_DEVICE void add(type& c, T v, size_type, Ctx const&) {
    c.total = split(expr::kinds::sum::plus(join(c.total), expr::kinds::sum::widen(v)));
    if constexpr (Nullable) { ++c.n; }
  }
  template <class Ctx>
  static COLX_HOST_DEVICE void merge(type* dst, type const& src, size_type, Ctx const&) {
    atomic_add_128(&dst->total.lo, join(src.total).unscaled);
    if constexpr (Nullable) { atomic_add(&dst->n, src.n); }
  }
  template <class Ctx>
  static COLX_HOST_DEVICE expr::maybe<acc, true> finish(type const& c, size_type, Ctx const&) {
    if constexpr (Nullable) {
      return {join(c.total), c.n > 0};
    } else {
      return {join(c.total), true};
    }
  }
};

// The starting value of a min (max): the largest (smallest) value, NaN for floats (any number
// beats NaN, and a group of NaNs stays NaN).
template <class T, bool IsMin>
constexpr T extremum_identity() {
  using R = decltype(raw_value(T{}));
  if constexpr (std::is_floating_point_v<T>) {
    return std::numeric_limits<T>::quiet_NaN();
  } else if constexpr (std::is_same_v<T, bool>) {
    return IsMin;
  } else {
    R const r = IsMin ? std::numeric_limits<R>::max() : std::numeric_limits<R>::lowest();
    if constexpr (std::is_same_v<R, T>) {
      return r;
    } else {
      return T(r);
    }
  }
}

template <bool IsMin, class T, bool Nullable>
struct group_cell<expr::kinds::extremum<IsMin>, T, Nullable> {
  // Cells are 4- or 8-byte words so they can be compared and swapped atomically.
  using word = std::conditional_t<(sizeof(T) == 4 || sizeof(T) == 8), T, std::int64_t>;
  static constexpr bool supported = sizeof(T) <= 8 && !std::is_same_v<T, string_view>;
  static constexpr bool uses_group_rows = false;
  static constexpr bool shares_sum = false;
  using value_type = T;
  static constexpr bool always_valid = false;
  static constexpr word start = static_cast<word>(extremum_identity<T, IsMin>());
  struct type {
    word value;
    unsigned any;
  };
  static constexpr COLX_HOST_DEVICE type identity() { return {start, 0u}; }
  static constexpr COLX_HOST_DEVICE word pick(word held, word v) {
    return expr::kinds::extremum<IsMin>::template better<T>(static_cast<T>(v), static_cast<T>(held)) ? v : held;
  }
  template <class Ctx>
  static COLX_HOST_DEVICE void add(type& c, T v, size_type, Ctx const&) {
    c.value = pick(c.value, static_cast<word>(v));
    c.any = 1u;
  }
  template <class Ctx>
  static COLX_HOST_DEVICE void merge(type* dst, type const& src, size_type, Ctx const&) {
    if (src.any == 0u) { return; }
    if constexpr (atomic_integer<T>) {  // (integers of 4 or 8 bytes: word is T, ordered as T)
      if constexpr (IsMin) {
        atomic_min(&dst->value, src.value);
      } else {
        atomic_max(&dst->value, src.value);
      }
    } else {
      atomic_update(&dst->value, src.value, [](word held, word v) { return pick(held, v); });
    }
    atomic_or(&dst->any, 1u);
  }
  template <class Ctx>
  static COLX_HOST_DEVICE expr::maybe<T, true> finish(type const& c, size_type, Ctx const&) {
    return {static_cast<T>(c.value), c.any != 0u};
  }
};

// count() counts every row, and count_valid of a never-null value as much: both are the group's
// row count and keep nothing of their own.
template <bool CountNulls, class T, bool Nullable>
struct group_cell<expr::kinds::count<CountNulls>, T, Nullable> {
  static constexpr bool supported = true;
  static constexpr bool uses_group_rows = CountNulls || !Nullable;
  static constexpr bool shares_sum = false;
  using value_type = size_type;
  static constexpr bool always_valid = true;
  struct counter {
    size_type n;
  };
  using type = std::conditional_t<uses_group_rows, no_storage, counter>;
  static constexpr COLX_HOST_DEVICE type identity() { return type{}; }
  template <class Ctx>
  static COLX_HOST_DEVICE void add(type& c, T const&, size_type, Ctx const&) {
    if constexpr (!uses_group_rows) { ++c.n; }
  }
  template <class Ctx>
  static COLX_HOST_DEVICE void merge(type* dst, type const& src, size_type, Ctx const&) {
    if constexpr (!uses_group_rows) { atomic_add(&dst->n, src.n); }
  }
  template <class Ctx>
  static COLX_HOST_DEVICE expr::maybe<size_type, false> finish(type const& c, size_type rows, Ctx const&) {
    if constexpr (uses_group_rows) {
      return expr::make_maybe<false>(rows, true);
    } else {
      return expr::make_maybe<false>(c.n, true);
    }
  }
};

// nunique: the number of the group's distinct values. No cell can hold a set of values, so the
// table keeps one set of (group, value) pairs for the whole aggregation
// (group_table_fn::first_of_pair), into which add inserts its row's pair at once: exactly one
// row of each pair, whichever thread or cache adds it, finds it new and counts, and the counts
// then merge by adding. Only valid values reach add, so nulls are not counted.
template <class T, bool Nullable>
struct group_cell<expr::kinds::distinct_count, T, Nullable> {
  static constexpr bool supported = true;  // every type a group-by key may have
  static constexpr bool uses_group_rows = false;
  static constexpr bool shares_sum = false;
  static constexpr bool reads_rows = true;  // its pair is found by the row's keys and value
  using value_type = size_type;
  static constexpr bool always_valid = true;
  struct type {
    size_type n;
  };
  static constexpr COLX_HOST_DEVICE type identity() { return {0}; }
  template <class Ctx>
  static COLX_HOST_DEVICE void add(type& c, T const& v, size_type row, Ctx const& ctx) {
    if (ctx.first_of_pair(v, row)) { ++c.n; }
  }
  template <class Ctx>
  static COLX_HOST_DEVICE void merge(type* dst, type const& src, size_type, Ctx const&) {
    if (src.n != 0) { atomic_add(&dst->n, src.n); }
  }
  template <class Ctx>
  static COLX_HOST_DEVICE expr::maybe<size_type, false> finish(type const& c, size_type, Ctx const&) {
    return expr::make_maybe<false>(c.n, true);
  }
};

template <bool IsAny, class T, bool Nullable>
struct group_cell<expr::kinds::boolean<IsAny>, T, Nullable> {
  static constexpr bool supported = !std::is_same_v<T, string_view>;
  static constexpr bool uses_group_rows = false;
  static constexpr bool shares_sum = false;
  using value_type = bool;
  static constexpr bool always_valid = true;
  struct type {
    unsigned value;
  };
  static constexpr COLX_HOST_DEVICE type identity() { return {IsAny ? 0u : 1u}; }
  template <class Ctx>
  static COLX_HOST_DEVICE void add(type& c, T v, size_type, Ctx const&) {
    unsigned const b = static_cast<bool>(v) ? 1u : 0u;
    c.value = IsAny ? (c.value | b) : (c.value & b);
  }
  template <class Ctx>
  static COLX_HOST_DEVICE void merge(type* dst, type const& src, size_type, Ctx const&) {
    if constexpr (IsAny) {
      if (src.value != 0u) { atomic_or(&dst->value, 1u); }
    } else {
      if (src.value == 0u) { atomic_and(&dst->value, 0u); }
    }
  }
  template <class Ctx>
  static COLX_HOST_DEVICE expr::maybe<bool, false> finish(type const& c, size_type, Ctx const&) {
    return expr::make_maybe<false>(c.value != 0u, true);
  }
};

}  // namespace colx::detail
