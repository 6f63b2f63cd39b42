// SPDX-License-Identifier: Apache-2.0
#pragma once
// One CSV cell's text, on either backend: a column flattened to a cell_source (its type, its
// pointers and its row offset, with no fixed_string and no owning object, so that it can go to a
// kernel), and the text of row r of it as a formatter with size_bytes() and write_to(out), the
// contract of colx::text. The writer sizes every row with it, scans the sizes into offsets, and
// writes every row with it again (writer.hpp).
#include <colx/column/bitmask.hpp>
#include <colx/core/config.hpp>
#include <colx/io/csv/real_text.hpp>
#include <colx/types/text_format.hpp>
#include <colx/types/data_type.hpp>

#include <cstdint>
#include <cstring>

namespace colx::csv::detail {

struct cell_source {
  type_id id{};
  std::uint8_t const* data = nullptr;  // the values (a dictionary: its codes); strings: the chars
  bitmask_type const* mask = nullptr;  // null when every row is valid
  size_type offset = 0;                // of row 0 in `data` and `mask`
  int scale = 0;                       // decimals: digits after the point
  type_id codes{};                     // dictionaries: the codes' type
  int values = -1;                     // dictionaries: the cell_source of the dictionary's values
  void const* offsets = nullptr;       // strings: int32 or int64 offsets, from this row 0
  bool offsets64 = false;
  // Floating-point values whose shortest digits real_text cannot find, formatted on the host:
  // row r's text is fallback_chars[fallback_offsets[s] ..  fallback_offsets[s + 1]) for
  // s = fallback_slots[r - fallback_first], when real_text says it needs it.
  std::int64_t const* fallback_slots = nullptr;
  std::int64_t const* fallback_offsets = nullptr;
  char const* fallback_chars = nullptr;
  size_type fallback_first = 0;
};

// What every cell needs to know of the options, in a form a kernel can hold.
struct cell_dialect {
  char delimiter = ',';
  char quote = '"';
  char const* null_string = nullptr;  // in memory of the formatting's backend
  size_type null_bytes = 0;
  char line_end[2] = {'\n', 0};
  size_type line_end_bytes = 1;
};

// Bytes written as they are (a null's string, a fallback double).
struct raw_text {
  char const* p;
  size_type n;
  [[nodiscard]] COLX_HOST_DEVICE size_type size_bytes() const noexcept { return n; }
  COLX_HOST_DEVICE void write_to(char* out) const noexcept {
    for (size_type i = 0; i < n; ++i) { out[i] = p[i]; }
  }
};

// A string, quoted (quotes inside doubled) where it is empty, equals the null string, starts or
// ends with a space, or holds the delimiter, the quote or a line end; bare otherwise.
struct string_text {
  char const* p;
  size_type n;
  char quote;
  bool quoted = false;
  size_type quotes = 0;
  COLX_HOST_DEVICE string_text(char const* p_, size_type n_, cell_dialect const& d) : p(p_), n(n_), quote(d.quote) {
    bool same_as_null = n == d.null_bytes;
    for (size_type i = 0; i < n; ++i) {
      char const c = p[i];
      quotes += c == d.quote ? 1 : 0;
      quoted = quoted || c == d.delimiter || c == '\n' || c == '\r';
      same_as_null = same_as_null && c == d.null_string[i];
    }
    quoted = quoted || quotes > 0 || n == 0 || same_as_null || p[0] == ' ' || p[n - 1] == ' ';
  }
  [[nodiscard]] COLX_HOST_DEVICE size_type size_bytes() const noexcept { return quoted ? n + quotes + 2 : n; }
  COLX_HOST_DEVICE void write_to(char* out) const noexcept {
    if (!quoted) {
      for (size_type i = 0; i < n; ++i) { out[i] = p[i]; }
      return;
    }
    *out++ = quote;
    for (size_type i = 0; i < n; ++i) {
      if (p[i] == quote) { *out++ = quote; }
      *out++ = p[i];
    }
    *out = quote;
  }
};

// A decimal of a scale known at run time, every digit of the scale: "-1.50", "0.05".
struct scaled_text {
  uint128_t magnitude;
  bool negative;
  int scale;
  [[nodiscard]] COLX_HOST_DEVICE uint128_t unit() const noexcept {
    uint128_t u = 1;
    for (int i = 0; i < scale; ++i) { u *= 10; }
    return u;
  }
  [[nodiscard]] COLX_HOST_DEVICE size_type size_bytes() const noexcept {
    return (negative ? 1 : 0) + text::detail::digits(magnitude / unit()) + (scale > 0 ? 1 + scale : 0);
  }
  COLX_HOST_DEVICE void write_to(char* out) const noexcept {
    if (negative) { *out++ = '-'; }
    uint128_t const whole = magnitude / unit();
    size_type const whole_digits = text::detail::digits(whole);
    text::detail::write_digits(whole, out + whole_digits);
    if (scale > 0) {
      out[whole_digits] = '.';
      text::detail::write_digits(magnitude % unit(), out + whole_digits + 1 + scale, scale);
    }
  }
};

template <class T>
COLX_HOST_DEVICE T load_at(std::uint8_t const* data, size_type row) {
  T v;
  std::memcpy(&v, data + static_cast<std::size_t>(row) * sizeof(T), sizeof(T));
  return v;
}

template <class T>
COLX_HOST_DEVICE scaled_text scaled(T unscaled, int scale) {
  auto const m = unscaled < 0 ? uint128_t{0} - static_cast<uint128_t>(unscaled) : static_cast<uint128_t>(unscaled);
  return {m, unscaled < 0, scale};
}

// Row r of a dictionary's codes as an index into its values.
COLX_HOST_DEVICE inline size_type code_of(cell_source const& s, size_type row) {
  switch (s.codes) {
    case type_id::int8: return load_at<std::int8_t>(s.data, row);
    case type_id::int16: return load_at<std::int16_t>(s.data, row);
    case type_id::int32: return load_at<std::int32_t>(s.data, row);
    case type_id::int64: return load_at<std::int64_t>(s.data, row);
    case type_id::uint8: return load_at<std::uint8_t>(s.data, row);
    case type_id::uint16: return load_at<std::uint16_t>(s.data, row);
    case type_id::uint32: return static_cast<size_type>(load_at<std::uint32_t>(s.data, row));
    default: return static_cast<size_type>(load_at<std::uint64_t>(s.data, row));
  }
}

// A floating-point cell: its shortest fixed digits, else the host's text for it.
template <class T>
COLX_HOST_DEVICE auto real_or_fallback(cell_source const& s, size_type r, size_type row, auto&& f) {
  real_text const t = real_text::of(load_at<T>(s.data, row));
  if (t.found()) { return f(t); }
  if (s.fallback_slots == nullptr) { return f(raw_text{"?", 1}); }  // (not reached: the writer gives every hard value a text)
  std::int64_t const slot = s.fallback_slots[r - s.fallback_first];
  return f(raw_text{s.fallback_chars + s.fallback_offsets[slot], s.fallback_offsets[slot + 1] - s.fallback_offsets[slot]});
}

// Calls f with the text of row `row` (= s.offset + r) of a column that is not a dictionary.
template <class F>
COLX_HOST_DEVICE auto with_value_text(cell_source const& s, size_type r, size_type row, cell_dialect const& d, F&& f) {
  switch (s.id) {
    case type_id::bool8: return f(text::bool_text{s.data[row] != 0});
    case type_id::int8: return f(text::integer_text<std::int8_t>{load_at<std::int8_t>(s.data, row)});
    case type_id::int16: return f(text::integer_text<std::int16_t>{load_at<std::int16_t>(s.data, row)});
    case type_id::int32: return f(text::integer_text<std::int32_t>{load_at<std::int32_t>(s.data, row)});
    case type_id::int64: return f(text::integer_text<std::int64_t>{load_at<std::int64_t>(s.data, row)});
    case type_id::uint8: return f(text::integer_text<std::uint8_t>{load_at<std::uint8_t>(s.data, row)});
    case type_id::uint16: return f(text::integer_text<std::uint16_t>{load_at<std::uint16_t>(s.data, row)});
    case type_id::uint32: return f(text::integer_text<std::uint32_t>{load_at<std::uint32_t>(s.data, row)});
    case type_id::uint64: return f(text::integer_text<std::uint64_t>{load_at<std::uint64_t>(s.data, row)});
    case type_id::float32: return real_or_fallback<float>(s, r, row, f);
    case type_id::float64: return real_or_fallback<double>(s, r, row, f);
    case type_id::decimal32: return f(scaled(load_at<std::int32_t>(s.data, row), s.scale));
    case type_id::decimal64: return f(scaled(load_at<std::int64_t>(s.data, row), s.scale));
    case type_id::decimal128: return f(scaled(load_at<int128_t>(s.data, row), s.scale));
    case type_id::timestamp_days: return f(text::date_text{date32(load_at<std::int32_t>(s.data, row))});
    case type_id::timestamp_seconds: return f(text::timestamp_text<time_unit::seconds>{load_at<std::int64_t>(s.data, row)});
    case type_id::timestamp_milliseconds: return f(text::timestamp_text<time_unit::milliseconds>{load_at<std::int64_t>(s.data, row)});
    case type_id::timestamp_microseconds: return f(text::timestamp_text<time_unit::microseconds>{load_at<std::int64_t>(s.data, row)});
    case type_id::timestamp_nanoseconds: return f(text::timestamp_text<time_unit::nanoseconds>{load_at<std::int64_t>(s.data, row)});
    default: {  // a string (the writer admits no other type)
      std::int64_t const begin = s.offsets64 ? static_cast<std::int64_t const*>(s.offsets)[row] : static_cast<std::int32_t const*>(s.offsets)[row];
      std::int64_t const end = s.offsets64 ? static_cast<std::int64_t const*>(s.offsets)[row + 1] : static_cast<std::int32_t const*>(s.offsets)[row + 1];
      return f(string_text(reinterpret_cast<char const*>(s.data) + begin, end - begin, d));
    }
  }
}

// Calls f with the text of row r of column c (sources[c]): a null is the null string, a
// dictionary's row its value.
template <class F>
COLX_HOST_DEVICE auto with_cell_text(cell_source const* sources, int c, size_type r, cell_dialect const& d, F&& f) {
  cell_source const& s = sources[c];
  size_type const row = s.offset + r;
  if (s.mask != nullptr && !bit_is_set(s.mask, row)) { return f(raw_text{d.null_string, d.null_bytes}); }
  if (s.id != type_id::dictionary) { return with_value_text(s, r, row, d, f); }
  cell_source const& v = sources[s.values];
  size_type const code = code_of(s, row);
  return with_value_text(v, code, v.offset + code, d, f);
}

}  // namespace colx::csv::detail
