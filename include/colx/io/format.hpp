// SPDX-License-Identifier: Apache-2.0
#pragma once
// colx: host-only
// Printing columns and tables through fmt. Host-only: Debian's fmt 9 does not compile under nvcc
// in C++20 mode, so CUDA translation units never include this header; columns in device memory
// are copied to the host to print.
#include <colx/column/copying.hpp>
#include <colx/column/factories.hpp>
#include <colx/column/table.hpp>
#include <colx/types/type_dispatch.hpp>

#include <fmt/format.h>

#include <string>
#include <vector>

namespace colx {
namespace detail {

inline std::string format_element(bool v) { return v ? "true" : "false"; }
template <class T>
  requires std::is_arithmetic_v<T>
std::string format_element(T v) {
  return fmt::format("{}", v);
}
inline std::string format_element(date32 d) {
  auto const c = to_civil(d);
  return fmt::format("{:04}-{:02}-{:02}", c.year, c.month, c.day);
}
template <time_unit U>
std::string format_element(timestamp<U> t) {
  return fmt::format("{}{}", t.ticks, U == time_unit::days ? "d" : to_string(U));
}
template <time_unit U>
std::string format_element(duration<U> d) {
  return fmt::format("{}{}", d.ticks, U == time_unit::days ? "d" : to_string(U));
}
template <class Rep>
std::string format_element(decimal<Rep> d) {
  // The unscaled integer; the scale is printed once, with the type.
  return fmt::format("{}", static_cast<long long>(d.unscaled));
}

// Every row of a column as text, "null" for nulls.
struct format_rows {
  any_column_view const& view;
  template <class T>
  std::vector<std::string> operator()() const {
    std::vector<std::string> out;
    if constexpr (std::is_same_v<T, string_view>) {
      for (auto const& s : to_strings(strings_column_view(view))) { out.push_back(s ? fmt::format("\"{}\"", *s) : "null"); }
    } else {
      for (auto const& v : to_optional_vector(view.as<T>())) { out.push_back(v ? format_element(*v) : "null"); }
    }
    return out;
  }
};

}  // namespace detail

// The rows of a column as text: "[1, null, 3]".
[[nodiscard]] inline std::string to_string(any_column_view const& view) {
  return fmt::format("[{}]", fmt::join(type_dispatch(view.type(), detail::format_rows{view}), ", "));
}

// A table as aligned text with a header row, like pandas' repr; `names` may be shorter than the
// number of columns (the rest are numbered).
[[nodiscard]] inline std::string to_string(table_view const& table, std::vector<std::string> const& names = {}) {
  std::vector<std::vector<std::string>> cells;
  std::vector<std::size_t> widths;
  for (std::size_t c = 0; c < table.num_columns(); ++c) {
    auto rows = type_dispatch(table.column(c).type(), detail::format_rows{table.column(c)});
    rows.insert(rows.begin(), c < names.size() ? names[c] : fmt::format("{}", c));
    std::size_t width = 0;
    for (auto const& r : rows) { width = std::max(width, r.size()); }
    widths.push_back(width);
    cells.push_back(std::move(rows));
  }
  std::string out;
  for (std::size_t r = 0; r <= static_cast<std::size_t>(table.num_rows()); ++r) {
    for (std::size_t c = 0; c < cells.size(); ++c) {
      out += fmt::format("{:>{}}{}", cells[c][r], widths[c], c + 1 < cells.size() ? "  " : "\n");
    }
  }
  return out;
}

}  // namespace colx

template <>
struct fmt::formatter<colx::any_column_view> : fmt::formatter<std::string> {
  auto format(colx::any_column_view const& view, format_context& ctx) const {
    return fmt::formatter<std::string>::format(colx::to_string(view), ctx);
  }
};
