// SPDX-License-Identifier: Apache-2.0
#pragma once
// The passes that turn CSV records into columns, a record per thread (or OpenMP iteration):
// the first converts every field into its column (strings: only their lengths) and sets the valid
// bits; after a scan of the lengths into offsets, the second copies the strings' bytes.
//
// A value that does not read as its column's type, a record of too few or too many fields and an
// unterminated quote are errors: the first (lowest row) is kept for the message, or, when the
// options ask for nulls, the value is null and counted. A column notes its first failing row, so
// that the reader can widen a detected type to one that reads that value too, and read again.
#include <colx/column/bitmask.hpp>
#include <colx/exec/atomics.hpp>
#include <colx/io/csv/fields.hpp>
#include <colx/io/csv/values.hpp>

#include <cstdint>
#include <cstring>

namespace colx::csv::detail {

using colx::detail::atomic_add;
using colx::detail::atomic_min;
using colx::detail::atomic_or;

enum class value_kind : std::uint8_t { boolean, int64, uint64, decimal64, float64, date32, timestamp_us, timestamp_ns, string };

struct column_task {
  value_kind kind = value_kind::string;
  std::int32_t scale = 0;                 // decimal64: digits after the point
  std::uint8_t* values = nullptr;         // fixed-width kinds: a value per row
  bitmask_type* mask = nullptr;           // zeroed; a row's bit is set when it has a value
  std::int32_t* lengths = nullptr;        // strings, first pass
  std::int64_t const* offsets = nullptr;  // strings, second pass
  char* chars = nullptr;
  std::int64_t* first_failed = nullptr;   // the lowest row whose value does not read
  std::int64_t* nulled = nullptr;         // values that did not read and became nulls
};

// Up to 8 short strings (null markers), compared with unquoted fields.
struct text_list {
  char bytes[120] = {};
  std::uint8_t offsets[9] = {};
  std::int32_t count = 0;
  COLX_HOST_DEVICE bool contains(char const* p, std::int64_t n) const {
    for (int k = 0; k < count; ++k) {
      std::int64_t const len = offsets[k + 1] - offsets[k];
      if (len != n) { continue; }
      bool same = true;
      for (std::int64_t i = 0; i < n && same; ++i) { same = bytes[offsets[k] + i] == p[i]; }
      if (same) { return true; }
    }
    return false;
  }
};

struct length_at_fn {  // a string's length, for the scan into offsets
  std::int32_t const* lengths;
  COLX_HOST_DEVICE std::int64_t operator()(size_type i) const { return lengths[i]; }
};

enum error_code : std::int64_t { error_value = 1, error_too_few = 2, error_too_many = 3, error_quote = 4, error_after_quote = 5 };
// An error as one number, so that the first is an atomic minimum: row, then field, then code.
COLX_HOST_DEVICE inline std::int64_t encode_error(std::int64_t row, std::int32_t field, std::int64_t code) {
  return (row << 20) | (static_cast<std::int64_t>(field & 0xffff) << 4) | code;
}

struct parse_rows_fn {
  char const* text;
  std::int64_t const* starts;  // of the data records
  std::int64_t const* ends;
  dialect d;
  column_task const* columns;
  std::int32_t const* column_of;  // a field's column, or -1: not read
  std::int32_t fields;            // the records' field count
  text_list nulls;
  text_list trues, falses;        // more words for booleans (true/false in any case always read)
  char decimal_point;             // of decimals and doubles ('.' or, say, ',')
  time_format date_format, timestamp_format;
  bool check_utf8;                // strings must be UTF-8
  bool copy_strings;              // the second pass
  bool errors_become_nulls;
  std::int64_t* first_error;      // encode_error's minimum; starts at the largest int64
  std::int64_t* bad_records;      // records of the wrong field count (errors_become_nulls)

  COLX_HOST_DEVICE void operator()(size_type r) const {
    std::int64_t const row = r;
    auto const note = [&](std::int32_t field, std::int64_t code) { atomic_min(first_error, encode_error(row, field, code)); };
    std::int32_t seen = 0;
    field_walk const how = walk_fields(text, starts[r], ends[r], d, [&](std::int32_t field, field_span const& f) {
      if (field >= fields) { return true; }  // (counted, not read)
      std::int32_t const c = column_of[field];
      if (c >= 0) { read_field(columns[c], row, f); }
      return true;
    }, seen);
    if (copy_strings) { return; }
    if (how != walk_ok) {
      note(seen, how == walk_unterminated_quote ? error_quote : error_after_quote);
    } else if (seen != fields) {
      if (errors_become_nulls) {
        atomic_add(bad_records, std::int64_t{1});
      } else {
        note(seen < fields ? seen : fields, seen < fields ? error_too_few : error_too_many);
      }
    }
  }

