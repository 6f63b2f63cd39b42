// SPDX-License-Identifier: Apache-2.0
#pragma once
// A CSV file read in chunks, for files larger than the memory they are read into:
//
//   colx::csv_reader reader(path, 1ull << 30);  // about 1 GiB of text a chunk
//   while (auto chunk = reader.next()) { ... *chunk ... }
//
// The dialect, header and types are detected once, from the file's start (as sniff_csv does), and
// every chunk has them: integers stay int64 (a whole read narrows them after seeing every value)
// and a value that its column's type does not read is an error, or a null with
// errors_become_nulls (a whole read would widen the type). Each chunk is the records that end in
// the next `chunk_bytes` of text; a record the chunk cuts is carried whole into the next (a record
// longer than a chunk makes that chunk longer). Compressed files are refused: decompress them, or
// read them whole.
#include <colx/io/csv/reader.hpp>

#include <optional>
#include <string>
#include <vector>

namespace colx {

class csv_reader {
 public:
  csv_reader(std::string path, std::size_t chunk_bytes, csv_read_options options = {}, stream_ref stream = {},
             resource_ref mr = get_current_resource())
      : _path(std::move(path)), _file(_path), _chunk(std::max<std::size_t>(chunk_bytes, 1)), _options(std::move(options)), _stream(stream),
        _mr(mr) {
    using namespace csv::detail;
    COLX_EXPECTS_AS(csv_error, !ends_with(_path, ".gz") && !ends_with(_path, ".zst"), _path,
                    ": a compressed file is not read in chunks; decompress it, or read it whole with read_csv");
    std::uint64_t const n = std::min<std::uint64_t>(_file.size(), static_cast<std::uint64_t>(std::max<std::int64_t>(_options.sample_bytes, 4096)) * 8);
    std::vector<char> start(n);
    _file.read(0, std::span(reinterpret_cast<std::uint8_t*>(start.data()), start.size()));
    _pos = n >= 3 && static_cast<unsigned char>(start[0]) == 0xef && static_cast<unsigned char>(start[1]) == 0xbb &&
                   static_cast<unsigned char>(start[2]) == 0xbf
               ? 3
               : 0;
    _sniffed = sniff(start.data() + _pos, static_cast<std::int64_t>(n - _pos), _options, n == _file.size());
    _selection = select_columns(_sniffed, _options, _path);
    _to_skip = _options.skip_rows + (_sniffed.header ? 1 : 0);
    _rows_left = _options.row_limit;
    _done = _pos >= _file.size();
  }

  [[nodiscard]] bool has_next() const noexcept { return !_done; }
  [[nodiscard]] std::size_t chunks() const noexcept { return _chunks; }
  // The detected (or given) names and types every chunk has.
  [[nodiscard]] std::vector<std::pair<std::string, data_type>> columns() const {
    std::vector<std::pair<std::string, data_type>> out;
    for (std::int32_t f : _selection.field_of) {
      auto const k = static_cast<std::size_t>(f);
      out.emplace_back(_sniffed.names[k], _sniffed.types[k].type);
    }
    return out;
  }

  // The next chunk's rows, or nothing at the end of the file.
  [[nodiscard]] std::optional<any_table> next() {
    using namespace csv::detail;
    memory_kind const kind = _mr.kind();
#if COLX_HAS_CUDA
    resource_ref const staging = kind == memory_kind::device ? get_current_pinned_resource() : get_current_host_resource();
#else
    resource_ref const staging = get_current_host_resource();
#endif
    std::size_t want = _chunk;
    while (!_done && _rows_left != 0) {
      std::size_t const piece = static_cast<std::size_t>(std::min<std::uint64_t>(want, _file.size() - _pos));
      bool const at_end = _pos + piece == _file.size();
      buffer host(_carry.size() + piece, {}, staging);
      auto* const h = static_cast<char*>(host.data());
      std::copy(_carry.begin(), _carry.end(), h);
      _file.read(_pos, std::span(reinterpret_cast<std::uint8_t*>(h) + _carry.size(), piece));
      auto const size = static_cast<std::int64_t>(host.size());
      buffer const device = kind == memory_kind::host ? buffer{} : buffer(h, memory_kind::host, host.size(), _stream, _mr);
      char const* const text = kind == memory_kind::host ? h : static_cast<char const*>(device.data());
      record_spans const records = find_records(text, size, _sniffed.d, _path, _stream, _mr, _state, at_end);
      if (records.count == 0 && !at_end) {  // (a record longer than the chunk: read more with it)
        want *= 2;
        continue;
      }
      std::int64_t const text_at = static_cast<std::int64_t>(_pos) - static_cast<std::int64_t>(_carry.size());  // (the text's file offset)
      _pos += piece;
      _done = at_end;
      _carry = records.open_at >= 0 ? std::string(h + records.open_at, h + size) : std::string();
      _state = records.open_at >= 0 ? csv::detail::at_start : records.last;
      std::int64_t const skipped = std::min(records.count, _to_skip);
      _to_skip -= skipped;
      std::int64_t rows = records.count - skipped;
      if (_rows_left >= 0) { rows = std::min(rows, _rows_left), _rows_left -= rows; }
      if (rows == 0) { continue; }
      auto const line_of_at = [&](std::int64_t at) { return line_before(text_at) + csv::detail::line_of(h, at) - 1; };
      any_table t = records_to_table(text, h, static_cast<std::int64_t const*>(records.starts.data()) + skipped,
                                     static_cast<std::int64_t const*>(records.ends.data()) + skipped, static_cast<size_type>(rows), _sniffed,
                                     _selection, _options, false, line_of_at, _path, _stream, _mr);
      ++_chunks;
      return t;
    }
    _done = true;
    return std::nullopt;
  }

 private:
  // The lines before file offset `at` (read again from the file: only an error's message needs it).
  [[nodiscard]] std::int64_t line_before(std::int64_t at) const {
    std::int64_t lines = 1;
    std::vector<char> piece(std::size_t{1} << 20);
    for (std::int64_t p = 0; p < at; p += static_cast<std::int64_t>(piece.size())) {
      auto const n = static_cast<std::size_t>(std::min<std::int64_t>(static_cast<std::int64_t>(piece.size()), at - p));
      _file.read(static_cast<std::uint64_t>(p), std::span(reinterpret_cast<std::uint8_t*>(piece.data()), n));
      lines += std::count(piece.begin(), piece.begin() + static_cast<std::ptrdiff_t>(n), '\n');
    }
    return lines;
  }

  std::string _path;
  file_source _file;
  std::size_t _chunk;
  csv_read_options _options;
  stream_ref _stream;
  resource_ref _mr;
  csv::detail::sniff_result _sniffed;
  csv::detail::column_selection _selection;
  std::uint64_t _pos = 0;                           // the next byte of the file to read
  std::string _carry;                               // a record the last chunk cut, from its start
  csv::detail::reader_state _state = csv::detail::at_start;  // the automaton's state at the carry's start
  std::int64_t _to_skip = 0, _rows_left = -1;
  std::size_t _chunks = 0;
  bool _done = false;
};

}  // namespace colx
