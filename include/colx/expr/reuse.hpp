// SPDX-License-Identifier: Apache-2.0
#pragma once
// Aggregations that share a part compute it once a row: TPC-H Q1 sums price * (1 - discount)
// and price * (1 - discount) * (1 + tax), and computed twice the checked decimal product cost
// about a tenth of the kernel's instructions. The compiler cannot merge the two itself: each
// expression holds its own constant 1, and it cannot know that they are equal.
//
// When a group-by's aggregations are bound (share_parts), each part of aggregation K's expression
// whose type is that of another aggregation J's expression (a smaller part, or all of K's where J
// comes first) becomes reused<J, ...>. It reads J's value of the row where the row loop gives it
// (inputs_with_values; the loop computes J first), and computes the part itself where it is not
// given (another row's value, read by argmax or nunique) or where its constants differ from J's
// (x * 2 and x * 3 have one type). That choice, made in each part and never taken in Q1, costs
// Q1's kernel 4% of its instructions (569M, against 545M with no choice and 575M with nothing
// shared); made once a row for all parts, with the aggregations' code written out twice, the
// kernel took 1.107 ms instead of 0.841 (H200).
#include <colx/core/tuple.hpp>
#include <colx/expr/aggregate.hpp>
#include <colx/expr/expression.hpp>

#include <array>
#include <cstddef>
#include <cstring>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

