// SPDX-License-Identifier: Apache-2.0
#pragma once
// Expression nodes. Each holds its children by value, evaluates a row with operator()(inputs, i)
// to a maybe<T, Nullable>, rebuilds itself over transformed children with map() (which is how
// binding reaches the leaves), and describes itself for explain(). Nullability is computed from
// the children's types, so a tree over not_null fields carries no validity at all.
#include <colx/expr/expression.hpp>
#include <colx/expr/nodes_dictionary.hpp>
#include <colx/expr/nodes_like.hpp>
#include <colx/expr/ops.hpp>

#include <cstdint>
#include <string>

namespace colx::expr {

// op(a): null when a is null, or when the op says so (a float cast to an integer it is out of).
template <class Op, class A>
struct unary : node<unary<Op, A>> {
  A a;
  constexpr COLX_HOST_DEVICE explicit unary(A a_) : a(a_) {}
  template <class Inputs>
  [[nodiscard]] COLX_HOST_DEVICE auto operator()(Inputs const& in, size_type i) const {
    auto const x = a(in, i);
    static_assert(ops::check_string_operands<Op, typename decltype(x)::value_type>());
    if constexpr (requires { Op::produces_nulls; }) {
      constexpr bool nullable = decltype(x)::nullable || Op::template nulls_for<typename decltype(x)::value_type>;
      bool ok = true;
      auto const value = Op::apply(x.value, ok);
      return make_maybe<nullable>(value, x.valid && ok);
    } else {
      return make_maybe<decltype(x)::nullable>(Op::apply(x.value), x.valid);
    }
  }
  template <class F>
  [[nodiscard]] auto map(F f) const {
    return unary<Op, decltype(f(a))>(f(a));
  }
  [[nodiscard]] std::string to_string() const { return std::string(Op::symbol) + "(" + a.to_string() + ")"; }
};

template <class Op, class A, class B>
struct binary;

// What binary::map builds: binary<Op, A, B>(a, b), or a dictionary_literal where Op is == or !=
// between a bound dictionary column of strings and a string literal (either way round).
template <class Op, class A, class B>
[[nodiscard]] constexpr auto rebuilt_binary(A const& a, B const& b) {
  constexpr bool compares = std::is_same_v<Op, ops::equal> || std::is_same_v<Op, ops::not_equal>;
  if constexpr (compares && detail::dictionary_string_column<A>::value && detail::string_constant<B>::value) {
    return dictionary_literal<std::is_same_v<Op, ops::equal>, A::position, typename A::element_type,
                              detail::dictionary_string_column<A>::nullable, sizeof(b.chars)>(b);
  } else if constexpr (compares && detail::dictionary_string_column<B>::value && detail::string_constant<A>::value) {
    return rebuilt_binary<Op>(b, a);
  } else {
    return binary<Op, A, B>(a, b);
  }
}

// op(a, b): null when either is null, or when the op says so (integer division by zero).
template <class Op, class A, class B>
struct binary : node<binary<Op, A, B>> {
  A a;
  B b;
  constexpr COLX_HOST_DEVICE binary(A a_, B b_) : a(a_), b(b_) {}
  template <class Inputs>
  [[nodiscard]] COLX_HOST_DEVICE auto operator()(Inputs const& in, size_type i) const {
    auto const x = a(in, i);
    auto const y = b(in, i);
    static_assert(ops::check_string_operands<Op, typename decltype(x)::value_type, typename decltype(y)::value_type>());
    if constexpr (std::is_same_v<Op, ops::contains> && detail::plain_string_column<A>::value &&
                  requires { get<A::position>(in).contains(i, y.value); }) {
      constexpr bool nullable = decltype(x)::nullable || decltype(y)::nullable;
      bool const valid = x.valid && y.valid;
      return make_maybe<nullable>(valid && get<A::position>(in).contains(i, y.value), valid);
    } else if constexpr (requires { Op::produces_nulls; }) {
      using X = typename decltype(x)::value_type;
      using Y = typename decltype(y)::value_type;
      constexpr bool nullable = decltype(x)::nullable || decltype(y)::nullable || Op::template nulls_for<X, Y>;
      bool ok = true;
      auto const value = Op::apply(x.value, y.value, ok);
      return make_maybe<nullable>(value, x.valid && y.valid && ok);
    } else {
      constexpr bool nullable = decltype(x)::nullable || decltype(y)::nullable;
      return make_maybe<nullable>(Op::apply(x.value, y.value), x.valid && y.valid);
    }
  }
  template <class F>
  [[nodiscard]] auto map(F f) const {
    return rebuilt_binary<Op>(f(a), f(b));
  }
  [[nodiscard]] std::string to_string() const {
    std::string out = "(";
    out.append(a.to_string()).append(" ").append(Op::symbol).append(" ").append(b.to_string()).append(")");
    return out;
  }
};

// op(a, b, c), as binary: substr(s, start, length), replace(s, from, to), lpad(s, width, fill).
template <class Op, class A, class B, class C>
struct ternary : node<ternary<Op, A, B, C>> {
  A a;
  B b;
  C c;
  constexpr COLX_HOST_DEVICE ternary(A a_, B b_, C c_) : a(a_), b(b_), c(c_) {}
  template <class Inputs>
  [[nodiscard]] COLX_HOST_DEVICE auto operator()(Inputs const& in, size_type i) const {
    auto const x = a(in, i);
    auto const y = b(in, i);
    auto const z = c(in, i);
    static_assert(ops::check_string_operands<Op, typename decltype(x)::value_type, typename decltype(y)::value_type,
                                             typename decltype(z)::value_type>());
    bool const all_valid = x.valid && y.valid && z.valid;
    constexpr bool operand_nulls = decltype(x)::nullable || decltype(y)::nullable || decltype(z)::nullable;
    if constexpr (requires { Op::produces_nulls; }) {
      bool ok = true;
      auto const value = Op::apply(x.value, y.value, z.value, ok);
      return make_maybe<operand_nulls || Op::template nulls_for<decltype(x.value), decltype(y.value), decltype(z.value)>>(
          value, all_valid && ok);
    } else {
      return make_maybe<operand_nulls>(Op::apply(x.value, y.value, z.value), all_valid);
    }
  }
  template <class F>
  [[nodiscard]] auto map(F f) const {
    return ternary<Op, decltype(f(a)), decltype(f(b)), decltype(f(c))>(f(a), f(b), f(c));
  }
  [[nodiscard]] std::string to_string() const {
    return std::string(Op::symbol) + "(" + a.to_string() + ", " + b.to_string() + ", " + c.to_string() + ")";
  }
};

// concat(a, b) as DuckDB's concat(): a null argument counts as empty, so the result is never
// null (a || b, like every other operation, is null when either side is).
template <class A, class B>
struct concat_node : node<concat_node<A, B>> {
  A a;
  B b;
  constexpr COLX_HOST_DEVICE concat_node(A a_, B b_) : a(a_), b(b_) {}
  template <class Inputs>
  [[nodiscard]] COLX_HOST_DEVICE auto operator()(Inputs const& in, size_type i) const {
    auto const x = a(in, i);
    auto const y = b(in, i);
    auto joined = ops::concat::apply(x.value, y.value);
    joined.has_a = x.valid;
    joined.has_b = y.valid;
    return make_maybe<false>(joined, true);
  }
  template <class F>
  [[nodiscard]] auto map(F f) const {
    return concat_node<decltype(f(a)), decltype(f(b))>(f(a), f(b));
  }
  [[nodiscard]] std::string to_string() const { return "concat(" + a.to_string() + ", " + b.to_string() + ")"; }
};

// The row number i itself: a leaf that reads no column.
struct row_index : node<row_index> {
  template <class Inputs>
  [[nodiscard]] COLX_HOST_DEVICE maybe<std::int64_t, false> operator()(Inputs const&, size_type i) const {
    return {static_cast<std::int64_t>(i)};
  }
  [[nodiscard]] static std::string to_string() { return "row_number()"; }
};

// Kleene (three-valued) AND and OR, as SQL and Arrow's and_kleene / or_kleene: a known false
// decides AND (a known true decides OR) even when the other side is null.
template <bool IsAnd, class A, class B>
struct kleene : node<kleene<IsAnd, A, B>> {
  A a;
  B b;
  constexpr COLX_HOST_DEVICE kleene(A a_, B b_) : a(a_), b(b_) {}
  // The right side is evaluated only when the left does not decide: like C++'s && and ||, so a
  // filter's later conditions read their columns only for rows that passed the earlier ones.
  template <class Inputs>
  [[nodiscard]] COLX_HOST_DEVICE auto operator()(Inputs const& in, size_type i) const {
    using X = result_t<A, Inputs>;
    using Y = result_t<B, Inputs>;
    static_assert(std::is_same_v<typename X::value_type, bool> && std::is_same_v<typename Y::value_type, bool>,
                  "colx: && and || need boolean operands (comparisons, is_null, ...)");
    constexpr bool nullable = X::nullable || Y::nullable;
    auto const x = a(in, i);
    bool const xv = static_cast<bool>(x.value);
    if (x.valid && xv != IsAnd) { return make_maybe<nullable>(!IsAnd, true); }  // false && _, true || _
    auto const y = b(in, i);
    bool const yv = static_cast<bool>(y.value);
    if (y.valid && yv != IsAnd) { return make_maybe<nullable>(!IsAnd, true); }
    // Neither side decides: the result is the identity (true for AND, false for OR) if both are
    // valid, else null.
    return make_maybe<nullable>(IsAnd, x.valid && y.valid);
  }
  template <class F>
  [[nodiscard]] auto map(F f) const {
    return kleene<IsAnd, decltype(f(a)), decltype(f(b))>(f(a), f(b));
  }
  [[nodiscard]] std::string to_string() const {
    return "(" + a.to_string() + (IsAnd ? " && " : " || ") + b.to_string() + ")";
  }
};

// NOT: null stays null.
template <class A>
struct logical_not : node<logical_not<A>> {
  A a;
  constexpr COLX_HOST_DEVICE explicit logical_not(A a_) : a(a_) {}
  template <class Inputs>
  [[nodiscard]] COLX_HOST_DEVICE auto operator()(Inputs const& in, size_type i) const {
    auto const x = a(in, i);
    return make_maybe<decltype(x)::nullable>(!static_cast<bool>(x.value), x.valid);
  }
  template <class F>
  [[nodiscard]] auto map(F f) const {
    return logical_not<decltype(f(a))>(f(a));
  }
  [[nodiscard]] std::string to_string() const { return "!" + a.to_string(); }
};

// is_null(a) / is_valid(a): never null.
template <bool WantNull, class A>
struct null_test : node<null_test<WantNull, A>> {
  A a;
  constexpr COLX_HOST_DEVICE explicit null_test(A a_) : a(a_) {}
  template <class Inputs>
  [[nodiscard]] COLX_HOST_DEVICE maybe<bool, false> operator()(Inputs const& in, size_type i) const {
    return make_maybe<false>(static_cast<bool>(a(in, i).valid) != WantNull, true);
  }
  template <class F>
  [[nodiscard]] auto map(F f) const {
    return null_test<WantNull, decltype(f(a))>(f(a));
  }
  [[nodiscard]] std::string to_string() const { return (WantNull ? "is_null(" : "is_valid(") + a.to_string() + ")"; }
};

// The type of a value from either branch: C++'s common type, except for integers of different
// signedness, which get a signed type holding both (as arithmetic does; C++ would make it unsigned).
template <class A, class B>
using branch_type_t =
    typename std::conditional_t<ops::detail::mixed_sign<A, B>, ops::detail::arithmetic_result_of<A, B>, std::common_type<A, B>>::type;

// A null of the type `a` has (case_when(c, t)'s missing ELSE): a is not evaluated.
template <class A>
struct null_like : node<null_like<A>> {
  A a;
  constexpr COLX_HOST_DEVICE explicit null_like(A a_) : a(a_) {}
  template <class Inputs>
  [[nodiscard]] COLX_HOST_DEVICE auto operator()(Inputs const&, size_type) const {
    using V = typename result_t<A, Inputs>::value_type;
    static_assert(column_element<V>, "colx: case_when(c, t) without an ELSE needs t of a column type (a number, date, decimal or string)");
    return maybe<V, true>{V{}, false};
  }
  template <class F>
  [[nodiscard]] auto map(F f) const {
    return null_like<decltype(f(a))>(f(a));
  }
  [[nodiscard]] static std::string to_string() { return "null"; }
};

// if_else(c, t, e): t where c is true, e where c is false, null where c is null (Arrow's
// if_else). case_when(c, t, e), NullTakesElse: e where c is null too (SQL's CASE WHEN).
template <class C, class T, class E, bool NullTakesElse = false>
struct if_else_node : node<if_else_node<C, T, E, NullTakesElse>> {
  C c;
  T t;
  E e;
  constexpr COLX_HOST_DEVICE if_else_node(C c_, T t_, E e_) : c(c_), t(t_), e(e_) {}
  template <class Inputs>
  [[nodiscard]] COLX_HOST_DEVICE auto operator()(Inputs const& in, size_type i) const {
    auto const cond = c(in, i);
    auto const x = t(in, i);
    auto const y = e(in, i);
    using X = typename decltype(x)::value_type;
    using Y = typename decltype(y)::value_type;
    // case_when: a null condition is not true, so the else branch (SQL's CASE WHEN).
    constexpr bool null_result = NullTakesElse ? false : decltype(cond)::nullable;
    constexpr bool nullable = null_result || decltype(x)::nullable || decltype(y)::nullable;
    bool const pick = static_cast<bool>(cond.valid) && static_cast<bool>(cond.value);
    bool const valid = (NullTakesElse || cond.valid) && (pick ? x.valid : y.valid);
    if constexpr (ops::computed_branches<X, Y>) {  // a computed string in a branch: the one taken is written
      return make_maybe<nullable>(ops::either_string<X, Y>{x.value, y.value, pick}, valid);
    } else {
      using R = branch_type_t<X, Y>;
      return make_maybe<nullable>(pick ? static_cast<R>(x.value) : static_cast<R>(y.value), valid);
    }
  }
  template <class F>
  [[nodiscard]] auto map(F f) const {
    return if_else_node<decltype(f(c)), decltype(f(t)), decltype(f(e)), NullTakesElse>(f(c), f(t), f(e));
  }
  [[nodiscard]] std::string to_string() const {
    return std::string(NullTakesElse ? "case_when(" : "if_else(") + c.to_string() + ", " + t.to_string() + ", " +
           e.to_string() + ")";
  }
};

// coalesce(a, b): a where valid, else b (fill_null when b is a constant).
template <class A, class B>
struct coalesce_node : node<coalesce_node<A, B>> {
  A a;
  B b;
  constexpr COLX_HOST_DEVICE coalesce_node(A a_, B b_) : a(a_), b(b_) {}
  template <class Inputs>
  [[nodiscard]] COLX_HOST_DEVICE auto operator()(Inputs const& in, size_type i) const {
    auto const x = a(in, i);
    auto const y = b(in, i);
    using X = typename decltype(x)::value_type;
    using Y = typename decltype(y)::value_type;
    constexpr bool nullable = decltype(x)::nullable && decltype(y)::nullable;
    if constexpr (ops::computed_branches<X, Y>) {
      return make_maybe<nullable>(ops::either_string<X, Y>{x.value, y.value, static_cast<bool>(x.valid)}, x.valid || y.valid);
    } else {
      using R = std::common_type_t<X, Y>;
      return make_maybe<nullable>(x.valid ? static_cast<R>(x.value) : static_cast<R>(y.value), x.valid || y.valid);
    }
  }
  template <class F>
  [[nodiscard]] auto map(F f) const {
    return coalesce_node<decltype(f(a)), decltype(f(b))>(f(a), f(b));
  }
  [[nodiscard]] std::string to_string() const { return "coalesce(" + a.to_string() + ", " + b.to_string() + ")"; }
};

// isin(a, {v...}): whether a equals one of a few constants, held inside the node.
template <class A, class T, std::size_t N>
struct isin_node : node<isin_node<A, T, N>> {
  A a;
  T values[N];
  template <class Inputs>
  [[nodiscard]] COLX_HOST_DEVICE auto operator()(Inputs const& in, size_type i) const {
    auto const x = a(in, i);
    bool found = false;
    for (std::size_t k = 0; k < N; ++k) { found = found || ops::equal::apply(x.value, values[k]); }
    return make_maybe<decltype(x)::nullable>(found, x.valid);
  }
  template <class F>
  [[nodiscard]] auto map(F f) const {
    isin_node<decltype(f(a)), T, N> out{{}, f(a), {}};
    for (std::size_t k = 0; k < N; ++k) { out.values[k] = values[k]; }
    return out;
  }
  [[nodiscard]] std::string to_string() const { return "isin(" + a.to_string() + ", " + std::to_string(N) + " values)"; }
};

}  // namespace colx::expr
