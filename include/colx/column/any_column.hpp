// SPDX-License-Identifier: Apache-2.0
#pragma once
// An owning, run-time typed column: data buffer, validity mask (empty when the column has no
// nulls), null count and children (a strings column's offsets; its data buffer is the chars).
// The typed owners column<T> and strings_column wrap one of these, so moving between the typed
// and untyped faces never copies. The buffers are shared_buffers: copying a column is a shallow
// copy that shares memory, and the buffer rules (copy-on-write, spilling, exposure) apply to
// every access through it. A strings column may know that its strings all have one size
// (uniform_bytes: see make_fixed_width_strings).
#include <colx/column/any_column_view.hpp>
#include <colx/memory/shared_buffer.hpp>
#include <colx/types/type_dispatch.hpp>

#include <utility>
#include <vector>

namespace colx {
namespace detail {
// Says that the caller wrote a strings column's offsets itself, as 0, w, 2w, ...: only the code
// that builds such offsets may claim uniform_bytes (a false claim would read the wrong bytes).
struct built_uniform_offsets {
  explicit built_uniform_offsets() = default;
};
}  // namespace detail

class any_column {
 public:
  any_column() = default;

  // Takes ownership of the buffers; checks that they can hold `size` rows of `type`.
  any_column(data_type type, size_type size, buffer data, buffer mask = {}, size_type null_count = 0,
             std::vector<any_column> children = {})
      : any_column(type, size, shared_buffer(std::move(data)), shared_buffer(std::move(mask)), null_count,
                   std::move(children)) {}

  // Shares the buffers (a shallow column over memory owned elsewhere, foreign memory included).
  any_column(data_type type, size_type size, shared_buffer data, shared_buffer mask, size_type null_count = 0,
             std::vector<any_column> children = {})
      : _type(type), _size(size), _null_count(null_count), _data(std::move(data)), _mask(std::move(mask)),
        _children(std::move(children)) {
    COLX_EXPECTS(size >= 0, "a column cannot have a negative size (", size, ")");
    COLX_EXPECTS(type.id() != type_id::empty || size == 0, "an empty-typed column cannot have rows");
    if (is_fixed_width(type.id())) {
      COLX_EXPECTS(_data.size() >= static_cast<std::size_t>(size) * size_of(type), "a data buffer of ", _data.size(),
                   " bytes cannot hold ", size, " rows of ", type.to_string());
    }
    COLX_EXPECTS(_mask.empty() || _mask.size() >= static_cast<std::size_t>(bitmask_words(size)) * sizeof(bitmask_type),
                 "a mask of ", _mask.size(), " bytes cannot hold ", size, " bits");
    COLX_EXPECTS(0 <= null_count && null_count <= size, "null count ", null_count, " is outside [0, ", size, "]");
    COLX_EXPECTS(!_mask.empty() || null_count == 0, "a column without a validity mask cannot have ", null_count, " nulls");
    COLX_EXPECTS(_mask.empty() || _mask.kind() == _data.kind() || _data.empty(), "mask and data live in different memory (",
                 to_string(_mask.kind()), " and ", to_string(_data.kind()), ")");
    if (type.id() == type_id::string) {
      COLX_EXPECTS(_children.size() == 1, "a strings column needs one child (its offsets), not ", _children.size());
      auto const& offsets = _children.front();
      COLX_EXPECTS(offsets.type().id() == type_id::int32 || offsets.type().id() == type_id::int64,
                   "strings offsets must be int32 or int64, not ", offsets.type().to_string());
      COLX_EXPECTS(offsets.size() == size + 1 || (size == 0 && offsets.size() == 0), "a strings column of ", size,
                   " rows needs ", size + 1, " offsets, not ", offsets.size());
      COLX_EXPECTS(offsets.null_count() == 0, "strings offsets cannot be null");
    }
    if (type.id() == type_id::dictionary) {
      COLX_EXPECTS(_children.size() == 1, "a dictionary column needs one child (its dictionary), not ", _children.size());
      COLX_EXPECTS(type_id::int8 <= type.codes() && type.codes() <= type_id::uint64, "a dictionary's codes are integers, not ",
                   to_string(type.codes()));
      auto const& values = _children.front();
      COLX_EXPECTS(values.type().id() != type_id::dictionary && values.type().id() != type_id::empty,
                   "a dictionary's values cannot be of type ", values.type().to_string());
      COLX_EXPECTS(values.null_count() == 0, "a dictionary's values cannot be null (", values.null_count(),
                   " are): a null row is a null code");
      COLX_EXPECTS(values.kind() == _data.kind() || values.empty() || _data.empty(), "codes and dictionary live in different memory (",
                   to_string(_data.kind()), " and ", to_string(values.kind()), ")");
    }
  }

