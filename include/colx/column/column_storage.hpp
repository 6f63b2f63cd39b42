// SPDX-License-Identifier: Apache-2.0
#pragma once
// The owning column of each element type, and what a fused kernel reads of it: column<T> and
// column_device_view<T> for fixed-width values, strings_column and strings_input_view for
// strings, dictionary_column and dictionary_input_view for dictionaries.
#include <colx/column/column.hpp>
#include <colx/column/dictionary_column.hpp>
#include <colx/column/strings_column.hpp>
#include <colx/column/strings_input_view.hpp>

#include <type_traits>

namespace colx {
namespace detail {
template <class T>
struct storage_of {
  using column = colx::column<T>;
  using input = column_device_view<T>;
};
template <>
struct storage_of<string_view> {
  using column = strings_column;
  using input = strings_input_view;
};
template <class V, class Code>
struct storage_of<dictionary<V, Code>> {
  using column = dictionary_column<V, Code>;
  using input = dictionary_input_view<Code, typename storage_of<V>::input>;
};
}  // namespace detail

// The owning column type of a field's element type, and what a kernel reads of it.
template <class T>
using column_storage_t = typename detail::storage_of<T>::column;
template <class T>
using input_view_t = typename detail::storage_of<T>::input;

// What a kernel reads of a column.
template <class T>
[[nodiscard]] column_device_view<T> input_of(column<T> const& c) {
  return c.device_view();
}
[[nodiscard]] inline strings_input_view input_of(strings_column const& c) { return input_view(c.view()); }
// The values as a kernel reads a column of them (an untyped dictionary, typed here).
template <class V>
[[nodiscard]] input_view_t<V> input_of_values(any_column const& values) {
  if constexpr (std::is_same_v<V, string_view>) {
    return input_view(strings_column_view(values.view()));
  } else {
    return values.view().template as<V>().device_view();
  }
}
template <class V, class Code>
[[nodiscard]] input_view_t<dictionary<V, Code>> input_of(dictionary_column<V, Code> const& c) {
  auto const codes = c.codes().device_view();
  return {codes.data, codes.mask, codes.mask_offset, codes.size, input_of_values<V>(c.dictionary())};
}

}  // namespace colx
