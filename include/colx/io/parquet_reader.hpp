// SPDX-License-Identifier: Apache-2.0
#pragma once
// A Parquet file read in chunks, for files larger than the memory they are read into:
//
//   colx::parquet_reader<lineitem> reader(path, {.max_bytes = 2ull << 30});
//   while (auto chunk = reader.next()) { partial.push_back(*chunk | group_by(...) | aggregate(...)); }
//
// Each chunk is whole row groups, as many as fit the limits, or, for a row group holding more rows
// than max_rows, a window of its rows (the group is read once and handed out in windows). The bytes
// a chunk's read takes at its peak are estimated from the footer before reading: the pages, the
// decoding's scratch and the columns, a string column's bytes from the writer's size statistics
// where it wrote them (pyarrow and parquet-rs do); where it did not, the reader learns the ratio of
// string bytes to page bytes from what it read, and reads one row group first to learn it. A row
// group larger than max_bytes on its own is read alone: the row group is the least a read takes.
// any_parquet_reader yields any_table chunks of the file's own types.
#include <colx/io/parquet.hpp>
#include <colx/io/parquet/row_selection.hpp>

#include <optional>
#include <string>
#include <vector>

namespace colx {

class any_parquet_reader {
 public:
  any_parquet_reader(std::string const& path, parquet_chunk_limits limits, parquet_read_options options = {}, stream_ref stream = {},
                     resource_ref mr = get_current_resource())
      : _file(path), _md(read_parquet_metadata(_file)), _limits(limits), _stats(options.stats), _stream(stream), _mr(mr) {
    using namespace parquet::detail;
    _leaves = select_leaves(_md.columns, options.columns, path);
    _window = select_rows(_md.file, groups_to_read(_md, options.row_groups, path), options.skip_rows, options.num_rows, path);
    _learning = std::any_of(_leaves.begin(), _leaves.end(), [&](std::size_t j) {
      return _md.columns[j].kind == value_kind::string &&
             std::any_of(_window.groups.begin(), _window.groups.end(),
                         [&](std::size_t g) { return !_md.file.row_groups[g].columns[j].unencoded_byte_array_bytes; });
    });
    if (_stats != nullptr) { _stats->file_bytes_read += 12 + static_cast<std::int64_t>(_md.footer_bytes); }
  }
  any_parquet_reader(any_parquet_reader const&) = delete;  // (the leaf columns point into the footer)
  any_parquet_reader& operator=(any_parquet_reader const&) = delete;

  [[nodiscard]] bool has_next() const noexcept { return _done < _window.end - _window.begin; }
  [[nodiscard]] parquet_metadata const& metadata() const noexcept { return _md; }
  // Chunks handed out so far.
  [[nodiscard]] std::size_t chunks() const noexcept { return _chunks; }

  // The next chunk, or nothing at the end of the file's selected rows.
  [[nodiscard]] std::optional<any_table> next() {
    using namespace parquet::detail;
    if (!has_next()) { return std::nullopt; }
    row_window const rest = remaining();
    parquet_chunk_limits limits = _limits;
    if (_learning && limits.max_bytes > 0 && _chunks == 0 && (limits.max_rows == 0 || limits.max_rows > _md.file.row_groups[rest.groups.front()].num_rows)) {
      limits.max_rows = _md.file.row_groups[rest.groups.front()].num_rows - rest.begin;  // (one row group first, to learn from)
    }
    std::vector<row_window> const plan = plan_chunks(_md.file, rest, limits, [&](std::size_t g) {
      return estimate_read_bytes(_md.file, _md.columns, _leaves, g, _string_factor);
    });
    row_window const& c = plan.front();
    if (c.groups != _cached_groups) {
      _cached = any_table();  // (freed before the next read)
      _cached = read_groups(_file, _md, _leaves, c.groups, _stats, _stream, _mr);
      _cached_groups = c.groups;
      learn(c.groups);
    }
    any_table out = slice_rows(_cached, c.begin, c.end, _stream, _mr);
    if (c.groups.size() > 1 || c.end == _md.file.row_groups[c.groups.front()].num_rows) {  // (no more windows of it)
      _cached = any_table();
      _cached_groups.clear();
    }
    _done += c.end - c.begin;
    ++_chunks;
    return out;
  }

 private:
  // The rows not handed out yet, as a window over the groups that hold them.
  [[nodiscard]] parquet::detail::row_window remaining() const {
    parquet::detail::row_window r;
    std::int64_t const from = _window.begin + _done;
    std::int64_t start = 0;
    for (std::size_t g : _window.groups) {
      std::int64_t const n = _md.file.row_groups[g].num_rows;
      if (start + n > from) {
        if (r.groups.empty()) { r.begin = from - start, r.end = _window.end - start; }
        r.groups.push_back(g);
      }
      start += n;
    }
    return r;
  }

  // The ratio of string bytes decoded to their pages' bytes, from the chunk just read.
  void learn(std::vector<std::size_t> const& groups) {
    if (!_learning) { return; }
    double pages = 0, chars = 0;
    for (std::size_t i = 0; i < _leaves.size(); ++i) {
      std::size_t const j = _leaves[i];
      if (_md.columns[j].kind != parquet::detail::value_kind::string) { continue; }
      for (std::size_t g : groups) { pages += static_cast<double>(_md.file.row_groups[g].columns[j].total_uncompressed_size); }
      chars += static_cast<double>(_cached.column(i).data().size());
    }
    if (pages > 0) { _string_factor = std::max(_string_factor, 1.25 * chars / pages); }  // (a margin for groups unlike these)
  }

  file_source _file;
  parquet_metadata _md;
  parquet_chunk_limits _limits;
  parquet_read_stats* _stats;
  stream_ref _stream;
  resource_ref _mr;
  std::vector<std::size_t> _leaves;
  parquet::detail::row_window _window;
  bool _learning = false;
  double _string_factor = 1.0;
  std::int64_t _done = 0;  // rows handed out
  std::size_t _chunks = 0;
  any_table _cached;  // the last read, while windows of it remain
  std::vector<std::size_t> _cached_groups;
};

// Chunks of Schema's columns as frames, the file checked against the schema first (as
// read_parquet<Schema> does); options.columns is ignored.
template <class Schema>
class parquet_reader {
 public:
  parquet_reader(std::string const& path, parquet_chunk_limits limits, parquet_read_options options = {}, stream_ref stream = {},
                 resource_ref mr = get_current_resource())
      : _reader(path, limits, with_schema_columns(path, std::move(options)), stream, mr), _stream(stream) {}

  [[nodiscard]] bool has_next() const noexcept { return _reader.has_next(); }
  [[nodiscard]] std::size_t chunks() const noexcept { return _reader.chunks(); }
  [[nodiscard]] std::optional<frame<Schema>> next() {
    std::optional<any_table> t = _reader.next();
    if (!t) { return std::nullopt; }
    return parquet::detail::to_frame<Schema>(std::move(*t), _stream);
  }

 private:
  static parquet_read_options with_schema_columns(std::string const& path, parquet_read_options options) {
    options.columns = parquet::detail::check_schema<Schema>(read_parquet_metadata(path), path);
    return options;
  }
  any_parquet_reader _reader;
  stream_ref _stream;
};

}  // namespace colx
