// SPDX-License-Identifier: Apache-2.0
#pragma once
// Export to the Arrow C Data Interface: a column (or rows [begin, end) of one) as an ArrowArray,
// a table as a struct array ("+s") whose children are its columns, and their ArrowSchemas.
//
// Zero-copy where colx's layout is Arrow's (fixed-width types, strings, dictionaries: the codes
// with ArrowArray.dictionary the whole dictionary): the ArrowArray points at
// the column's memory, with ArrowArray.offset = begin. The column's buffers are exposed first
// (shared_buffer::expose: under copy-on-write, memory another column shares is copied, so what the
// consumer sees is never shared with colx again), and the ArrowArray's private data keeps a
// shallow copy of the column, so the memory outlives the colx objects until the consumer calls
// release. Bools (bit-packed in Arrow) and duration[days] (no Arrow type: exported as duration[s],
// values * 86400) are copies of the rows asked for, with offset 0.
//
// Release follows the spec: release() frees the array and its children that were not moved out;
// a child moved out by the consumer owns its own private data and is released on its own.
// The column's memory must be host-accessible here; device memory goes through arrow_device.hpp.
#include <colx/column/any_column.hpp>
#include <colx/column/bitmask_ops.hpp>
#include <colx/column/table.hpp>
#include <colx/exec/dispatch.hpp>
#include <colx/interop/arrow_abi.hpp>
#include <colx/interop/arrow_format.hpp>
#include <colx/interop/detail/arrow_bits.hpp>

#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace colx {
namespace detail {

// A non-null address for buffers of zero bytes (some consumers reject NULL there), and the
// offsets of an empty strings column that has none.
alignas(64) inline constinit std::int64_t const arrow_zeros[8] = {};

struct arrow_schema_private {
  std::string format;
  std::string name;
  std::vector<ArrowSchema> children;
  std::vector<ArrowSchema*> child_pointers;
  ArrowSchema dictionary{};  // a dictionary column's values
};

inline void release_arrow_schema(ArrowSchema* schema) noexcept {
  if (schema == nullptr || schema->release == nullptr) { return; }
  auto* p = static_cast<arrow_schema_private*>(schema->private_data);
  for (auto& child : p->children) {
    if (child.release != nullptr) { child.release(&child); }  // not moved out by the consumer
  }
  if (p->dictionary.release != nullptr) { p->dictionary.release(&p->dictionary); }
  delete p;
  schema->release = nullptr;
}

// An ArrowSchema with `n_children` zeroed children for the caller to fill.
inline arrow_schema_private* init_arrow_schema(ArrowSchema* out, std::string format, std::string_view name,
                                               std::int64_t flags, std::size_t n_children) {
  auto p = std::make_unique<arrow_schema_private>();
  p->format = std::move(format);
  p->name = std::string(name);
  p->children.resize(n_children);
  for (auto& c : p->children) { p->child_pointers.push_back(&c); }
  *out = ArrowSchema{};
  out->format = p->format.c_str();
  out->name = p->name.c_str();
  out->metadata = nullptr;
  out->flags = flags;
  out->n_children = static_cast<std::int64_t>(n_children);
  out->children = n_children == 0 ? nullptr : p->child_pointers.data();
  out->dictionary = nullptr;
  out->release = &release_arrow_schema;
  out->private_data = p.get();
  return p.release();
}

struct arrow_array_private {
  any_column column;             // a shallow copy: keeps colx's memory alive until release
  shared_buffer converted_data;  // Arrow-layout copies (bools, duration[days])
  shared_buffer converted_mask;
  void const* buffers[3] = {};
  std::vector<ArrowArray> children;
  std::vector<ArrowArray*> child_pointers;
  ArrowArray dictionary{};  // a dictionary column's values
  // An ArrowDeviceArray's sync event (a cudaEvent_t) and how to destroy it: set by the CUDA
  // export only, so the layout is the same in every translation unit.
  void* sync_event = nullptr;
  void (*destroy_event)(void*) noexcept = nullptr;

