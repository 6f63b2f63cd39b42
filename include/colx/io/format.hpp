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
#include <type_traits>
#include <vector>

namespace colx {
namespace detail {

template <class T>
inline constexpr bool is_decimal_v = false;
template <class Rep>
inline constexpr bool is_decimal_v<decimal<Rep>> = true;

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

// std::make_unsigned knows __int128 only in GNU mode (-std=gnu++20).
template <class Rep>
struct unsigned_of {
  using type = std::make_unsigned_t<Rep>;
};
template <>
struct unsigned_of<int128_t> {
  __extension__ typedef unsigned __int128 type;
};

// The digits of |v|: by hand, because fmt 9 spells __int128 only where FMT_USE_INT128 is on.
template <class Rep>
std::string magnitude_digits(Rep v) {
  using unsigned_rep = typename unsigned_of<Rep>::type;
  // Negating in the unsigned type keeps the most negative value representable.
  unsigned_rep m = v < 0 ? unsigned_rep(0) - static_cast<unsigned_rep>(v) : static_cast<unsigned_rep>(v);
  std::string digits;
  do {
    digits.insert(digits.begin(), static_cast<char>('0' + static_cast<int>(m % 10)));
    m /= 10;
  } while (m != 0);
  return digits;
}

// A decimal's value, unscaled * 10^scale, in positional notation: 12345 at scale -2 is
// "123.45", 7 at scale -3 "0.007", 12 at scale 2 "1200". The scale lives in the column's
// data_type, so callers pass it.
template <class Rep>
std::string format_element(decimal<Rep> d, std::int32_t scale) {
  std::string digits = magnitude_digits(d.unscaled);
  if (scale >= 0) {
    if (digits != "0") { digits.append(static_cast<std::size_t>(scale), '0'); }
  } else {
    auto const fraction = static_cast<std::size_t>(-static_cast<std::int64_t>(scale));
    if (digits.size() <= fraction) { digits.insert(0, fraction + 1 - digits.size(), '0'); }
    digits.insert(digits.size() - fraction, 1, '.');
  }
  return d.unscaled < 0 ? "-" + digits : digits;
}

// Every row of a column as text, "null" for nulls.
struct format_rows {
  any_column_view const& view;
  template <class T>
  std::vector<std::string> operator()() const {
    std::vector<std::string> out;
    if constexpr (std::is_same_v<T, string_view>) {
      for (auto const& s : to_strings(strings_column_view(view))) { out.push_back(s ? fmt::format("\"{}\"", *s) : "null"); }
    } else if constexpr (is_decimal_v<T>) {
      for (auto const& v : to_optional_vector(view.as<T>())) { out.push_back(v ? format_element(*v, view.type().scale()) : "null"); }
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
