// SPDX-License-Identifier: Apache-2.0
#pragma once
// write_csv(table, path, options): an any_table as CSV text that read_csv (and DuckDB, pyarrow)
// reads back to the same values: a header of the labels, integers and decimals in full, doubles in
// their shortest round-trip digits, dates as YYYY-MM-DD, timestamps as YYYY-MM-DD HH:MM:SS with
// the fraction's significant digits, booleans as true/false; a string quoted where it holds the
// delimiter, a quote, a line end or spaces at its ends, or is empty (so that it is not the null
// string, written bare). A dictionary column is written as its values.
//
// Formatting runs where the columns are, on the GPU for device columns, in passes of chunk_rows
// rows (cell_text.hpp has each cell's text; doubles take real_text.hpp's digits, or the host's
// for the rare value that has none). The file is written beside its path and renamed into place
// when whole.
#include <colx/column/copying.hpp>
#include <colx/exec/dispatch.hpp>
#include <colx/io/csv/cell_text.hpp>
#include <colx/io/file_sink.hpp>
#include <colx/memory/buffer.hpp>
#include <colx/memory/current_resource.hpp>
#include <colx/table/any_table.hpp>

#include <atomic>
#include <charconv>
#include <chrono>
#include <cstdint>
#include <future>
#include <string>
#include <utility>
#include <vector>

