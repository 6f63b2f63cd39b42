// SPDX-License-Identifier: Apache-2.0
#pragma once
// What users write: C++ operators and named functions over expressions and constants, each
// building a node. Nothing is evaluated here.
#include <colx/expr/nodes.hpp>

#include <utility>

namespace colx {
namespace expr {

template <class A, class B>
concept operands = (expression<A> || expression<B>);

template <class Op, class A, class B>
[[nodiscard]] constexpr auto make_binary(A const& a, B const& b) {
  auto x = as_expression(a);
  auto y = as_expression(b);
  return binary<Op, decltype(x), decltype(y)>(x, y);
}

#define COLX_BINARY_OPERATOR(Symbol, Op)                                    \
  template <class A, class B>                                               \
    requires operands<A, B>                                                 \
  [[nodiscard]] constexpr auto operator Symbol(A const& a, B const& b) {    \
    return make_binary<ops::Op>(a, b);                                      \
  }
COLX_BINARY_OPERATOR(+, add)
COLX_BINARY_OPERATOR(-, sub)
COLX_BINARY_OPERATOR(*, mul)
COLX_BINARY_OPERATOR(/, div)
COLX_BINARY_OPERATOR(%, mod)
COLX_BINARY_OPERATOR(==, equal)
COLX_BINARY_OPERATOR(!=, not_equal)
COLX_BINARY_OPERATOR(<, less)
COLX_BINARY_OPERATOR(<=, less_equal)
COLX_BINARY_OPERATOR(>, greater)
COLX_BINARY_OPERATOR(>=, greater_equal)
COLX_BINARY_OPERATOR(&, bit_and)
COLX_BINARY_OPERATOR(|, bit_or)
COLX_BINARY_OPERATOR(^, bit_xor)
COLX_BINARY_OPERATOR(<<, shift_left)
COLX_BINARY_OPERATOR(>>, shift_right)
#undef COLX_BINARY_OPERATOR

template <class A, class B>
  requires operands<A, B>
[[nodiscard]] constexpr auto operator&&(A const& a, B const& b) {
  auto x = as_expression(a);
  auto y = as_expression(b);
  return kleene<true, decltype(x), decltype(y)>(x, y);
}
template <class A, class B>
  requires operands<A, B>
[[nodiscard]] constexpr auto operator||(A const& a, B const& b) {
  auto x = as_expression(a);
  auto y = as_expression(b);
  return kleene<false, decltype(x), decltype(y)>(x, y);
}
template <expression A>
[[nodiscard]] constexpr auto operator!(A const& a) {
  return logical_not<A>(a);
}
template <expression A>
[[nodiscard]] constexpr auto operator-(A const& a) {
  return unary<ops::negate, A>(a);
}
template <expression A>
[[nodiscard]] constexpr auto operator~(A const& a) {
  return unary<ops::bit_not, A>(a);
}

}  // namespace expr

// ---- named functions (in colx, found by ADL too) ---------------------------------------------
// Each is constrained to expressions: unconstrained templates named abs, min or reduce in colx
// would be found by argument-dependent lookup from inside Thrust and the standard library.

template <class Op, class A>
[[nodiscard]] constexpr auto apply_unary(A const& a) {
  auto x = expr::as_expression(a);
  return expr::unary<Op, decltype(x)>(x);
}

template <expr::expression A> [[nodiscard]] constexpr auto abs(A const& a) { return apply_unary<expr::ops::abs>(a); }
template <expr::expression A> [[nodiscard]] constexpr auto sqrt(A const& a) { return apply_unary<expr::ops::sqrt>(a); }
template <expr::expression A> [[nodiscard]] constexpr auto exp(A const& a) { return apply_unary<expr::ops::exp>(a); }
template <expr::expression A> [[nodiscard]] constexpr auto log(A const& a) { return apply_unary<expr::ops::log>(a); }
template <expr::expression A> [[nodiscard]] constexpr auto floor(A const& a) { return apply_unary<expr::ops::floor>(a); }
template <expr::expression A> [[nodiscard]] constexpr auto ceil(A const& a) { return apply_unary<expr::ops::ceil>(a); }
// Rounds half away from zero.
template <expr::expression A> [[nodiscard]] constexpr auto round(A const& a) { return apply_unary<expr::ops::round>(a); }
template <class A, class B>
  requires expr::operands<A, B>
[[nodiscard]] constexpr auto pow(A const& a, B const& b) {
  return expr::make_binary<expr::ops::pow>(a, b);
}
template <class T, expr::expression A>
[[nodiscard]] constexpr auto cast(A const& a) {
  static_assert(column_element<T>, "colx::cast<T>: T must be a column element type");
  return apply_unary<expr::ops::cast<T>>(a);
}

// Date parts of a date32 or timestamp column (proleptic Gregorian, UTC).
template <expr::expression A> [[nodiscard]] constexpr auto year(A const& a) { return apply_unary<expr::ops::year>(a); }
template <expr::expression A> [[nodiscard]] constexpr auto month(A const& a) { return apply_unary<expr::ops::month>(a); }
template <expr::expression A> [[nodiscard]] constexpr auto day(A const& a) { return apply_unary<expr::ops::day>(a); }
template <expr::expression A> [[nodiscard]] constexpr auto quarter(A const& a) { return apply_unary<expr::ops::quarter>(a); }
// 0 (Sunday) to 6, as DuckDB's dayofweek; iso_day_of_week: 1 (Monday) to 7, as isodow.
template <expr::expression A> [[nodiscard]] constexpr auto day_of_week(A const& a) { return apply_unary<expr::ops::day_of_week>(a); }
template <expr::expression A>
[[nodiscard]] constexpr auto iso_day_of_week(A const& a) {
  return apply_unary<expr::ops::iso_day_of_week>(a);
}
template <expr::expression A> [[nodiscard]] constexpr auto day_of_year(A const& a) { return apply_unary<expr::ops::day_of_year>(a); }

// hour, minute and (whole) second of a timestamp.
template <expr::expression A> [[nodiscard]] constexpr auto hour(A const& a) { return apply_unary<expr::ops::hour>(a); }
template <expr::expression A> [[nodiscard]] constexpr auto minute(A const& a) { return apply_unary<expr::ops::minute>(a); }
template <expr::expression A> [[nodiscard]] constexpr auto second(A const& a) { return apply_unary<expr::ops::second>(a); }

// Calendar arithmetic (expr/ops_date_math.hpp): add_months(d, n) clamps the day to the month's
// end (Jan 31 + 1 month is Feb 29 in 2024), as SQL's date + INTERVAL; n is an integer expression.
template <expr::expression A, class N>
[[nodiscard]] constexpr auto add_days(A const& a, N const& n) {
  return expr::make_binary<expr::ops::add_days>(a, n);
}
template <expr::expression A, class N>
[[nodiscard]] constexpr auto add_months(A const& a, N const& n) {
  return expr::make_binary<expr::ops::add_months>(a, n);
}
template <expr::expression A, class N>
[[nodiscard]] constexpr auto add_years(A const& a, N const& n) {
  return expr::make_binary<expr::ops::add_years>(a, n);
}
// date_trunc<colx::date_part::month>(d): the start of d's month, in d's type.
template <date_part Part, expr::expression A>
[[nodiscard]] constexpr auto date_trunc(A const& a) {
  return apply_unary<expr::ops::trunc_to<Part>>(a);
}
// date_diff<colx::date_part::month>(a, b): month boundaries from a to b (int64), as DuckDB.
template <date_part Part, class A, class B>
  requires expr::operands<A, B>
[[nodiscard]] constexpr auto date_diff(A const& a, B const& b) {
  return expr::make_binary<expr::ops::diff_in<Part>>(a, b);
}

// Strings: length in code points; patterns are constants or string expressions.
template <expr::expression A> [[nodiscard]] constexpr auto length(A const& a) { return apply_unary<expr::ops::length>(a); }
template <expr::expression A, class P>
[[nodiscard]] constexpr auto starts_with(A const& a, P const& p) {
  return expr::make_binary<expr::ops::starts_with>(a, p);
}
template <expr::expression A, class P>
[[nodiscard]] constexpr auto ends_with(A const& a, P const& p) {
  return expr::make_binary<expr::ops::ends_with>(a, p);
}
template <expr::expression A, class P>
[[nodiscard]] constexpr auto contains(A const& a, P const& p) {
  return expr::make_binary<expr::ops::contains>(a, p);
}

// SQL's LIKE and ILIKE (ASCII letters fold): % any run of characters, _ one character; no escape
// character, as DuckDB's default. not_like(s, p) is !like(s, p).
template <expr::expression A, class P>
[[nodiscard]] constexpr auto like(A const& a, P const& p) {
  return expr::make_binary<expr::ops::like>(a, p);
}
// A constant pattern: a literal with % at its ends runs as equality, a prefix, suffix or substring test.
template <expr::expression A, std::size_t N>
[[nodiscard]] constexpr auto like(A const& a, char const (&p)[N]) {
  return expr::like_constant<A, N>(a, expr::string_literal<N>(p));
}
template <expr::expression A, class P>
[[nodiscard]] constexpr auto ilike(A const& a, P const& p) {
  return expr::make_binary<expr::ops::ilike>(a, p);
}
template <expr::expression A, class P>
[[nodiscard]] constexpr auto not_like(A const& a, P const& p) {
  return !like(a, p);
}

template <expr::expression A>
[[nodiscard]] constexpr auto is_null(A const& a) {
  auto x = expr::as_expression(a);
  return expr::null_test<true, decltype(x)>(x);
}
template <expr::expression A>
[[nodiscard]] constexpr auto is_valid(A const& a) {
  auto x = expr::as_expression(a);
  return expr::null_test<false, decltype(x)>(x);
}

// The row's position in its frame (0-based, never null; a filtered frame's kept rows keep
// their positions): min(row_number()) per group is the group's first row.
[[nodiscard]] constexpr auto row_number() { return expr::row_index{}; }

template <class C, class T, class E>
  requires(expr::expression<C> || expr::expression<T> || expr::expression<E>)
[[nodiscard]] constexpr auto if_else(C const& c, T const& t, E const& e) {
  auto x = expr::as_expression(c);
  auto y = expr::as_expression(t);
  auto z = expr::as_expression(e);
  return expr::if_else_node<decltype(x), decltype(y), decltype(z)>(x, y, z);
}
// case_when(c1, v1, c2, v2, ..., otherwise): SQL's CASE WHEN c1 THEN v1 WHEN c2 THEN v2 ... ELSE
// otherwise END. A condition that is null is not true: the next branch is taken (if_else would
// give null).
template <class C, class T, class E>
  requires(expr::expression<C> || expr::expression<T> || expr::expression<E>)
[[nodiscard]] constexpr auto case_when(C const& c, T const& t, E const& e) {
  auto x = expr::as_expression(c);
  auto y = expr::as_expression(t);
  auto z = expr::as_expression(e);
  return expr::if_else_node<decltype(x), decltype(y), decltype(z), true>(x, y, z);
}
// case_when(c, t): CASE WHEN c THEN t END, null where c is not true (SQL's missing ELSE), so
// that min(case_when(late, x)) is the least x of the late rows, as SQL writes it.
template <class C, class T>
  requires(expr::expression<C> || expr::expression<T>)
[[nodiscard]] constexpr auto case_when(C const& c, T const& t) {
  auto x = expr::as_expression(c);
  auto y = expr::as_expression(t);
  return expr::if_else_node<decltype(x), decltype(y), expr::null_like<decltype(y)>, true>(x, y, expr::null_like<decltype(y)>(y));
}
// case_when(c1, v1, c2, v2, ...[, otherwise]): the branches in order; without `otherwise`, null.
template <class C, class T, class... More>
  requires(sizeof...(More) >= 2)
[[nodiscard]] constexpr auto case_when(C const& c, T const& t, More const&... more) {
  return case_when(c, t, case_when(more...));
}
// where(c, t, e) is if_else under NumPy's name.
template <class C, class T, class E>
  requires(expr::expression<C> || expr::expression<T> || expr::expression<E>)
[[nodiscard]] constexpr auto where(C const& c, T const& t, E const& e) {
  return if_else(c, t, e);
}

template <class A, class B>
  requires expr::operands<A, B>
[[nodiscard]] constexpr auto coalesce(A const& a, B const& b) {
  auto x = expr::as_expression(a);
  auto y = expr::as_expression(b);
  return expr::coalesce_node<decltype(x), decltype(y)>(x, y);
}
template <expr::expression A, class B>
[[nodiscard]] constexpr auto fill_null(A const& a, B const& value) {
  return coalesce(a, value);
}

// lo <= a && a <= hi.
template <expr::expression A, class L, class H>
[[nodiscard]] constexpr auto between(A const& a, L const& lo, H const& hi) {
  using namespace expr;
  auto x = as_expression(a);
  return (x >= lo) && (x <= hi);
}

// Whether a equals one of the given constants.
template <expr::expression A, class... Ts>
[[nodiscard]] constexpr auto isin(A const& a, Ts const&... values) {
  static_assert(sizeof...(Ts) > 0, "colx::isin needs at least one value");
  using T = std::common_type_t<Ts...>;
  auto x = expr::as_expression(a);
  return expr::isin_node<decltype(x), T, sizeof...(Ts)>{{}, x, {static_cast<T>(values)...}};
}

}  // namespace colx
