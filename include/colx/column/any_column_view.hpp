// SPDX-License-Identifier: Apache-2.0
#pragma once
// A non-owning, run-time typed view of a column: type, rows [offset, offset + size) of the
// parent's buffers, null count, and child views (a strings column's offsets). Slicing is
// zero-copy. The typed face is column_view<T>, reached by a checked as<T>().
#include <colx/column/bitmask_ops.hpp>
#include <colx/core/error.hpp>
#include <colx/types/data_type.hpp>

#include <utility>
#include <vector>

namespace colx {

template <class T>
class column_view;
class any_column;

class any_column_view {
 public:
  any_column_view() = default;
  any_column_view(data_type type, size_type size, void const* head, memory_kind kind, bitmask_type const* mask,
                  size_type null_count, size_type offset = 0, std::vector<any_column_view> children = {})
      : _type(type), _size(size), _offset(offset), _null_count(null_count), _head(head), _mask(mask), _kind(kind),
        _children(std::move(children)) {
    COLX_EXPECTS(size >= 0 && offset >= 0, "a column view needs a non-negative size and offset (size ", size,
                 ", offset ", offset, ")");
    COLX_EXPECTS(0 <= null_count && null_count <= size, "null count ", null_count, " is outside [0, ", size, "]");
    COLX_EXPECTS(mask != nullptr || null_count == 0, "a column without a validity mask cannot have ", null_count,
                 " nulls");
    if (type.id() == type_id::string) {
      COLX_EXPECTS(_children.size() == 1, "a strings column view needs one child (its offsets), not ", _children.size());
      auto const offsets = _children.front().type().id();
      COLX_EXPECTS(offsets == type_id::int32 || offsets == type_id::int64,
                   "strings offsets must be int32 or int64, not ", to_string(offsets));
      COLX_EXPECTS(size == 0 || _children.front().size() >= offset + size + 1, "strings offsets of ",
                   _children.front().size(), " rows cannot describe rows [", offset, ", ", offset + size, ")");
    }
    // A dictionary's child is the whole dictionary: a slice moves the codes, never the values.
    COLX_EXPECTS(type.id() != type_id::dictionary || _children.size() == 1,
                 "a dictionary column view needs one child (its dictionary), not ", _children.size());
  }

  [[nodiscard]] data_type type() const noexcept { return _type; }
  [[nodiscard]] size_type size() const noexcept { return _size; }
  [[nodiscard]] size_type offset() const noexcept { return _offset; }
  [[nodiscard]] bool empty() const noexcept { return _size == 0; }
  [[nodiscard]] size_type null_count() const noexcept { return _null_count; }
  [[nodiscard]] bool has_nulls() const noexcept { return _null_count > 0; }
  [[nodiscard]] bool nullable() const noexcept { return _mask != nullptr; }
  [[nodiscard]] memory_kind kind() const noexcept { return _kind; }
  // The parent's first row; add offset() (in elements) for this view's first row.
  [[nodiscard]] void const* head() const noexcept { return _head; }
  [[nodiscard]] bitmask_type const* null_mask() const noexcept { return _mask; }
  [[nodiscard]] std::vector<any_column_view> const& children() const noexcept { return _children; }
  // A strings column whose strings all have this many bytes (offsets 0, w, 2w, ... from the
  // parent's row 0; see make_fixed_width_strings), or -1. Kernels may then find row i's bytes
  // without reading its offsets. Only an owning column built that way says so.
  [[nodiscard]] size_type uniform_bytes() const noexcept { return _uniform_bytes; }
  [[nodiscard]] any_column_view const& child(std::size_t i) const {
    COLX_EXPECTS_AS(out_of_range, i < _children.size(), "child ", i, " of a column with ", _children.size(), " children");
    return _children[i];
  }

  // Rows [begin, end) of this view, sharing its memory. Counting the slice's nulls reads its
  // mask: a host value, so the stream is synchronised when the view has a mask.
  [[nodiscard]] any_column_view slice(size_type begin, size_type end, stream_ref stream = {}) const {
    COLX_EXPECTS_AS(out_of_range, 0 <= begin && begin <= end && end <= _size, "slice [", begin, ", ", end,
                    ") is outside a column of ", _size, " rows");
    any_column_view out = *this;
    out._offset = _offset + begin;
    out._size = end - begin;
    out._null_count =
        _null_count == 0 ? 0 : count_unset_bits(_mask, out._offset, out._offset + out._size, _kind, stream);
    return out;
  }

  // The typed view; throws schema_error when T is not this column's element type.
  template <class T>
  [[nodiscard]] column_view<T> as() const;

 private:
  data_type _type{};
  size_type _size = 0;
  size_type _offset = 0;
  size_type _null_count = 0;
  void const* _head = nullptr;
  bitmask_type const* _mask = nullptr;
  memory_kind _kind = memory_kind::host;
  size_type _uniform_bytes = -1;
  std::vector<any_column_view> _children;

  friend class any_column;  // passes on its uniform_bytes
};

}  // namespace colx
