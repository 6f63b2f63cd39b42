// SPDX-License-Identifier: Apache-2.0
#pragma once
// The writer's view of a column: how each colx type is stored in Parquet (physical type and
// annotations), and a row group's rows of a host column gathered as Parquet's physical values:
// the non-null values, PLAIN-ready (little-endian fixed widths, a decimal128 big-endian, byte
// arrays as offsets and bytes), with a definition level per row for an optional column.
#include <colx/column/any_column_view.hpp>
#include <colx/column/bitmask.hpp>
#include <colx/io/host_cells.hpp>
#include <colx/io/parquet/metadata.hpp>
#include <colx/types/type_dispatch.hpp>

#include <cstdint>
#include <cstring>
#include <span>
#include <string>
#include <vector>

namespace colx::parquet::detail {

// How a value of a physical type sorts, for min and max statistics.
enum class sort_order : std::uint8_t { signed_int, unsigned_int, floating, bytes, signed_big_endian, boolean };

struct write_type {
  physical type = physical::int32;
  std::int32_t type_length = 0;  // FIXED_LEN_BYTE_ARRAY
  converted converted_type = converted::none;
  logical_type logical;
  std::int32_t width = 0;        // bytes of a gathered fixed-width value; 0: byte arrays
  sort_order order = sort_order::signed_int;
};

// The Parquet storage of colx type t (a dictionary's values' type for a dictionary column);
// throws for the types Parquet cannot hold, naming the column.
inline write_type write_type_of(data_type t, std::string const& column) {
  write_type w;
  auto const integer = [&](physical p, std::int32_t bits, bool is_signed, converted c) {
    w.type = p;
    w.width = p == physical::int32 ? 4 : 8;
    w.converted_type = c;
    w.logical.kind = logical_type::integer;
    w.logical.bit_width = bits;
    w.logical.is_signed = is_signed;
    w.order = is_signed ? sort_order::signed_int : sort_order::unsigned_int;
  };
  auto const timestamp = [&](std::int32_t unit) {
    w.type = physical::int64, w.width = 8;
    w.logical.kind = logical_type::timestamp, w.logical.unit = unit;  // (not adjusted to UTC: colx's timestamps are zone-less)
  };
  auto const decimal = [&](physical p, std::int32_t width, std::int32_t max_precision) {
    COLX_EXPECTS_AS(parquet_error, t.scale() <= 0, "column \"", column, "\": a decimal of positive scale ", t.scale(),
                    " (a multiple of 10^", t.scale(), ") has no Parquet form; cast it to scale 0 first");
    w.type = p, w.width = width;
    w.type_length = p == physical::fixed_len_byte_array ? width : 0;
    w.converted_type = converted::decimal;
    w.logical.kind = logical_type::decimal;
    w.logical.scale = -t.scale();
    w.logical.precision = t.declares_precision() ? t.precision() : max_precision;
    w.order = p == physical::fixed_len_byte_array ? sort_order::signed_big_endian : sort_order::signed_int;
  };
  switch (t.id()) {
    case type_id::bool8: w.type = physical::boolean, w.width = 1, w.order = sort_order::boolean; break;
    case type_id::int8: integer(physical::int32, 8, true, converted::int8); break;
    case type_id::int16: integer(physical::int32, 16, true, converted::int16); break;
    case type_id::int32: integer(physical::int32, 32, true, converted::none); break;
    case type_id::int64: integer(physical::int64, 64, true, converted::none); break;
    case type_id::uint8: integer(physical::int32, 8, false, converted::uint8); break;
    case type_id::uint16: integer(physical::int32, 16, false, converted::uint16); break;
    case type_id::uint32: integer(physical::int32, 32, false, converted::uint32); break;
    case type_id::uint64: integer(physical::int64, 64, false, converted::uint64); break;
    case type_id::float32: w.type = physical::float32, w.width = 4, w.order = sort_order::floating; break;
    case type_id::float64: w.type = physical::float64, w.width = 8, w.order = sort_order::floating; break;
    case type_id::timestamp_days:
      w.type = physical::int32, w.width = 4, w.converted_type = converted::date, w.logical.kind = logical_type::date;
      break;
    case type_id::timestamp_seconds:  // (Parquet has no seconds: milliseconds, as pyarrow writes them)
    case type_id::timestamp_milliseconds: timestamp(1); break;
    case type_id::timestamp_microseconds: timestamp(2); break;
    case type_id::timestamp_nanoseconds: timestamp(3); break;
    case type_id::decimal32: decimal(physical::int32, 4, 9); break;
    case type_id::decimal64: decimal(physical::int64, 8, 18); break;
    case type_id::decimal128: decimal(physical::fixed_len_byte_array, 16, 38); break;
    case type_id::string:
      w.type = physical::byte_array, w.width = 0, w.order = sort_order::bytes;
      w.converted_type = converted::utf8, w.logical.kind = logical_type::string;
      break;
    default:
      COLX_FAIL_AS(parquet_error, "column \"", column, "\" is of type ", t.to_string(),
                   ", which Parquet cannot hold (a duration: cast it to int64 first)");
  }
  return w;
}

// Rows of a column as Parquet values: `defs` (1: a value, 0: null; empty for a required column)
// and the values of the non-null rows.
struct physical_values {
  std::vector<std::uint8_t> defs;
  std::int64_t rows = 0, count = 0;    // rows, and values (rows less nulls)
  std::int32_t width = 0;              // fixed-width values' bytes; 0: byte arrays
  std::vector<std::uint8_t> fixed;     // count * width bytes
  std::vector<std::int64_t> offsets;   // byte arrays: count + 1
  std::vector<std::uint8_t> chars;

