// SPDX-License-Identifier: Apache-2.0
#pragma once
// like(a, "constant"): a LIKE whose pattern is known when the pipeline is written. Its shape
// (ops::shape_of) is found once; a pattern of literals between %s over a stored strings column is
// searched in the column's bytes, a word at a time (strings_input_view::find), and a filtered
// fold may search four rows at once (rows_passing).
#include <colx/expr/expression.hpp>
#include <colx/expr/nodes_dictionary.hpp>
#include <colx/expr/ops.hpp>

#include <cstdint>
#include <string>

namespace colx::expr {

template <class A, std::size_t N>
struct like_constant : node<like_constant<A, N>> {
  using shape_type = ops::like_shape;
  A a;
  string_literal<N> pattern;
  shape_type shape;
  colx::detail::literal_words spread[shape_type::most_literals];  // of each literal a search looks for
  constexpr like_constant(A a_, string_literal<N> p) : a(a_), pattern(p), shape(ops::shape_of(string_view(p.chars, p.size))) {
    for (int k = 0; k < shape.literals; ++k) { spread[k] = colx::detail::words_of(literal_at(k)); }
  }
  [[nodiscard]] constexpr COLX_HOST_DEVICE string_view literal_at(int k) const { return shape.literal(string_view(pattern.chars, pattern.size), k); }
  template <class Inputs>
  [[nodiscard]] COLX_HOST_DEVICE auto operator()(Inputs const& in, size_type i) const {
    constexpr bool nullable = decltype(a(in, i))::nullable;
    // Literals between %s in a stored strings column: searched in the column's bytes, the row's
    // string_view never built (building it too cost registers, and so occupancy).
    if constexpr (detail::plain_string_column<A>::value && requires { get<A::position>(in).find(i, 0, string_view{}, spread[0]); }) {
      auto const& view = get<A::position>(in);
      if (shape.kind == shape_type::infix) {
        bool const valid = !nullable || view.is_valid(i);
        return make_maybe<nullable>(valid && view.contains(i, literal_at(0), spread[0]), valid);
      }
      if (shape.kind == shape_type::in_order) {
        bool const valid = !nullable || view.is_valid(i);
        bool match = valid;
        size_type from = 0;
        COLX_UNROLL
        for (int k = 0; k < shape_type::most_literals; ++k) {  // unrolled: each spread read in place
          if (match && k < shape.literals) {
            size_type const at = view.find(i, from, literal_at(k), spread[k]);
            match = at >= 0;
            from = at + shape.size[k];
          }
        }
        return make_maybe<nullable>(match, valid);
      }
    }
    auto const x = a(in, i);
    static_assert(ops::check_string_operands<ops::like, typename decltype(x)::value_type>());
    return make_maybe<nullable>(ops::like_shaped(x.value, string_view(pattern.chars, pattern.size), shape), x.valid);
  }
#if defined(__CUDACC__)
  // A substring pattern over a stored strings column, R consecutive rows at once (a filtered
  // fold's first stage: gpu/reduce_rows.cuh): bit k where row first + k is valid and holds the
  // literal. searches_spans(in) says whether the column and the literal allow it; it is the same
  // for every row.
  template <class Inputs>
  [[nodiscard]] COLX_HOST_DEVICE bool searches_spans(Inputs const& in) const {
    if constexpr (detail::plain_string_column<A>::value && requires { get<A::position>(in).searchable_in_spans(0); }) {
      return shape.kind == shape_type::infix && get<A::position>(in).searchable_in_spans(shape.size[0]);
    } else {
      return false;
    }
  }
  template <int R, class Inputs>
  [[nodiscard]] __device__ std::uint32_t rows_passing(Inputs const& in, size_type first) const {
    if constexpr (detail::plain_string_column<A>::value && requires { get<A::position>(in).searchable_in_spans(0); }) {
      auto const& view = get<A::position>(in);
      std::uint32_t found = view.template rows_containing<R>(first, literal_at(0), spread[0]);
      if constexpr (decltype(a(in, first))::nullable) {
        COLX_UNROLL
        for (int k = 0; k < R; ++k) {
          if (!view.is_valid(first + k)) { found &= ~(1u << k); }
        }
      }
      return found;
    } else {
      return 0;
    }
  }
#endif
  template <class F>
  [[nodiscard]] auto map(F f) const {
    using B = decltype(f(a));
    if constexpr (detail::dictionary_string_column<B>::value) {
      return dictionary_like<B::position, typename B::element_type, detail::dictionary_string_column<B>::nullable, N>(pattern);
    } else {
      return like_constant<B, N>(f(a), pattern);
    }
  }
  [[nodiscard]] std::string to_string() const { return "(" + a.to_string() + " like " + pattern.to_string() + ")"; }
};

}  // namespace colx::expr
