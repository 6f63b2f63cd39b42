// SPDX-License-Identifier: Apache-2.0
#pragma once
// Frames as text, the way pandas and cuDF print data frames, so output reads the same next to
// theirs: a header of column names, one line per row led by its label (the row number), values
// right-aligned, nulls as <NA>. Long frames print their first and last rows around a "..." line.
// Only the rows that print are copied to the host, so printing a large frame costs little.
//
//   std::cout << f << '\n';     // pandas' defaults
//   colx::to_string(f, {.max_rows = 20});  // truncate frames of more than 20 rows; 0: every row
//   colx::to_string(f, {.max_rows = 0, .precision = 10});  // every row; floats to 10 significant digits
//   std::cout << (f | colx::reduce(colx::sum("x"_c)));      // a scalar: its value, or <NA>
//
// Written on the standard library alone (no fmt), so that nvcc compiles it: a CUDA translation
// unit prints frames in device memory. colx/io/format_frame.hpp adds fmt's "{}" and "{:N}" on top.
//
// Values (one rule per type, applied to each value on its own):
// - floats: by default the shortest text that reads back as the same value (std::to_chars), so
//   no digit is lost: 10520003.68, 0.1, 0.30000000000000004. Fixed notation from 1e-4 up to
//   1e16, scientific outside (1e-05, 1.5e+16): Python's repr, which is what a pandas user sees
//   of a lone float. Integral values get ".0" so a float column still reads as floats; NaN,
//   inf, -inf. With `precision` N > 0, N significant digits as printf's %.Ng (N = 6: 0.05,
//   1234.57, 3.5e+07). pandas chooses one notation and precision per column instead; per value
//   keeps the rule short and exact, and right alignment keeps the column readable.
// - bools True/False; strings unquoted, cut to `max_colwidth` characters ending in "...";
//   decimals at their scale (12345 at scale -2 is 123.45); dates YYYY-MM-DD; timestamps
//   YYYY-MM-DD HH:MM:SS with as many fraction digits as the unit has; durations as pandas'
//   Timedelta ("1 days 02:00:00"), negative ones as "-" and the magnitude.
//
// Layout (pandas' DataFrameFormatter): the labels column is left-aligned; each value gets a
// leading space and each column is as wide as its longest name or value; columns are joined by a
// space. The truncation line holds ".." where a column is at most 3 wide, "..." otherwise. A
// truncated or empty frame ends with a blank line and "[N rows x M columns]"; nothing ends in a
// newline. pandas prints an empty frame as "Empty DataFrame"; here it keeps its header, which
// says more.
//
// Device frames: the shown rows come to the host by slices and copy_bytes, which reach device
// memory only in a translation unit that nvcc compiles. In a g++ translation unit a device frame
// therefore throws colx::logic_error ("compile this translation unit with nvcc").
#include <colx/column/factories.hpp>
#include <colx/column/scalar.hpp>
#include <colx/frame/frame.hpp>
#include <colx/frame/index.hpp>
#include <colx/io/value_text.hpp>
#include <colx/types/data_type.hpp>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <iterator>
#include <optional>
#include <ostream>
#include <string>
#include <string_view>
#include <system_error>
#include <type_traits>
#include <utility>
#include <vector>

