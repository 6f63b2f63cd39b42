// SPDX-License-Identifier: Apache-2.0
#pragma once
// Decoding one Parquet data page into its rows of an output column: definition levels to validity
// bits, values by encoding to colx's layout. The same code runs on the host (a page per OpenMP
// iteration) and on the GPU (a page per thread), launched by the reader over every page of every
// column at once, so decoding a file costs a few launches, not one per page.
//
// A strings column is decoded in two passes: `measure` writes each row's length (the reader then
// scans lengths into offsets), the second pass copies the bytes. Nothing reads outside a page's
// bytes: a page that ends early, an index past its dictionary or a level above the column's
// maximum gives an error code, which the reader reports with the column and page.
#include <colx/exec/atomics.hpp>
#include <colx/host/executor.hpp>
#include <colx/io/parquet/page_tasks.hpp>
#include <colx/io/parquet/value_source.hpp>

#include <cstdint>

namespace colx::parquet::detail {

// Writes one fixed-width value in colx's layout.
COLX_HOST_DEVICE inline void store_value(column_task const& c, std::uint8_t* out, std::uint8_t const* v, std::int64_t length) {
  switch (c.kind) {
    case value_kind::boolean: out[0] = v[0] & 1; return;
    case value_kind::int96_nanos: {
      std::uint64_t nanos = 0;
      for (int b = 0; b < 8; ++b) { nanos |= static_cast<std::uint64_t>(v[b]) << (8 * b); }
      auto const julian = static_cast<std::int64_t>(load_le32(v + 8));
      std::uint64_t const t = static_cast<std::uint64_t>(julian - 2440588) * 86400000000000ull + nanos;
      for (int b = 0; b < 8; ++b) { out[b] = static_cast<std::uint8_t>(t >> (8 * b)); }
      return;
    }
    case value_kind::big_endian: {
      std::uint8_t const sign = length > 0 && (v[0] & 0x80) ? 0xff : 0x00;
      for (std::int64_t b = 0; b < c.out_width; ++b) { out[b] = b < length ? v[length - 1 - b] : sign; }
      return;
    }
    default: {  // fixed; same widths, aligned: one load and one store
      if (c.in_width == c.out_width && (reinterpret_cast<std::uintptr_t>(v) % c.in_width) == 0) {
        if (c.in_width == 8) {
          *reinterpret_cast<std::uint64_t*>(out) = *reinterpret_cast<std::uint64_t const*>(v);
          return;
        }
        if (c.in_width == 4) {
          *reinterpret_cast<std::uint32_t*>(out) = *reinterpret_cast<std::uint32_t const*>(v);
          return;
        }
      }
      std::int32_t const n = c.in_width < c.out_width ? c.in_width : c.out_width;
      copy_raw(out, v, n);
      std::uint8_t const sign = c.sign_extend && (v[c.in_width - 1] & 0x80) ? 0xff : 0x00;
      for (std::int32_t b = n; b < c.out_width; ++b) { out[b] = sign; }
      return;
    }
  }
}

// Decodes page `p`; in the measure pass (strings only) writes lengths instead of bytes.
COLX_HOST_DEVICE inline page_outcome decode_page(page_task const& p, column_task const& c, dictionary_task const* dicts,
                                                 bool measure) {
  page_outcome out;
  std::uint8_t const* const end = p.body + p.size;
  std::uint8_t const* values = p.body;
  rle_decoder def;
  if (c.max_def > 0) {
    std::uint8_t const* levels = p.body;
    std::int64_t n = p.def_bytes;
    if (p.def_bytes < 0) {  // v1: a 4-byte length, then the RLE levels
      if (p.def_encoding != encoding::rle) { return {0, 0, page_bad_levels}; }
      if (p.size < 4) { return {0, 0, page_truncated}; }
      n = load_le32(p.body);
      levels = p.body + 4;
      if (n > p.size - 4) { return {0, 0, page_truncated}; }
      values = levels + n;
    } else {  // v2: repetition levels, definition levels, values
      if (n + p.rep_bytes > p.size) { return {0, 0, page_truncated}; }
      levels = p.body + p.rep_bytes;
      values = levels + n;
    }
    def = rle_decoder(levels, levels + n, 1);
  } else if (p.def_bytes >= 0) {
    if (p.def_bytes + p.rep_bytes > p.size) { return {0, 0, page_truncated}; }
    values = p.body + p.def_bytes + p.rep_bytes;
  }

  // BYTE_STREAM_SPLIT needs the count of values before the first: count the levels once.
  std::uint64_t non_null = static_cast<std::uint64_t>(p.num_values);
  if (p.values_encoding == encoding::byte_stream_split && c.max_def > 0) {
    rle_decoder count = def;
    non_null = 0;
    for (std::int32_t r = 0; r < p.num_values; ++r) {
      std::uint32_t level = 0;
      if (!count.next(level)) { return {0, 0, page_truncated}; }
      non_null += level == static_cast<std::uint32_t>(c.max_def) ? 1 : 0;
    }
  }

  value_source src;
  src.enc = p.values_encoding;
  src.type = c.type;
  src.in_width = c.in_width;
  src.dict = p.dictionary >= 0 ? dicts + p.dictionary : nullptr;
  if (!src.init(values, end, non_null)) { return {0, 0, src.error}; }

  bool const strings = c.kind == value_kind::string;
  // Decimals in byte arrays are read as byte arrays: BYTE_ARRAY ones always, fixed-length ones in
  // DELTA_BYTE_ARRAY (their prefixes shared with the value before).
  bool const byte_decimals = c.kind == value_kind::big_endian &&
                             (c.type == physical::byte_array || p.values_encoding == encoding::delta_byte_array);
  std::uint8_t decimal[32];  // (a decimal's bytes: 16 at most, room for sign padding)
  std::uint8_t tmp[16];
  bitmask_type bits = 0;
  std::int64_t word = p.first_row / 32;
  std::int64_t previous_at = -1, previous_length = 0;  // DELTA_BYTE_ARRAY's previous value in chars
  for (std::int32_t r = 0; r < p.num_values; ++r) {
    std::int64_t const row = p.first_row + r;
    bool valid = true;
    if (c.max_def > 0) {
      std::uint32_t level = 0;
      if (!def.next(level)) { return {out.bytes, out.nulls, page_truncated}; }
      if (level > static_cast<std::uint32_t>(c.max_def)) { return {out.bytes, out.nulls, page_bad_levels}; }
      valid = level == static_cast<std::uint32_t>(c.max_def);
    }
    out.nulls += valid ? 0 : 1;
    if (c.mask != nullptr && !measure) {
      if (row / 32 != word) {
        if (bits != 0) { colx::detail::atomic_or(c.mask + word, bits); }
        bits = 0;
        word = row / 32;
      }
      bits |= valid ? bitmask_type{1} << (row % 32) : 0;
    }
    if (strings || byte_decimals) {
      std::uint8_t const* bytes = nullptr;
      std::int64_t length = 0, prefix = 0;
      if (valid && !src.next_bytes(bytes, length, prefix)) { return {out.bytes, out.nulls, src.error}; }
      if (prefix > previous_length) { return {out.bytes, out.nulls, page_bad_prefix}; }
      std::int64_t const total = prefix + length;
      if (total > 0x7fffffff) { return {out.bytes, out.nulls, page_bad_prefix}; }  // (a value of 2 GiB or more)
      if (!strings) {  // a decimal in a byte array; DELTA_BYTE_ARRAY's shared prefix is kept in `decimal`
        if (valid) {
          if (total > static_cast<std::int64_t>(sizeof decimal)) { return {out.bytes, out.nulls, page_bad_prefix}; }
          for (std::int64_t b = 0; b < length; ++b) { decimal[prefix + b] = bytes[b]; }
          store_value(c, c.values + row * c.out_width, decimal, total);
        } else {
          for (std::int32_t b = 0; b < c.out_width; ++b) { c.values[row * c.out_width + b] = 0; }
        }
      } else if (measure) {
        c.lengths[row] = static_cast<std::int32_t>(total);
        out.bytes += total;
      } else if (valid) {
        std::int64_t const at = c.offsets64 != nullptr ? c.offsets64[row] : c.offsets32[row];
        if (prefix > 0) { copy_raw(c.chars + at, c.chars + previous_at, prefix); }
        copy_raw(c.chars + at + prefix, bytes, length);
        out.bytes += total;
      }
      if (valid) {
        previous_length = total;
        previous_at = strings && !measure ? (c.offsets64 != nullptr ? c.offsets64[row] : c.offsets32[row]) : -1;
      }
      continue;
    }
    std::uint8_t* const dst = c.values + row * c.out_width;
    if (!valid) {
      for (std::int32_t b = 0; b < c.out_width; ++b) { dst[b] = 0; }
      continue;
    }
    std::uint8_t const* v = src.next_fixed(tmp);
    if (v == nullptr) { return {out.bytes, out.nulls, src.error}; }
    store_value(c, dst, v, c.in_width);
  }
  if (c.mask != nullptr && !measure && bits != 0) { colx::detail::atomic_or(c.mask + word, bits); }
  return out;
}

// Whether the GPU's block kernel takes this page (gpu_decode.cuh); the serial decoder takes the rest.
COLX_HOST_DEVICE inline bool block_decodable(page_task const& p, column_task const& c) {
  bool const dictionary = p.values_encoding == encoding::plain_dictionary || p.values_encoding == encoding::rle_dictionary;
  if (!dictionary && p.values_encoding != encoding::plain) { return false; }
  if (c.kind == value_kind::big_endian && c.type == physical::byte_array) { return false; }
  if (c.max_def > 1 || (c.max_def == 1 && p.def_bytes < 0 && p.def_encoding != encoding::rle)) { return false; }
  return true;
}

// The serial decode of each page (on the GPU, of each page the block kernel leaves).
struct decode_pages_fn {
  page_task const* pages;
  column_task const* columns;
  dictionary_task const* dicts;
  page_outcome* outcomes;
  bool measure;
  bool leave_block_pages = false;
  COLX_HOST_DEVICE void operator()(size_type i) const {
    column_task const& c = columns[pages[i].column];
    if (leave_block_pages && block_decodable(pages[i], c)) { return; }
    outcomes[i] = measure && c.kind != value_kind::string ? page_outcome{} : decode_page(pages[i], c, dicts, measure);
  }
};

// The host's decode pass: a page per iteration (the GPU's, a block per page, is in gpu_decode.cuh).
// Pages differ in size, so they are shared out dynamically (the executor's for_each_n splits rows
// evenly, and runs a few thousand items on one thread).
inline void decode_pass(host::executor const&, size_type n_pages, page_task const* pages, column_task const* columns,
                        dictionary_task const* dicts, page_outcome* outcomes, bool measure) {
  decode_pages_fn const f{pages, columns, dicts, outcomes, measure};
#pragma omp parallel for schedule(dynamic, 4)
  for (size_type i = 0; i < n_pages; ++i) { f(i); }
}

// Finds where each entry of a BYTE_ARRAY dictionary starts (one dictionary per call).
struct index_dictionaries_fn {
  dictionary_task const* dicts;
  std::int32_t* errors;
  COLX_HOST_DEVICE void operator()(size_type i) const {
    dictionary_task const& d = dicts[i];
    errors[i] = page_ok;
    if (d.entry_at == nullptr) { return; }
    std::int64_t at = 0;
    for (std::int32_t k = 0; k < d.entries; ++k) {
      if (d.size - at < 4 || load_le32(d.body + at) > static_cast<std::uint64_t>(d.size - at - 4)) {
        errors[i] = page_truncated;
        return;
      }
      d.entry_at[k] = at;
      at += 4 + load_le32(d.body + at);
    }
  }
};

inline void index_dictionaries_pass(host::executor const&, size_type n_dicts, dictionary_task const* dicts, std::int32_t* errors) {
  index_dictionaries_fn const f{dicts, errors};
#pragma omp parallel for schedule(dynamic, 1)
  for (size_type i = 0; i < n_dicts; ++i) { f(i); }
}

}  // namespace colx::parquet::detail
