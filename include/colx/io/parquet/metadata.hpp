// SPDX-License-Identifier: Apache-2.0
#pragma once
// Parquet's footer (FileMetaData) and page headers, the parts of parquet.thrift colx reads, parsed
// from the compact protocol. Field numbers are the format's; fields colx does not use (bloom
// filters, encryption, column indexes, key-value metadata) are skipped.
#include <colx/io/parquet/thrift.hpp>

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

namespace colx::parquet {

enum class physical : std::int32_t { boolean = 0, int32 = 1, int64 = 2, int96 = 3, float32 = 4, float64 = 5, byte_array = 6, fixed_len_byte_array = 7 };
enum class repetition : std::int32_t { required = 0, optional = 1, repeated = 2 };
enum class codec : std::int32_t { uncompressed = 0, snappy = 1, gzip = 2, lzo = 3, brotli = 4, lz4 = 5, zstd = 6, lz4_raw = 7 };
enum class encoding : std::int32_t {
  plain = 0,
  plain_dictionary = 2,
  rle = 3,
  bit_packed = 4,
  delta_binary_packed = 5,
  delta_length_byte_array = 6,
  delta_byte_array = 7,
  rle_dictionary = 8,
  byte_stream_split = 9,
};
enum class page_type : std::int32_t { data = 0, index = 1, dictionary = 2, data_v2 = 3 };

// The legacy annotation (ConvertedType); the logical type below supersedes it where both exist.
enum class converted : std::int32_t {
  none = -1, utf8 = 0, map = 1, map_key_value = 2, list = 3, enumeration = 4, decimal = 5, date = 6,
  time_millis = 7, time_micros = 8, timestamp_millis = 9, timestamp_micros = 10, uint8 = 11, uint16 = 12,
  uint32 = 13, uint64 = 14, int8 = 15, int16 = 16, int32 = 17, int64 = 18, json = 19, bson = 20, interval = 21,
};

// LogicalType, a union in the format: which member was set, and its parameters.
struct logical_type {
  enum kind_t : std::int16_t {
    none = 0, string = 1, map = 2, list = 3, enumeration = 4, decimal = 5, date = 6, time = 7, timestamp = 8,
    integer = 10, unknown = 11, json = 12, bson = 13, uuid = 14, float16 = 15, variant = 16, geometry = 17, geography = 18,
  };
  kind_t kind = none;
  std::int32_t scale = 0, precision = 0;  // decimal
  std::int32_t unit = 0;                  // time, timestamp: 1 millis, 2 micros, 3 nanos
  std::int32_t bit_width = 0;             // integer
  bool is_signed = true;                  // integer
};

struct schema_element {
  std::optional<physical> type;  // absent for a group (a struct, a list, the root)
  std::int32_t type_length = 0;
  repetition repetition_type = repetition::required;
  std::string name;
  std::int32_t num_children = 0;
  converted converted_type = converted::none;
  std::int32_t scale = 0, precision = 0;
  logical_type logical;
};

struct statistics {
  std::optional<std::string> min, max;  // min_value / max_value, else the deprecated min / max
  std::optional<std::int64_t> null_count;
  bool legacy = false;  // min and max are the deprecated pair, ordered as signed bytes for strings
};

struct column_meta {
  physical type = physical::boolean;
  std::vector<std::string> path;
  codec compression = codec::uncompressed;
  std::int64_t num_values = 0;
  std::int64_t total_uncompressed_size = 0, total_compressed_size = 0;
  std::int64_t data_page_offset = 0;
  std::optional<std::int64_t> dictionary_page_offset;
  statistics stats;
  std::optional<std::int64_t> unencoded_byte_array_bytes;  // SizeStatistics: the strings' bytes, decoded
};

struct row_group {
  std::vector<column_meta> columns;
  std::int64_t num_rows = 0;
  std::int64_t total_byte_size = 0;
};

struct file_metadata {
  std::int32_t version = 0;
  std::vector<schema_element> schema;  // depth first, the root first
  std::int64_t num_rows = 0;
  std::vector<row_group> row_groups;
  std::string created_by;
};

struct page_header {
  page_type type = page_type::data;
  std::int32_t uncompressed_size = 0, compressed_size = 0;
  std::int32_t num_values = 0;  // data: values including nulls; dictionary: entries
  encoding values_encoding = encoding::plain;
  encoding def_encoding = encoding::rle;  // v1 only
  std::int32_t num_nulls = 0, num_rows = 0;                      // v2 only
  std::int32_t def_levels_bytes = 0, rep_levels_bytes = 0;       // v2 only
  bool v2_compressed = true;                                     // v2 only
};

namespace detail {

using thrift::read_list;
using thrift::read_struct;
using thrift::reader;
using thrift::wire;

inline statistics read_statistics(reader& r) {
  statistics s;
  std::optional<std::string> old_min, old_max;
  read_struct(r, [&](std::int16_t id, wire t) {
    switch (id) {
      case 1: old_max = r.value_string(t); return true;
      case 2: old_min = r.value_string(t); return true;
      case 3: s.null_count = r.value_int(t); return true;
      case 5: s.max = r.value_string(t); return true;
      case 6: s.min = r.value_string(t); return true;
      default: return false;
    }
  });
  // The deprecated pair ordered strings as signed bytes; it is sound for numbers only, which the
  // user of the statistics checks by `legacy`.
  if (!s.min && !s.max && old_min && old_max) {
    s.min = std::move(old_min);
    s.max = std::move(old_max);
    s.legacy = true;
  }
  return s;
}

inline logical_type read_logical_type(reader& r) {
  logical_type lt;
  read_struct(r, [&](std::int16_t id, wire t) {
    lt.kind = static_cast<logical_type::kind_t>(id);
    if (t != wire::structure) { return false; }
    read_struct(r, [&](std::int16_t f, wire ft) {
      if (id == logical_type::decimal) {
        if (f == 1) { lt.scale = r.value_i32(ft); return true; }
        if (f == 2) { lt.precision = r.value_i32(ft); return true; }
      } else if (id == logical_type::time || id == logical_type::timestamp) {
        if (f == 2 && ft == wire::structure) {  // TimeUnit: a union of empty structs
          read_struct(r, [&](std::int16_t u, wire ut) {
            lt.unit = u;
            (void)ut;
            return false;
          });
          return true;
        }
      } else if (id == logical_type::integer) {
        if (f == 1) { lt.bit_width = r.value_i32(ft); return true; }
        if (f == 2) { lt.is_signed = r.value_bool(ft); return true; }
      }
      return false;
    });
    return true;
  });
  return lt;
}

inline schema_element read_schema_element(reader& r) {
  schema_element e;
  read_struct(r, [&](std::int16_t id, wire t) {
    switch (id) {
      case 1: e.type = static_cast<physical>(r.value_i32(t)); return true;
      case 2: e.type_length = r.value_i32(t); return true;
      case 3: e.repetition_type = static_cast<repetition>(r.value_i32(t)); return true;
      case 4: e.name = r.value_string(t); return true;
      case 5: e.num_children = r.value_i32(t); return true;
      case 6: e.converted_type = static_cast<converted>(r.value_i32(t)); return true;
      case 7: e.scale = r.value_i32(t); return true;
      case 8: e.precision = r.value_i32(t); return true;
      case 10: e.logical = read_logical_type(r); return true;
      default: return false;
    }
  });
  return e;
}

inline column_meta read_column_meta(reader& r) {
  column_meta m;
  read_struct(r, [&](std::int16_t id, wire t) {
    switch (id) {
      case 1: m.type = static_cast<physical>(r.value_i32(t)); return true;
      case 3: {
        auto const h = r.value_list(t);
        for (std::uint32_t i = 0; i < h.size; ++i) { m.path.push_back(r.value_string(h.element)); }
        return true;
      }
      case 4: m.compression = static_cast<codec>(r.value_i32(t)); return true;
      case 5: m.num_values = r.value_int(t); return true;
      case 6: m.total_uncompressed_size = r.value_int(t); return true;
      case 7: m.total_compressed_size = r.value_int(t); return true;
      case 9: m.data_page_offset = r.value_int(t); return true;
      case 11: m.dictionary_page_offset = r.value_int(t); return true;
      case 12: m.stats = read_statistics(r); return true;
      case 16:
        if (t != wire::structure) { return false; }
        read_struct(r, [&](std::int16_t f, wire ft) {
          if (f != 1) { return false; }
          m.unencoded_byte_array_bytes = r.value_int(ft);
          return true;
        });
        return true;
      default: return false;
    }
  });
  return m;
}

inline row_group read_row_group(reader& r) {
  row_group g;
  read_struct(r, [&](std::int16_t id, wire t) {
    switch (id) {
      case 1:
        read_list(r, t, [&] {
          column_meta m;
          bool has_meta = false;
          read_struct(r, [&](std::int16_t c, wire) {
            if (c == 1) { r.fail("a column chunk in another file (file_path) is not supported"); }
            if (c != 3) { return false; }
            m = read_column_meta(r);
            has_meta = true;
            return true;
          });
          if (!has_meta) { r.fail("a column chunk without metadata (encrypted files are not supported)"); }
          g.columns.push_back(std::move(m));
        });
        return true;
      case 2: g.total_byte_size = r.value_int(t); return true;
      case 3: g.num_rows = r.value_int(t); return true;
      default: return false;
    }
  });
  return g;
}

}  // namespace detail

// The footer's FileMetaData, from its serialized bytes.
[[nodiscard]] inline file_metadata parse_file_metadata(std::span<std::uint8_t const> bytes, std::string const& file) {
  std::string const what = file + ": footer";
  thrift::reader r(bytes, what.c_str());
  file_metadata md;
  thrift::read_struct(r, [&](std::int16_t id, thrift::wire t) {
    switch (id) {
      case 1: md.version = r.value_i32(t); return true;
      case 2: thrift::read_list(r, t, [&] { md.schema.push_back(detail::read_schema_element(r)); }); return true;
      case 3: md.num_rows = r.value_int(t); return true;
      case 4: thrift::read_list(r, t, [&] { md.row_groups.push_back(detail::read_row_group(r)); }); return true;
      case 6: md.created_by = r.value_string(t); return true;
      default: return false;
    }
  });
  if (md.schema.empty()) { r.fail("no schema"); }
  return md;
}

// A page header at the start of `bytes`; `header_bytes` receives its length (the page's
// compressed body follows it).
[[nodiscard]] inline page_header parse_page_header(std::span<std::uint8_t const> bytes, char const* what,
                                                   std::size_t& header_bytes) {
  thrift::reader r(bytes, what);
  page_header h;
  thrift::read_struct(r, [&](std::int16_t id, thrift::wire t) {
    switch (id) {
      case 1: h.type = static_cast<page_type>(r.value_i32(t)); return true;
      case 2: h.uncompressed_size = r.value_i32(t); return true;
      case 3: h.compressed_size = r.value_i32(t); return true;
      case 5:  // DataPageHeader
        thrift::read_struct(r, [&](std::int16_t f, thrift::wire ft) {
          switch (f) {
            case 1: h.num_values = r.value_i32(ft); return true;
            case 2: h.values_encoding = static_cast<encoding>(r.value_i32(ft)); return true;
            case 3: h.def_encoding = static_cast<encoding>(r.value_i32(ft)); return true;
            default: return false;
          }
        });
        return true;
      case 7:  // DictionaryPageHeader
        thrift::read_struct(r, [&](std::int16_t f, thrift::wire ft) {
          switch (f) {
            case 1: h.num_values = r.value_i32(ft); return true;
            case 2: h.values_encoding = static_cast<encoding>(r.value_i32(ft)); return true;
            default: return false;
          }
        });
        return true;
      case 8:  // DataPageHeaderV2
        thrift::read_struct(r, [&](std::int16_t f, thrift::wire ft) {
          switch (f) {
            case 1: h.num_values = r.value_i32(ft); return true;
            case 2: h.num_nulls = r.value_i32(ft); return true;
            case 3: h.num_rows = r.value_i32(ft); return true;
            case 4: h.values_encoding = static_cast<encoding>(r.value_i32(ft)); return true;
            case 5: h.def_levels_bytes = r.value_i32(ft); return true;
            case 6: h.rep_levels_bytes = r.value_i32(ft); return true;
            case 7: h.v2_compressed = r.value_bool(ft); return true;
            default: return false;
          }
        });
        return true;
      default: return false;
    }
  });
  if (h.compressed_size < 0 || h.uncompressed_size < 0 || h.num_values < 0 || h.def_levels_bytes < 0 || h.rep_levels_bytes < 0 ||
      h.def_levels_bytes > h.compressed_size - h.rep_levels_bytes) {
    r.fail("a page header with impossible sizes");
  }
  header_bytes = r.position();
  return h;
}

}  // namespace colx::parquet
