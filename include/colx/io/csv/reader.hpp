// SPDX-License-Identifier: Apache-2.0
#pragma once
// read_csv(path, options) -> any_table: a CSV file's columns in the memory of the resource passed
// (device memory: parsed on the GPU), its dialect, header and types detected where the options do
// not give them (sniff.hpp).
//
// The text is read whole into host memory (the sniffer reads its samples there), then, in the
// memory the columns go to: the records are found in two passes over blocks (records.hpp), every
// record's fields are converted into their columns a record per thread, the strings' lengths
// scanned into offsets and their bytes copied (parse.hpp). A detected type that a value past the
// samples does not fit is widened and the records read again.
#include <colx/column/any_column.hpp>
#include <colx/exec/dispatch.hpp>
#include <colx/io/csv/columns.hpp>
#include <colx/io/csv/sniff.hpp>
#include <colx/io/csv/text.hpp>
#include <colx/memory/copy_bytes.hpp>
#include <colx/memory/current_resource.hpp>
#include <colx/table/any_table.hpp>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

namespace colx {
namespace csv::detail {

template <class T>
std::vector<T> to_host(void const* p, memory_kind kind, std::size_t n, stream_ref stream) {
  std::vector<T> out(n);
  if (n > 0) { colx::detail::copy_bytes(out.data(), memory_kind::host, p, kind, n * sizeof(T), stream); }
  stream.synchronize();
  return out;
}

struct record_spans {
  buffer starts, ends;
  std::int64_t count = 0;
};

// Every record's start and end in `text` (size bytes in memory of mr's kind).
inline record_spans find_records(char const* text, std::int64_t size, dialect const& d, std::string const& path, stream_ref stream,
                                 resource_ref mr) {
  memory_kind const kind = mr.kind();
  std::int64_t const block = kind == memory_kind::device ? std::int64_t{1} << 14 : std::int64_t{1} << 16;
  auto const blocks = static_cast<size_type>((size + block - 1) / block);
  buffer summaries(static_cast<std::size_t>(blocks) * sizeof(block_summary), stream, mr);
  on_backend(kind, stream, [&](auto const& exec) {
    exec.for_each_n(blocks, summarize_blocks_fn{text, size, block, d, static_cast<block_summary*>(summaries.data())});
  });
  auto const s = to_host<block_summary>(summaries.data(), kind, static_cast<std::size_t>(blocks), stream);
  std::vector<block_start> starts(static_cast<std::size_t>(blocks));
  reader_state state = at_start;
  std::int64_t n_starts = 0, n_ends = 0;
  for (std::size_t b = 0; b < s.size(); ++b) {  // (the chain: each block starts where the one before left)
    starts[b] = {state, n_starts, n_ends};
    n_starts += s[b].starts[state];
    n_ends += s[b].ends[state];
    state = s[b].end[state];
  }
  COLX_EXPECTS_AS(csv_error, state != in_quotes && state != after_escape, path,
                  ": the text ends inside a quoted field (a quote opened and never closed)");
  record_spans r;
  r.count = n_starts;
  r.starts = buffer(static_cast<std::size_t>(n_starts) * 8, stream, mr);
  r.ends = buffer(static_cast<std::size_t>(n_starts) * 8, stream, mr);
  buffer const at(starts.data(), memory_kind::host, starts.size() * sizeof(block_start), stream, mr);
  on_backend(kind, stream, [&](auto const& exec) {
    exec.for_each_n(blocks, mark_records_fn{text, size, block, d, static_cast<block_start const*>(at.data()),
                                            static_cast<std::int64_t*>(r.starts.data()), static_cast<std::int64_t*>(r.ends.data())});
  });
  if (n_ends < n_starts) {  // the last record has no newline: it ends with the text
    colx::detail::copy_bytes(static_cast<std::int64_t*>(r.ends.data()) + (n_starts - 1), kind, &size, memory_kind::host, 8, stream);
  }
  stream.synchronize();
  return r;
}

// Up to 8 short words (120 bytes in all) as the parse pass compares them.
inline text_list word_list(std::vector<std::string> const& words, char const* what) {
  text_list out;
  COLX_EXPECTS(words.size() <= 8, "read_csv: at most 8 ", what, ", got ", words.size());
  for (auto const& w : words) {
    COLX_EXPECTS(out.offsets[out.count] + w.size() <= sizeof out.bytes, "read_csv: the ", what, " hold more than 120 bytes");
    std::memcpy(out.bytes + out.offsets[out.count], w.data(), w.size());
    out.offsets[out.count + 1] = static_cast<std::uint8_t>(out.offsets[out.count] + w.size());
    ++out.count;
  }
  return out;
}

inline time_format format_of(std::string const& f, char const* what) {
  COLX_EXPECTS(f.size() < sizeof(time_format{}.text), "read_csv: ", what, " \"", f, "\" is longer than 31 characters");
  time_format out;
  std::memcpy(out.text, f.data(), f.size());
  out.size = static_cast<std::int32_t>(f.size());
  return out;
}

// Field `field` of the record at [begin, end) of the host text, unescaped.
inline std::string field_text(char const* text, std::int64_t begin, std::int64_t end, dialect const& d, std::int32_t field) {
  std::string out;
  std::int32_t n = 0;
  (void)walk_fields(text, begin, end, d, [&](std::int32_t k, field_span const& f) {
    if (k != field) { return true; }
    out.assign(static_cast<std::size_t>(f.end - f.begin - f.escapes), '\0');
    unescape(text, f, d, out.data());
    return false;
  }, n);
  return out;
}

// The line (from 1) of byte `at` of the host text.
inline std::int64_t line_of(char const* text, std::int64_t at) { return 1 + std::count(text, text + at, '\n'); }

}  // namespace csv::detail

[[nodiscard]] inline any_table read_csv(std::string const& path, csv_read_options const& options = {}, stream_ref stream = {},
                                        resource_ref mr = get_current_resource()) {
  using namespace csv::detail;
  using clock = std::chrono::steady_clock;
  auto const started = clock::now();
  auto const ms_since = [](clock::time_point t) { return std::chrono::duration<double, std::milli>(clock::now() - t).count(); };
  memory_kind const kind = mr.kind();
#if COLX_HAS_CUDA
  resource_ref const staging = kind == memory_kind::device ? get_current_pinned_resource() : get_current_host_resource();
#else
  resource_ref const staging = get_current_host_resource();
#endif
  csv_text const host = read_text(path, staging);
  sniff_result sniffed = sniff(host.data(), host.size(), options);
  dialect const d = sniffed.d;
  buffer const device_text = kind == memory_kind::host ? buffer{} : buffer(host.data(), memory_kind::host, static_cast<std::size_t>(host.size()), stream, mr);
  char const* const text = kind == memory_kind::host ? host.data() : static_cast<char const*>(device_text.data());
  if (options.stats != nullptr) { options.stats->ms_read += ms_since(started), options.stats->file_bytes += host.file_bytes; }

  auto const finding = clock::now();
  record_spans const records = find_records(text, host.size(), d, path, stream, mr);
  if (options.stats != nullptr) { options.stats->ms_records += ms_since(finding); }
  std::int64_t const first = std::min(records.count, options.skip_rows + (sniffed.header ? 1 : 0));
  std::int64_t rows64 = records.count - first;
  if (options.row_limit >= 0) { rows64 = std::min(rows64, options.row_limit); }
  COLX_EXPECTS_AS(csv_error, rows64 < std::numeric_limits<size_type>::max(), path, ": ", rows64, " records are more than a table holds");
  auto const rows = static_cast<size_type>(rows64);

  // The columns read: each field's column, or -1.
  auto const n_fields = static_cast<std::int32_t>(sniffed.names.size() + (sniffed.trailing_delimiter ? 1 : 0));
  std::vector<std::int32_t> column_of(static_cast<std::size_t>(n_fields), -1);
  std::vector<std::int32_t> field_of;
  if (options.columns.empty()) {
    for (std::int32_t f = 0; f < static_cast<std::int32_t>(sniffed.names.size()); ++f) {
      column_of[static_cast<std::size_t>(f)] = f, field_of.push_back(f);
    }
  } else {
    std::string missing;
    for (auto const& name : options.columns) {
      auto const it = std::find(sniffed.names.begin(), sniffed.names.end(), name);
      if (it == sniffed.names.end()) {
        missing += (missing.empty() ? "" : ", ") + ("\"" + name + "\"");
        continue;
      }
      auto const f = static_cast<std::int32_t>(it - sniffed.names.begin());
      column_of[static_cast<std::size_t>(f)] = static_cast<std::int32_t>(field_of.size());
      field_of.push_back(f);
    }
    if (!missing.empty()) {
      std::string have;
      for (auto const& n : sniffed.names) { have += (have.empty() ? "" : ", ") + n; }
      COLX_FAIL_AS(schema_error, path, ": no column ", missing, " (the file's columns: ", have, ")");
    }
  }
  std::size_t const n_columns = field_of.size();
  text_list const nulls = word_list(options.null_strings, "null_strings");
  text_list const trues = word_list(options.true_strings, "true_strings");
  text_list const falses = word_list(options.false_strings, "false_strings");
  time_format const date_format = format_of(options.date_format, "date_format");
  time_format const timestamp_format = format_of(options.timestamp_format, "timestamp_format");

  // Parse (again while a detected type widens).
  auto const parsing = clock::now();
  std::vector<column_task> tasks(n_columns);
  std::vector<buffer> values(n_columns), masks(n_columns), lengths(n_columns);
  auto const starts = static_cast<std::int64_t const*>(records.starts.data()) + first;
  auto const ends = static_cast<std::int64_t const*>(records.ends.data()) + first;
  buffer const fields_map(column_of.data(), memory_kind::host, column_of.size() * sizeof(std::int32_t), stream, mr);
  // Counters: first error, bad records, then per column its first failing row and a null count.
  buffer counters((2 + 2 * n_columns) * sizeof(std::int64_t), stream, mr);
  auto* const counter = static_cast<std::int64_t*>(counters.data());
  buffer task_array;
  std::vector<std::int64_t> counts;
  for (int pass = 0;; ++pass) {
    for (std::size_t c = 0; c < n_columns; ++c) {
      sniffed_type const& st = sniffed.types[static_cast<std::size_t>(field_of[c])];
      std::string const& name = sniffed.names[static_cast<std::size_t>(field_of[c])];
      column_task& t = tasks[c];
      t.kind = kind_of(st.type, name);
      t.scale = t.kind == value_kind::decimal64 ? -st.type.scale() : 0;
      std::size_t const width = stored_width(t.kind);
      values[c] = width > 0 ? buffer(static_cast<std::size_t>(rows) * width, stream, mr) : buffer{};
      lengths[c] = width == 0 ? buffer(static_cast<std::size_t>(rows) * 4, stream, mr) : buffer{};
      masks[c] = buffer(static_cast<std::size_t>(bitmask_words(rows)) * sizeof(bitmask_type), stream, mr);
      colx::detail::fill_bytes(masks[c].data(), masks[c].kind(), 0, masks[c].size(), stream);
      t.values = static_cast<std::uint8_t*>(values[c].data());
      t.lengths = static_cast<std::int32_t*>(lengths[c].data());
      t.mask = static_cast<bitmask_type*>(masks[c].data());
      t.first_failed = counter + 2 + 2 * c;
      t.nulled = counter + 3 + 2 * c;
    }
    std::vector<std::int64_t> init(2 + 2 * n_columns, 0);
    init[0] = std::numeric_limits<std::int64_t>::max();
    for (std::size_t c = 0; c < n_columns; ++c) { init[2 + 2 * c] = std::numeric_limits<std::int64_t>::max(); }
    colx::detail::copy_bytes(counter, counters.kind(), init.data(), memory_kind::host, init.size() * 8, stream);
    task_array = buffer(tasks.data(), memory_kind::host, tasks.size() * sizeof(column_task), stream, mr);
    parse_rows_fn const parse{text, starts, ends, d, static_cast<column_task const*>(task_array.data()),
                              static_cast<std::int32_t const*>(fields_map.data()), n_fields, nulls, trues, falses, options.decimal_point, date_format, timestamp_format, options.check_utf8, false, options.errors_become_nulls,
                              counter, counter + 1};
    on_backend(kind, stream, [&](auto const& exec) { exec.for_each_n(rows, parse); });
    counts = to_host<std::int64_t>(counter, counters.kind(), init.size(), stream);
    if (options.stats != nullptr) { ++options.stats->passes; }
    bool widened = false;
    for (std::size_t c = 0; c < n_columns; ++c) {  // a detected type that a value does not fit: one that fits it too
      sniffed_type& st = sniffed.types[static_cast<std::size_t>(field_of[c])];
      std::int64_t const bad_row = counts[2 + 2 * c];
      if (!st.detected || bad_row == std::numeric_limits<std::int64_t>::max() || st.type.id() == type_id::string) { continue; }
      st.type = widen(st.type, field_text(host.data(), to_host<std::int64_t>(starts + bad_row, kind, 1, stream)[0],
                                          to_host<std::int64_t>(ends + bad_row, kind, 1, stream)[0], d, field_of[c]), options);
      widened = true;
    }
    if (!widened) { break; }
  }
  if (counts[0] != std::numeric_limits<std::int64_t>::max()) {  // the first error, for its message
    std::int64_t const row = counts[0] >> 20;
    auto const at = static_cast<std::size_t>((counts[0] >> 4) & 0xffff);
    std::int64_t const code = counts[0] & 15;
    std::int64_t const offset = to_host<std::int64_t>(starts + row, kind, 1, stream)[0];
    std::string const where = path + ": line " + std::to_string(line_of(host.data(), offset));
    switch (code) {
      case error_value: {
        auto const f = static_cast<std::size_t>(field_of[at]);
        COLX_EXPECTS_AS(csv_error, sniffed.types[f].type.id() != type_id::string, where, ", column \"", sniffed.names[f],
                        "\": bytes that are not UTF-8 (set check_utf8 = false to take them as they are, or errors_become_nulls)");
        COLX_FAIL_AS(csv_error, where, ", column \"", sniffed.names[f], "\": a value that is not ", sniffed.types[f].type.to_string(),
                     " (give the column's type in options.types, or set errors_become_nulls)");
      }
      case error_too_few:
      case error_too_many:
        COLX_FAIL_AS(csv_error, where, ": ", code == error_too_few ? "too few" : "too many", " fields (", n_fields, " expected)");
      case error_quote: COLX_FAIL_AS(csv_error, where, ": a quoted field that does not end");
      default: COLX_FAIL_AS(csv_error, where, ", field ", at + 1, ": text after a closing quote");
    }
  }

  // Strings: offsets from the lengths, then their bytes.
  std::vector<buffer> offsets(n_columns), chars(n_columns);
  bool any_strings = false;
  for (std::size_t c = 0; c < n_columns; ++c) {
    if (tasks[c].kind != value_kind::string) { continue; }
    any_strings = true;
    offsets[c] = buffer(static_cast<std::size_t>(rows + 1) * 8, stream, mr);
    std::int64_t const total = on_backend(kind, stream, [&](auto const& exec) {
      return exec.exclusive_scan(rows, std::int64_t{0}, length_at_fn{tasks[c].lengths}, static_cast<std::int64_t*>(offsets[c].data()));
    });
    chars[c] = buffer(static_cast<std::size_t>(total), stream, mr);
    tasks[c].offsets = static_cast<std::int64_t const*>(offsets[c].data());
    tasks[c].chars = static_cast<char*>(chars[c].data());
  }
  if (any_strings) {
    task_array = buffer(tasks.data(), memory_kind::host, tasks.size() * sizeof(column_task), stream, mr);
    parse_rows_fn const copy{text, starts, ends, d, static_cast<column_task const*>(task_array.data()),
                             static_cast<std::int32_t const*>(fields_map.data()), n_fields, nulls, trues, falses, options.decimal_point, date_format, timestamp_format, options.check_utf8, true, options.errors_become_nulls,
                             counter, counter + 1};
    on_backend(kind, stream, [&](auto const& exec) { exec.for_each_n(rows, copy); });
  }

  any_table out;
  for (std::size_t c = 0; c < n_columns; ++c) {
    auto const f = static_cast<std::size_t>(field_of[c]);
    std::string const& name = sniffed.names[f];
    size_type const nulls_count = count_unset_bits(tasks[c].mask, 0, rows, kind, stream);
    buffer mask = nulls_count > 0 ? std::move(masks[c]) : buffer{};
    if (tasks[c].kind == value_kind::string) {
      std::vector<any_column> children;
      children.emplace_back(data_type(type_id::int64), rows + 1, std::move(offsets[c]));
      out.insert(label(name), any_column(data_type(type_id::string), rows, std::move(chars[c]), std::move(mask), nulls_count, std::move(children)));
      continue;
    }
    data_type type;
    buffer data = convert_values(std::move(values[c]), tasks[c].kind, sniffed.types[f].type, rows, tasks[c].mask, sniffed.types[f].detected,
                                 type, name, stream, mr);
    out.insert(label(name), any_column(type, rows, std::move(data), std::move(mask), nulls_count));
  }
  if (options.stats != nullptr) {
    options.stats->records += rows;
    options.stats->bad_records += counts[1];
    for (std::size_t c = 0; c < n_columns; ++c) { options.stats->nulled_values += counts[3 + 2 * c]; }
    options.stats->ms_parse += ms_since(parsing);
    options.stats->ms_total += ms_since(started);
  }
  return out;
}

// What read_csv would detect in a file, from its first 8 sample sizes of text only (a compressed
// file is decompressed whole): the dialect, the header, and each column's name and type, before
// a full read narrows integers to the width that holds them (here: int64) and widens a type that
// a value past the samples does not fit.
struct csv_schema {
  char delimiter = ',', quote = '"';
  bool header = false;
  std::vector<std::pair<std::string, data_type>> columns;
};

[[nodiscard]] inline csv_schema sniff_csv(std::string const& path, csv_read_options const& options = {}) {
  using namespace csv::detail;
  csv_schema out;
  auto const fill = [&](char const* text, std::int64_t size, bool complete) {
    sniff_result const r = sniff(text, size, options, complete);
    out.delimiter = r.d.delimiter, out.quote = r.d.quote, out.header = r.header;
    for (std::size_t c = 0; c < r.names.size(); ++c) { out.columns.emplace_back(r.names[c], r.types[c].type); }
  };
  if (ends_with(path, ".gz") || ends_with(path, ".zst")) {
    csv_text const t = read_text(path, get_current_host_resource());
    fill(t.data(), t.size(), true);
    return out;
  }
  file_source const file(path);
  auto const n = std::min<std::uint64_t>(file.size(), static_cast<std::uint64_t>(std::max<std::int64_t>(options.sample_bytes, 4096)) * 8);
  std::vector<char> text(n);
  file.read(0, std::span(reinterpret_cast<std::uint8_t*>(text.data()), text.size()));
  std::int64_t const bom = n >= 3 && static_cast<unsigned char>(text[0]) == 0xef && static_cast<unsigned char>(text[1]) == 0xbb &&
                                   static_cast<unsigned char>(text[2]) == 0xbf
                               ? 3
                               : 0;
  fill(text.data() + bom, static_cast<std::int64_t>(n) - bom, n == file.size());
  return out;
}

}  // namespace colx
