// SPDX-License-Identifier: Apache-2.0
#pragma once
// colx::dictionary<V, Code>: the element type of a dictionary (categorical) column, Arrow's
// dictionary array and cuDF's dictionary32. Row i holds a code, an integer of type Code, and its
// value is entry `code` of the column's dictionary, a column of V. A low-cardinality column (a
// status flag, a country, a ship mode) is then one byte a row however long its strings are, and
// kernels that only need equality (group-by keys, kept rows) work on the codes.
//
//   using lineitem = colx::schema<colx::field<"l_returnflag", colx::dictionary<colx::string_view, std::uint8_t>>, ...>;
//
// Expressions read the value (a string_view here), so every function of V applies unchanged.
#include <concepts>
#include <cstdint>
#include <type_traits>

namespace colx {

template <class V, class Code = std::int32_t>
struct dictionary {
  static_assert(std::is_integral_v<Code> && !std::is_same_v<Code, bool>,
                "colx::dictionary<V, Code>: the codes are integers (std::uint8_t for at most 256 values, "
                "std::int32_t as Arrow's default)");
  using value_type = V;  // what a row's value is (the dictionary's element type)
  using code_type = Code;
};

template <class T>
struct is_dictionary : std::false_type {};
template <class V, class Code>
struct is_dictionary<dictionary<V, Code>> : std::true_type {};
template <class T>
concept dictionary_type = is_dictionary<T>::value;

namespace detail {
template <class T>
struct element_traits {
  using value = T;
  using stored = T;
};
template <class V, class Code>
struct element_traits<dictionary<V, Code>> {
  using value = V;
  using stored = Code;
};
}  // namespace detail

// What an expression reads of a row of element type T: V for a dictionary<V, Code>, else T.
template <class T>
using value_of_t = typename detail::element_traits<T>::value;
// What a row stores in the column's data buffer: Code for a dictionary<V, Code>, else T. Kept
// rows (a filter's, a gather's, a join's) copy what is stored, so a dictionary stays encoded.
template <class T>
using stored_t = typename detail::element_traits<T>::stored;

}  // namespace colx
