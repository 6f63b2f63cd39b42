// SPDX-License-Identifier: Apache-2.0
#pragma once
// Import from the Arrow C Data Interface: an ArrowSchema + ArrowArray as a column, or a struct
// array ("+s") as a table with its field names.
//
// Zero-copy where the layout is colx's: each buffer is adopted (shared_buffer::adopt) as foreign
// memory, and one holder owns the imported ArrowArray, moved out of the caller's struct as the spec
// says (the caller's struct is marked released). The holder calls the producer's release exactly
// once, when the last colx buffer that refers to it is gone. Copies are made only where the
// layouts differ: bools (bit-packed in Arrow) and validity bitmaps at an offset that is not a
// multiple of 32 bits (or not 4-byte aligned), or whose rows end inside a 32-bit word: a bitmap is
// only known to hold ceil(bits / 8) bytes (padding is a recommendation), and colx reads whole words.
//
// Everything the importer reads is checked first, and input it cannot use throws before anything
// is moved (the caller still owns the array then): logic_error for a malformed array (null
// pointers, a released struct, negative lengths, wrong buffer or child counts, null buffers that
// must be present, data or offsets buffers not aligned to their element, a null_count the host
// bitmap disagrees with, offsets that decrease),
// a dictionary whose codes leave it or whose values repeat or are null,
// schema_error for a type colx does not have (the format is named). Dictionary-encoded arrays
// become dictionary columns (codes shared, the whole dictionary their child). The ArrowSchema is
// only read: its owner releases it.
#include <colx/column/any_column.hpp>
#include <colx/column/bitmask_ops.hpp>
#include <colx/column/dictionary_checks.hpp>
#include <colx/column/table.hpp>
#include <colx/exec/dispatch.hpp>
#include <colx/interop/arrow_abi.hpp>
#include <colx/interop/arrow_format.hpp>
#include <colx/interop/detail/arrow_bits.hpp>
#include <colx/interop/detail/arrow_import_checks.hpp>
#include <colx/types/type_dispatch.hpp>

#include <cstdint>
#include <limits>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace colx {

// A table imported from a struct array, with its field names.
struct arrow_table {
  table columns;
  std::vector<std::string> names;
};

