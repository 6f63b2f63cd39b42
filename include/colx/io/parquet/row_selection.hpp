// SPDX-License-Identifier: Apache-2.0
#pragma once
// Which rows a read takes and how a chunked read cuts them: a row window over the row groups read
// (options.skip_rows, options.num_rows), and chunks of that window no larger than a reader's
// limits, planned from the footer alone.
//
// The row group is the unit of reading: a chunk is whole row groups, or a window of rows of one
// row group too large for the limits (read once, handed out in pieces).
#include <colx/column/copying.hpp>
#include <colx/core/error.hpp>
#include <colx/io/parquet/file_schema.hpp>
#include <colx/io/parquet/metadata.hpp>
#include <colx/table/any_table.hpp>

#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

namespace colx {

// How much one step of a chunked read may take; 0: no limit.
struct parquet_chunk_limits {
  std::int64_t max_rows = 0;   // rows of a chunk
  std::size_t max_bytes = 0;   // the memory its read takes at its peak: compressed and decompressed
                               // pages, the decoding's scratch and the chunk's columns
};

namespace parquet::detail {

// Rows [begin, end) of the rows of `groups`, in their order.
struct row_window {
  std::vector<std::size_t> groups;
  std::int64_t begin = 0, end = 0;
};

inline std::int64_t rows_of(file_metadata const& md, std::vector<std::size_t> const& groups) {
  std::int64_t n = 0;
  for (std::size_t g : groups) { n += md.row_groups[g].num_rows; }
  return n;
}

// The row groups holding rows [skip, skip + num) of `groups` (num < 0: to the end), and the window
// of those rows within them.
inline row_window select_rows(file_metadata const& md, std::vector<std::size_t> const& groups, std::int64_t skip, std::int64_t num,
                              std::string const& path) {
  std::int64_t const total = rows_of(md, groups);
  COLX_EXPECTS_AS(out_of_range, skip >= 0 && skip <= total, path, ": skip_rows ", skip, " is outside the ", total, " rows read");
  std::int64_t const last = num < 0 ? total : std::min(total, skip + num);
  row_window w;
  std::int64_t start = 0;  // of the group's rows
  for (std::size_t g : groups) {
    std::int64_t const n = md.row_groups[g].num_rows;
    bool const overlaps = start + n > skip && start < last;
    if (overlaps || (w.groups.empty() && start + n >= skip && skip == last)) {  // (an empty window keeps one group: the columns' types)
      if (w.groups.empty()) { w.begin = skip - start, w.end = w.begin; }
      w.groups.push_back(g);
      w.end += std::min(start + n, last) - std::max(start, skip);
    }
    start += n;
  }
  if (w.groups.empty() && !groups.empty()) { w.groups.push_back(groups.front()); }
  return w;
}

// The memory reading row group g's `leaves` takes at its peak, from the footer: its pages
// compressed and decompressed, and its columns (a string's bytes from the writer's size
// statistics, else its pages' size times `string_factor`, which a chunked reader learns).
inline std::int64_t estimate_read_bytes(file_metadata const& md, std::vector<leaf_column> const& schema,
                                        std::vector<std::size_t> const& leaves, std::size_t g, double string_factor) {
  row_group const& rg = md.row_groups[g];
  std::int64_t const rows = rg.num_rows;
  std::int64_t bytes = 0;
  for (std::size_t j : leaves) {
    column_meta const& c = rg.columns[j];
    bytes += c.total_compressed_size + c.total_uncompressed_size;
    if (schema[j].max_def > 0) { bytes += (rows + 31) / 32 * 4; }
    if (schema[j].kind == value_kind::string) {
      std::int64_t const chars = c.unencoded_byte_array_bytes
                                     ? *c.unencoded_byte_array_bytes
                                     : static_cast<std::int64_t>(static_cast<double>(c.total_uncompressed_size) * string_factor);
      bytes += chars + rows * 4 + (rows + 1) * 8;  // (lengths, offsets at their widest)
    } else {
      bytes += rows * schema[j].out_width;
    }
  }
  return bytes;
}

// Cuts `w` into chunks within `limits`: whole row groups while they fit, a group too large alone
// cut into row windows of at most max_rows. `bytes_of(g)` estimates group g's read.
template <class BytesOf>
std::vector<row_window> plan_chunks(file_metadata const& md, row_window const& w, parquet_chunk_limits const& limits, BytesOf&& bytes_of) {
  std::vector<row_window> out;
  std::int64_t start = 0;  // of group g's rows in w's rows
  row_window open;
  std::int64_t open_bytes = 0;
  auto const close = [&] {
    if (!open.groups.empty()) { out.push_back(std::move(open)); }
    open = {};
    open_bytes = 0;
  };
  for (std::size_t g : w.groups) {
    std::int64_t const n = md.row_groups[g].num_rows;
    std::int64_t const begin = std::max<std::int64_t>(w.begin - start, 0);
    std::int64_t const end = std::min<std::int64_t>(w.end - start, n);
    start += n;
    if (begin >= end) { continue; }
    std::int64_t const bytes = bytes_of(g);
    bool const rows_fit = limits.max_rows == 0 || (open.end - open.begin) + (end - begin) <= limits.max_rows;
    bool const bytes_fit = limits.max_bytes == 0 || static_cast<std::size_t>(open_bytes + bytes) <= limits.max_bytes;
    if (!rows_fit || !bytes_fit) { close(); }
    if (limits.max_rows > 0 && end - begin > limits.max_rows) {  // a group larger than a chunk: pieces of it
      for (std::int64_t b = begin; b < end; b += limits.max_rows) {
        out.push_back(row_window{{g}, b, std::min(end, b + limits.max_rows)});
      }
      continue;
    }
    if (open.groups.empty()) { open.begin = begin, open.end = begin; }
    open.groups.push_back(g);
    open.end += end - begin;
    open_bytes += bytes;
  }
  close();
  return out;
}

// Rows [begin, end) of t, copied (the whole table when that is all of it).
inline any_table slice_rows(any_table t, std::int64_t begin, std::int64_t end, stream_ref stream, resource_ref mr) {
  if (begin == 0 && end == t.num_rows()) { return t; }
  any_table out(t.levels(), t.level_names());
  for (std::size_t i = 0; i < t.num_columns(); ++i) {
    any_column_view const v(t.column(i));
    out.insert(t.labels()[i], copy(v.slice(static_cast<size_type>(begin), static_cast<size_type>(end), stream), stream, mr));
  }
  return out;
}

}  // namespace parquet::detail
}  // namespace colx
