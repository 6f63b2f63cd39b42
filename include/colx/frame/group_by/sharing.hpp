// SPDX-License-Identifier: Apache-2.0
#pragma once
// What a group keeps: each aggregation bound to the frame's columns (its cell from the catalogue,
// group_by/cells.hpp), and which aggregations share a cell, so that a group's cells stay small.
#include <colx/expr/aggregate.hpp>
#include <colx/expr/expression.hpp>
#include <colx/frame/group_by/cells.hpp>
#include <colx/frame/group_by/cells_moments.hpp>
#include <colx/frame/group_by/cells_rows.hpp>
#include <colx/frame/group_by/partials.hpp>

#include <array>
#include <cstddef>
#include <tuple>
#include <type_traits>
#include <utility>

namespace colx::detail {

// What a cell's operations may ask about the group's other rows (Fn: group_by/table.hpp's).
template <class Fn, std::size_t K>
struct aggregation_context {
  Fn const* fn;
  COLX_HOST_DEVICE auto value_at(size_type row) const { return get<K>(fn->aggs).expr(fn->in, row); }
  template <class T>
  COLX_HOST_DEVICE bool first_of_pair(T const& v, size_type row) const {
    return fn->template first_of_pair<K>(v, row);
  }
};

template <class Agg, class Inputs>
struct bound_aggregation_traits;
template <class Kind, class E, class Inputs>
struct bound_aggregation_traits<expr::aggregation<Kind, E>, Inputs> {
  using result = expr::result_t<E, Inputs>;
  using value_type = typename result::value_type;
  using expr_type = E;
  using cell = group_cell<Kind, value_type, result::nullable>;
  static constexpr bool counts_nulls = [] {
    if constexpr (requires { Kind::counts_nulls; }) {
      return Kind::counts_nulls;
    } else {
      return false;
    }
  }();
  static constexpr bool output_nullable =
      !cell::always_valid && (result::nullable || std::is_same_v<Kind, expr::kinds::moment<1>> ||
                              std::is_same_v<Kind, expr::kinds::moment<2>>);
};

// Aggregations share what they keep, so that a group's cells stay small (the few-groups pass
// holds several groups' cells per thread, and the many-groups table is read at random): the
// group's row count is kept once for all that need it (count(), and means and variances of
// never-null values), and a sum of a column once for every aggregation keeping that very sum
// (sum("x") and mean("x") of a float64 column). TPC-H Q1's eight aggregations then keep five sums
// (two of them with a count of their values) and a row count: 104 bytes a group instead of 136.
struct group_row_count {
  size_type n;
};
template <class... Traits>
struct cell_sharing {
  static constexpr std::size_t size = sizeof...(Traits);
  static constexpr bool group_rows = (Traits::cell::uses_group_rows || ...);
  template <std::size_t K>
  using traits = std::tuple_element_t<K, std::tuple<Traits...>>;

