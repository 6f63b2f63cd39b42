// SPDX-License-Identifier: Apache-2.0
#pragma once
// A Parquet file's schema as colx sees it: its leaf columns in file order, each with its dotted
// name, the colx type its values become (or why it has none) and how the decoder converts them.
//
// Types: BOOLEAN → bool8; INT32/INT64 with their integer annotations → int8 ... uint64; FLOAT /
// DOUBLE → float32/64; DATE → timestamp[days]; TIMESTAMP (millis, micros, nanos) and the legacy
// INT96 → timestamp[ms/us/ns]; DECIMAL on INT32, INT64, FIXED_LEN_BYTE_ARRAY or BYTE_ARRAY →
// decimal32/64/128 by precision (up to 9, 18, 38 digits), scale kept; BYTE_ARRAY and
// FIXED_LEN_BYTE_ARRAY otherwise → string. Columns inside a list, a map or a struct are nested,
// which colx does not have yet: reading one is a schema_error that names it; TIME and FLOAT16
// likewise.
#include <colx/core/error.hpp>
#include <colx/io/parquet/metadata.hpp>
#include <colx/io/parquet/page_decode.hpp>
#include <colx/types/data_type.hpp>
#include <colx/types/type_dispatch.hpp>

#include <cstdint>
#include <string>
#include <vector>

