// SPDX-License-Identifier: Apache-2.0
#pragma once
// Dictionary columns in Arrow's layout: a data buffer of integer codes (with the validity mask:
// a null row is a null code) and one child, the dictionary, a column of values that are never
// null. dictionary_column<V, Code> owns one (a typed handle over an any_column); a slice moves the
// codes and shares the whole dictionary. dictionary_input_view is what a fused kernel reads: the
// value of row i is the dictionary's entry codes[i], and its code is there for the work that only
// needs equality (group-by keys, kept rows).
#include <colx/column/any_column.hpp>
#include <colx/column/column_view.hpp>
#include <colx/types/dictionary.hpp>

#include <utility>

namespace colx {

template <class Code, class Values>
struct dictionary_input_view {
  Code const* codes = nullptr;         // row 0 of the view
  bitmask_type const* mask = nullptr;  // the codes' validity
  size_type mask_offset = 0;
  size_type size = 0;
  Values values{};  // the dictionary, as a kernel reads a column of its values

  [[nodiscard]] COLX_HOST_DEVICE bool is_valid(size_type i) const noexcept {
    return mask == nullptr || bit_is_set(mask, mask_offset + i);
  }
  [[nodiscard]] COLX_HOST_DEVICE Code code(size_type i) const noexcept { return codes[i]; }
  // Row i's value; a default value for a null row, whose code may be anything (Arrow leaves it
  // undefined) and is not followed.
  [[nodiscard]] COLX_HOST_DEVICE auto value(size_type i) const noexcept {
    using value_t = decltype(values.value(0));
    return is_valid(i) ? values.value(static_cast<size_type>(codes[i])) : value_t{};
  }
};

template <class V, class Code>
class dictionary_column {
 public:
  using element_type = colx::dictionary<V, Code>;

  // Checked: throws schema_error unless `c` is a dictionary column of Code codes over values of V.
  // The codes are trusted to index the dictionary (make_dictionary_column and Arrow import check them).
  explicit dictionary_column(any_column&& c) : _column(std::move(c)) {
    COLX_EXPECTS_AS(schema_error, _column.type() == data_type_of<element_type>(), "column has type ",
                    _column.type().to_string(), ", not ", data_type_of<element_type>().to_string());
    data_type const values = dictionary().type();
    COLX_EXPECTS_AS(schema_error, values.id() == type_to_id<V>, "a dictionary of ", to_string(type_to_id<V>),
                    " values cannot hold ", values.to_string());
    if constexpr (dec_type<V>) {
      COLX_EXPECTS_AS(schema_error, values.scale() == -V::scale, "a dictionary of dec<", V::precision, ", ", V::scale,
                      "> values cannot hold ", values.to_string());
    }
  }

  [[nodiscard]] size_type size() const noexcept { return _column.size(); }
  [[nodiscard]] bool empty() const noexcept { return _column.empty(); }
  [[nodiscard]] size_type null_count() const noexcept { return _column.null_count(); }
  [[nodiscard]] bool has_nulls() const noexcept { return _column.has_nulls(); }
  [[nodiscard]] bool nullable() const noexcept { return _column.nullable(); }
  [[nodiscard]] memory_kind kind() const noexcept { return _column.kind(); }
  [[nodiscard]] data_type type() const noexcept { return _column.type(); }

  // The codes, row by row (a null row's code is unspecified).
  [[nodiscard]] column_view<Code> codes() const {
    return column_view<Code>(static_cast<Code const*>(_column.data().read()), size(), kind(),
                             static_cast<bitmask_type const*>(_column.mask().read()), null_count());
  }
  // The values the codes index: entry k is the value of every row whose code is k.
  [[nodiscard]] any_column const& dictionary() const noexcept { return _column.children().front(); }
  [[nodiscard]] size_type dictionary_size() const noexcept { return dictionary().size(); }

  operator any_column_view() const { return _column.view(); }  // NOLINT
  [[nodiscard]] any_column const& untyped() const noexcept { return _column; }
  [[nodiscard]] any_column release() && noexcept { return std::move(_column); }

 private:
  any_column _column;
};

}  // namespace colx
