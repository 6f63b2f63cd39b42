// SPDX-License-Identifier: Apache-2.0
#pragma once
// What the typed file readers (read_parquet<Schema>, read_csv<Schema>) share: the type a field is
// read as (a dictionary field: its values' type), and a read table's dictionary fields encoded.
#include <colx/frame/dictionary_encode.hpp>
#include <colx/table/any_table.hpp>
#include <colx/types/schema.hpp>

#include <string>

namespace colx::io::detail {

// The type Field's column is read as: its own, or a dictionary field's values' type.
template <class Field>
data_type read_type() {
  using T = typename Field::type;
  if constexpr (dictionary_type<T>) {
    return data_type_of<typename T::value_type>();
  } else {
    return data_type_of<T>();
  }
}

// Replaces a dictionary field's column by its dictionary encoding.
template <class Field>
void encode_if_dictionary(any_table& t, stream_ref stream) {
  using T = typename Field::type;
  if constexpr (dictionary_type<T>) {
    label const l(std::string(Field::name.view()));
    column_storage_t<typename T::value_type> const values{any_column(t[l])};
    t.mutable_column(l) = encode<typename T::code_type>(values, stream).untyped();
  }
}

// The table as a frame of Schema, its dictionary fields encoded first.
template <class Schema>
frame<Schema> to_frame(any_table t, stream_ref stream) {
  [&]<class... Fields>(schema<Fields...> const*) {
    (encode_if_dictionary<Fields>(t, stream), ...);
  }(static_cast<Schema const*>(nullptr));
  return t.template as<Schema>();
}

}  // namespace colx::io::detail
