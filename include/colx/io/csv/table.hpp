// SPDX-License-Identifier: Apache-2.0
#pragma once
// Records to a table: which fields become columns, and the passes over the records (parse.hpp)
// that fill them, in the memory of `mr`: the values converted (strings measured), the strings'
// offsets scanned and their bytes copied, then each column's type settled (columns.hpp). When
// types may adapt (a whole read), a detected type that a value does not fit is widened and the
// records read again, and detected integers are narrowed; a chunked read keeps the types fixed.
#include <colx/column/any_column.hpp>
#include <colx/exec/dispatch.hpp>
#include <colx/io/csv/columns.hpp>
#include <colx/io/csv/sniff.hpp>
#include <colx/memory/copy_bytes.hpp>
#include <colx/table/any_table.hpp>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstring>
#include <functional>
#include <limits>
#include <string>
#include <vector>

namespace colx::csv::detail {

template <class T>
std::vector<T> to_host(void const* p, memory_kind kind, std::size_t n, stream_ref stream) {
  std::vector<T> out(n);
  if (n > 0) { colx::detail::copy_bytes(out.data(), memory_kind::host, p, kind, n * sizeof(T), stream); }
  stream.synchronize();
  return out;
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

// The fields that become columns: each field's column (or -1), and each column's field.
struct column_selection {
  std::int32_t n_fields = 0;
  std::vector<std::int32_t> column_of, field_of;
};

inline column_selection select_columns(sniff_result const& sniffed, csv_read_options const& options, std::string const& path) {
  column_selection sel;
  auto& column_of = sel.column_of;
  auto& field_of = sel.field_of;
  sel.n_fields = static_cast<std::int32_t>(sniffed.names.size() + (sniffed.trailing_delimiter ? 1 : 0));
  column_of.assign(static_cast<std::size_t>(sel.n_fields), -1);
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
  return sel;
}

// Rows [0, rows) of the records at starts/ends (in `text`, in memory of mr's kind; `host_text`
// is the same text in host memory, read for the values that make a type widen) as a table of the
// selected columns. `line_of(offset)` gives a byte's line for error messages.
inline any_table records_to_table(char const* text, char const* host_text, std::int64_t const* starts, std::int64_t const* ends,
                                  size_type rows, sniff_result& sniffed, column_selection const& sel, csv_read_options const& options,
                                  bool adapt_types, std::function<std::int64_t(std::int64_t)> const& line_of, std::string const& path,
                                  stream_ref stream, resource_ref mr) {
  using clock = std::chrono::steady_clock;
  auto const ms_since = [](clock::time_point t) { return std::chrono::duration<double, std::milli>(clock::now() - t).count(); };
  memory_kind const kind = mr.kind();
  dialect const d = sniffed.d;
  std::int32_t const n_fields = sel.n_fields;
  std::vector<std::int32_t> const& column_of = sel.column_of;
  std::vector<std::int32_t> const& field_of = sel.field_of;
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
      if (!adapt_types || !st.detected || bad_row == std::numeric_limits<std::int64_t>::max() || st.type.id() == type_id::string) { continue; }
      st.type = widen(st.type, field_text(host_text, to_host<std::int64_t>(starts + bad_row, kind, 1, stream)[0],
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
    std::string const where = path + ": line " + std::to_string(line_of(offset));
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
    buffer data = convert_values(std::move(values[c]), tasks[c].kind, sniffed.types[f].type, rows, tasks[c].mask, adapt_types && sniffed.types[f].detected,
                                 type, name, stream, mr);
    out.insert(label(name), any_column(type, rows, std::move(data), std::move(mask), nulls_count));
  }
  if (options.stats != nullptr) {
    options.stats->records += rows;
    options.stats->bad_records += counts[1];
    for (std::size_t c = 0; c < n_columns; ++c) { options.stats->nulled_values += counts[3 + 2 * c]; }
    options.stats->ms_parse += ms_since(parsing);
  }
  return out;
}

}  // namespace colx::csv::detail
