// SPDX-License-Identifier: Apache-2.0
#pragma once
// A non-owning, typed view of a fixed-width column: the face algorithms and kernels work with.
// Cheap to copy; slices are zero-copy and may start at any row (and so any bit of the mask).
#include <colx/column/any_column_view.hpp>
#include <colx/column/column_device_view.hpp>

namespace colx {

template <class T>
class column_view {
  static_assert(fixed_width_element<T>,
                "column_view<T> needs a fixed-width element type (bool, integers, floats, timestamps, durations, "
                "decimals); use strings_column_view for strings");

 public:
  using value_type = T;

  column_view() = default;
  column_view(T const* head, size_type size, memory_kind kind, bitmask_type const* mask = nullptr,
              size_type null_count = 0, size_type offset = 0, data_type type = data_type_of<T>())
      : _head(head), _mask(mask), _offset(offset), _size(size), _null_count(null_count), _kind(kind), _type(type) {
    COLX_EXPECTS_AS(schema_error, type.id() == type_to_id<T>, "a column_view of ", to_string(type_to_id<T>), " cannot have type ",
                 type.to_string());
    COLX_EXPECTS(size >= 0 && offset >= 0, "a column view needs a non-negative size and offset");
    COLX_EXPECTS(0 <= null_count && null_count <= size, "null count ", null_count, " is outside [0, ", size, "]");
    COLX_EXPECTS(mask != nullptr || null_count == 0, "a column without a validity mask cannot have nulls");
  }

  [[nodiscard]] size_type size() const noexcept { return _size; }
  [[nodiscard]] size_type offset() const noexcept { return _offset; }
  [[nodiscard]] bool empty() const noexcept { return _size == 0; }
  [[nodiscard]] size_type null_count() const noexcept { return _null_count; }
  [[nodiscard]] bool has_nulls() const noexcept { return _null_count > 0; }
  [[nodiscard]] bool nullable() const noexcept { return _mask != nullptr; }
  [[nodiscard]] memory_kind kind() const noexcept { return _kind; }
  [[nodiscard]] data_type type() const noexcept { return _type; }
  [[nodiscard]] T const* data() const noexcept { return _head + _offset; }
  [[nodiscard]] T const* head() const noexcept { return _head; }
  [[nodiscard]] bitmask_type const* null_mask() const noexcept { return _mask; }

  [[nodiscard]] column_device_view<T> device_view() const noexcept { return {data(), _mask, _offset, _size}; }

  // Rows [begin, end), sharing memory; synchronises the stream to count the slice's nulls.
  [[nodiscard]] column_view slice(size_type begin, size_type end, stream_ref stream = {}) const {
    COLX_EXPECTS_AS(out_of_range, 0 <= begin && begin <= end && end <= _size, "slice [", begin, ", ", end,
                    ") is outside a column of ", _size, " rows");
    size_type const nulls = _null_count == 0 ? 0 : count_unset_bits(_mask, _offset + begin, _offset + end, _kind, stream);
    return column_view(_head, end - begin, _kind, _mask, nulls, _offset + begin, _type);
  }

  operator any_column_view() const {  // NOLINT: a typed view is an untyped one
    return any_column_view(_type, _size, _head, _kind, _mask, _null_count, _offset);
  }

 private:
  T const* _head = nullptr;
  bitmask_type const* _mask = nullptr;
  size_type _offset = 0;
  size_type _size = 0;
  size_type _null_count = 0;
  memory_kind _kind = memory_kind::host;
  data_type _type = data_type_of<T>();
};

template <class T>
column_view<T> any_column_view::as() const {
  static_assert(fixed_width_element<T>, "any_column_view::as<T>() needs a fixed-width T; use strings_column_view for strings");
  COLX_EXPECTS_AS(schema_error, _type.id() == type_to_id<T>, "column has type ", _type.to_string(),
                  ", not the requested ", to_string(type_to_id<T>));
  return column_view<T>(static_cast<T const*>(_head), _size, _kind, _mask, _null_count, _offset, _type);
}

}  // namespace colx