namespace colx {
namespace detail {

// ---- which rows print, and their layout ------------------------------------------------------

// The rows that print: the first `head` and the last `tail` of `num_rows`.
struct shown_rows {
  size_type num_rows = 0;
  size_type head = 0;
  size_type tail = 0;
  [[nodiscard]] bool truncated() const noexcept { return head + tail < num_rows; }
};

inline shown_rows choose_rows(size_type num_rows, print_options const& options) {
  if (options.max_rows <= 0 || num_rows <= options.max_rows) { return {num_rows, num_rows, 0}; }
  size_type const shown = options.min_rows > 0 ? std::min(options.min_rows, options.max_rows) : options.max_rows;
  // pandas shows shown / 2 rows from each end; at least one row, so a tiny limit still shows data.
  return {num_rows, std::max<size_type>(shown / 2, 1), shown / 2};
}

// The shown rows of a view, on the host: only these rows (and the mask words covering them)
// are copied, whatever the frame's size.
template <class View, class ToHost>
auto host_rows(View const& view, shown_rows const& rows, ToHost to_host_rows) {
  auto out = to_host_rows(view.slice(0, rows.head));
  if (rows.tail > 0) {
    auto tail = to_host_rows(view.slice(rows.num_rows - rows.tail, rows.num_rows));
    out.insert(out.end(), std::make_move_iterator(tail.begin()), std::make_move_iterator(tail.end()));
  }
  return out;
}

template <class T>
std::vector<std::optional<T>> host_rows(column<T> const& c, shown_rows const& rows) {
  return host_rows(c.view(), rows, [](column_view<T> const& v) { return to_optional_vector(v); });
}
inline std::vector<std::optional<std::string>> host_rows(strings_column const& c, shown_rows const& rows) {
  return host_rows(c.view(), rows, [](strings_column_view const& v) { return to_strings(v); });
}

// A dictionary column's shown rows, decoded on the host: its codes, and the entries they name.
template <class V, class Code>
auto host_rows(dictionary_column<V, Code> const& c, shown_rows const& rows) {
  auto const codes = host_rows(c.codes(), rows, [](column_view<Code> const& v) { return to_optional_vector(v); });
  auto const entries = [&] {
    if constexpr (std::is_same_v<V, string_view>) {
      return to_strings(strings_column_view(c.dictionary().view()));
    } else {
      return to_optional_vector(c.dictionary().view().template as<V>());
    }
  }();
  std::remove_const_t<decltype(entries)> out;
  out.reserve(codes.size());
  for (auto const& code : codes) {
    out.push_back(code ? entries.at(static_cast<std::size_t>(*code)) : std::nullopt);
  }
  return out;
}
// The type a column's cells are printed as: a dictionary's values' type.
template <class Column>
data_type cell_type(Column const& c) {
  if constexpr (requires { c.dictionary(); }) {
    return c.dictionary().type();
  } else {
    return c.untyped().type();
  }
}

// One column as it prints: its name and the text of its shown rows.
struct text_column {
  std::string name;
  std::vector<std::string> cells;
};

template <class Column>
text_column make_text_column(std::string_view name, Column const& c, shown_rows const& rows,
                             print_options const& options) {
  text_column out{std::string(name), {}};
  data_type const type = cell_type(c);
  for (auto const& v : host_rows(c, rows)) { out.cells.push_back(v ? cell(*v, type, options) : "<NA>"); }
  return out;
}

template <class... Fields>
std::vector<text_column> text_columns(frame<schema<Fields...>> const& f, shown_rows const& rows,
                                      print_options const& options) {
  return [&]<std::size_t... I>(std::index_sequence<I...>) {
    return std::vector<text_column>{make_text_column(Fields::name.view(), f.template column_at<I>(), rows, options)...};
  }(std::index_sequence_for<Fields...>{});
}

inline std::string pad_left(std::string_view s, std::size_t width) {
  std::size_t const w = display_width(s);
  return std::string(w < width ? width - w : 0, ' ') + std::string(s);
}
inline std::string pad_right(std::string_view s, std::size_t width) {
  std::size_t const w = display_width(s);
  return std::string(s) + std::string(w < width ? width - w : 0, ' ');
}

// The row labels, with "" standing for the truncation line.
inline std::vector<std::string> row_labels(shown_rows const& rows, range_index index) {
  std::vector<std::string> labels;
  for (size_type r = 0; r < rows.head; ++r) { labels.push_back(integer_text(index.label(r))); }
  if (rows.truncated()) { labels.emplace_back(); }
  for (size_type r = rows.num_rows - rows.tail; r < rows.num_rows; ++r) { labels.push_back(integer_text(index.label(r))); }
  return labels;
}

inline std::string dots(std::size_t width) { return width > 3 ? "..." : ".."; }

// The lines of text, header first. A frame without rows has no labels column.
inline std::string layout(std::vector<text_column> const& columns, shown_rows const& rows, range_index index) {
  std::vector<std::string> const labels = row_labels(rows, index);
  std::size_t label_width = 0;
  for (auto const& l : labels) { label_width = std::max(label_width, display_width(l)); }
  if (rows.truncated()) { label_width = std::max<std::size_t>(label_width, 2); }
  std::vector<std::string> lines(labels.size() + 1);
  for (std::size_t r = 0; r < labels.size(); ++r) {
    bool const dot_line = rows.truncated() && static_cast<size_type>(r) == rows.head;
    lines[r + 1] = pad_right(dot_line ? dots(label_width) : labels[r], label_width);
  }
  lines[0] = std::string(label_width, ' ');
  bool first = label_width == 0;
  for (auto const& c : columns) {
    std::size_t width = display_width(c.name);
    for (auto const& v : c.cells) { width = std::max(width, display_width(v) + 1); }
    std::string const gap = first ? "" : " ";
    lines[0] += gap + pad_left(c.name, width);
    for (std::size_t r = 0, v = 0; r < labels.size(); ++r) {
      bool const dot_line = rows.truncated() && static_cast<size_type>(r) == rows.head;
      lines[r + 1] += gap + pad_left(dot_line ? dots(width) : c.cells[v++], width);
    }
    first = false;
  }
  std::string out = lines[0];
  for (std::size_t r = 1; r < lines.size(); ++r) {
    out += '\n';
    out += lines[r];
  }
  return out;
}

}  // namespace detail

// The frame as text, like pandas' repr (see the top of this header for the rules).
template <class Schema>
[[nodiscard]] std::string to_string(frame<Schema> const& f, print_options const& options = {}) {
  detail::shown_rows const rows = detail::choose_rows(f.num_rows(), options);
  std::string out = detail::layout(detail::text_columns(f, rows, options), rows, f.index());
  if (rows.truncated() || rows.num_rows == 0) {
    out += "\n\n[";
    out += detail::integer_text(rows.num_rows);
    out += " rows x ";
    out += detail::integer_text(f.num_columns());
    out += " columns]";
  }
  return out;
}

// A scalar as a frame prints a value (print_options' precision applies to floats), <NA> when
// null. A decimal scalar has no scale (a column's data_type holds it), so it prints its unscaled
// integer.
template <class T>
[[nodiscard]] std::string to_string(scalar<T> const& s, print_options const& options = {}) {
  return s.has_value() ? detail::cell(*s, data_type_of<T>(), options) : std::string("<NA>");
}
template <class T>
std::ostream& operator<<(std::ostream& os, scalar<T> const& s) {
  return os << to_string(s);
}

// The frame as to_string prints it with the default options, without a trailing newline.
template <class Schema>
std::ostream& operator<<(std::ostream& os, frame<Schema> const& f) {
  return os << to_string(f);
}

// An indexed frame: the index's level names, then the frame as to_string(frame) prints it.
template <class Frame, class... Keys>
[[nodiscard]] std::string to_string(indexed<Frame, Keys...> const& f, print_options const& options = {}) {
  return "index: " + f.names() + "\n" + to_string(f.data(), options);
}
template <class Frame, class... Keys>
std::ostream& operator<<(std::ostream& out, indexed<Frame, Keys...> const& f) {
  return out << to_string(f);
}

}  // namespace colx