  // Whether aggregation K may read J's cell: both keep the same sum of the same column. (Only of
  // a bound column itself: an expression's type does not show the constants it holds, so
  // sum(like(s, "%a%")) and sum(like(s, "%b%")) have one type.)
  template <std::size_t J, std::size_t K>
  static constexpr bool same_sum() {
    using a = traits<J>;
    using b = traits<K>;
    if constexpr (a::cell::shares_sum && b::cell::shares_sum && expr::is_bound_column<typename a::expr_type>) {
      return std::is_same_v<typename a::cell::type, typename b::cell::type> &&
             std::is_same_v<typename a::expr_type, typename b::expr_type>;
    } else {
      return false;
    }
  }
  // The aggregation whose cell K reads: the first with the same sum, else K; -1 for none.
  template <std::size_t K>
  static constexpr int owner_of() {
    if constexpr (std::is_same_v<typename traits<K>::cell::type, no_storage>) {
      return -1;
    } else {
      return []<std::size_t... J>(std::index_sequence<J...>) {
        int owner = static_cast<int>(K);
        (void)((same_sum<J, K>() ? (owner = static_cast<int>(J), true) : false) || ...);
        return owner;
      }(std::make_index_sequence<K>{});
    }
  }
  static constexpr std::array<int, size> owner = []<std::size_t... K>(std::index_sequence<K...>) {
    return std::array<int, size>{owner_of<K>()...};
  }(std::index_sequence_for<Traits...>{});
  static constexpr std::size_t kept = [] {
    std::size_t n = 0;
    for (std::size_t k = 0; k < size; ++k) { n += owner[k] == static_cast<int>(k) ? 1 : 0; }
    return n;
  }();
  // The cells: the row count first when kept, then the cell of each aggregation that keeps one.
  static constexpr std::array<std::size_t, kept> keepers = [] {
    std::array<std::size_t, kept> out{};
    std::size_t m = 0;
    for (std::size_t k = 0; k < size; ++k) {
      if (owner[k] == static_cast<int>(k)) { out[m++] = k; }
    }
    return out;
  }();
  // Where in the cells aggregation K's cell is; -1 for none.
  static constexpr std::array<int, size> place = [] {
    std::array<int, size> out{};
    int next = group_rows ? 1 : 0;
    for (std::size_t k = 0; k < size; ++k) { out[k] = owner[k] < 0 ? -1 : owner[k] == static_cast<int>(k) ? next++ : out[owner[k]]; }
    return out;
  }();
  // The same, read in device code without calling std::array's (host) operator[] there.
  template <std::size_t K>
  static constexpr int owner_v = owner[K];
  template <std::size_t K>
  static constexpr int place_v = place[K];
  template <std::size_t M>
  static constexpr std::size_t keeper_v = keepers[M];
  template <std::size_t... M>
  static auto cells_of(std::index_sequence<M...>)
      -> std::conditional_t<group_rows, tuple<group_row_count, typename traits<keeper_v<M>>::cell::type...>,
                            tuple<typename traits<keeper_v<M>>::cell::type...>>;
  using cells = decltype(cells_of(std::make_index_sequence<kept>{}));
  template <std::size_t... M>
  static constexpr COLX_HOST_DEVICE cells identity(std::index_sequence<M...>) {
    if constexpr (group_rows) {
      return cells(group_row_count{0}, traits<keeper_v<M>>::cell::identity()...);
    } else {
      return cells(traits<keeper_v<M>>::cell::identity()...);
    }
  }
  // The threads' private cells (group_by/partials.hpp): aggregation K's narrow form, then the
  // same tuple as `cells` with each part narrowed, and its widening back.
  template <std::size_t K>
  using partial_for = cell_partial<typename traits<K>::cell, typename traits<K>::value_type>;
  template <std::size_t... M>
  static auto partials_of(std::index_sequence<M...>)
      -> std::conditional_t<group_rows, tuple<narrow_row_count, typename partial_for<keeper_v<M>>::type...>,
                            tuple<typename partial_for<keeper_v<M>>::type...>>;
  using partials = decltype(partials_of(std::make_index_sequence<kept>{}));
  template <std::size_t... M>
  static constexpr COLX_HOST_DEVICE partials partial_identity(std::index_sequence<M...>) {
    if constexpr (group_rows) {
      return partials(narrow_row_count{0}, partial_for<keeper_v<M>>::identity()...);
    } else {
      return partials(partial_for<keeper_v<M>>::identity()...);
    }
  }
  template <std::size_t... M>
  static constexpr COLX_HOST_DEVICE cells widen(partials const& p, std::index_sequence<M...>) {
    if constexpr (group_rows) {
      return cells(group_row_count{static_cast<size_type>(get<0>(p).n)}, partial_for<keeper_v<M>>::widen(get<M + 1>(p))...);
    } else {
      return cells(partial_for<keeper_v<M>>::widen(get<M>(p))...);
    }
  }
  static constexpr COLX_HOST_DEVICE size_type rows(cells const& c) {
    if constexpr (group_rows) {
      return get<0>(c).n;
    } else {
      (void)c;
      return 0;
    }
  }
};

}  // namespace colx::detail