namespace colx {

// Where a write_csv spent its time (seconds; the two overlap).
struct csv_write_stats {
  double format_seconds = 0;  // formatting on the backend and copying the text to host memory
  double write_seconds = 0;   // writing the text to the file (on a second thread)
  std::int64_t bytes = 0;     // of text, the header included
};

struct csv_write_options {
  char delimiter = ',';
  char quote = '"';
  bool header = true;
  std::string null_string;      // written for nulls (bare); empty strings are quoted, so they differ
  std::string line_end = "\n";  // or "\r\n"
  std::int64_t chunk_rows = 1 << 21;  // rows formatted in one pass: bounds the text held in memory
  csv_write_stats* stats = nullptr;   // filled when given
};

namespace csv::detail {

struct size_of_text {
  template <class T>
  COLX_HOST_DEVICE size_type operator()(T const& t) const { return t.size_bytes(); }
};
struct write_text {
  char* out;
  template <class T>
  COLX_HOST_DEVICE size_type operator()(T const& t) const {
    t.write_to(out);
    return t.size_bytes();
  }
};

// The bytes of rows first + i: their cells, the delimiters between them and the line end.
struct row_bytes_fn {
  cell_source const* sources;
  int columns;
  cell_dialect dialect;
  size_type first;
  COLX_HOST_DEVICE std::int64_t operator()(size_type i) const {
    std::int64_t bytes = columns - 1 + dialect.line_end_bytes;
    for (int c = 0; c < columns; ++c) { bytes += with_cell_text(sources, c, first + i, dialect, size_of_text{}); }
    return bytes;
  }
};
// Row first + i written at out + at[i].
struct write_row_fn {
  cell_source const* sources;
  int columns;
  cell_dialect dialect;
  size_type first;
  std::int64_t const* at;
  char* out;
  COLX_HOST_DEVICE void operator()(size_type i) const {
    char* o = out + at[i];
    for (int c = 0; c < columns; ++c) {
      if (c > 0) { *o++ = dialect.delimiter; }
      o += with_cell_text(sources, c, first + i, dialect, write_text{o});
    }
    for (size_type k = 0; k < dialect.line_end_bytes; ++k) { *o++ = dialect.line_end[k]; }
  }
};

// 1 where row first + i of a floating-point column is valid and real_text has no digits for it.
struct needs_fallback_fn {
  cell_source s;
  size_type first;
  COLX_HOST_DEVICE std::int64_t operator()(size_type i) const {
    size_type const row = s.offset + first + i;
    if (s.mask != nullptr && !bit_is_set(s.mask, row)) { return 0; }
    bool const found = s.id == type_id::float32 ? real_text::of(load_at<float>(s.data, row)).found()
                                                : real_text::of(load_at<double>(s.data, row)).found();
    return found ? 0 : 1;
  }
};
// Those values, gathered in order (a float widened exactly to a double).
struct gather_fallback_fn {
  cell_source s;
  size_type first;
  std::int64_t const* slots;  // the exclusive scan of needs_fallback_fn
  double* out;
  COLX_HOST_DEVICE void operator()(size_type i) const {
    if (slots[i + 1] == slots[i]) { return; }
    size_type const row = s.offset + first + i;
    out[slots[i]] = s.id == type_id::float32 ? static_cast<double>(load_at<float>(s.data, row)) : load_at<double>(s.data, row);
  }
};

// A backend's buffers for one pass: what the formatting reads besides the columns.
struct pass_buffers {
  std::vector<buffer> held;
  void* hold(buffer b) { return held.emplace_back(std::move(b)).data(); }
};

// Gives rows [first, first + n) of floating-point source `s` their host text where real_text
// finds no digits: one scan on the backend; when there are any, their values go to the host,
// std::to_chars writes their shortest digits, and the texts come back.
template <class Exec>
void prepare_fallback(Exec const& exec, cell_source& s, size_type first, size_type n, memory_kind kind, stream_ref stream,
                      pass_buffers& keep) {
  resource_ref const mr = get_current_resource(kind);
  auto* slots = static_cast<std::int64_t*>(keep.hold(buffer(static_cast<std::size_t>(n + 1) * 8, stream, mr)));
  std::int64_t const hard = exec.exclusive_scan(n, std::int64_t{0}, needs_fallback_fn{s, first}, slots);
  s.fallback_slots = nullptr;
  if (hard == 0) { return; }
  buffer values(static_cast<std::size_t>(hard) * 8, stream, mr);
  exec.for_each_n(n, gather_fallback_fn{s, first, slots, static_cast<double*>(values.data())});
  std::vector<double> host(static_cast<std::size_t>(hard));
  colx::detail::copy_bytes(host.data(), memory_kind::host, values.data(), values.kind(), host.size() * 8, stream);
  std::vector<std::int64_t> offsets{0};
  std::string chars;
  for (double v : host) {
    char text[32];
    char* const end = s.id == type_id::float32 ? std::to_chars(text, text + sizeof text, static_cast<float>(v)).ptr
                                               : std::to_chars(text, text + sizeof text, v).ptr;
    chars.append(text, end);
    offsets.push_back(static_cast<std::int64_t>(chars.size()));
  }
  s.fallback_offsets = static_cast<std::int64_t const*>(keep.hold(buffer(offsets.data(), memory_kind::host, offsets.size() * 8, stream, mr)));
  s.fallback_chars = static_cast<char const*>(keep.hold(buffer(chars.data(), memory_kind::host, chars.size(), stream, mr)));
  s.fallback_slots = slots;
  s.fallback_first = first;
}

// Column views as cell sources; a dictionary's values follow the top-level columns.
inline std::vector<cell_source> cell_sources(std::vector<any_column_view> const& views) {
  std::vector<cell_source> out;
  auto const source = [](any_column_view const& v) {
    cell_source s;
    s.id = v.type().id();
    s.data = static_cast<std::uint8_t const*>(v.head());
    s.mask = v.null_mask();
    s.offset = v.offset();
    if (s.id >= type_id::decimal32 && s.id <= type_id::decimal128) { s.scale = -v.type().scale(); }
    if (s.id == type_id::dictionary) { s.codes = v.type().codes(); }
    if (s.id == type_id::string) {
      auto const& o = v.children().front();
      s.offsets64 = o.type().id() == type_id::int64;
      s.offsets = static_cast<std::uint8_t const*>(o.head()) + o.offset() * (s.offsets64 ? 8 : 4);
    }
    return s;
  };
  for (auto const& v : views) { out.push_back(source(v)); }
  for (std::size_t c = 0; c < views.size(); ++c) {
    if (out[c].id != type_id::dictionary) { continue; }
    out[c].values = static_cast<int>(out.size());
    out.push_back(source(views[c].children().front()));
  }
  return out;
}

inline std::string header_line(any_table const& t, csv_write_options const& o) {
  std::string line;
  for (std::size_t c = 0; c < t.num_columns(); ++c) {
    std::string name;
    for (auto const& part : t.labels()[c].parts()) { name += (name.empty() ? "" : ".") + part; }
    if (c > 0) { line += o.delimiter; }
    bool const quote = name.find_first_of(std::string{o.delimiter, o.quote, '\n', '\r'}) != std::string::npos;
    line += quote ? o.quote + name + o.quote : name;
  }
  return line + o.line_end;
}

}  // namespace csv::detail

// `t` as CSV text at `path` (replaced if it exists). The text is formatted where the columns are
// (on the GPU for device columns), chunk_rows rows at a time: the bytes of every row, a scan of
// them into offsets, every row written at its offset. A chunk's text then goes to pinned memory
// and is written to the file by a second thread while the next chunk is formatted.
inline void write_csv(any_table const& t, std::string const& path, csv_write_options const& o = {}, stream_ref stream = {}) {
  using namespace csv::detail;
  COLX_EXPECTS(o.chunk_rows > 0, "write_csv: chunk_rows must be positive, got ", o.chunk_rows);
  COLX_EXPECTS(o.line_end == "\n" || o.line_end == "\r\n", "write_csv: line_end must be \"\\n\" or \"\\r\\n\"");
  memory_kind kind = memory_kind::host;
  for (auto const& c : t.columns()) {
    COLX_EXPECTS(c.type().id() < type_id::duration_days || c.type().id() > type_id::duration_nanoseconds,
                 "write_csv: a column of type ", c.type().to_string(), " has no CSV form (cast it to int64 first)");
    if (c.kind() == memory_kind::device) { kind = memory_kind::device; }
  }
  resource_ref const mr = get_current_resource(kind);
  std::vector<any_column> moved;  // (columns not where the formatting runs, copied there)
  std::vector<any_column_view> views;
  for (auto const& c : t.columns()) {
    bool const there = kind == memory_kind::device ? c.kind() == memory_kind::device : is_host_accessible(c.kind());
    views.push_back(there ? any_column_view(c) : any_column_view(moved.emplace_back(colx::detail::transfer(c, stream, mr))));
  }
  file_sink out(path);
  if (o.header) {
    std::string const line = header_line(t, o);
    out.write(line.data(), line.size());
  }
  int const columns = static_cast<int>(views.size());
  size_type const rows = t.num_rows();
  if (columns == 0 || rows == 0) { return out.commit(); }

  std::vector<cell_source> sources = cell_sources(views);
  pass_buffers whole;  // what every chunk reads: the null string, the dictionaries' fallback texts
  cell_dialect d;
  d.delimiter = o.delimiter, d.quote = o.quote;
  d.null_bytes = static_cast<size_type>(o.null_string.size());
  d.null_string = static_cast<char const*>(whole.hold(buffer(o.null_string.data(), memory_kind::host, o.null_string.size() + 1, stream, mr)));
  d.line_end_bytes = static_cast<size_type>(o.line_end.size());
  for (std::size_t k = 0; k < o.line_end.size(); ++k) { d.line_end[k] = o.line_end[k]; }
  on_backend(kind, stream, [&](auto const& exec) {  // the dictionaries' floating-point values: once
    for (int c = 0; c < columns; ++c) {
      if (sources[c].id != type_id::dictionary) { continue; }
      cell_source& values = sources[static_cast<std::size_t>(sources[c].values)];
      if (values.id == type_id::float32 || values.id == type_id::float64) {
        prepare_fallback(exec, values, 0, views[static_cast<std::size_t>(c)].children().front().size(), kind, stream, whole);
      }
    }
  });

#if COLX_HAS_CUDA
  resource_ref const staging = kind == memory_kind::device ? get_current_pinned_resource() : get_current_host_resource();
#else
  resource_ref const staging = get_current_host_resource();
#endif
  buffer text, host_text[2];
  using clock = std::chrono::steady_clock;
  auto const seconds_since = [](clock::time_point t) { return std::chrono::duration<double>(clock::now() - t).count(); };
  double format_seconds = 0;
  std::atomic<double> write_seconds{0};
  std::future<void> writing;  // the previous chunk's text going to the file
  auto finish_writing = [&] {
    if (writing.valid()) { writing.get(); }
  };
  try {
    for (size_type first = 0, chunk = 0; first < rows; first += o.chunk_rows, ++chunk) {
      size_type const n = std::min<size_type>(o.chunk_rows, rows - first);
      auto const started = clock::now();
      pass_buffers pass;
      std::vector<cell_source> chunk_sources = sources;
      on_backend(kind, stream, [&](auto const& exec) {
        for (int c = 0; c < columns; ++c) {
          if (chunk_sources[c].id == type_id::float32 || chunk_sources[c].id == type_id::float64) {
            prepare_fallback(exec, chunk_sources[c], first, n, kind, stream, pass);
          }
        }
        auto const* device_sources = static_cast<cell_source const*>(
            pass.hold(buffer(chunk_sources.data(), memory_kind::host, chunk_sources.size() * sizeof(cell_source), stream, mr)));
        auto* at = static_cast<std::int64_t*>(pass.hold(buffer(static_cast<std::size_t>(n + 1) * 8, stream, mr)));
        std::int64_t const bytes = exec.exclusive_scan(n, std::int64_t{0}, row_bytes_fn{device_sources, columns, d, first}, at);
        if (text.size() < static_cast<std::size_t>(bytes)) { text = buffer(static_cast<std::size_t>(bytes), stream, mr); }
        exec.for_each_n(n, write_row_fn{device_sources, columns, d, first, at, static_cast<char*>(text.data())});
        buffer& host = host_text[chunk % 2];  // (the previous chunk's text, being written, is in the other)
        if (kind == memory_kind::device) {
          if (host.size() < static_cast<std::size_t>(bytes)) { host = buffer(static_cast<std::size_t>(bytes), stream, staging); }
          colx::detail::copy_bytes(host.data(), host.kind(), text.data(), text.kind(), static_cast<std::size_t>(bytes), stream);
        } else {
          std::swap(host, text);  // (the text is in host memory already)
        }
        stream.synchronize();
        format_seconds += seconds_since(started);
        finish_writing();  // (one write at a time keeps the file in order)
        writing = std::async(std::launch::async, [&, p = host.data(), bytes] {
          auto const begun = clock::now();
          out.write(p, static_cast<std::size_t>(bytes));
          write_seconds = write_seconds + seconds_since(begun);
        });
      });
    }
    finish_writing();
  } catch (...) {
    if (writing.valid()) { writing.wait(); }
    throw;
  }
  if (o.stats != nullptr) { *o.stats = {format_seconds, write_seconds, out.offset()}; }
  out.commit();
}

}  // namespace colx