  arrow_array_private() = default;
  arrow_array_private(arrow_array_private const&) = delete;
  arrow_array_private& operator=(arrow_array_private const&) = delete;
  ~arrow_array_private() {
    if (destroy_event != nullptr) { destroy_event(sync_event); }
  }
};

inline void release_arrow_array(ArrowArray* array) noexcept {
  if (array == nullptr || array->release == nullptr) { return; }
  auto* p = static_cast<arrow_array_private*>(array->private_data);
  for (auto& child : p->children) {
    if (child.release != nullptr) { child.release(&child); }  // not moved out by the consumer
  }
  if (p->dictionary.release != nullptr) { p->dictionary.release(&p->dictionary); }
  delete p;
  array->release = nullptr;
}

inline void init_arrow_array(ArrowArray* out, std::unique_ptr<arrow_array_private> p, size_type length,
                             size_type null_count, size_type offset, std::int64_t n_buffers) {
  *out = ArrowArray{};
  out->length = length;
  out->null_count = null_count;
  out->offset = offset;
  out->n_buffers = n_buffers;
  out->n_children = static_cast<std::int64_t>(p->children.size());
  out->buffers = p->buffers;
  out->children = p->children.empty() ? nullptr : p->child_pointers.data();
  out->dictionary = nullptr;
  out->release = &release_arrow_array;
  out->private_data = p.release();
}

[[nodiscard]] inline void const* or_zeros(void const* p) noexcept { return p != nullptr ? p : arrow_zeros; }

[[nodiscard]] inline type_id strings_offset_type(any_column const& column) noexcept {
  return column.children().empty() ? type_id::int32 : column.children().front().type().id();
}

// The ArrowArray of rows [begin, end) of `column`, in whatever memory it lives in.
inline void export_column_array(any_column column, size_type begin, size_type end, ArrowArray* out,
                                stream_ref stream) {
  COLX_EXPECTS(out != nullptr, "Arrow export needs an ArrowArray to write to (got a null pointer)");
  COLX_EXPECTS_AS(out_of_range, 0 <= begin && begin <= end && end <= column.size(), "rows [", begin, ", ", end,
                  ") are outside a column of ", column.size(), " rows");
  type_id const id = column.type().id();
  COLX_EXPECTS_AS(schema_error, id != type_id::empty, "a column of the empty type has no Arrow form");
  memory_kind const kind = column.kind();
  size_type const length = end - begin;
  size_type null_count = 0;
  if (column.null_count() > 0 && length > 0) {
    null_count = begin == 0 && end == column.size()
                     ? column.null_count()
                     : count_unset_bits(static_cast<bitmask_type const*>(column.mask().read(stream)), begin, end, kind,
                                        stream);
  }

  auto p = std::make_unique<arrow_array_private>();
  if (id == type_id::bool8 || id == type_id::duration_days) {
    // A copy of the rows in Arrow's layout, at offset 0; the column itself is not handed out.
    resource_ref const mr = get_current_resource(kind);
    if (null_count > 0) {
      p->converted_mask = shared_buffer(
          copy_bitmask(static_cast<bitmask_type const*>(column.mask().read(stream)), begin, end, kind, stream, mr));
    }
    if (id == type_id::bool8) {
      buffer bits(bitmask_allocation_bytes(length), stream, mr);
      detail::fill_bytes(bits.data(), bits.kind(), 0, bits.size(), stream);
      auto const* values = static_cast<std::uint8_t const*>(column.data().read(stream)) + begin;
      auto* packed = static_cast<std::uint8_t*>(bits.data());
      on_backend(kind, stream,
                 [&](auto const& exec) { exec.for_each_n((length + 7) / 8, pack_bools_fn{values, packed, length}); });
      p->converted_data = shared_buffer(std::move(bits));
    } else {
      buffer seconds(static_cast<std::size_t>(length) * sizeof(std::int64_t), stream, mr);
      auto const* days = static_cast<std::int32_t const*>(column.data().read(stream)) + begin;
      auto* out_seconds = static_cast<std::int64_t*>(seconds.data());
      on_backend(kind, stream, [&](auto const& exec) { exec.for_each_n(length, days_to_seconds_fn{days, out_seconds}); });
      p->converted_data = shared_buffer(std::move(seconds));
    }
    p->buffers[0] = null_count > 0 ? p->converted_mask.expose(stream) : nullptr;
    p->buffers[1] = or_zeros(p->converted_data.expose(stream));
    init_arrow_array(out, std::move(p), length, null_count, 0, 2);
    return;
  }

  column.expose(stream);  // under copy-on-write, memory shared with other columns is copied here
  if (id == type_id::dictionary) {  // the codes as any integer column; the whole dictionary beside them
    any_column values = column.children().front();
    size_type const entries = values.size();
    export_column_array(std::move(values), 0, entries, &p->dictionary, stream);
  }
  p->buffers[0] = null_count > 0 ? column.mask().read(stream) : nullptr;
  std::int64_t n_buffers = 2;
  if (id == type_id::string) {
    n_buffers = 3;
    bool const has_offsets = !column.children().empty() && column.children().front().size() > 0;
    p->buffers[1] = has_offsets ? or_zeros(column.children().front().data().read(stream)) : arrow_zeros;
    p->buffers[2] = or_zeros(column.data().read(stream));
  } else {
    p->buffers[1] = or_zeros(column.data().read(stream));
  }
  p->column = std::move(column);
  ArrowArray* const dictionary = id == type_id::dictionary ? &p->dictionary : nullptr;
  init_arrow_array(out, std::move(p), length, null_count, begin, n_buffers);
  out->dictionary = dictionary;
}

// A struct array over the table's columns (rows [begin, end)), in whatever memory they live in.
inline void export_table_array(table t, size_type begin, size_type end, ArrowArray* out, stream_ref stream) {
  COLX_EXPECTS(out != nullptr, "Arrow export needs an ArrowArray to write to (got a null pointer)");
  COLX_EXPECTS_AS(out_of_range, 0 <= begin && begin <= end && end <= t.num_rows(), "rows [", begin, ", ", end,
                  ") are outside a table of ", t.num_rows(), " rows");
  auto columns = std::move(t).release();
  auto p = std::make_unique<arrow_array_private>();
  p->children.resize(columns.size());
  for (auto& c : p->children) { p->child_pointers.push_back(&c); }
  try {
    for (std::size_t i = 0; i < columns.size(); ++i) {
      export_column_array(std::move(columns[i]), begin, end, &p->children[i], stream);
    }
  } catch (...) {
    for (auto& c : p->children) {
      if (c.release != nullptr) { c.release(&c); }
    }
    throw;
  }
  init_arrow_array(out, std::move(p), end - begin, 0, 0, 1);  // buffers[0]: no struct-level nulls
}

inline void check_names(table const& t, std::vector<std::string> const& names) {
  COLX_EXPECTS(names.size() == t.num_columns(), "a table of ", t.num_columns(), " columns needs as many names, not ",
               names.size());
}

// Host-accessible memory only: the C Data Interface has no device. Pinned memory written by
// earlier work on `stream` is complete on return.
inline void check_host_accessible(memory_kind kind, stream_ref stream) {
  COLX_EXPECTS(is_host_accessible(kind),
               "the Arrow C Data Interface is for host memory, and this column lives in device memory: export it "
               "with export_arrow_device_array (colx/interop/arrow_device.hpp)");
  if (kind == memory_kind::pinned) { stream.synchronize(); }
}

}  // namespace detail

