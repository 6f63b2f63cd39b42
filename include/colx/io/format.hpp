// SPDX-License-Identifier: Apache-2.0
#pragma once
// colx: host-only
// Printing columns, tables and scalars through fmt. Host-only: Debian's fmt 9 does not compile under nvcc
// in C++20 mode, so CUDA translation units never include this header; columns in device memory
// are copied to the host to print.
#include <colx/column/copying.hpp>
#include <colx/column/factories.hpp>
#include <colx/column/scalar.hpp>
#include <colx/column/table.hpp>
#include <colx/io/print.hpp>
#include <colx/types/type_dispatch.hpp>

#include <fmt/format.h>

#include <string>
#include <type_traits>
#include <vector>

namespace colx {
namespace detail {

// One value of a column's listing. Integers, dates and decimals read as a frame prints them
// (print.hpp); the rest keep this listing's own, more literal spelling: true/false, the shortest
// float that reads back, a time as its tick count and unit.
template <class T>
std::string format_element(T v, data_type type) {
  if constexpr (std::is_same_v<T, bool>) {
    return v ? "true" : "false";
  } else if constexpr (std::is_floating_point_v<T>) {
    return fmt::format("{}", v);
  } else if constexpr (requires { T::unit; } && !std::is_same_v<T, date32>) {
    return fmt::format("{}{}", v.ticks, T::unit == time_unit::days ? "d" : to_string(T::unit));
  } else {
    return cell(v, type, print_options{});
  }
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
      for (auto const& v : to_optional_vector(view.as<T>())) { out.push_back(v ? format_element(*v, view.type()) : "null"); }
    }
    return out;
  }
};

// A dictionary column's codes as integers, "null" where null.
struct codes_of_rows {
  any_column_view const& view;
  template <class T>
  std::vector<std::optional<std::int64_t>> operator()() const {
    std::vector<std::optional<std::int64_t>> out;
    if constexpr (std::is_integral_v<T> && !std::is_same_v<T, bool>) {
      any_column_view const codes(data_type{type_to_id<T>}, view.size(), view.head(), view.kind(), view.null_mask(),
                                  view.null_count(), view.offset());
      for (auto const& v : to_optional_vector(codes.as<T>())) { out.push_back(v ? std::optional<std::int64_t>(*v) : std::nullopt); }
    }
    return out;
  }
};

// Every row of a column as text, a dictionary's decoded.
inline std::vector<std::string> format_column_rows(any_column_view const& view) {
  if (view.type().id() != type_id::dictionary) { return type_dispatch(view.type(), format_rows{view}); }
  auto const entries = format_column_rows(view.child(0));
  std::vector<std::string> out;
  for (auto const& code : type_dispatch(data_type{view.type().codes()}, codes_of_rows{view})) {
    out.push_back(code ? entries.at(static_cast<std::size_t>(*code)) : "null");
  }
  return out;
}

}  // namespace detail

// The rows of a column as text: "[1, null, 3]"; a dictionary column's values, decoded.
[[nodiscard]] inline std::string to_string(any_column_view const& view) {
  return fmt::format("[{}]", fmt::join(detail::format_column_rows(view), ", "));
}

// A table as aligned text with a header row, like pandas' repr; `names` may be shorter than the
// number of columns (the rest are numbered).
[[nodiscard]] inline std::string to_string(table_view const& table, std::vector<std::string> const& names = {}) {
  std::vector<std::vector<std::string>> cells;
  std::vector<std::size_t> widths;
  for (std::size_t c = 0; c < table.num_columns(); ++c) {
    auto rows = detail::format_column_rows(table.column(c));
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

// A scalar as print.hpp writes it (its value, or <NA>), with fmt's width and alignment: "{:>8}".
template <class T>
struct fmt::formatter<colx::scalar<T>> : fmt::formatter<std::string> {
  auto format(colx::scalar<T> const& s, format_context& ctx) const {
    return fmt::formatter<std::string>::format(colx::to_string(s), ctx);
  }
};