namespace detail {

inline data_type check_arrow_column(ArrowSchema const* schema, ArrowArray const* array, arrow_rows rows,
                                    memory_kind kind, stream_ref stream, std::string const& what);
inline any_column build_arrow_column(data_type type, ArrowSchema const* schema, ArrowArray const* array, arrow_rows rows,
                                     memory_kind kind, stream_ref stream, std::shared_ptr<arrow_import_holder> const& holder);

// A dictionary-encoded array: integer indices (its format) into a dictionary array of values,
// which colx keeps whole as the column's child. The codes and values are checked once built.
inline data_type check_arrow_dictionary(ArrowSchema const* schema, ArrowArray const* array, arrow_rows rows,
                                        memory_kind kind, stream_ref stream, std::string const& what) {
  std::string_view const format = schema->format;
  data_type const codes = data_type_from_arrow_format(format);
  COLX_EXPECTS_AS(schema_error, type_id::int8 <= codes.id() && codes.id() <= type_id::uint64, what,
                  ": a dictionary's indices must be integers, not format \"", format, "\"");
  COLX_EXPECTS(array->n_children == 0 && array->n_buffers == 2, what, ": a dictionary-encoded array has 2 buffers and no "
               "children, not ", array->n_buffers, " and ", array->n_children);
  std::string const values_what = what + ": its dictionary";
  check_arrow_common(schema->dictionary, array->dictionary, values_what);
  COLX_EXPECTS_AS(schema_error, schema->dictionary->dictionary == nullptr, values_what,
                  " is dictionary-encoded itself, which colx does not support");
  (void)check_arrow_column(schema->dictionary, array->dictionary, arrow_rows{array->dictionary->offset, array->dictionary->length},
                           kind, stream, values_what);
  if (rows.length > 0) {
    COLX_EXPECTS(array->buffers[1] != nullptr, what, ": buffers[1] (indices) is NULL for ", rows.length, " rows");
    std::size_t const alignment = arrow_values_alignment(codes, format);
    COLX_EXPECTS(reinterpret_cast<std::uintptr_t>(array->buffers[1]) % alignment == 0, what, ": buffers[1] (indices) at ",
                 array->buffers[1], " is not aligned to ", alignment, " bytes; unaligned buffers are not supported");
  }
  ArrowArray const* values = array->dictionary;
  size_type const null_values = arrow_null_count(values->buffers[0], values->null_count, arrow_rows{values->offset, values->length},
                                                 kind, stream);
  COLX_EXPECTS(null_values == 0, values_what, " holds ", null_values,
               " null values; colx keeps nulls in the codes (a null row), so a dictionary's values are never null");
  // The codes and the values, checked before anything is taken over: a column over the array's
  // buffers that does not keep the array.
  data_type const type = data_type::dictionary_of(codes.id());
  check_dictionary(build_arrow_column(type, schema, array, rows, kind, stream, nullptr), stream, what);
  return type;
}

// Checks one non-struct array (rows `rows` of it) completely; returns its type.
inline data_type check_arrow_column(ArrowSchema const* schema, ArrowArray const* array, arrow_rows rows,
                                    memory_kind kind, stream_ref stream, std::string const& what) {
  std::string_view const format = schema->format;
  COLX_EXPECTS_AS(schema_error, !is_arrow_struct_format(format), what,
                  ": a struct array (format \"+s\") is a table, not a column: import it with import_arrow_table "
                  "(nested structs are not supported)");
  if (schema->dictionary != nullptr) { return check_arrow_dictionary(schema, array, rows, kind, stream, what); }
  data_type const type = data_type_from_arrow_format(format);  // throws for formats colx lacks
  COLX_EXPECTS(array->n_children == 0, what, ": n_children is ", array->n_children, ", but format \"", format,
               "\" has no children");
  std::int64_t const expected_buffers = type.id() == type_id::string ? 3 : 2;
  COLX_EXPECTS(array->n_buffers == expected_buffers, what, ": n_buffers is ", array->n_buffers, ", but format \"",
               format, "\" has ", expected_buffers);
  void const* const validity = array->buffers[0];
  COLX_EXPECTS(validity != nullptr || array->null_count <= 0, what, ": null_count is ", array->null_count,
               " but the validity buffer (buffers[0]) is NULL");
  if (rows.length == 0) { return type; }
  // colx trusts a column's null count (kernels size their output by it), so a declared count is
  // checked where the bitmap can be read cheaply: host memory, the array's own rows.
  bool const own_rows = rows.offset == array->offset && rows.length == array->length;
  if (validity != nullptr && array->null_count >= 0 && own_rows && is_host_accessible(kind)) {
    size_type const counted = count_arrow_nulls(static_cast<std::uint8_t const*>(validity), rows.offset, rows.length);
    COLX_EXPECTS(counted == array->null_count, what, ": null_count is ", array->null_count,
                 " but the validity bitmap has ", counted, " nulls");
  }
  COLX_EXPECTS(array->buffers[1] != nullptr, what, ": buffers[1] (", type.id() == type_id::string ? "offsets" : "data",
               ") is NULL for ", rows.length, " rows");
  std::size_t const alignment = arrow_values_alignment(type, format);
  COLX_EXPECTS(reinterpret_cast<std::uintptr_t>(array->buffers[1]) % alignment == 0, what, ": buffers[1] (",
               type.id() == type_id::string ? "offsets" : "data", ") at ", array->buffers[1], " is not aligned to ",
               alignment, " bytes, as format \"", format, "\" needs; unaligned buffers are not supported");
  if (type.id() == type_id::string) {
    auto const [first, last] = format == "U" ? check_arrow_offsets<std::int64_t>(array->buffers[1], rows, kind, stream, what)
                                             : check_arrow_offsets<std::int32_t>(array->buffers[1], rows, kind, stream, what);
    (void)first;
    COLX_EXPECTS(array->buffers[2] != nullptr || last == 0, what, ": buffers[2] (chars) is NULL but the offsets reach ",
                 last);
  }
  return type;
}

// Bytes [0, bytes) at `data` as a colx buffer that keeps the imported array alive.
inline shared_buffer adopt_arrow_buffer(void const* data, std::size_t bytes, memory_kind kind,
                                        std::shared_ptr<arrow_import_holder> const& holder) {
  if (bytes == 0 || data == nullptr) { return {}; }
  return shared_buffer::adopt(const_cast<void*>(data), bytes, kind, [keep = holder] { (void)keep; });
}

// The validity mask of rows `rows` (empty when there are no nulls): shared when the rows start on
// a word and the bitmap's own bytes hold every word of them, copied otherwise.
inline shared_buffer import_arrow_mask(void const* validity, size_type null_count, arrow_rows rows, memory_kind kind,
                                       stream_ref stream, std::shared_ptr<arrow_import_holder> const& holder) {
  if (validity == nullptr || null_count == 0 || rows.length == 0) { return {}; }
  auto const* first_byte = static_cast<std::uint8_t const*>(validity) + rows.offset / 8;
  auto const word_bytes = static_cast<std::size_t>(bitmask_words(rows.length)) * sizeof(bitmask_type);
  auto const bitmap_bytes = static_cast<std::size_t>((rows.length + 7) / 8);  // from first_byte: offset % 8 == 0
  if (rows.offset % bits_per_word == 0 && reinterpret_cast<std::uintptr_t>(first_byte) % alignof(bitmask_type) == 0 &&
      word_bytes <= bitmap_bytes) {
    return adopt_arrow_buffer(first_byte, word_bytes, kind, holder);
  }
  buffer mask(bitmask_allocation_bytes(rows.length), stream, get_current_resource(kind));
  detail::fill_bytes(mask.data(), mask.kind(), 0, mask.size(), stream);
  auto* words = static_cast<bitmask_type*>(mask.data());
  auto const* bits = static_cast<std::uint8_t const*>(validity);
  on_backend(kind, stream, [&](auto const& exec) {
    exec.for_each_n(bitmask_words(rows.length), gather_bits_fn{bits, rows.offset, rows.length, words});
  });
  return shared_buffer(std::move(mask));
}

// Builds the column of a checked array.
inline any_column build_arrow_column(data_type type, ArrowSchema const* schema, ArrowArray const* array, arrow_rows rows,
                                     memory_kind kind, stream_ref stream,
                                     std::shared_ptr<arrow_import_holder> const& holder) {
  // A struct child's declared null count is of all its rows, not of those its parent selects.
  bool const own_rows = rows.offset == array->offset && rows.length == array->length;
  std::int64_t const declared = own_rows || array->null_count == 0 ? array->null_count : -1;
  size_type const nulls = arrow_null_count(array->buffers[0], declared, rows, kind, stream);
  shared_buffer mask = import_arrow_mask(array->buffers[0], nulls, rows, kind, stream, holder);
  size_type const null_count = mask.empty() ? 0 : nulls;
  type_id const id = type.id();
  if (id == type_id::bool8) {
    buffer bytes(static_cast<std::size_t>(rows.length), stream, get_current_resource(kind));
    if (rows.length > 0) {
      auto const* bits = static_cast<std::uint8_t const*>(array->buffers[1]);
      auto* out = static_cast<std::uint8_t*>(bytes.data());
      on_backend(kind, stream,
                 [&](auto const& exec) { exec.for_each_n(rows.length, unpack_bools_fn{bits, rows.offset, out}); });
    }
    return any_column(type, rows.length, shared_buffer(std::move(bytes)), std::move(mask), null_count);
  }
  if (id == type_id::string) {
    bool const large = std::string_view(schema->format) == "U";
    std::size_t const width = large ? sizeof(std::int64_t) : sizeof(std::int32_t);
    std::vector<any_column> children;
    if (rows.length == 0) {
      children.emplace_back(data_type{large ? type_id::int64 : type_id::int32}, 0, shared_buffer{}, shared_buffer{});
      return any_column(type, 0, shared_buffer{}, shared_buffer{}, 0, std::move(children));
    }
    auto const* offsets = static_cast<char const*>(array->buffers[1]) + static_cast<std::size_t>(rows.offset) * width;
    std::int64_t last = 0;
    if (is_host_accessible(kind)) {
      last = large ? reinterpret_cast<std::int64_t const*>(offsets)[rows.length]
                   : reinterpret_cast<std::int32_t const*>(offsets)[rows.length];
    } else if (large) {
      detail::copy_bytes(&last, memory_kind::host, offsets + rows.length * 8, kind, 8, stream);
    } else {
      std::int32_t l = 0;
      detail::copy_bytes(&l, memory_kind::host, offsets + rows.length * 4, kind, 4, stream);
      last = l;
    }
    // Offsets stay absolute: the whole chars buffer up to the last offset is shared.
    children.emplace_back(data_type{large ? type_id::int64 : type_id::int32}, rows.length + 1,
                          adopt_arrow_buffer(offsets, static_cast<std::size_t>(rows.length + 1) * width, kind, holder),
                          shared_buffer{});
    return any_column(type, rows.length, adopt_arrow_buffer(array->buffers[2], static_cast<std::size_t>(last), kind, holder),
                      std::move(mask), null_count, std::move(children));
  }
  std::size_t const width = size_of(type);
  shared_buffer data;
  if (rows.length > 0) {
    data = adopt_arrow_buffer(static_cast<char const*>(array->buffers[1]) + static_cast<std::size_t>(rows.offset) * width,
                              static_cast<std::size_t>(rows.length) * width, kind, holder);
  }
  std::vector<any_column> children;
  if (id == type_id::dictionary) {  // the codes as they are; the whole dictionary as the child
    ArrowSchema const* values_schema = schema->dictionary;
    ArrowArray const* values = array->dictionary;
    children.push_back(build_arrow_column(data_type_from_arrow_format(values_schema->format), values_schema, values,
                                          arrow_rows{values->offset, values->length}, kind, stream, holder));
    return any_column(type, rows.length, std::move(data), std::move(mask), null_count, std::move(children));
  }
  return any_column(type, rows.length, std::move(data), std::move(mask), null_count);
}

// Moves `*array` into a new holder and marks the caller's struct released, as the spec says.
inline std::shared_ptr<arrow_import_holder> take_arrow_array(ArrowArray* array) {
  auto holder = std::make_shared<arrow_import_holder>();
  holder->array = *array;
  array->release = nullptr;
  return holder;
}

inline any_column import_column(ArrowSchema const* schema, ArrowArray* array, memory_kind kind, stream_ref stream) {
  std::string const what = arrow_what("Arrow import of field", schema);
  check_arrow_common(schema, array, what);
  arrow_rows const rows{array->offset, array->length};
  data_type const type = check_arrow_column(schema, array, rows, kind, stream, what);
  auto const holder = take_arrow_array(array);
  return build_arrow_column(type, schema, &holder->array, rows, kind, stream, holder);
}

inline arrow_table import_table(ArrowSchema const* schema, ArrowArray* array, memory_kind kind, stream_ref stream) {
  std::string const what = "Arrow import of a table";
  check_arrow_common(schema, array, what);
  COLX_EXPECTS_AS(schema_error, is_arrow_struct_format(schema->format), what, ": format \"", schema->format,
                  "\" is not a struct (\"+s\"): import a single array with import_arrow_column");
  COLX_EXPECTS(array->n_buffers == 1, what, ": n_buffers is ", array->n_buffers, ", but a struct has 1");
  arrow_rows const rows{array->offset, array->length};
  size_type const struct_nulls = arrow_null_count(array->buffers[0], array->null_count, rows, kind, stream);
  COLX_EXPECTS_AS(schema_error, struct_nulls == 0, what, ": the struct has ", struct_nulls,
                  " null rows; a table cannot have null rows");
  auto const n = static_cast<std::size_t>(array->n_children);
  std::vector<data_type> types(n);
  std::vector<arrow_rows> child_rows(n);
  for (std::size_t i = 0; i < n; ++i) {
    ArrowSchema const* cs = schema->children[i];
    ArrowArray const* ca = array->children[i];
    std::string const child_what = arrow_what(what + ": child " + std::to_string(i), cs);
    check_arrow_common(cs, ca, child_what);
    COLX_EXPECTS(ca->length >= array->offset + array->length, child_what, ": its length ", ca->length,
                 " is shorter than the struct's offset + length (", array->offset, " + ", array->length, ")");
    child_rows[i] = arrow_rows{ca->offset + array->offset, array->length};
    types[i] = check_arrow_column(cs, ca, child_rows[i], kind, stream, child_what);
  }
  auto const holder = take_arrow_array(array);
  arrow_table out;
  std::vector<any_column> columns;
  columns.reserve(n);
  for (std::size_t i = 0; i < n; ++i) {
    columns.push_back(build_arrow_column(types[i], schema->children[i], holder->array.children[i], child_rows[i], kind,
                                         stream, holder));
    char const* name = schema->children[i]->name;
    out.names.emplace_back(name != nullptr ? name : "");
  }
  out.columns = table(std::move(columns));
  return out;
}

}  // namespace detail

// A column from an array in host memory. `array` is moved from (its release set to NULL) unless
// the input is rejected; `schema` is only read.
[[nodiscard]] inline any_column import_arrow_column(ArrowSchema const* schema, ArrowArray* array, stream_ref stream = {}) {
  return detail::import_column(schema, array, memory_kind::host, stream);
}

// A table from a struct array ("+s") in host memory, one column per child, with their names.
[[nodiscard]] inline arrow_table import_arrow_table(ArrowSchema const* schema, ArrowArray* array, stream_ref stream = {}) {
  return detail::import_table(schema, array, memory_kind::host, stream);
}

}  // namespace colx