namespace colx::expr {

// Whether two bound expressions of one type compute the same values: the same bytes, padding
// aside (a column the same position, a constant the same bits). Bytes that differ where the
// values do not (-0.0 and 0.0) only lose the sharing.
template <class E>
[[nodiscard]] bool same_bytes(E a, E b) {
  static_assert(std::is_trivially_copyable_v<E>, "colx: a bound expression is a kernel argument, trivially copyable");
#if defined(__has_builtin)
#  if __has_builtin(__builtin_clear_padding)
  __builtin_clear_padding(&a);
  __builtin_clear_padding(&b);
#  endif
#endif
  return std::memcmp(&a, &b, sizeof(E)) == 0;
}

// A kernel's inputs with the values of the row's aggregations computed so far: the tuple the row
// loop fills (group_table_fn::read_values, in evaluation_order_t).
template <class Inputs, class Values>
struct inputs_with_values {
  Inputs const& in;
  Values const& values;
};
template <std::size_t I, class Inputs, class Values>
[[nodiscard]] COLX_HOST_DEVICE auto const& get(inputs_with_values<Inputs, Values> const& w) noexcept {
  return get<I>(w.in);
}
template <class Inputs>
inline constexpr bool gives_values = false;
template <class Inputs, class Values>
inline constexpr bool gives_values<inputs_with_values<Inputs, Values>> = true;

// A part of an expression equal in type to aggregation J's expression (see above). `same`: its
// bytes are those of J's expression, so J's value is its value.
template <std::size_t J, class E>
struct reused : node<reused<J, E>> {
  static constexpr std::size_t source = J;
  E original;
  bool same = false;
  template <class Inputs>
  [[nodiscard]] COLX_HOST_DEVICE auto operator()(Inputs const& in, size_type i) const {
    if constexpr (gives_values<Inputs>) {
      if (same) { return get<J>(in.values); }
    }
    return original(in, i);  // a smaller part inside may still be read
  }
  template <class F>
  [[nodiscard]] auto map(F f) const {
    return reused<J, decltype(f(original))>{{}, f(original), same};
  }
  [[nodiscard]] std::string to_string() const { return original.to_string(); }
};

namespace detail {

template <class E>
inline constexpr bool is_reused = false;
template <std::size_t J, class E>
inline constexpr bool is_reused<reused<J, E>> = true;

// Rewrites an expression: each part of type T (aggregation J's expression, `source`) becomes
// reused<J, T>.
template <std::size_t J, class T>
struct reuse_fn {
  T const* source;
  template <class E>
  [[nodiscard]] auto operator()(E const& e) const {
    if constexpr (std::is_same_v<E, T>) {
      return reused<J, E>{{}, e, same_bytes(e, *source)};
    } else if constexpr (interior_node<E>) {
      return e.map(*this);
    } else {
      return e;
    }
  }
};

// Whether aggregation J's expression is worth sharing (computed, not a column or a constant) and
// has the type of a part of E: its rewrite changes E's type.
template <class T, class E>
inline constexpr bool reusable_in =
    interior_node<T> && !std::is_same_v<decltype(reuse_fn<0, T>{nullptr}(std::declval<E const&>())), E>;

template <std::size_t J, class... Aggs>
using expr_of_t = decltype(std::tuple_element_t<J, std::tuple<Aggs...>>::expr);
// Whether aggregation J's expression is a proper part of K's (a part of another type).
template <std::size_t J, std::size_t K, class... Aggs>
inline constexpr bool proper_part =
    !std::is_same_v<expr_of_t<J, Aggs...>, expr_of_t<K, Aggs...>> && reusable_in<expr_of_t<J, Aggs...>, expr_of_t<K, Aggs...>>;
// Whether aggregation K reads J's value: J's expression is a proper part of K's, or has K's type
// and comes first. (sum(if_else(c, v, 0)) beside sum(v) reads v's sum's value, in either order.)
template <std::size_t J, std::size_t K, class... Aggs>
inline constexpr bool reads_from =
    proper_part<J, K, Aggs...> ||
    (J < K && std::is_same_v<expr_of_t<J, Aggs...>, expr_of_t<K, Aggs...>> && interior_node<expr_of_t<J, Aggs...>>);

// Of aggregation J, how many aggregations' expressions are proper parts of its own: a part ranks
// below every expression it is part of (whose parts include its parts, and itself).
template <std::size_t J, class... Aggs, std::size_t... I>
constexpr std::size_t rank_of(std::index_sequence<I...>) {
  return (std::size_t{0} + ... + std::size_t{proper_part<I, J, Aggs...>});
}

// Aggregation indices, n of them.
template <std::size_t N>
struct index_list {
  std::size_t n = 0;
  std::size_t at[N + 1] = {};
};

// The aggregations K reads, in the order K's expression is rewritten: a part before the parts
// inside it (the higher rank first), so that the largest is read where its constants are K's,
// and a smaller one inside it where they are not (reused then evaluates its original, itself
// rewritten). Of parts alike, the later first.
template <std::size_t K, class... Aggs, std::size_t... J>
constexpr index_list<sizeof...(Aggs)> sources_of(std::index_sequence<J...>) {
  constexpr std::size_t n = sizeof...(Aggs);
  bool left[n + 1] = {reads_from<J, K, Aggs...>..., false};
  std::size_t const rank[n + 1] = {rank_of<J, Aggs...>(std::make_index_sequence<n>{})..., 0};
  index_list<n> out;
  while (true) {
    std::size_t best = n;
    for (std::size_t j = 0; j != n; ++j) {
      if (left[j] && (best == n || rank[j] >= rank[best])) { best = j; }
    }
    if (best == n) { return out; }
    out.at[out.n++] = best;
    left[best] = false;
  }
}

// K's expression rewritten with the parts from the M-th in its order on.
template <std::size_t K, std::size_t M, class E, class... Aggs>
[[nodiscard]] auto reuse_parts(E const& e, tuple<Aggs...> const& aggs) {
  constexpr index_list<sizeof...(Aggs)> sources = sources_of<K, Aggs...>(std::index_sequence_for<Aggs...>{});
  if constexpr (M == sources.n) {
    return e;
  } else {
    constexpr std::size_t j = sources.at[M];
    auto const& source = colx::get<j>(aggs).expr;
    return reuse_parts<K, M + 1>(reuse_fn<j, std::remove_cvref_t<decltype(source)>>{&source}(e), aggs);
  }
}

template <std::size_t K, class... Aggs>
[[nodiscard]] auto share_one(tuple<Aggs...> const& aggs) {
  auto const& agg = colx::get<K>(aggs);
  return agg.map([&](auto const& e) { return reuse_parts<K, 0>(e, aggs); });
}

struct collect_reuses_fn;
// The (J, same) of each reused part of e, and of those inside a part whose constants differ.
template <class E>
void collect_reuses(E const& e, std::vector<std::pair<std::size_t, bool>>& out);
struct collect_reuses_fn {
  std::vector<std::pair<std::size_t, bool>>* out;
  template <class E>
  E operator()(E const& e) const {
    collect_reuses(e, *out);
    return e;
  }
};
template <class E>
void collect_reuses(E const& e, std::vector<std::pair<std::size_t, bool>>& out) {
  if constexpr (is_reused<E>) {
    out.emplace_back(E::source, e.same);
    if (!e.same) { collect_reuses(e.original, out); }
  } else if constexpr (interior_node<E>) {
    (void)e.map(collect_reuses_fn{&out});
  }
}

}  // namespace detail

// Bound aggregations with the parts they share marked (see above).
template <class... Aggs>
[[nodiscard]] auto share_parts(tuple<Aggs...> const& aggs) {
  return [&]<std::size_t... K>(std::index_sequence<K...>) { return tuple(detail::share_one<K>(aggs)...); }(
      std::index_sequence_for<Aggs...>{});
}

namespace detail {

// Whether expression E (shared) reads aggregation J's value: a reused<J, ...> inside changes its
// type where marked.
struct read_mark {};
template <std::size_t J>
struct mark_reads_fn {
  template <class E>
  [[nodiscard]] auto operator()(E const& e) const {
    if constexpr (is_reused<E>) {
      if constexpr (E::source == J) {
        return read_mark{};
      } else {
        return e.map(*this);
      }
    } else if constexpr (interior_node<E>) {
      return e.map(*this);
    } else {
      return e;
    }
  }
};
template <std::size_t J, class E>
inline constexpr bool reads_value_of = !std::is_same_v<decltype(mark_reads_fn<J>{}(std::declval<E const&>())), E>;

template <std::size_t K, class... Aggs, std::size_t... J>
constexpr std::array<bool, sizeof...(Aggs) + 1> reads_row(std::index_sequence<J...>) {
  return {reads_value_of<J, expr_of_t<K, Aggs...>>..., false};
}
// Which shared aggregation reads which: reads[k][j].
template <std::size_t N>
struct read_graph {
  std::array<bool, N + 1> reads[N + 1] = {};
};
template <class... Aggs, std::size_t... K>
constexpr read_graph<sizeof...(Aggs)> read_graph_of(std::index_sequence<K...>) {
  return {{reads_row<K, Aggs...>(std::make_index_sequence<sizeof...(Aggs)>{})..., {}}};
}
template <std::size_t N>
constexpr bool reads_any(read_graph<N> const& g) {
  for (std::size_t k = 0; k != N; ++k) {
    for (std::size_t j = 0; j != N; ++j) {
      if (g.reads[k][j]) { return true; }
    }
  }
  return false;
}
// The aggregations in an order where each comes after those it reads: of those left, the first
// whose sources are all computed.
template <std::size_t N>
constexpr index_list<N> order_of_reads(read_graph<N> const& g) {
  bool done[N + 1] = {};
  index_list<N> out;
  while (out.n != N) {
    for (std::size_t k = 0; k != N; ++k) {
      bool ready = !done[k];
      for (std::size_t j = 0; j != N; ++j) { ready = ready && (!g.reads[k][j] || done[j]); }
      if (ready) {
        out.at[out.n++] = k;
        done[k] = true;
        break;
      }
    }
  }
  return out;
}
template <class Order, class... Aggs>
struct evaluation_order_of;
template <std::size_t... M, class... Aggs>
struct evaluation_order_of<std::index_sequence<M...>, Aggs...> {
  static constexpr read_graph<sizeof...(Aggs)> graph = read_graph_of<Aggs...>(std::index_sequence_for<Aggs...>{});
  static constexpr index_list<sizeof...(Aggs)> order = order_of_reads(graph);
  using type = std::index_sequence<order.at[M]...>;
};

}  // namespace detail

// The order the row loop computes shared aggregations in (an index_sequence): each after the
// aggregations whose values it reads.
template <class... Aggs>
using evaluation_order_t = typename detail::evaluation_order_of<std::index_sequence_for<Aggs...>, Aggs...>::type;

// Whether shared aggregations have a part that reads another's value.
template <class... Aggs>
inline constexpr bool shares_parts_v =
    detail::reads_any(detail::evaluation_order_of<std::index_sequence_for<Aggs...>, Aggs...>::graph);

// Each aggregation's value at row i into `values`, each after those whose values its parts read.
template <class... Aggs, class Inputs, class Values>
COLX_HOST_DEVICE void evaluate(tuple<Aggs...> const& aggs, Inputs const& in, size_type i, Values& values) {
  auto const read = [&]<std::size_t... K>(auto const& inputs, std::index_sequence<K...>) {
    ((get<K>(values) = get<K>(aggs).expr(inputs, i)), ...);
  };
  if constexpr (shares_parts_v<Aggs...>) {
    read(inputs_with_values<Inputs, Values>{in, values}, evaluation_order_t<Aggs...>{});
  } else {
    read(in, std::index_sequence_for<Aggs...>{});
  }
}

}  // namespace colx::expr
