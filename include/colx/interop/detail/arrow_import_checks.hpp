// SPDX-License-Identifier: Apache-2.0
#pragma once
// The importer's checks of one array's parts (arrow_import.hpp builds columns from what passes):
// the fields every array has, a declared or counted null count, offsets that never decrease, and
// the alignment a values buffer needs; and the holder that keeps an imported array alive.
#include <colx/column/bitmask_ops.hpp>
#include <colx/core/error.hpp>
#include <colx/exec/dispatch.hpp>
#include <colx/interop/arrow_abi.hpp>
#include <colx/interop/detail/arrow_bits.hpp>
#include <colx/types/type_dispatch.hpp>

#include <cstdint>
#include <limits>
#include <string>
#include <string_view>

namespace colx::detail {

// Owns an imported ArrowArray; its destructor is the one call of the producer's release.
struct arrow_import_holder {
  ArrowArray array{};
  arrow_import_holder() = default;
  arrow_import_holder(arrow_import_holder const&) = delete;
  arrow_import_holder& operator=(arrow_import_holder const&) = delete;
  ~arrow_import_holder() {
    if (array.release != nullptr) { array.release(&array); }
  }
};

// Rows [offset, offset + length) of an array: its own, or those a struct parent selects.
struct arrow_rows {
  std::int64_t offset;
  std::int64_t length;
};

inline std::string arrow_what(std::string_view context, ArrowSchema const* schema) {
  std::string out(context);
  if (schema != nullptr && schema->name != nullptr && schema->name[0] != '\0') {
    out += " \"";
    out += schema->name;
    out += '"';
  }
  return out;
}

// Checks that hold for every array, whatever its format.
inline void check_arrow_common(ArrowSchema const* schema, ArrowArray const* array, std::string const& what) {
  COLX_EXPECTS(schema != nullptr, what, ": the ArrowSchema pointer is null");
  COLX_EXPECTS(array != nullptr, what, ": the ArrowArray pointer is null");
  COLX_EXPECTS(schema->release != nullptr, what, ": the ArrowSchema was already released (its release is NULL)");
  COLX_EXPECTS(array->release != nullptr, what, ": the ArrowArray was already released (its release is NULL)");
  COLX_EXPECTS(schema->format != nullptr, what, ": the ArrowSchema's format is NULL");
  COLX_EXPECTS((schema->dictionary == nullptr) == (array->dictionary == nullptr), what, ": the ",
               schema->dictionary == nullptr ? "array" : "schema", " has a dictionary but the ",
               schema->dictionary == nullptr ? "schema" : "array", " has none");
  COLX_EXPECTS(array->length >= 0, what, ": negative length ", array->length);
  COLX_EXPECTS(array->offset >= 0, what, ": negative offset ", array->offset);
  COLX_EXPECTS(array->null_count >= -1, what, ": negative null_count ", array->null_count,
               " (only -1, \"not computed\", is allowed)");
  COLX_EXPECTS(array->null_count <= array->length, what, ": null_count ", array->null_count, " exceeds the length ",
               array->length);
  // (offset + length) * 16 bytes must not overflow.
  constexpr std::int64_t max_rows = std::numeric_limits<std::int64_t>::max() / 32;
  COLX_EXPECTS(array->length <= max_rows && array->offset <= max_rows - array->length, what, ": offset ",
               array->offset, " + length ", array->length, " is too large");
  COLX_EXPECTS(schema->n_children >= 0 && array->n_children >= 0, what, ": negative n_children");
  COLX_EXPECTS(schema->n_children == array->n_children, what, ": the schema has ", schema->n_children,
               " children but the array has ", array->n_children);
  COLX_EXPECTS(array->n_children == 0 || (array->children != nullptr && schema->children != nullptr), what,
               ": n_children is ", array->n_children, " but the children pointer is NULL");
  COLX_EXPECTS(array->n_buffers >= 0, what, ": negative n_buffers ", array->n_buffers);
  COLX_EXPECTS(array->n_buffers == 0 || array->buffers != nullptr, what, ": n_buffers is ", array->n_buffers,
               " but the buffers pointer is NULL");
}

// The null count of rows `rows` of a validity bitmap (null: none), counted when the producer
// did not (null_count -1). Reads only the bitmap's bytes of those rows.
inline size_type arrow_null_count(void const* validity, std::int64_t declared, arrow_rows rows, memory_kind kind,
                                  stream_ref stream) {
  if (validity == nullptr || rows.length == 0) { return 0; }
  if (declared >= 0) { return declared; }
  auto const* bits = static_cast<std::uint8_t const*>(validity);
  if (is_host_accessible(kind)) { return count_arrow_nulls(bits, rows.offset, rows.length); }
  buffer mask(bitmask_allocation_bytes(rows.length), stream, get_current_resource(kind));
  auto* words = static_cast<bitmask_type*>(mask.data());
  on_backend(kind, stream, [&](auto const& exec) {
    exec.for_each_n(bitmask_words(rows.length), gather_bits_fn{bits, rows.offset, rows.length, words});
  });
  return count_unset_bits(words, 0, rows.length, kind, stream);
}

// Offsets [first, last] of a strings array, read from the host (device offsets: just the two
// ends are copied, and only their order is checked).
template <class Offset>
std::pair<std::int64_t, std::int64_t> check_arrow_offsets(void const* offsets, arrow_rows rows, memory_kind kind,
                                                          stream_ref stream, std::string const& what) {
  auto const* o = static_cast<Offset const*>(offsets) + rows.offset;
  Offset first = 0;
  Offset last = 0;
  if (is_host_accessible(kind)) {
    first = o[0];
    COLX_EXPECTS(first >= 0, what, ": strings offset ", rows.offset, " is negative (", static_cast<std::int64_t>(first), ")");
    for (std::int64_t i = 0; i < rows.length; ++i) {
      COLX_EXPECTS(o[i + 1] >= o[i], what, ": strings offsets decrease at row ", i, " (",
                   static_cast<std::int64_t>(o[i]), " then ", static_cast<std::int64_t>(o[i + 1]), ")");
    }
    last = o[rows.length];
  } else {
    detail::copy_bytes(&first, memory_kind::host, o, kind, sizeof(Offset), stream);
    detail::copy_bytes(&last, memory_kind::host, o + rows.length, kind, sizeof(Offset), stream);
    COLX_EXPECTS(first >= 0, what, ": strings offset ", rows.offset, " is negative (", static_cast<std::int64_t>(first), ")");
    COLX_EXPECTS(last >= first, what, ": the last strings offset (", static_cast<std::int64_t>(last),
                 ") is below the first (", static_cast<std::int64_t>(first), ")");
  }
  return {first, last};
}

struct element_alignment {
  template <class T>
  std::size_t operator()() const noexcept { return alignof(T); }
};

// The alignment buffers[1] needs: colx reads it as typed elements (offsets for strings; bools and
// bitmaps are read byte by byte). The C Data Interface lets a consumer refuse unaligned buffers.
inline std::size_t arrow_values_alignment(data_type type, std::string_view format) {
  if (type.id() == type_id::string) { return format == "U" ? alignof(std::int64_t) : alignof(std::int32_t); }
  if (type.id() == type_id::bool8) { return 1; }
  return type_dispatch(type, element_alignment{});
}

}  // namespace colx::detail