namespace colx::parquet {

struct leaf_column {
  std::string name;             // the path joined by '.'
  schema_element const* element = nullptr;
  std::int32_t max_def = 0;     // 0: required, 1: optional (flat columns)
  data_type type;               // colx's type, when `unsupported` is empty
  std::string unsupported;      // why colx cannot read it
  detail::value_kind kind = detail::value_kind::fixed;
  std::int32_t in_width = 0, out_width = 0;
  bool sign_extend = false;
};

namespace detail {

inline type_id decimal_id(std::int32_t precision) {
  return precision <= 9 ? type_id::decimal32 : precision <= 18 ? type_id::decimal64 : type_id::decimal128;
}

// Fills type, kind and widths of a flat leaf, or says why it has none.
inline void map_leaf_type(leaf_column& c) {
  schema_element const& e = *c.element;
  logical_type const& lt = e.logical;
  physical const t = *e.type;
  auto const set = [&](data_type type, value_kind kind, std::int32_t in, bool sign = false) {  // (fixed-width types)
    c.type = type;
    c.kind = kind;
    c.in_width = in;
    c.out_width = static_cast<std::int32_t>(size_of(type));
    c.sign_extend = sign;
  };
  auto const fixed = [&](data_type type, std::int32_t in, bool sign) { set(type, value_kind::fixed, in, sign); };
  auto const refuse = [&](std::string why) { c.unsupported = std::move(why); };

  // DECIMAL, from the logical type or the legacy annotation.
  bool const is_decimal = lt.kind == logical_type::decimal || (lt.kind == logical_type::none && e.converted_type == converted::decimal);
  if (is_decimal) {
    std::int32_t const precision = lt.kind == logical_type::decimal ? lt.precision : e.precision;
    std::int32_t const scale = lt.kind == logical_type::decimal ? lt.scale : e.scale;
    if (precision < 1 || precision > 38 || scale < 0 || scale > precision) {
      return refuse("DECIMAL(" + std::to_string(precision) + ", " + std::to_string(scale) + ") is outside colx's decimals (precision 1 to 38)");
    }
    data_type const type(decimal_id(precision), -scale, precision);
    switch (t) {
      case physical::int32: return fixed(type, 4, true);
      case physical::int64: return fixed(type, 8, true);
      case physical::fixed_len_byte_array:
        if (e.type_length < 1 || e.type_length > 16) { return refuse("a DECIMAL of " + std::to_string(e.type_length) + " bytes"); }
        return set(type, value_kind::big_endian, e.type_length);
      case physical::byte_array: return set(type, value_kind::big_endian, 0);
      default: return refuse("a DECIMAL stored as another physical type than INT32, INT64 or a byte array");
    }
  }
  if (lt.kind == logical_type::time || e.converted_type == converted::time_millis || e.converted_type == converted::time_micros) {
    return refuse("TIME (a time of day) is not a colx type");
  }
  if (lt.kind == logical_type::float16) { return refuse("FLOAT16 is not a colx type"); }
  if (lt.kind == logical_type::uuid) { return refuse("UUID is not a colx type"); }

  switch (t) {
    case physical::boolean: return set(data_type(type_id::bool8), value_kind::boolean, 1);
    case physical::int32: {
      if (lt.kind == logical_type::date || e.converted_type == converted::date) { return fixed(data_type(type_id::timestamp_days), 4, true); }
      int bits = 32;
      bool is_signed = true;
      if (lt.kind == logical_type::integer) {
        bits = lt.bit_width;
        is_signed = lt.is_signed;
      } else if (e.converted_type >= converted::uint8 && e.converted_type <= converted::int64) {
        constexpr int widths[] = {8, 16, 32, 64, 8, 16, 32, 64};
        auto const k = static_cast<int>(e.converted_type) - static_cast<int>(converted::uint8);
        bits = widths[k];
        is_signed = k >= 4;
      }
      type_id const id = bits == 8    ? (is_signed ? type_id::int8 : type_id::uint8)
                         : bits == 16 ? (is_signed ? type_id::int16 : type_id::uint16)
                         : bits == 32 ? (is_signed ? type_id::int32 : type_id::uint32)
                                      : type_id::empty;
      if (id == type_id::empty) { return refuse("an INT32 annotated as a " + std::to_string(bits) + "-bit integer"); }
      return fixed(data_type(id), 4, is_signed);
    }
    case physical::int64: {
      std::int32_t unit = 0;
      if (lt.kind == logical_type::timestamp) {
        unit = lt.unit;
      } else if (e.converted_type == converted::timestamp_millis) {
        unit = 1;
      } else if (e.converted_type == converted::timestamp_micros) {
        unit = 2;
      }
      if (unit != 0) {
        type_id const id = unit == 1 ? type_id::timestamp_milliseconds : unit == 2 ? type_id::timestamp_microseconds : type_id::timestamp_nanoseconds;
        return fixed(data_type(id), 8, true);
      }
      bool const is_unsigned = (lt.kind == logical_type::integer && !lt.is_signed) || e.converted_type == converted::uint64;
      return fixed(data_type(is_unsigned ? type_id::uint64 : type_id::int64), 8, !is_unsigned);
    }
    case physical::int96: return set(data_type(type_id::timestamp_nanoseconds), value_kind::int96_nanos, 12);
    case physical::float32: return fixed(data_type(type_id::float32), 4, false);
    case physical::float64: return fixed(data_type(type_id::float64), 8, false);
    case physical::byte_array:
    case physical::fixed_len_byte_array:
      c.type = data_type(type_id::string);
      c.kind = value_kind::string;
      c.in_width = t == physical::fixed_len_byte_array ? e.type_length : 0;
      if (t == physical::fixed_len_byte_array && e.type_length < 0) { return refuse("a FIXED_LEN_BYTE_ARRAY of negative length"); }
      return;
  }
  refuse("physical type " + std::to_string(static_cast<int>(t)) + " is not Parquet's");
}

// Walks the depth-first schema list from element `at`, appending leaves.
inline void walk_schema(std::vector<schema_element> const& schema, std::size_t& at, std::string const& prefix, bool nested,
                        std::int32_t def, std::vector<leaf_column>& out, std::string const& file, int depth = 0) {
  COLX_EXPECTS_AS(parquet_error, at < schema.size(), file, ": the schema's children run past its ", schema.size(), " elements");
  // (a hostile footer could nest groups until the recursion overflows the stack)
  COLX_EXPECTS_AS(parquet_error, depth < 64, file, ": the schema nests groups more than 64 deep");
  schema_element const& e = schema[at++];
  std::string const name = prefix.empty() ? e.name : prefix + "." + e.name;
  bool const repeated = e.repetition_type == repetition::repeated;
  std::int32_t const level = def + (e.repetition_type == repetition::required ? 0 : 1);
  if (!e.type) {  // a group: a struct, a list or a map
    COLX_EXPECTS_AS(parquet_error, e.num_children >= 0 && static_cast<std::size_t>(e.num_children) <= schema.size() - at, file,
                    ": group \"", name, "\" claims ", e.num_children, " children");
    for (std::int32_t i = 0; i < e.num_children; ++i) { walk_schema(schema, at, name, true, level, out, file, depth + 1); }
    return;
  }
  leaf_column c;
  c.name = name;
  c.element = &e;
  c.max_def = level;
  if (nested || repeated) {
    c.unsupported = "it is nested (inside a list, map or struct), and colx has no nested types yet";
  } else {
    map_leaf_type(c);
  }
  out.push_back(std::move(c));
}

}  // namespace detail

// The leaf columns of a file's schema, in the order of its column chunks.
[[nodiscard]] inline std::vector<leaf_column> leaf_columns(file_metadata const& md, std::string const& file) {
  std::vector<leaf_column> out;
  std::size_t at = 1;  // element 0 is the root
  std::int32_t const children = md.schema.front().num_children;
  for (std::int32_t i = 0; i < children; ++i) { detail::walk_schema(md.schema, at, "", false, 0, out, file); }
  COLX_EXPECTS_AS(parquet_error, at == md.schema.size(), file, ": the schema has ", md.schema.size() - at,
                  " elements outside the root's children");
  for (auto const& g : md.row_groups) {
    COLX_EXPECTS_AS(parquet_error, g.columns.size() == out.size(), file, ": a row group has ", g.columns.size(),
                    " column chunks for ", out.size(), " leaf columns");
  }
  return out;
}

}  // namespace colx::parquet
