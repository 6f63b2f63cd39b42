// SPDX-License-Identifier: Apache-2.0
#pragma once
// A filter as stages: its AND chain cut into conjuncts, consecutive conjuncts over one same
// column taken together, e.g. `d >= lo && d < hi && x < 24` as [d >= lo && d < hi], [x < 24].
// A row is kept when it passes every stage. A kernel that tests several rows stage by stage (each
// stage of all its rows before the next stage of any) has those rows' loads of a column in flight
// together, and still reads a column only for rows that passed the stages before; the filter's
// short circuit, row by row, made each row's loads wait on the branches of the row before (TPC-H
// Q6's reduction ran so at a third of the memory's bandwidth).
#include <colx/column/column_device_view.hpp>
#include <colx/expr/nodes.hpp>

#include <type_traits>

namespace colx::expr {
namespace detail {

inline constexpr int reads_no_column = -1;     // a constant
inline constexpr int reads_many_columns = -2;  // several columns, or a node this does not know

constexpr int join_columns(int a, int b) {
  if (a == reads_no_column) { return b; }
  if (b == reads_no_column || a == b) { return a; }
  return reads_many_columns;
}

// The one column position an expression reads (reads_no_column, reads_many_columns otherwise).
template <class E>
inline constexpr int sole_column_v = [] {
  if constexpr (is_bound_column<E>) {
    return static_cast<int>(E::position);
  } else {
    return reads_many_columns;
  }
}();
template <class T>
inline constexpr int sole_column_v<literal<T>> = reads_no_column;
template <std::size_t N>
inline constexpr int sole_column_v<string_literal<N>> = reads_no_column;
template <class Op, class A>
inline constexpr int sole_column_v<unary<Op, A>> = sole_column_v<A>;
template <class A>
inline constexpr int sole_column_v<logical_not<A>> = sole_column_v<A>;
template <bool WantNull, class A>
inline constexpr int sole_column_v<null_test<WantNull, A>> = sole_column_v<A>;
template <bool IsAnd, class A, class B>
inline constexpr int sole_column_v<kleene<IsAnd, A, B>> = join_columns(sole_column_v<A>, sole_column_v<B>);
template <class Op, class A, class B>
inline constexpr int sole_column_v<binary<Op, A, B>> = join_columns(sole_column_v<A>, sole_column_v<B>);
template <class Op, class A, class B, class C>
inline constexpr int sole_column_v<ternary<Op, A, B, C>> =
    join_columns(join_columns(sole_column_v<A>, sole_column_v<B>), sole_column_v<C>);

// Whether an expression searches strings (LIKE, contains): a search is a loop of many
// instructions, and a fold that tests eight rows ahead unrolls it eight times.
template <class E>
inline constexpr bool searches_strings_v = false;
template <class A, std::size_t N>
inline constexpr bool searches_strings_v<like_constant<A, N>> = true;
template <class A, class B>
inline constexpr bool searches_strings_v<binary<ops::contains, A, B>> = true;
template <class Op, class A>
inline constexpr bool searches_strings_v<unary<Op, A>> = searches_strings_v<A>;
template <class A>
inline constexpr bool searches_strings_v<logical_not<A>> = searches_strings_v<A>;
template <bool WantNull, class A>
inline constexpr bool searches_strings_v<null_test<WantNull, A>> = searches_strings_v<A>;
template <bool IsAnd, class A, class B>
inline constexpr bool searches_strings_v<kleene<IsAnd, A, B>> = searches_strings_v<A> || searches_strings_v<B>;
template <class Op, class A, class B>
inline constexpr bool searches_strings_v<binary<Op, A, B>> = searches_strings_v<A> || searches_strings_v<B>;
template <class Op, class A, class B, class C>
inline constexpr bool searches_strings_v<ternary<Op, A, B, C>> =
    searches_strings_v<A> || searches_strings_v<B> || searches_strings_v<C>;

// Whether a conjunct can test several consecutive rows by one search of their bytes: a constant
// LIKE over a stored strings column (like_constant::rows_passing; whether a given column and
// pattern allow it is known only at run time, like_constant::searches_spans).
template <class E>
inline constexpr bool searches_spans_v = false;
template <class A, std::size_t N>
inline constexpr bool searches_spans_v<like_constant<A, N>> = plain_string_column<A>::value;

template <class E>
inline constexpr bool is_and = false;
template <class A, class B>
inline constexpr bool is_and<kleene<true, A, B>> = true;

// A stage's column as a value the kernel loaded already: what a stage's test reads in place of
// the column (see stage_one::test). Validity is still read from the column. (Nodes reach a
// fixed-width column through value and is_valid alone; a node that asked for more would not
// compile, or, asking through `requires`, take its general path.)
template <class T>
struct given_value_view {
  T v;
  column_device_view<T> const& column;
  [[nodiscard]] COLX_HOST_DEVICE bool is_valid(size_type i) const noexcept { return column.is_valid(i); }
  [[nodiscard]] COLX_HOST_DEVICE T value(size_type) const noexcept { return v; }
};
// A kernel's inputs with column I given as a value.
template <class Inputs, std::size_t I, class T>
struct given_value_inputs {
  Inputs const& in;
  given_value_view<T> view;
};
template <std::size_t J, class Inputs, std::size_t I, class T>
[[nodiscard]] COLX_HOST_DEVICE auto const& get(given_value_inputs<Inputs, I, T> const& g) noexcept {
  if constexpr (J == I) {
    return g.view;
  } else {
    return get<J>(g.in);
  }
}

template <class V>
inline constexpr bool is_fixed_width_view = false;
template <class T>
inline constexpr bool is_fixed_width_view<column_device_view<T>> = true;

// Whether a stage's test can take its column's values loaded beforehand: a stage over one
// fixed-width column (a strings column's nodes read more of it than a value).
template <class Inputs, int Column>
struct stage_column_view {
  using type = void;  // no one column
};
template <class Inputs, int Column>
  requires(Column >= 0)
struct stage_column_view<Inputs, Column> {
  using type = std::remove_cvref_t<decltype(get<static_cast<std::size_t>(Column)>(std::declval<Inputs const&>()))>;
};
template <int Column, class Inputs>
inline constexpr bool takes_values_v = is_fixed_width_view<typename stage_column_view<Inputs, Column>::type>;

// A stage: one conjunct (valid and true), or two stages over one column, both evaluated (the
// column loaded once). A stage over one fixed-width column also splits in two (takes_values_v):
// load(in, i), the column's value, and test(in, i, value), the stage on it, so that a kernel can
// load several rows' values before it tests any (gpu/reduce_rows.cuh says why). A stage refers
// to its conjunct in the predicate, which outlives it: a copy in a kernel would live in local
// memory wherever a node's bytes are addressed (a LIKE literal), and the fold of LIKE '%green%'
// so ran at half the speed of the same search without it.
template <class E>
struct stage_one {
  static constexpr int column = sole_column_v<E>;
  E const& e;
  template <class Inputs>
  [[nodiscard]] COLX_HOST_DEVICE bool operator()(Inputs const& in, size_type i) const {
    auto const r = e(in, i);
    return r.valid && static_cast<bool>(r.value);
  }
  template <class Inputs>
  [[nodiscard]] COLX_HOST_DEVICE auto load(Inputs const& in, size_type i) const {
    return get<static_cast<std::size_t>(column)>(in).value(i);
  }
  template <class Inputs, class T>
  [[nodiscard]] COLX_HOST_DEVICE bool test(Inputs const& in, size_type i, T v) const {
    constexpr auto position = static_cast<std::size_t>(column);
    auto const r = e(given_value_inputs<Inputs, position, T>{in, {v, get<position>(in)}}, i);
    return r.valid && static_cast<bool>(r.value);
  }
  // R consecutive rows at once, where searches_spans_v<E> and e.searches_spans(in).
  static constexpr bool searches_spans = searches_spans_v<E>;
#if defined(__CUDACC__)
  template <class Inputs>
  [[nodiscard]] COLX_HOST_DEVICE bool spans_searchable(Inputs const& in) const {
    return e.searches_spans(in);
  }
  template <int R, class Inputs>
  [[nodiscard]] __device__ std::uint32_t passes_rows(Inputs const& in, size_type first) const {
    return e.template rows_passing<R>(in, first);
  }
#endif
};
template <class A, class B>
struct stage_both {
  static constexpr int column = A::column;
  static constexpr bool searches_spans = false;
  A a;
  B b;
  template <class Inputs>
  [[nodiscard]] COLX_HOST_DEVICE bool operator()(Inputs const& in, size_type i) const {
    return a(in, i) & b(in, i);
  }
  template <class Inputs>
  [[nodiscard]] COLX_HOST_DEVICE auto load(Inputs const& in, size_type i) const {
    return a.load(in, i);
  }
  template <class Inputs, class T>
  [[nodiscard]] COLX_HOST_DEVICE bool test(Inputs const& in, size_type i, T v) const {
    return a.test(in, i, v) & b.test(in, i, v);
  }
};

// The stages, first to last, as a list.
struct stage_end {};
template <class First, class Rest>
struct stage_list {
  First first;
  Rest rest;
};

template <class First, class Rest>
constexpr COLX_HOST_DEVICE auto make_list(First const& f, Rest const& r) {
  return stage_list<First, Rest>{f, r};
}
template <class L>
constexpr COLX_HOST_DEVICE auto append(stage_end, L const& tail) {
  return tail;
}
template <class First, class Rest, class L>
constexpr COLX_HOST_DEVICE auto append(stage_list<First, Rest> const& l, L const& tail) {
  return make_list(l.first, append(l.rest, tail));
}

// Each conjunct of the AND chain e as a stage of its own, in order.
template <class E>
constexpr COLX_HOST_DEVICE auto conjuncts(E const& e) {
  if constexpr (is_and<E>) {
    return append(conjuncts(e.a), conjuncts(e.b));
  } else {
    return make_list(stage_one<E>{e}, stage_end{});
  }
}

// Consecutive stages over one same column made one.
template <class First, class Rest>
constexpr COLX_HOST_DEVICE auto merge_columns(stage_list<First, Rest> const& l) {
  if constexpr (std::is_same_v<Rest, stage_end>) {
    return l;
  } else if constexpr (First::column >= 0 && First::column == decltype(l.rest.first)::column) {
    using both = stage_both<First, std::remove_cvref_t<decltype(l.rest.first)>>;
    return merge_columns(make_list(both{l.first, l.rest.first}, l.rest.rest));
  } else {
    return make_list(l.first, merge_columns(l.rest));
  }
}

template <class L>
inline constexpr int list_size = 0;
template <class First, class Rest>
inline constexpr int list_size<stage_list<First, Rest>> = 1 + list_size<Rest>;

template <int K, class First, class Rest>
constexpr COLX_HOST_DEVICE auto const& stage_at(stage_list<First, Rest> const& l) {
  if constexpr (K == 0) {
    return l.first;
  } else {
    return stage_at<K - 1>(l.rest);
  }
}

}  // namespace detail

// The stages of a bound predicate: stages_of(pred) is a list whose stage K is
// detail::stage_at<K>(list)(inputs, i); a row passes pred exactly when it passes every stage.
template <class Pred>
[[nodiscard]] constexpr COLX_HOST_DEVICE auto stages_of(Pred const& pred) {
  return detail::merge_columns(detail::conjuncts(pred));
}
// (The stages refer to pred's nodes: a temporary predicate would leave them dangling.)
template <class Pred>
auto stages_of(Pred&& pred)
  requires(!std::is_lvalue_reference_v<Pred>)
= delete;
template <class Pred>
inline constexpr int stage_count_v = detail::list_size<decltype(stages_of(std::declval<Pred const&>()))>;
// How many rows a fold tests stage by stage at once: eight, each stage's loads in flight together,
// or one where the filter searches strings: the search is bound by the instructions it issues, and
// eight unrolled copies of its loop only grow the code (LIKE '%green%' over 60M short strings
// folded in 0.535 ms eight rows at a time, 0.517 ms one at a time; H200).
template <class Pred>
inline constexpr int fold_rows_ahead_v = detail::searches_strings_v<Pred> ? 1 : 8;

}  // namespace colx::expr