  // A moved-from column is empty but keeps its type.
  any_column(any_column&& other) noexcept
      : _type(other._type), _size(std::exchange(other._size, 0)), _null_count(std::exchange(other._null_count, 0)),
        _uniform_bytes(std::exchange(other._uniform_bytes, -1)), _data(std::move(other._data)), _mask(std::move(other._mask)),
        _children(std::move(other._children)) {}
  any_column& operator=(any_column&& other) noexcept {
    if (this != &other) {
      _type = other._type;
      _size = std::exchange(other._size, 0);
      _null_count = std::exchange(other._null_count, 0);
      _uniform_bytes = std::exchange(other._uniform_bytes, -1);
      _data = std::move(other._data);
      _mask = std::move(other._mask);
      _children = std::move(other._children);
    }
    return *this;
  }
  // Shallow: the copy shares the buffers. Deep copies are explicit: colx::copy(view, stream, mr).
  any_column(any_column const&) = default;
  any_column& operator=(any_column const&) = default;

  [[nodiscard]] data_type type() const noexcept { return _type; }
  [[nodiscard]] size_type size() const noexcept { return _size; }
  [[nodiscard]] bool empty() const noexcept { return _size == 0; }
  [[nodiscard]] size_type null_count() const noexcept { return _null_count; }
  [[nodiscard]] bool has_nulls() const noexcept { return _null_count > 0; }
  [[nodiscard]] bool nullable() const noexcept { return !_mask.empty(); }
  [[nodiscard]] memory_kind kind() const noexcept { return _data.kind(); }
  [[nodiscard]] std::vector<any_column> const& children() const noexcept { return _children; }

  [[nodiscard]] shared_buffer const& data() const noexcept { return _data; }
  [[nodiscard]] shared_buffer const& mask() const noexcept { return _mask; }
  // Writable access; under copy-on-write, memory shared with another column is copied first.
  // The null count is the caller's to keep.
  [[nodiscard]] void* mutable_data(stream_ref stream = {}) { return _data.write(stream); }
  [[nodiscard]] bitmask_type* mutable_null_mask(stream_ref stream = {}) {
    return static_cast<bitmask_type*>(_mask.write(stream));
  }
  // Every buffer of the column and its children exposed (interop hands out their addresses).
  void expose(stream_ref stream = {}, call_site where = call_site::current()) {
    (void)_data.expose(stream, where);
    (void)_mask.expose(stream, where);
    for (auto& c : _children) { c.expose(stream, where); }
  }
  // Writable children: a strings column's offsets may change, so it no longer claims uniform_bytes.
  [[nodiscard]] std::vector<any_column>& mutable_children() noexcept {
    _uniform_bytes = -1;
    return _children;
  }
  // See any_column_view::uniform_bytes.
  [[nodiscard]] size_type uniform_bytes() const noexcept { return _uniform_bytes; }
  // For the builder of a strings column whose offsets it wrote as 0, width, 2 width, ...: checks
  // what it can without reading the offsets (the chars hold every row's bytes).
  void set_uniform_bytes(size_type width, detail::built_uniform_offsets) {
    COLX_EXPECTS(_type.id() == type_id::string, "only a strings column has uniform_bytes, not ", _type.to_string());
    COLX_EXPECTS(width >= 0 && _data.size() >= static_cast<std::size_t>(_size) * static_cast<std::size_t>(width), "chars of ",
                 _data.size(), " bytes cannot hold ", _size, " strings of ", width, " bytes");
    _uniform_bytes = width;
  }
  void set_null_count(size_type null_count) {
    COLX_EXPECTS(0 <= null_count && null_count <= _size && (nullable() || null_count == 0), "null count ", null_count,
                 " is impossible for this column");
    _null_count = null_count;
  }

  [[nodiscard]] any_column_view view() const {
    std::vector<any_column_view> children;
    children.reserve(_children.size());
    for (auto const& c : _children) { children.push_back(c.view()); }
    any_column_view v(_type, _size, _data.read(), _data.kind(), static_cast<bitmask_type const*>(_mask.read()), _null_count,
                      0, std::move(children));
    v._uniform_bytes = _uniform_bytes;
    return v;
  }
  operator any_column_view() const { return view(); }  // NOLINT

  // The parts, for whoever takes them over.
  struct contents {
    shared_buffer data;
    shared_buffer mask;
    std::vector<any_column> children;
  };
  [[nodiscard]] contents release() && noexcept {
    _size = _null_count = 0;
    _uniform_bytes = -1;
    return {std::move(_data), std::move(_mask), std::move(_children)};
  }

 private:
  data_type _type{};
  size_type _size = 0;
  size_type _null_count = 0;
  size_type _uniform_bytes = -1;  // strings only
  shared_buffer _data;
  shared_buffer _mask;
  std::vector<any_column> _children;
};

}  // namespace colx
