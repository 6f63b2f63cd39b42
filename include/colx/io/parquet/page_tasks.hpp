// SPDX-License-Identifier: Apache-2.0
#pragma once
// What the page decoder works on, as plain structs that travel to the GPU: one column_task per
// output column, one page_task per data page, one dictionary_task per dictionary page, and what
// each page's decode reports (page_outcome, with a page_error the reader turns into a message).
#include <colx/column/bitmask.hpp>
#include <colx/io/parquet/metadata.hpp>

#include <cstdint>

namespace colx::parquet::detail {

// How a value is turned into colx's layout.
enum class value_kind : std::uint8_t {
  fixed,        // little-endian input of in_width bytes, truncated or extended to out_width
  boolean,      // a bit (PLAIN) or an RLE value, to a byte
  int96_nanos,  // the legacy INT96 timestamp (nanoseconds of the day, Julian day) to nanoseconds
  big_endian,   // a decimal as big-endian two's complement (FIXED_LEN_BYTE_ARRAY, BYTE_ARRAY)
  string,       // BYTE_ARRAY, FIXED_LEN_BYTE_ARRAY: offsets and chars
};

enum page_error : std::int32_t {
  page_ok = 0,
  page_truncated,        // values or levels end before the page's rows do
  page_bad_levels,       // a definition level above the column's maximum, or an unknown level encoding
  page_bad_encoding,     // an encoding this column's type cannot have (or colx does not read)
  page_bad_index,        // a dictionary index past the dictionary's end
  page_no_dictionary,    // dictionary-encoded values without a dictionary page
  page_bad_prefix,       // DELTA_BYTE_ARRAY: a prefix longer than the value before it
};

[[nodiscard]] inline char const* to_string(page_error e) {
  switch (e) {
    case page_ok: return "no error";
    case page_truncated: return "its values or levels end before its rows do";
    case page_bad_levels: return "a definition level is above the column's maximum, or levels are not RLE-encoded";
    case page_bad_encoding: return "its encoding does not apply to the column's type";
    case page_bad_index: return "a dictionary index is past the dictionary's end";
    case page_no_dictionary: return "it is dictionary-encoded but the column chunk has no dictionary page";
    case page_bad_prefix: return "a DELTA_BYTE_ARRAY prefix is longer than the value before it";
  }
  return "unknown error";
}

struct column_task {
  physical type = physical::int32;
  value_kind kind = value_kind::fixed;
  std::int8_t max_def = 0;
  bool sign_extend = false;
  std::int32_t in_width = 0;   // bytes of one PLAIN value; 0 for BYTE_ARRAY
  std::int32_t out_width = 0;  // bytes of one output value (fixed-width kinds)
  std::uint8_t* values = nullptr;
  bitmask_type* mask = nullptr;  // null when the column is required
  std::int32_t* lengths = nullptr;               // strings, measure pass
  std::int32_t const* offsets32 = nullptr;       // strings, copy pass: one of the two
  std::int64_t const* offsets64 = nullptr;
  std::uint8_t* chars = nullptr;
};

struct dictionary_task {
  std::uint8_t const* body = nullptr;  // PLAIN values
  std::int64_t size = 0;
  std::int32_t entries = 0;
  std::int64_t* entry_at = nullptr;  // BYTE_ARRAY: where each entry's 4-byte length is
};

struct page_task {
  std::uint8_t const* body = nullptr;  // the uncompressed page: levels, then values
  std::int64_t size = 0;
  std::int64_t first_row = 0;   // the page's first row in the output column
  std::int32_t num_values = 0;  // its rows, nulls included (flat columns: one level a row)
  std::int32_t def_bytes = -1;  // v2: bytes of definition levels first; -1: v1 (length-prefixed)
  std::int32_t rep_bytes = 0;   // v2
  std::int32_t column = 0;
  std::int32_t dictionary = -1;
  encoding values_encoding = encoding::plain;
  encoding def_encoding = encoding::rle;
};

struct page_outcome {
  std::int64_t bytes = 0;  // strings: the page's value bytes (measure pass)
  std::int32_t nulls = 0;
  std::int32_t error = page_ok;
};

}  // namespace colx::parquet::detail
