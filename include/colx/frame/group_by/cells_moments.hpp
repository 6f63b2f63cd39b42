// SPDX-License-Identifier: Apache-2.0
#pragma once
// Group-by cells of mean, var and std (the contract: group_by/cells.hpp).
#include <colx/frame/group_by/cells.hpp>

#include <cstdint>
#include <type_traits>

namespace colx::detail {

// var, std: sums of (x - shift) and (x - shift)^2, and the count of values when they may be null
// (else the group's row count is theirs). A cell's shift is the first value it saw; the table's
// cell takes the shift of the first cell merged into it (a compare-and-swap on a NaN), and a cell
// merged later is moved to that shift first. So every shift is a value of the group, which keeps
// s2 - s1^2 / n accurate for values far from zero, whatever row a group started with.
struct shifted_sums {
  double shift;
  double s1;
  double s2;
};
struct counted_shifted_sums {
  double shift;
  double s1;
  double s2;
  size_type n;
};
inline constexpr std::uint64_t unset_shift_bits = 0x7ff8dead00000000ull;  // a NaN no value becomes

// mean: the sum of the values (the very cell a sum of the same float64 column keeps, so the two
// share it), over the count of values; var, std: shifted sums.
template <int Statistic, class T, bool Nullable>
struct group_cell<expr::kinds::moment<Statistic>, T, Nullable> {
  static constexpr bool supported = std::is_arithmetic_v<T> || dec_type<T>;  // a decimal's are doubles, as DuckDB's
  static constexpr bool shifted = Statistic != 0;
  static constexpr bool uses_group_rows = !Nullable;
  static constexpr bool shares_sum = !shifted;
  using value_type = double;
  static constexpr bool always_valid = false;
  using sums = std::conditional_t<Nullable, counted_sum<double>, plain_sum<double>>;
  using type = std::conditional_t<shifted, std::conditional_t<Nullable, counted_shifted_sums, shifted_sums>, sums>;
  static constexpr COLX_HOST_DEVICE type identity() {
    type c{};
    if constexpr (shifted) { c.shift = colx::bit_cast<double>(unset_shift_bits); }
    return c;
  }
  static constexpr COLX_HOST_DEVICE size_type count(type const& c, size_type rows) {
    if constexpr (Nullable) {
      return c.n;
    } else {
      return rows;
    }
  }
  template <class Ctx>
  static COLX_HOST_DEVICE void add(type& c, T v, size_type, Ctx const&) {
    double const x = colx::detail::as_double(v);
    if constexpr (shifted) {
      if (colx::bit_cast<std::uint64_t>(c.shift) == unset_shift_bits) { c.shift = x; }
      double const d = x - c.shift;
      c.s1 += d;
      c.s2 += d * d;
    } else {
      c.total += x;
    }
    if constexpr (Nullable) { ++c.n; }
  }
  template <class Ctx>
  static COLX_HOST_DEVICE void merge(type* dst, type const& src, size_type src_rows, Ctx const&) {
    size_type const n = count(src, src_rows);
    if (n == 0) { return; }
    if constexpr (Nullable) { atomic_add(&dst->n, src.n); }
    if constexpr (shifted) {
      double const unset = colx::bit_cast<double>(unset_shift_bits);
      double const held = atomic_cas(&dst->shift, unset, src.shift);
      double const shift = colx::bit_cast<std::uint64_t>(held) == unset_shift_bits ? src.shift : held;
      double const delta = src.shift - shift;
      auto const dn = static_cast<double>(n);
      atomic_add(&dst->s1, src.s1 + dn * delta);
      atomic_add(&dst->s2, src.s2 + 2 * delta * src.s1 + dn * delta * delta);
    } else {
      atomic_add(&dst->total, src.total);
    }
  }
  template <class Ctx>
  static COLX_HOST_DEVICE expr::maybe<double, true> finish(type const& c, size_type rows, Ctx const&) {
    size_type const count_n = count(c, rows);
    auto const n = static_cast<double>(count_n);
    if constexpr (!shifted) {
      return expr::kinds::moment<Statistic>::statistic(count_n, c.total / n, 0.0);
    } else {
      double const m2 = count_n > 0 ? c.s2 - c.s1 * c.s1 / n : 0.0;
      return expr::kinds::moment<Statistic>::statistic(count_n, c.shift + c.s1 / n, m2);
    }
  }
};

// A decimal's mean: a double, as DuckDB's, from the exact 128-bit sum that a sum of the column
// keeps (the two share the cell) over the count of values.
template <class T, bool Nullable>
  requires dec_type<T>
struct group_cell<expr::kinds::moment<0>, T, Nullable> {
  using sum_cell = group_cell<expr::kinds::sum, T, Nullable>;
  static constexpr bool supported = true;
  static constexpr bool uses_group_rows = !Nullable;
  static constexpr bool shares_sum = true;
  using value_type = double;
  static constexpr bool always_valid = false;
  using type = typename sum_cell::type;
  static constexpr COLX_HOST_DEVICE type identity() { return sum_cell::identity(); }
  template <class Ctx>
  static COLX_HOST_DEVICE void add(type& c, T v, size_type row, Ctx const& ctx) {
    sum_cell::add(c, v, row, ctx);
  }
  template <class Ctx>
  static COLX_HOST_DEVICE void merge(type* dst, type const& src, size_type rows, Ctx const& ctx) {
    sum_cell::merge(dst, src, rows, ctx);
  }
  template <class Ctx>
  static COLX_HOST_DEVICE expr::maybe<double, true> finish(type const& c, size_type rows, Ctx const&) {
    size_type n = rows;
    if constexpr (Nullable) { n = c.n; }
    if (n == 0) { return {0.0, false}; }
    return {colx::detail::as_double(sum_cell::join(c.total)) / static_cast<double>(n), true};
  }
};

// A duration's mean: a duration of its unit, the exact 128-bit sum of the ticks over their count,
// rounded half away from zero (expr::kinds::moment<0>::mean_of, as reduce's).
template <class T, bool Nullable>
  requires duration_type<T>
struct group_cell<expr::kinds::moment<0>, T, Nullable> {
  static constexpr bool supported = true;
  static constexpr bool uses_group_rows = false;
  static constexpr bool shares_sum = false;
  using value_type = T;
  static constexpr bool always_valid = false;
  struct type {
    sum_words total;  // two 8-byte words, added with atomic_add_128
    size_type n;
  };
  static constexpr COLX_HOST_DEVICE type identity() { return type{}; }
  template <class Ctx>
  static COLX_HOST_DEVICE void add(type& c, T v, size_type, Ctx const&) {
    c.total = words_of_value(value_of_words(c.total) + v.ticks);
    ++c.n;
  }
  template <class Ctx>
  static COLX_HOST_DEVICE void merge(type* dst, type const& src, size_type, Ctx const&) {
    if (src.n == 0) { return; }
    atomic_add_128(&dst->total.lo, value_of_words(src.total));
    atomic_add(&dst->n, src.n);
  }
  template <class Ctx>
  static COLX_HOST_DEVICE expr::maybe<T, true> finish(type const& c, size_type, Ctx const&) {
    if (c.n == 0) { return {T{}, false}; }
    return {expr::kinds::moment<0>::mean_of<T>(value_of_words(c.total), c.n), true};
  }
};

}  // namespace colx::detail