  [[nodiscard]] std::span<std::uint8_t const> value(std::int64_t i) const {
    if (width > 0) { return {fixed.data() + i * width, static_cast<std::size_t>(width)}; }
    return {chars.data() + offsets[static_cast<std::size_t>(i)], static_cast<std::size_t>(offsets[static_cast<std::size_t>(i) + 1] - offsets[static_cast<std::size_t>(i)])};
  }
};

// Appends row r (of the view's rows) of a non-dictionary host column as `w` stores it.
inline void append_value(any_column_view const& v, size_type r, write_type const& w, physical_values& out) {
  std::size_t const row = static_cast<std::size_t>(v.offset() + r);
  auto const* head = static_cast<std::uint8_t const*>(v.head());
  auto const put = [&](auto value) {
    std::uint8_t bytes[sizeof value];
    std::memcpy(bytes, &value, sizeof value);
    out.fixed.insert(out.fixed.end(), bytes, bytes + sizeof value);
  };
  auto const at = [&]<class T>(T*) {
    T value;
    std::memcpy(&value, head + row * sizeof(T), sizeof(T));
    return value;
  };
  switch (v.type().id()) {
    case type_id::bool8: out.fixed.push_back(head[row] != 0 ? 1 : 0); return;
    case type_id::int8: put(static_cast<std::int32_t>(at(static_cast<std::int8_t*>(nullptr)))); return;
    case type_id::int16: put(static_cast<std::int32_t>(at(static_cast<std::int16_t*>(nullptr)))); return;
    case type_id::uint8: put(static_cast<std::uint32_t>(at(static_cast<std::uint8_t*>(nullptr)))); return;
    case type_id::uint16: put(static_cast<std::uint32_t>(at(static_cast<std::uint16_t*>(nullptr)))); return;
    case type_id::timestamp_seconds: {
      std::int64_t ms = 0;
      COLX_EXPECTS_AS(parquet_error, !__builtin_mul_overflow(at(static_cast<std::int64_t*>(nullptr)), 1000, &ms),
                      "a timestamp in seconds too far from 1970 to hold in milliseconds");
      put(ms);
      return;
    }
    case type_id::decimal128: {  // big-endian two's complement, as FIXED_LEN_BYTE_ARRAY decimals are
      std::uint8_t le[16];
      std::memcpy(le, head + row * 16, 16);
      for (int i = 15; i >= 0; --i) { out.fixed.push_back(le[i]); }
      return;
    }
    case type_id::string: {
      std::string_view const text = io::detail::string_at(v, r);
      out.chars.insert(out.chars.end(), text.begin(), text.end());
      out.offsets.push_back(static_cast<std::int64_t>(out.chars.size()));
      return;
    }
    default: {  // little-endian values of the stored width
      std::size_t const width = static_cast<std::size_t>(w.width);
      out.fixed.insert(out.fixed.end(), head + row * width, head + (row + 1) * width);
      return;
    }
  }
}

// Rows [begin, end) of host column v (a dictionary column's values looked up) as Parquet values.
inline physical_values gather_values(any_column_view const& v, size_type begin, size_type end, write_type const& w, bool optional) {
  physical_values out;
  out.rows = end - begin;
  out.width = w.width;
  if (w.width == 0) { out.offsets.push_back(0); }
  bool const is_dictionary = v.type().id() == type_id::dictionary;
  any_column_view const* values = is_dictionary ? &v.children().front() : &v;
  if (optional) { out.defs.reserve(static_cast<std::size_t>(out.rows)); }
  type_id const id = v.type().id();
  bool const as_stored = !is_dictionary && w.width > 0 && w.type != physical::boolean && id != type_id::timestamp_seconds &&
                         id != type_id::decimal128 && size_of(v.type()) == static_cast<std::size_t>(w.width);
  if (as_stored) {  // the values' bytes as they are in memory, copied in runs between nulls
    auto const width = static_cast<std::size_t>(w.width);
    auto const* const head = static_cast<std::uint8_t const*>(v.head()) + static_cast<std::size_t>(v.offset()) * width;
    out.fixed.reserve(static_cast<std::size_t>(out.rows) * width);
    for (size_type r = begin; r < end;) {
      size_type run = r;
      while (run < end && (v.null_mask() == nullptr || bit_is_set(v.null_mask(), v.offset() + run))) { ++run; }
      out.fixed.insert(out.fixed.end(), head + static_cast<std::size_t>(r) * width, head + static_cast<std::size_t>(run) * width);
      out.count += run - r;
      if (optional) { out.defs.insert(out.defs.end(), static_cast<std::size_t>(run - r), 1); }
      if (run < end) {
        if (optional) { out.defs.push_back(0); }
        ++run;
      }
      r = run;
    }
    return out;
  }
  for (size_type r = begin; r < end; ++r) {
    bool valid = v.null_mask() == nullptr || bit_is_set(v.null_mask(), v.offset() + r);
    size_type at = r;
    if (valid && is_dictionary) {
      at = static_cast<size_type>(io::detail::code_at(v, r));
      valid = values->null_mask() == nullptr || bit_is_set(values->null_mask(), values->offset() + at);  // (a null entry)
    }
    if (optional) { out.defs.push_back(valid ? 1 : 0); }
    if (!valid) { continue; }
    append_value(*values, at, w, out);
    ++out.count;
  }
  return out;
}

}  // namespace colx::parquet::detail