// ---- schemas ---------------------------------------------------------------------------------------

// The ArrowSchema of a column (nullable field called `name`).
inline void export_arrow_schema(any_column const& column, std::string_view name, ArrowSchema* out) {
  COLX_EXPECTS(out != nullptr, "Arrow export needs an ArrowSchema to write to (got a null pointer)");
  type_id const id = column.type().id();
  std::string format = id == type_id::string ? arrow_strings_format(detail::strings_offset_type(column))
                                             : arrow_format(column.type());
  auto* p = detail::init_arrow_schema(out, std::move(format), name, ARROW_FLAG_NULLABLE, 0);
  if (id == type_id::dictionary) {  // the values' schema; the codes carry the nulls
    try {
      export_arrow_schema(column.children().front(), "", &p->dictionary);
    } catch (...) {
      out->release(out);
      throw;
    }
    p->dictionary.flags = 0;
    out->dictionary = &p->dictionary;
  }
}

// The ArrowSchema of a table: a struct ("+s") with one named child per column.
inline void export_arrow_schema(table const& t, std::vector<std::string> const& names, ArrowSchema* out) {
  COLX_EXPECTS(out != nullptr, "Arrow export needs an ArrowSchema to write to (got a null pointer)");
  detail::check_names(t, names);
  auto* p = detail::init_arrow_schema(out, "+s", "", 0, t.num_columns());
  try {
    for (std::size_t i = 0; i < t.num_columns(); ++i) { export_arrow_schema(t.column(i), names[i], &p->children[i]); }
  } catch (...) {
    out->release(out);
    throw;
  }
}

// ---- arrays ----------------------------------------------------------------------------------------

// Rows [begin, end) of a column as an ArrowArray (offset = begin; zero-copy but for bools and
// duration[days]). Pass the column by value: a moved-in column is handed over without a copy
// even under copy-on-write; an lvalue is shared, and exposing it copies under copy-on-write.
inline void export_arrow_array(any_column column, size_type begin, size_type end, ArrowArray* out,
                               stream_ref stream = {}) {
  detail::check_host_accessible(column.kind(), stream);
  detail::export_column_array(std::move(column), begin, end, out, stream);
}
inline void export_arrow_array(any_column column, ArrowArray* out, stream_ref stream = {}) {
  size_type const n = column.size();
  export_arrow_array(std::move(column), 0, n, out, stream);
}

// A table (rows [begin, end) of it) as a struct array with one child per column.
inline void export_arrow_array(table t, size_type begin, size_type end, ArrowArray* out, stream_ref stream = {}) {
  for (std::size_t i = 0; i < t.num_columns(); ++i) { detail::check_host_accessible(t.column(i).kind(), stream); }
  detail::export_table_array(std::move(t), begin, end, out, stream);
}
inline void export_arrow_array(table t, ArrowArray* out, stream_ref stream = {}) {
  size_type const n = t.num_rows();
  export_arrow_array(std::move(t), 0, n, out, stream);
}

// Schema and array together: a column as a field called `name`, a table with column names.
inline void export_arrow(any_column column, std::string_view name, ArrowSchema* schema, ArrowArray* array,
                         stream_ref stream = {}) {
  export_arrow_schema(column, name, schema);
  try {
    export_arrow_array(std::move(column), array, stream);
  } catch (...) {
    schema->release(schema);
    throw;
  }
}
inline void export_arrow(table t, std::vector<std::string> const& names, ArrowSchema* schema, ArrowArray* array,
                         stream_ref stream = {}) {
  export_arrow_schema(t, names, schema);
  try {
    export_arrow_array(std::move(t), array, stream);
  } catch (...) {
    schema->release(schema);
    throw;
  }
}

}  // namespace colx
