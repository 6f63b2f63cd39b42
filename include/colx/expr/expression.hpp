// SPDX-License-Identifier: Apache-2.0
#pragma once
// Expression leaves and the name-to-position binding. Users write column references by name
// ("price"_c or colx::col<"price">); before anything is launched, bind<Schema> replaces each by a
// bound_col<I, T, Nullable> that reads view I of the kernel's inputs. Bound expressions carry no
// fixed_string, so they can be kernel arguments (nvcc's generated launch code cannot spell one).
#include <colx/core/fixed_string.hpp>
#include <colx/expr/maybe.hpp>
#include <colx/types/schema.hpp>
#include <colx/core/tuple.hpp>

#include <string>
#include <type_traits>
#include <vector>

namespace colx {
namespace expr {

template <fixed_string Name, class E>
struct named_expr;

// Every expression node derives from node<Self>: the tag the operators look for, and .as<"name">()
// to name an output.
struct node_tag {};

template <class Derived>
struct node : node_tag {
  template <fixed_string Name>
  [[nodiscard]] constexpr named_expr<Name, Derived> as() const {
    return named_expr<Name, Derived>{static_cast<Derived const&>(*this)};
  }
};

template <class E>
concept expression = std::is_base_of_v<node_tag, std::remove_cvref_t<E>>;

// An expression with an output name: an argument of with_columns and aggregate. Named outputs are
// unpacked before launch, so the name never reaches a kernel.
template <fixed_string Name, class E>
struct named_expr {
  static constexpr auto name = Name;
  E expr;
};

// A column reference by name, not yet bound to a schema.
template <fixed_string Name>
struct col : node<col<Name>> {
  static constexpr auto name = Name;
  static constexpr bool is_column_ref = true;
  [[nodiscard]] static std::string to_string() { return std::string(Name.view()); }
};

template <class E>
concept column_ref = expression<E> && named<E> && requires { requires E::is_column_ref; };

// A column reference bound to position I of the kernel's inputs, holding elements of type T. It
// reads their values: a dictionary<V, Code> column's V, decoded.
template <std::size_t I, class T, bool Nullable>
struct bound_col : node<bound_col<I, T, Nullable>> {
  using value_type = value_of_t<T>;
  using element_type = T;
  static constexpr std::size_t position = I;
  template <class Inputs>
  [[nodiscard]] COLX_HOST_DEVICE maybe<value_type, Nullable> operator()(Inputs const& in, size_type i) const {
    auto const& view = get<I>(in);
    if constexpr (Nullable) {
      return {view.value(i), view.is_valid(i)};
    } else {
      return {view.value(i)};
    }
  }
  [[nodiscard]] static std::string to_string() { return "$" + std::to_string(I); }
};

// The codes of a dictionary column bound to position I: what group-by keys compare, as equal
// values have equal codes (a dictionary's values are distinct: see dictionary_column).
template <std::size_t I, class T, bool Nullable>
struct bound_codes : node<bound_codes<I, T, Nullable>> {
  using value_type = typename T::code_type;
  using element_type = T;  // a result column of these codes is a column of T again
  static constexpr std::size_t position = I;
  template <class Inputs>
  [[nodiscard]] COLX_HOST_DEVICE maybe<value_type, Nullable> operator()(Inputs const& in, size_type i) const {
    auto const& view = get<I>(in);
    if constexpr (Nullable) {
      return {view.code(i), view.is_valid(i)};
    } else {
      return {view.code(i)};
    }
  }
  [[nodiscard]] static std::string to_string() { return "codes($" + std::to_string(I) + ")"; }
};

// Whether E is a bound column itself (its values or its codes), nothing computed from it: other
// nodes also carry a column position (a dictionary column compared with, or LIKE, a constant),
// but their type does not show the constant, so two of them are not known to be one expression.
template <class E>
inline constexpr bool is_bound_column = false;
template <std::size_t I, class T, bool Nullable>
inline constexpr bool is_bound_column<bound_col<I, T, Nullable>> = true;
template <std::size_t I, class T, bool Nullable>
inline constexpr bool is_bound_column<bound_codes<I, T, Nullable>> = true;

// A bound column of a dictionary as its codes; any other expression as it is.
template <class E>
[[nodiscard]] constexpr auto codes_if_dictionary(E const& e) {
  return e;
}
template <std::size_t I, class T, bool Nullable>
[[nodiscard]] constexpr auto codes_if_dictionary(bound_col<I, T, Nullable> const& e) {
  if constexpr (dictionary_type<T>) {
    return bound_codes<I, T, Nullable>{};
  } else {
    return e;
  }
}

// A constant. Never null.
template <class T>
struct literal : node<literal<T>> {
  T value;
  constexpr COLX_HOST_DEVICE explicit literal(T v) : value(v) {}
  template <class Inputs>
  [[nodiscard]] COLX_HOST_DEVICE maybe<T, false> operator()(Inputs const&, size_type) const {
    return {value};
  }
  [[nodiscard]] std::string to_string() const {
    if constexpr (std::is_arithmetic_v<T>) {
      return std::to_string(value);
    } else {
      return "literal";
    }
  }
};

// A string constant stored inside the expression, so a kernel can read it from its arguments.
template <std::size_t N>
struct string_literal : node<string_literal<N>> {
  char chars[N]{};
  size_type size = 0;
  constexpr string_literal(char const (&s)[N]) : size(N - 1) {  // NOLINT
    for (std::size_t i = 0; i < N; ++i) { chars[i] = s[i]; }
  }
  template <class Inputs>
  [[nodiscard]] COLX_HOST_DEVICE maybe<string_view, false> operator()(Inputs const&, size_type) const {
    return {string_view(chars, size)};
  }
  [[nodiscard]] std::string to_string() const { return "\"" + std::string(chars, static_cast<std::size_t>(size)) + "\""; }
};

// C++ spells a 64-bit integer two ways, long and long long, and std::int64_t is one of them: a
// constant of the other spelling (100000000000LL where int64_t is long) is taken as the column
// type of its width.
template <class T>
using constant_type_t = std::conditional_t<std::is_integral_v<T> && !column_element<T> && sizeof(T) == 8,
                                           std::conditional_t<std::is_signed_v<T>, std::int64_t, std::uint64_t>, T>;

// Wraps a C++ value as an expression; expressions pass through.
template <class T>
[[nodiscard]] constexpr auto as_expression(T const& v) {
  if constexpr (expression<T>) {
    return v;
  } else if constexpr (std::is_array_v<T>) {
    return string_literal(v);
  } else {
    using constant = constant_type_t<T>;
    static_assert(column_element<constant>, "colx: a constant in an expression must have a column element type");
    return literal<constant>(static_cast<constant>(v));
  }
}

// ---- binding ---------------------------------------------------------------------------------

// Interior nodes rebuild themselves over transformed children with map(f); leaves have no map.
struct identity_fn {
  template <class E>
  constexpr E operator()(E const& e) const {
    return e;
  }
};
template <class E>
concept interior_node = requires(E const& e) { e.map(identity_fn{}); };

template <class Schema>
struct bind_fn;

// The expression with every column reference replaced by its position in Schema.
template <class Schema, class E>
[[nodiscard]] constexpr auto bind(E const& e) {
  if constexpr (column_ref<E>) {
    using field = typename field_of<Schema, E>::type;  // a misspelt name fails here, with its message
    // ... and binds to the first column, as field_of's type does, so that nothing after the message
    // fails again: the message is the only error.
    constexpr std::size_t position = Schema::template contains<E> ? Schema::template index_of<E> : 0;
    return bound_col<position, typename field::type, field::is_nullable>{};
  } else if constexpr (interior_node<E>) {
    return e.map(bind_fn<Schema>{});
  } else {
    return e;
  }
}

template <class Schema>
struct bind_fn {
  template <class E>
  constexpr auto operator()(E const& e) const {
    return bind<Schema>(e);
  }
};

// Marks the input positions a bound expression reads (for explain's byte counts).
template <class E>
void mark_columns(E const& e, std::vector<bool>& used);

struct mark_fn {
  std::vector<bool>* used;
  template <class E>
  E operator()(E const& e) const {
    mark_columns(e, *used);
    return e;
  }
};

template <class E>
void mark_columns(E const& e, std::vector<bool>& used) {
  if constexpr (requires { E::position; }) {
    used.at(E::position) = true;
  } else if constexpr (interior_node<E>) {
    (void)e.map(mark_fn{&used});
  }
}

// The row type an expression evaluates to on inputs of type Inputs: maybe<T, Nullable>.
template <class E, class Inputs>
using result_t = decltype(std::declval<E const&>()(std::declval<Inputs const&>(), size_type{}));

}  // namespace expr

using expr::col;

namespace literals {
// "price"_c: a reference to the column named "price".
template <fixed_string Name>
[[nodiscard]] constexpr expr::col<Name> operator""_c() noexcept {
  return {};
}
}  // namespace literals

}  // namespace colx
