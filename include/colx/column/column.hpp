// SPDX-License-Identifier: Apache-2.0
#pragma once
// An owning, typed, fixed-width column: a thin typed handle over an any_column, so converting
// between column<T> and any_column is a move, never a copy.
#include <colx/column/any_column.hpp>
#include <colx/column/column_view.hpp>
#include <colx/memory/uvector.hpp>

#include <optional>
#include <utility>

namespace colx {

template <class T>
class column {
  static_assert(fixed_width_element<T>,
                "column<T> needs a fixed-width element type (bool, integers, floats, timestamps, durations, "
                "decimals); use strings_column for strings");

 public:
  using value_type = T;

  // An empty column of T.
  column() : _column(data_type_of<T>(), 0, buffer{}) {}

  // Takes over values and an optional mask (empty: no nulls). `type` carries a decimal's scale.
  explicit column(uvector<T>&& values, buffer&& mask = {}, size_type null_count = 0, data_type type = data_type_of<T>())
  {
    size_type const size = values.size();  // before release(): argument order is unspecified
    _column = any_column(checked(type), size, std::move(values).release(), std::move(mask), null_count);
  }

  // Checked: throws schema_error unless `c` holds T.
  explicit column(any_column&& c) : _column(std::move(c)) {
    COLX_EXPECTS_AS(schema_error, _column.type().id() == type_to_id<T>, "column has type ", _column.type().to_string(),
                    ", not the requested ", to_string(type_to_id<T>));
    check_scale(_column.type());
  }

  [[nodiscard]] size_type size() const noexcept { return _column.size(); }
  [[nodiscard]] bool empty() const noexcept { return _column.empty(); }
  [[nodiscard]] size_type null_count() const noexcept { return _column.null_count(); }
  [[nodiscard]] bool has_nulls() const noexcept { return _column.has_nulls(); }
  [[nodiscard]] bool nullable() const noexcept { return _column.nullable(); }
  [[nodiscard]] memory_kind kind() const noexcept { return _column.kind(); }
  [[nodiscard]] data_type type() const noexcept { return _column.type(); }

  // Read access (spilled memory comes back first; see shared_buffer).
  [[nodiscard]] T const* data() const { return static_cast<T const*>(_column.data().read()); }
  [[nodiscard]] bitmask_type const* null_mask() const { return static_cast<bitmask_type const*>(_column.mask().read()); }
  // Write access: under copy-on-write, memory shared with another column is copied first.
  [[nodiscard]] T* mutable_data(stream_ref stream = {}) { return static_cast<T*>(_column.mutable_data(stream)); }
  [[nodiscard]] bitmask_type* mutable_null_mask(stream_ref stream = {}) { return _column.mutable_null_mask(stream); }

  // Sets row i to `value` (valid), or to null when `value` is empty and the column is nullable.
  // A write: under copy-on-write only this column sees it. Synchronises the stream.
  void set_element(size_type i, std::optional<T> value, stream_ref stream = {}) {
    COLX_EXPECTS_AS(out_of_range, 0 <= i && i < size(), "row ", i, " is outside a column of ", size(), " rows");
    COLX_EXPECTS(value.has_value() || nullable(), "row ", i, " cannot be set to null: the column has no validity mask");
    if (value) { detail::copy_bytes(mutable_data(stream) + i, kind(), &*value, memory_kind::host, sizeof(T), stream); }
    if (!nullable()) { return; }
    bool const was_valid = bit_is_set(null_mask(), i, kind(), stream);
    if (was_valid == value.has_value()) { return; }
    set_bit(mutable_null_mask(stream), i, value.has_value(), kind(), stream);
    _column.set_null_count(null_count() + (value ? -1 : 1));
  }
  void set_null_count(size_type n) { _column.set_null_count(n); }

  [[nodiscard]] column_view<T> view() const {
    return column_view<T>(data(), size(), kind(), null_mask(), null_count(), 0, type());
  }
  operator column_view<T>() const { return view(); }          // NOLINT
  operator any_column_view() const { return _column.view(); }  // NOLINT
  [[nodiscard]] column_device_view<T> device_view() const { return view().device_view(); }
  // For work about to write on `stream`. Not noexcept: a write may copy shared memory first
  // (copy-on-write) or bring spilled memory back, and either may run out of memory (found by
  // eight threads spilling at once).
  [[nodiscard]] mutable_column_device_view<T> mutable_device_view(stream_ref stream = {}) {
    return {mutable_data(stream), mutable_null_mask(stream), size()};
  }

  [[nodiscard]] any_column const& untyped() const noexcept { return _column; }
  [[nodiscard]] any_column& untyped() noexcept { return _column; }
  [[nodiscard]] any_column release() && noexcept { return std::move(_column); }

 private:
  static data_type checked(data_type type) {
    COLX_EXPECTS_AS(schema_error, type.id() == type_to_id<T>, "a column<", to_string(type_to_id<T>),
                    "> cannot have type ", type.to_string());
    check_scale(type);
    return type;
  }
  // A dec<P, S> column holds values of scale S and no other: computing with a column of another
  // scale as if it had S would give answers off by powers of ten.
  // Nor values of more digits than P, which its arithmetic's result types assume.
  static void check_scale(data_type type) {
    if constexpr (dec_type<T>) {
      COLX_EXPECTS_AS(schema_error, type.scale() == -T::scale, "a column of dec<", T::precision, ", ", T::scale,
                      "> holds ", T::scale, " digits after the point; this column's type is ", type.to_string());
      COLX_EXPECTS_AS(schema_error, !type.declares_precision() || type.precision() <= T::precision, "a column of dec<",
                      T::precision, ", ", T::scale, "> holds at most ", T::precision, " digits; this column's type is ",
                      type.to_string());
    }
  }

  any_column _column;
};

}  // namespace colx
