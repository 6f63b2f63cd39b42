// SPDX-License-Identifier: Apache-2.0
#pragma once
// The string functions users write (expr/functions.hpp has the rest): each builds a node. A
// string argument is a column, a constant ("abc") or any string expression; positions, widths
// and lengths are integer expressions or constants. Functions that read a string's characters
// (substr, trim, replace, pad, length, like, comparisons) take stored strings and parts of them;
// a computed one (upper, concat, replace, pad, cast to text) is stored with with_columns first.
#include <colx/expr/functions.hpp>

#include <utility>

namespace colx {

namespace expr {
template <class Op, class A, class B, class C>
[[nodiscard]] constexpr auto make_ternary(A const& a, B const& b, C const& c) {
  auto x = as_expression(a);
  auto y = as_expression(b);
  auto z = as_expression(c);
  return ternary<Op, decltype(x), decltype(y), decltype(z)>(x, y, z);
}
}  // namespace expr

// SQL's substring in characters (1-based; see ops::substr for 0, negative starts and lengths).
template <expr::expression A, class S, class L>
[[nodiscard]] constexpr auto substr(A const& a, S const& start, L const& length) {
  return expr::make_ternary<expr::ops::substr>(a, start, length);
}
template <expr::expression A, class S>
[[nodiscard]] constexpr auto substr(A const& a, S const& start) {
  return expr::make_binary<expr::ops::substr>(a, start);
}

// Spaces (or any of the characters of `set`) removed from both ends, the left or the right.
template <expr::expression A> [[nodiscard]] constexpr auto trim(A const& a) { return apply_unary<expr::ops::trim>(a); }
template <expr::expression A> [[nodiscard]] constexpr auto ltrim(A const& a) { return apply_unary<expr::ops::ltrim>(a); }
template <expr::expression A> [[nodiscard]] constexpr auto rtrim(A const& a) { return apply_unary<expr::ops::rtrim>(a); }
template <expr::expression A, class Set>
[[nodiscard]] constexpr auto trim(A const& a, Set const& set) {
  return expr::make_binary<expr::ops::trim>(a, set);
}
template <expr::expression A, class Set>
[[nodiscard]] constexpr auto ltrim(A const& a, Set const& set) {
  return expr::make_binary<expr::ops::ltrim>(a, set);
}
template <expr::expression A, class Set>
[[nodiscard]] constexpr auto rtrim(A const& a, Set const& set) {
  return expr::make_binary<expr::ops::rtrim>(a, set);
}

// Upper and lower case (ASCII, Latin-1, Latin Extended-A, Greek and Cyrillic letters).
template <expr::expression A> [[nodiscard]] constexpr auto upper(A const& a) { return apply_unary<expr::ops::upper>(a); }
template <expr::expression A> [[nodiscard]] constexpr auto lower(A const& a) { return apply_unary<expr::ops::lower>(a); }

// concat(a, b, ...) of strings (concat of frames, frame/gather.hpp, stacks rows): DuckDB's concat, a null argument counts as empty, never null. For SQL's
// a || b, null when either is null, write concat_strict(a, b) (or fill nulls first).
template <class A, class B>
  requires expr::operands<A, B>
[[nodiscard]] constexpr auto concat(A const& a, B const& b) {
  auto x = expr::as_expression(a);
  auto y = expr::as_expression(b);
  return expr::concat_node<decltype(x), decltype(y)>(x, y);
}
template <class A, class B, class... More>
  requires(sizeof...(More) > 0 && (expr::expression<A> || expr::expression<B> || (expr::expression<More> || ...)))
[[nodiscard]] constexpr auto concat(A const& a, B const& b, More const&... more) {
  return concat(concat(a, b), more...);
}
template <class A, class B>
  requires expr::operands<A, B>
[[nodiscard]] constexpr auto concat_strict(A const& a, B const& b) {
  return expr::make_binary<expr::ops::concat>(a, b);
}
template <class A, class B, class... More>
  requires(sizeof...(More) > 0 && (expr::expression<A> || expr::expression<B> || (expr::expression<More> || ...)))
[[nodiscard]] constexpr auto concat_strict(A const& a, B const& b, More const&... more) {
  return concat_strict(concat_strict(a, b), more...);
}

// Every occurrence of `from` (left to right, not overlapping) replaced by `to`.
template <expr::expression A, class F, class T>
[[nodiscard]] constexpr auto replace(A const& a, F const& from, T const& to) {
  return expr::make_ternary<expr::ops::replace>(a, from, to);
}

// Padded on the left (right) with `fill` to `width` characters, or cut to its first `width`;
// null when padding is needed and `fill` is empty.
template <expr::expression A, class W, class F>
[[nodiscard]] constexpr auto lpad(A const& a, W const& width, F const& fill) {
  return expr::make_ternary<expr::ops::lpad>(a, width, fill);
}
template <expr::expression A, class W, class F>
[[nodiscard]] constexpr auto rpad(A const& a, W const& width, F const& fill) {
  return expr::make_ternary<expr::ops::rpad>(a, width, fill);
}

// Bytes of a string (length(s) counts characters).
template <expr::expression A> [[nodiscard]] constexpr auto length_bytes(A const& a) { return apply_unary<expr::ops::length_bytes>(a); }

}  // namespace colx