  COLX_HOST_DEVICE void read_field(column_task const& t, std::int64_t row, field_span const& f) const {
    std::int64_t const n = f.end - f.begin;
    char const* const p = text + f.begin;
    bool const is_null = !f.quoted && nulls.contains(p, n);
    if (copy_strings) {  // (a null's text is not copied: its length is 0, and the next row's bytes start there)
      if (t.kind == value_kind::string && t.chars != nullptr && !is_null && (!check_utf8 || valid_utf8(p, n))) {
        unescape(text, f, d, t.chars + t.offsets[row]);
      }
      return;
    }
    if (t.kind == value_kind::string) {
      bool const ok = is_null || !check_utf8 || valid_utf8(p, n);
      t.lengths[row] = is_null || !ok ? 0 : static_cast<std::int32_t>(n - f.escapes);
      if (ok && !is_null) { set_valid(t, row); }
      if (!ok) { failed(t, row); }
      return;
    }
    if (is_null || (f.quoted && n == 0)) { return; }
    char local[64];  // (a number with another decimal point, rewritten with '.')
    string_view s(p, static_cast<size_type>(n));
    if (decimal_point != '.' && (t.kind == value_kind::decimal64 || t.kind == value_kind::float64) && n <= 64) {
      for (std::int64_t i = 0; i < n; ++i) { local[i] = p[i] == decimal_point ? '.' : p[i] == '.' ? decimal_point : p[i]; }
      s = string_view(local, static_cast<size_type>(n));
    }
    bool ok = false;
    switch (t.kind) {
      case value_kind::boolean: {
        bool v = false;
        ok = parse_boolean(s, v);
        if (!ok && (trues.contains(p, n) || falses.contains(p, n))) { ok = true, v = trues.contains(p, n); }
        if (ok) { t.values[row] = v ? 1 : 0; }
        break;
      }
      case value_kind::int64: ok = store(t, row, [&](std::int64_t& v) { return parse_int64(s, v); }); break;
      case value_kind::uint64: {
        std::uint64_t v = 0;
        ok = parse_uint64(s, v);
        if (ok) { std::memcpy(t.values + row * 8, &v, 8); }
        break;
      }
      case value_kind::decimal64: {
        int fraction = 0;
        ok = store(t, row, [&](std::int64_t& v) { return parse_decimal64(s, t.scale, v, fraction); });
        break;
      }
      case value_kind::float64: {
        double v = 0;
        ok = parse_double(s, v);
        if (ok) { std::memcpy(t.values + row * 8, &v, 8); }
        break;
      }
      case value_kind::date32: {
        std::int32_t v = 0;
        std::int64_t w = 0;
        ok = date_format.size == 0 ? parse_date(s, v) : parse_with_format(s, date_format, 0, true, w);
        if (date_format.size != 0) { v = static_cast<std::int32_t>(w); }
        if (ok) { std::memcpy(t.values + row * 4, &v, 4); }
        break;
      }
      case value_kind::timestamp_us:
      case value_kind::timestamp_ns: {
        int const digits = t.kind == value_kind::timestamp_us ? 6 : 9;
        ok = store(t, row, [&](std::int64_t& v) {
          return timestamp_format.size == 0 ? parse_timestamp(s, digits, v) : parse_with_format(s, timestamp_format, digits, false, v);
        });
        break;
      }
      default: break;
    }
    if (ok) {
      set_valid(t, row);
      return;
    }
    failed(t, row);
  }

  // A value that does not read: the column's first failing row, then a null counted or the error.
  COLX_HOST_DEVICE void failed(column_task const& t, std::int64_t row) const {
    atomic_min(t.first_failed, row);
    if (errors_become_nulls) {
      atomic_add(t.nulled, std::int64_t{1});
    } else {
      atomic_min(first_error, encode_error(row, static_cast<std::int32_t>(&t - columns), error_value));
    }
  }

  template <class Parse>
  COLX_HOST_DEVICE static bool store(column_task const& t, std::int64_t row, Parse&& parse) {
    std::int64_t v = 0;
    if (!parse(v)) { return false; }
    std::memcpy(t.values + row * 8, &v, 8);
    return true;
  }
  COLX_HOST_DEVICE static void set_valid(column_task const& t, std::int64_t row) {
    atomic_or(t.mask + row / 32, bitmask_type{1} << (row % 32));
  }
};

}  // namespace colx::csv::detail
