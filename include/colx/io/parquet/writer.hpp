// SPDX-License-Identifier: Apache-2.0
#pragma once
// write_parquet(table, path, options): an any_table as a Parquet file that pyarrow, DuckDB and
// colx read back value for value. Flat columns of every type colx reads (a dictionary column
// is written as its values, dictionary-encoded again); a column is OPTIONAL when it has a null
// mask, else REQUIRED; names are labels, a label of several levels joined by '.'.
//
// Encoding happens on the host (device columns are copied there first), the columns of a row
// group in parallel: a dictionary page and RLE_DICTIONARY data pages while the dictionary stays
// small, else PLAIN; v1 data pages; SNAPPY, ZSTD, GZIP or none; min, max and null count per chunk
// (with TypeDefinedOrder, so readers trust them) and the byte arrays' size statistics. The file
// is written beside its path and renamed into place when whole: a failed write leaves no file.
#include <colx/column/copying.hpp>
#include <colx/io/file_sink.hpp>
#include <colx/io/parquet/write_chunk.hpp>
#include <colx/memory/current_resource.hpp>
#include <colx/table/any_table.hpp>

#include <cstdio>
#include <exception>
#include <string>
#include <vector>

#if defined(_OPENMP)
#  include <omp.h>
#endif

namespace colx {

enum class parquet_compression : std::int32_t { none = 0, snappy = 1, gzip = 2, zstd = 6 };

struct parquet_write_options {
  parquet_compression compression = parquet_compression::snappy;
  int compression_level = 0;             // the codec's own scale; 0: its default
  std::int64_t row_group_rows = 1 << 20;  // rows of a row group (the last may hold fewer)
  bool dictionary = true;                 // dictionary-encode where the dictionary stays small
  std::size_t page_bytes = 1 << 20;       // values' bytes in a data page, about
  std::size_t dictionary_page_bytes = 1 << 20;  // a larger dictionary falls back to PLAIN
  bool statistics = true;                 // min, max and null count of each column chunk
};

namespace parquet::detail {

struct written_column {
  std::string name;
  write_type type;
  bool optional = false;
};

inline void write_logical_type(thrift::writer& w, logical_type const& t) {
  w.begin_struct(10);
  w.begin_struct(static_cast<std::int16_t>(t.kind));
  switch (t.kind) {
    case logical_type::decimal: w.field_i32(1, t.scale), w.field_i32(2, t.precision); break;
    case logical_type::timestamp:
      w.field_bool(1, false);
      w.begin_struct(2), w.begin_struct(static_cast<std::int16_t>(t.unit)), w.end_struct(), w.end_struct();
      break;
    case logical_type::integer: w.field_i8(1, static_cast<std::int8_t>(t.bit_width)), w.field_bool(2, t.is_signed); break;
    default: break;  // (STRING, DATE: empty structs)
  }
  w.end_struct();
  w.end_struct();
}

struct written_group {
  std::int64_t rows = 0;
  std::vector<written_chunk> chunks;  // (bytes released once in the file)
  std::vector<std::int64_t> offsets;  // of each chunk in the file
};

inline std::vector<std::uint8_t> footer(std::vector<written_column> const& columns, std::vector<written_group> const& groups, std::int64_t rows,
                                        codec compression) {
  thrift::writer w;
  w.field_i32(1, 1);
  w.begin_list(2, thrift::wire::structure, columns.size() + 1);
  w.begin_element();
  w.field_string(4, "schema");
  w.field_i32(5, static_cast<std::int32_t>(columns.size()));
  w.end_struct();
  for (auto const& c : columns) {
    w.begin_element();
    w.field_i32(1, static_cast<std::int32_t>(c.type.type));
    if (c.type.type_length > 0) { w.field_i32(2, c.type.type_length); }
    w.field_i32(3, static_cast<std::int32_t>(c.optional ? repetition::optional : repetition::required));
    w.field_string(4, c.name);
    if (c.type.converted_type != converted::none) { w.field_i32(6, static_cast<std::int32_t>(c.type.converted_type)); }
    if (c.type.logical.kind == logical_type::decimal) { w.field_i32(7, c.type.logical.scale), w.field_i32(8, c.type.logical.precision); }
    if (c.type.logical.kind != logical_type::none) { write_logical_type(w, c.type.logical); }
    w.end_struct();
  }
  w.field_i64(3, rows);
  w.begin_list(4, thrift::wire::structure, groups.size());
  for (written_group const& rg : groups) {
    std::int64_t uncompressed = 0, compressed = 0;
    w.begin_element();
    w.begin_list(1, thrift::wire::structure, columns.size());
    for (std::size_t j = 0; j < columns.size(); ++j) {
      written_chunk const& c = rg.chunks[j];
      std::int64_t const at = rg.offsets[j];
      uncompressed += c.uncompressed, compressed += c.compressed;
      w.begin_element();
      w.field_i64(2, at);
      w.begin_struct(3);
      w.field_i32(1, static_cast<std::int32_t>(columns[j].type.type));
      w.begin_list(2, thrift::wire::i32, c.encodings.size());
      for (encoding e : c.encodings) { w.element_i32(static_cast<std::int32_t>(e)); }
      w.begin_list(3, thrift::wire::binary, 1);
      w.element_string(columns[j].name);
      w.field_i32(4, static_cast<std::int32_t>(compression));
      w.field_i64(5, rg.rows);
      w.field_i64(6, c.uncompressed);
      w.field_i64(7, c.compressed);
      w.field_i64(9, at + c.first_data_page);
      if (c.dictionary_page >= 0) { w.field_i64(11, at + c.dictionary_page); }
      if (c.stats.null_count) {
        w.begin_struct(12);
        w.field_i64(3, *c.stats.null_count);
        if (c.stats.max) { w.field_string(5, *c.stats.max), w.field_string(6, *c.stats.min); }
        w.end_struct();
      }
      if (c.byte_array_bytes) {
        w.begin_struct(16);
        w.field_i64(1, *c.byte_array_bytes);
        w.end_struct();
      }
      w.end_struct();
      w.end_struct();
    }
    w.field_i64(2, uncompressed);
    w.field_i64(3, rg.rows);
    w.field_i64(5, rg.offsets.empty() ? 4 : rg.offsets.front());
    w.field_i64(6, compressed);
    w.end_struct();
  }
  w.field_string(6, "colx");
  w.begin_list(7, thrift::wire::structure, columns.size());
  for (std::size_t j = 0; j < columns.size(); ++j) {  // TypeDefinedOrder: min and max by the type's order
    w.begin_element(), w.begin_struct(1), w.end_struct(), w.end_struct();
  }
  w.end();
  return std::move(w).take();
}

}  // namespace parquet::detail

namespace parquet::detail {

// `t` at `path`; a column is OPTIONAL where `optional` says so (when given) or it has a mask.
inline void write_table(any_table const& t, std::string const& path, parquet_write_options const& options, stream_ref stream,
                        std::vector<bool> const& optional) {
  COLX_EXPECTS(options.row_group_rows > 0, "write_parquet: row_group_rows must be positive, got ", options.row_group_rows);
  chunk_settings settings;
  settings.compression = static_cast<parquet::codec>(options.compression);
  COLX_EXPECTS_AS(parquet_error, parquet::can_decompress(settings.compression), path, ": ", parquet::missing_codec_message(settings.compression));
  settings.level = options.compression_level;
  settings.dictionary = options.dictionary;
  settings.page_bytes = std::max<std::size_t>(options.page_bytes, 1);
  settings.dictionary_bytes = options.dictionary_page_bytes;
  settings.statistics = options.statistics;

  std::vector<written_column> columns;
  std::vector<any_column> host;  // the columns in host memory
  for (std::size_t j = 0; j < t.num_columns(); ++j) {
    any_column const& c = t.column(j);
    written_column w;
    for (auto const& part : t.labels()[j].parts()) { w.name += (w.name.empty() ? "" : ".") + part; }
    bool const is_dictionary = c.type().id() == type_id::dictionary;
    w.type = write_type_of(is_dictionary ? c.children().front().type() : c.type(), w.name);
    w.optional = c.nullable() || (is_dictionary && c.children().front().nullable()) || (j < optional.size() && optional[j]);
    columns.push_back(std::move(w));
    host.push_back(c.kind() == memory_kind::host ? c : colx::detail::transfer(c, stream, get_current_host_resource()));
  }
  stream.synchronize();

  file_sink out(path);
  out.write("PAR1", 4);
  std::vector<written_group> groups;
  std::int64_t const rows = t.num_rows();
  auto const n_columns = static_cast<std::int64_t>(columns.size());
  // Row groups are encoded a batch at a time, every column of every group of the batch in parallel
  // (a table of few columns keeps the threads busy too), then written in order.
#if defined(_OPENMP)
  std::int64_t const batch = std::max(1, omp_get_max_threads());
#else
  std::int64_t const batch = 1;
#endif
  for (std::int64_t first = 0; first < rows; first += batch * options.row_group_rows) {
    std::int64_t const in_batch = std::min(batch, (rows - first + options.row_group_rows - 1) / options.row_group_rows);
    std::vector<written_group> encoded(static_cast<std::size_t>(in_batch));
    for (std::int64_t b = 0; b < in_batch; ++b) {
      encoded[static_cast<std::size_t>(b)].rows = std::min(options.row_group_rows, rows - first - b * options.row_group_rows);
      encoded[static_cast<std::size_t>(b)].chunks.resize(columns.size());
    }
    std::exception_ptr failed;
#pragma omp parallel for schedule(dynamic)
    for (std::int64_t task = 0; task < in_batch * n_columns; ++task) {
      try {
        auto const b = static_cast<std::size_t>(task / n_columns);
        auto const k = static_cast<std::size_t>(task % n_columns);
        std::int64_t const begin = first + static_cast<std::int64_t>(b) * options.row_group_rows;
        physical_values const values = gather_values(any_column_view(host[k]), static_cast<size_type>(begin),
                                                     static_cast<size_type>(begin + encoded[b].rows), columns[k].type, columns[k].optional);
        encoded[b].chunks[k] = write_chunk(values, columns[k].type, settings);
      } catch (...) {
#pragma omp critical
        failed = std::current_exception();
      }
    }
    if (failed) { std::rethrow_exception(failed); }
    for (written_group& g : encoded) {
      for (auto& c : g.chunks) {
        g.offsets.push_back(out.offset());
        out.write(c.bytes.data(), c.bytes.size());
        c.bytes = {};
      }
      groups.push_back(std::move(g));
    }
  }
  std::vector<std::uint8_t> const meta = footer(columns, groups, rows, settings.compression);
  out.write(meta.data(), meta.size());
  std::uint8_t const length[4] = {static_cast<std::uint8_t>(meta.size()), static_cast<std::uint8_t>(meta.size() >> 8),
                                  static_cast<std::uint8_t>(meta.size() >> 16), static_cast<std::uint8_t>(meta.size() >> 24)};
  out.write(length, 4);
  out.write("PAR1", 4);
  out.commit();
}

}  // namespace parquet::detail

// `t` as a Parquet file at `path` (replaced if it exists).
inline void write_parquet(any_table const& t, std::string const& path, parquet_write_options const& options = {}, stream_ref stream = {}) {
  parquet::detail::write_table(t, path, options, stream, {});
}

}  // namespace colx
