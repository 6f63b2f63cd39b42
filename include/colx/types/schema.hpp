// SPDX-License-Identifier: Apache-2.0
#pragma once
// Compile-time schemas: an ordered list of named, typed fields. Names are for users; kernels see
// positions, resolved here at compile time.
#include <colx/core/fixed_string.hpp>
#include <colx/types/data_type.hpp>

#include <cstddef>
#include <tuple>
#include <type_traits>

namespace colx {

enum nullability : bool { not_null = false, nullable = true };

namespace detail {
template <class T>
consteval bool dictionary_well_formed() {
  if constexpr (dictionary_type<T>) {
    using values = typename T::value_type;
    return column_element<values> && !dictionary_type<values> && column_element<typename T::code_type>;
  } else {
    return true;
  }
}
}  // namespace detail

// A column of a schema: name, element type, and whether it may hold nulls. A not_null field's
// kernels read no validity mask at all.
template <fixed_string Name, class T, nullability Nullable = nullable>
struct field {
  static_assert(column_element<T>,
                "colx::field: the element type must be one colx columns hold (bool, integers, floats, timestamps, "
                "durations, decimals, colx::string_view, colx::dictionary<V, Code>)");
  static_assert(detail::dictionary_well_formed<T>(),
                "colx::field: a colx::dictionary<V, Code> holds values V that a column holds (strings, numbers, dates, "
                "decimals; not another dictionary) and integer codes");
  static constexpr auto name = Name;
  using type = T;
  static constexpr bool is_nullable = Nullable == nullable;
};

template <class F>
concept field_type = named<F> && requires {
  typename F::type;
  { F::is_nullable } -> std::convertible_to<bool>;
};

namespace detail {
template <class... Fields>
consteval bool names_unique() {
  std::string_view const names[] = {Fields::name.view()..., ""};
  for (std::size_t i = 0; i < sizeof...(Fields); ++i) {
    for (std::size_t j = i + 1; j < sizeof...(Fields); ++j) {
      if (names[i] == names[j]) { return false; }
    }
  }
  return true;
}

inline constexpr std::size_t not_found = static_cast<std::size_t>(-1);

template <class... Fields>
consteval std::size_t find_field(std::string_view name) {
  std::string_view const names[] = {Fields::name.view()..., ""};
  for (std::size_t i = 0; i < sizeof...(Fields); ++i) {
    if (names[i] == name) { return i; }
  }
  return not_found;
}
}  // namespace detail

template <class... Fields>
struct schema {
  static_assert((field_type<Fields> && ...), "colx::schema takes colx::field<\"name\", T> arguments");
  static_assert(detail::names_unique<Fields...>(), "colx::schema: two fields have the same name");

  static constexpr std::size_t size = sizeof...(Fields);

  // The position of the field named like the column reference C (which has a static `name`).
  template <class C>
  static constexpr std::size_t index_of = detail::find_field<Fields...>(C::name.view());

  template <class C>
  static constexpr bool contains = index_of<C> != detail::not_found;

  template <std::size_t I>
  using field_at = std::tuple_element_t<I, std::tuple<Fields...>>;
};

// Fails to compile, naming the schema and the missing column in the diagnostic's context, when
// C is not a field of Schema.
template <class Schema, class C>
struct field_of {
  static_assert(Schema::template contains<C>,
                "colx: this column name is not a field of the schema; the diagnostic's context shows the "
                "schema<field<...>...> and the misspelt col<\"name\">");
  using type = typename Schema::template field_at<Schema::template contains<C> ? Schema::template index_of<C> : 0>;
};

}  // namespace colx
