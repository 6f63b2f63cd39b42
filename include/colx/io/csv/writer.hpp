// SPDX-License-Identifier: Apache-2.0
#pragma once
// write_csv(table, path, options): an any_table as CSV text that read_csv (and DuckDB, pyarrow)
// reads back to the same values: a header of the labels, integers and decimals in full, doubles in
// their shortest round-trip digits, dates as YYYY-MM-DD, timestamps as YYYY-MM-DD HH:MM:SS with
// the fraction's significant digits, booleans as true/false; a string quoted where it holds the
// delimiter, a quote, a line end or spaces at its ends, or is empty (so that it is not the null
// string, written bare). A dictionary column is written as its values.
//
// Formatting runs on the host (device columns are copied there first), blocks of rows in
// parallel, and the file is written beside its path and renamed into place when whole.
#include <colx/column/copying.hpp>
#include <colx/io/file_sink.hpp>
#include <colx/io/host_cells.hpp>
#include <colx/memory/current_resource.hpp>
#include <colx/table/any_table.hpp>
#include <colx/types/text_format.hpp>

#include <charconv>
#include <cstdint>
#include <cstring>
#include <exception>
#include <string>
#include <vector>

#if defined(_OPENMP)
#  include <omp.h>
#endif

namespace colx {

struct csv_write_options {
  char delimiter = ',';
  char quote = '"';
  bool header = true;
  std::string null_string;      // written for nulls (bare); empty strings are quoted, so they differ
  std::string line_end = "\n";  // or "\r\n"
  std::int64_t block_rows = 1 << 16;  // rows formatted by one thread at a time
};

namespace csv::detail {

// Appends row r of host column v as CSV text; false for a null.
inline bool format_cell(any_column_view const& v, size_type r, csv_write_options const& o, std::string& out) {
  if (v.null_mask() != nullptr && !bit_is_set(v.null_mask(), v.offset() + r)) { return false; }
  std::size_t const row = static_cast<std::size_t>(v.offset() + r);
  auto const* head = static_cast<std::uint8_t const*>(v.head());
  auto const load = [&]<class T>(T*) {
    T x;
    std::memcpy(&x, head + row * sizeof(T), sizeof(T));
    return x;
  };
  auto const put = [&](auto const& text) {  // a colx::text formatter
    std::size_t const at = out.size();
    out.resize(at + static_cast<std::size_t>(text.size_bytes()));
    text.write_to(out.data() + at);
  };
  auto const integer = [&](auto x) { put(text::integer_text<decltype(x)>{x}); };
  auto const decimal = [&](int128_t unscaled, int scale) {  // every digit of the scale: "-1.50"
    std::string digits;
    uint128_t m = unscaled < 0 ? uint128_t{0} - static_cast<uint128_t>(unscaled) : static_cast<uint128_t>(unscaled);
    do {
      digits.insert(digits.begin(), static_cast<char>('0' + static_cast<int>(m % 10)));
      m /= 10;
    } while (m != 0);
    if (static_cast<int>(digits.size()) <= scale) { digits.insert(0, static_cast<std::size_t>(scale + 1) - digits.size(), '0'); }
    if (unscaled < 0) { out += '-'; }
    out.append(digits, 0, digits.size() - static_cast<std::size_t>(scale));
    if (scale > 0) { out += '.', out.append(digits, digits.size() - static_cast<std::size_t>(scale)); }
  };
  auto const real = [&](double x) {
    char buf[32];
    auto const end = std::to_chars(buf, buf + sizeof buf, x).ptr;  // (the shortest digits that read back to x)
    out.append(buf, end);
  };
  switch (v.type().id()) {
    case type_id::bool8: out += head[row] != 0 ? "true" : "false"; return true;
    case type_id::int8: integer(load(static_cast<std::int8_t*>(nullptr))); return true;
    case type_id::int16: integer(load(static_cast<std::int16_t*>(nullptr))); return true;
    case type_id::int32: integer(load(static_cast<std::int32_t*>(nullptr))); return true;
    case type_id::int64: integer(load(static_cast<std::int64_t*>(nullptr))); return true;
    case type_id::uint8: integer(load(static_cast<std::uint8_t*>(nullptr))); return true;
    case type_id::uint16: integer(load(static_cast<std::uint16_t*>(nullptr))); return true;
    case type_id::uint32: integer(load(static_cast<std::uint32_t*>(nullptr))); return true;
    case type_id::uint64: integer(load(static_cast<std::uint64_t*>(nullptr))); return true;
    case type_id::float32: real(load(static_cast<float*>(nullptr))); return true;
    case type_id::float64: real(load(static_cast<double*>(nullptr))); return true;
    case type_id::decimal32: decimal(load(static_cast<std::int32_t*>(nullptr)), -v.type().scale()); return true;
    case type_id::decimal64: decimal(load(static_cast<std::int64_t*>(nullptr)), -v.type().scale()); return true;
    case type_id::decimal128: decimal(load(static_cast<int128_t*>(nullptr)), -v.type().scale()); return true;
    case type_id::timestamp_days: put(text::date_text{date32(load(static_cast<std::int32_t*>(nullptr)))}); return true;
    case type_id::timestamp_seconds: put(text::timestamp_text<time_unit::seconds>{load(static_cast<std::int64_t*>(nullptr))}); return true;
    case type_id::timestamp_milliseconds: put(text::timestamp_text<time_unit::milliseconds>{load(static_cast<std::int64_t*>(nullptr))}); return true;
    case type_id::timestamp_microseconds: put(text::timestamp_text<time_unit::microseconds>{load(static_cast<std::int64_t*>(nullptr))}); return true;
    case type_id::timestamp_nanoseconds: put(text::timestamp_text<time_unit::nanoseconds>{load(static_cast<std::int64_t*>(nullptr))}); return true;
    case type_id::string: {
      std::string_view const s = io::detail::string_at(v, r);
      bool const needs_quotes = s.empty() || s == o.null_string || s.front() == ' ' || s.back() == ' ' ||
                                s.find_first_of(std::string{o.delimiter, o.quote, '\n', '\r'}) != std::string_view::npos;
      if (!needs_quotes) {
        out += s;
        return true;
      }
      out += o.quote;
      for (char c : s) {
        if (c == o.quote) { out += o.quote; }
        out += c;
      }
      out += o.quote;
      return true;
    }
    case type_id::dictionary: {
      std::int64_t const code = io::detail::code_at(v, r);
      return format_cell(v.children().front(), static_cast<size_type>(code), o, out);
    }
    default: COLX_FAIL_AS(logic_error, "write_csv: a column of type ", v.type().to_string(), " (a duration: cast it to int64 first)");
  }
}

}  // namespace csv::detail

// `t` as CSV text at `path` (replaced if it exists).
inline void write_csv(any_table const& t, std::string const& path, csv_write_options const& o = {}, stream_ref stream = {}) {
  using namespace csv::detail;
  COLX_EXPECTS(o.block_rows > 0, "write_csv: block_rows must be positive, got ", o.block_rows);
  std::vector<any_column> host;
  for (auto const& c : t.columns()) {
    COLX_EXPECTS(c.type().id() < type_id::duration_days || c.type().id() > type_id::duration_nanoseconds,
                 "write_csv: a column of type ", c.type().to_string(), " has no CSV form (cast it to int64 first)");
    host.push_back(c.kind() == memory_kind::host ? c : colx::detail::transfer(c, stream, get_current_host_resource()));
  }
  stream.synchronize();
  std::vector<any_column_view> views(host.begin(), host.end());
  file_sink out(path);
  if (o.header) {
    std::string line;
    for (std::size_t c = 0; c < t.num_columns(); ++c) {
      std::string name;
      for (auto const& part : t.labels()[c].parts()) { name += (name.empty() ? "" : ".") + part; }
      if (c > 0) { line += o.delimiter; }
      bool const quote = name.find_first_of(std::string{o.delimiter, o.quote, '\n', '\r'}) != std::string::npos;
      line += quote ? o.quote + name + o.quote : name;
    }
    line += o.line_end;
    out.write(line.data(), line.size());
  }
  std::int64_t const rows = t.num_rows();
  std::int64_t const blocks = (rows + o.block_rows - 1) / o.block_rows;
  int const threads =
#if defined(_OPENMP)
      std::max(1, omp_get_max_threads());
#else
      1;
#endif
  for (std::int64_t first = 0; first < blocks; first += threads) {  // a block per thread, then written in order
    std::int64_t const n = std::min<std::int64_t>(threads, blocks - first);
    std::vector<std::string> text(static_cast<std::size_t>(n));
    std::exception_ptr failed;
#pragma omp parallel for schedule(dynamic, 1)
    for (std::int64_t b = 0; b < n; ++b) {
      try {
        std::string& s = text[static_cast<std::size_t>(b)];
        std::int64_t const begin = (first + b) * o.block_rows, end = std::min(rows, begin + o.block_rows);
        for (std::int64_t r = begin; r < end; ++r) {
          for (std::size_t c = 0; c < views.size(); ++c) {
            if (c > 0) { s += o.delimiter; }
            if (!format_cell(views[c], static_cast<size_type>(r), o, s)) { s += o.null_string; }
          }
          s += o.line_end;
        }
      } catch (...) {
#pragma omp critical
        failed = std::current_exception();
      }
    }
    if (failed) { std::rethrow_exception(failed); }
    for (auto const& s : text) { out.write(s.data(), s.size()); }
  }
  out.commit();
}

}  // namespace colx
