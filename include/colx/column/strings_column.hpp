// SPDX-License-Identifier: Apache-2.0
#pragma once
// Strings columns in Arrow's layout: an offsets child (int32 or int64) with size + 1 entries and
// a chars buffer of UTF-8 bytes. strings_column owns one (a typed handle over an any_column);
// strings_column_view looks at rows of one, zero-copy.
#include <colx/column/any_column.hpp>
#include <colx/column/strings_device_view.hpp>

#include <cstdint>
#include <utility>

namespace colx {

class strings_column_view {
 public:
  strings_column_view() = default;
  // Checked: throws schema_error unless `view` is a strings column.
  explicit strings_column_view(any_column_view view) : _view(std::move(view)) {
    COLX_EXPECTS_AS(schema_error, _view.type().id() == type_id::string, "column has type ", _view.type().to_string(),
                    ", not string");
  }

  [[nodiscard]] size_type size() const noexcept { return _view.size(); }
  [[nodiscard]] size_type offset() const noexcept { return _view.offset(); }
  [[nodiscard]] bool empty() const noexcept { return _view.empty(); }
  [[nodiscard]] size_type null_count() const noexcept { return _view.null_count(); }
  [[nodiscard]] bool has_nulls() const noexcept { return _view.has_nulls(); }
  [[nodiscard]] bool nullable() const noexcept { return _view.nullable(); }
  [[nodiscard]] memory_kind kind() const noexcept { return _view.kind(); }
  [[nodiscard]] bitmask_type const* null_mask() const noexcept { return _view.null_mask(); }
  [[nodiscard]] char const* chars() const noexcept { return static_cast<char const*>(_view.head()); }
  // int32 or int64.
  [[nodiscard]] type_id offset_type() const noexcept {
    return _view.children().empty() ? type_id::int32 : _view.child(0).type().id();
  }
  // Bytes of every string, when the column knows them all equal (see make_fixed_width_strings),
  // else -1: row i's bytes are then at chars() + (offset() + i) * uniform_bytes().
  [[nodiscard]] size_type uniform_bytes() const noexcept { return _view.uniform_bytes(); }
  // The parent's offsets; this view's row 0 starts at offsets_head<O>()[offset()].
  template <class Offset>
  [[nodiscard]] Offset const* offsets_head() const {
    COLX_EXPECTS_AS(schema_error, !_view.children().empty() && type_to_id<Offset> == offset_type(),
                    "strings offsets are ", to_string(offset_type()), ", not ", to_string(type_to_id<Offset>));
    return static_cast<Offset const*>(_view.child(0).head());
  }

  template <class Offset>
  [[nodiscard]] strings_device_view<Offset> device_view() const {
    if (empty()) { return {}; }
    return {offsets_head<Offset>() + offset(), chars(), null_mask(), offset(), size()};
  }

  // Calls f(device_view<Offset>()) with the column's offset type: the one dispatch strings need.
  template <class F>
  decltype(auto) visit(F&& f) const {
    if (offset_type() == type_id::int64) { return std::forward<F>(f)(device_view<std::int64_t>()); }
    return std::forward<F>(f)(device_view<std::int32_t>());
  }

  [[nodiscard]] strings_column_view slice(size_type begin, size_type end, stream_ref stream = {}) const {
    return strings_column_view(_view.slice(begin, end, stream));
  }

  [[nodiscard]] any_column_view const& untyped() const noexcept { return _view; }
  operator any_column_view const&() const noexcept { return _view; }  // NOLINT

 private:
  any_column_view _view{data_type{type_id::string}, 0, nullptr, memory_kind::host, nullptr, 0, 0,
                        {any_column_view{data_type{type_id::int32}, 0, nullptr, memory_kind::host, nullptr, 0}}};
};

class strings_column {
 public:
  // Checked: throws schema_error unless `c` is a strings column.
  explicit strings_column(any_column&& c) : _column(std::move(c)) {
    COLX_EXPECTS_AS(schema_error, _column.type().id() == type_id::string, "column has type ",
                    _column.type().to_string(), ", not string");
  }

  [[nodiscard]] size_type size() const noexcept { return _column.size(); }
  [[nodiscard]] bool empty() const noexcept { return _column.empty(); }
  [[nodiscard]] size_type null_count() const noexcept { return _column.null_count(); }
  [[nodiscard]] bool has_nulls() const noexcept { return _column.has_nulls(); }
  [[nodiscard]] bool nullable() const noexcept { return _column.nullable(); }
  [[nodiscard]] memory_kind kind() const noexcept { return _column.kind(); }
  [[nodiscard]] size_type chars_size() const noexcept { return static_cast<size_type>(_column.data().size()); }
  [[nodiscard]] size_type uniform_bytes() const noexcept { return _column.uniform_bytes(); }

  [[nodiscard]] strings_column_view view() const { return strings_column_view(_column.view()); }
  operator strings_column_view() const { return view(); }      // NOLINT
  operator any_column_view() const { return _column.view(); }  // NOLINT

  [[nodiscard]] any_column const& untyped() const noexcept { return _column; }
  [[nodiscard]] any_column release() && noexcept { return std::move(_column); }

 private:
  any_column _column;
};

}  // namespace colx
