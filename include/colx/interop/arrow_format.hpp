// SPDX-License-Identifier: Apache-2.0
#pragma once
// Arrow C Data Interface format strings <-> colx data types.
//
// Two mappings are not one to one:
//   - duration[days] has no Arrow type: it is exported as duration[s] ("tDs"), values times 86400
//     (a copy), and comes back as duration[s].
//   - decimals: colx's scale is the negative of Arrow's (colx value = unscaled * 10^scale, Arrow
//     value = unscaled * 10^-scale). Exported precision is the width's maximum (9, 18, 38); on
//     import the precision is not kept. Timestamps with a time zone are imported as UTC values.
#include <colx/core/error.hpp>
#include <colx/types/data_type.hpp>

#include <cstdint>
#include <string>
#include <string_view>

namespace colx {

// The format string of a column of `type` (schema_error for the empty type). A dictionary's is its
// codes' (Arrow describes the values in ArrowSchema.dictionary).
[[nodiscard]] inline std::string arrow_format(data_type type) {
  if (type.id() == type_id::dictionary) { return arrow_format(data_type{type.codes()}); }
  switch (type.id()) {
    case type_id::bool8: return "b";
    case type_id::int8: return "c";
    case type_id::int16: return "s";
    case type_id::int32: return "i";
    case type_id::int64: return "l";
    case type_id::uint8: return "C";
    case type_id::uint16: return "S";
    case type_id::uint32: return "I";
    case type_id::uint64: return "L";
    case type_id::float32: return "f";
    case type_id::float64: return "g";
    case type_id::timestamp_days: return "tdD";
    case type_id::timestamp_seconds: return "tss:";
    case type_id::timestamp_milliseconds: return "tsm:";
    case type_id::timestamp_microseconds: return "tsu:";
    case type_id::timestamp_nanoseconds: return "tsn:";
    case type_id::duration_days: return "tDs";  // values * 86400: Arrow has no duration[days]
    case type_id::duration_seconds: return "tDs";
    case type_id::duration_milliseconds: return "tDm";
    case type_id::duration_microseconds: return "tDu";
    case type_id::duration_nanoseconds: return "tDn";
    case type_id::decimal32:
      return "d:" + std::to_string(type.precision()) + "," + std::to_string(-static_cast<std::int64_t>(type.scale())) + ",32";
    case type_id::decimal64:
      return "d:" + std::to_string(type.precision()) + "," + std::to_string(-static_cast<std::int64_t>(type.scale())) + ",64";
    case type_id::decimal128:
      return "d:" + std::to_string(type.precision()) + "," + std::to_string(-static_cast<std::int64_t>(type.scale()));
    case type_id::string: return "u";  // "U" for int64 offsets: see arrow_strings_format
    default: break;
  }
  COLX_FAIL_AS(schema_error, "type ", type.to_string(), " has no Arrow format");
}

// The format of a strings column with offsets of `offset_type` (int32: utf8, int64: large_utf8).
[[nodiscard]] inline char const* arrow_strings_format(type_id offset_type) {
  return offset_type == type_id::int64 ? "U" : "u";
}

namespace detail {

// A decimal integer in [lo, hi] at the front of `s`, which it consumes.
[[nodiscard]] inline bool parse_arrow_int(std::string_view& s, std::int64_t lo, std::int64_t hi, std::int64_t& out) {
  bool negative = false;
  if (!s.empty() && (s.front() == '-' || s.front() == '+')) {
    negative = s.front() == '-';
    s.remove_prefix(1);
  }
  std::size_t i = 0;
  std::int64_t v = 0;
  for (; i < s.size() && s[i] >= '0' && s[i] <= '9'; ++i) {
    if (v > 1'000'000'000) { return false; }
    v = v * 10 + (s[i] - '0');
  }
  if (i == 0) { return false; }
  s.remove_prefix(i);
  out = negative ? -v : v;
  return lo <= out && out <= hi;
}

}  // namespace detail

// The colx type of an Arrow format. Formats of types colx has no column for (and malformed ones)
// throw schema_error naming the format; struct ("+s") is a table, not a column: see arrow_import.
[[nodiscard]] inline data_type data_type_from_arrow_format(std::string_view format) {
  std::string_view const f = format;
  if (f.size() == 1) {
    switch (f[0]) {
      case 'b': return data_type{type_id::bool8};
      case 'c': return data_type{type_id::int8};
      case 's': return data_type{type_id::int16};
      case 'i': return data_type{type_id::int32};
      case 'l': return data_type{type_id::int64};
      case 'C': return data_type{type_id::uint8};
      case 'S': return data_type{type_id::uint16};
      case 'I': return data_type{type_id::uint32};
      case 'L': return data_type{type_id::uint64};
      case 'f': return data_type{type_id::float32};
      case 'g': return data_type{type_id::float64};
      case 'u':
      case 'U': return data_type{type_id::string};
      default: break;
    }
  }
  if (f == "tdD") { return data_type{type_id::timestamp_days}; }
  if (f.size() >= 4 && f.substr(0, 2) == "ts" && f[3] == ':') {  // any time zone: values are UTC
    switch (f[2]) {
      case 's': return data_type{type_id::timestamp_seconds};
      case 'm': return data_type{type_id::timestamp_milliseconds};
      case 'u': return data_type{type_id::timestamp_microseconds};
      case 'n': return data_type{type_id::timestamp_nanoseconds};
      default: break;
    }
  }
  if (f.size() == 3 && f.substr(0, 2) == "tD") {
    switch (f[2]) {
      case 's': return data_type{type_id::duration_seconds};
      case 'm': return data_type{type_id::duration_milliseconds};
      case 'u': return data_type{type_id::duration_microseconds};
      case 'n': return data_type{type_id::duration_nanoseconds};
      default: break;
    }
  }
  if (f.substr(0, 2) == "d:") {
    std::string_view rest = f.substr(2);
    std::int64_t precision = 0;
    std::int64_t scale = 0;
    std::int64_t bits = 128;
    bool ok = detail::parse_arrow_int(rest, 1, 76, precision) && !rest.empty() && rest.front() == ',';
    if (ok) {
      rest.remove_prefix(1);
      ok = detail::parse_arrow_int(rest, -1'000'000, 1'000'000, scale);
    }
    if (ok && !rest.empty()) {
      ok = rest.front() == ',';
      rest.remove_prefix(1);
      ok = ok && detail::parse_arrow_int(rest, 0, 1024, bits) && rest.empty();
    }
    COLX_EXPECTS_AS(schema_error, ok, "malformed Arrow decimal format \"", format,
                    "\" (expected d:precision,scale[,bitwidth])");
    auto const colx_scale = static_cast<std::int32_t>(-scale);
    auto const digits = static_cast<std::int32_t>(precision);  // kept: DECIMAL(15,2) stays (15, 2) through colx
    std::int64_t const most = bits == 32 ? 9 : bits == 64 ? 18 : 38;
    COLX_EXPECTS_AS(schema_error, precision <= most || (bits != 32 && bits != 64 && bits != 128), "Arrow decimal format \"", format,
                    "\": a ", bits, "-bit decimal holds at most ", most, " digits, not ", precision);
    switch (bits) {
      case 32: return data_type{type_id::decimal32, colx_scale, digits};
      case 64: return data_type{type_id::decimal64, colx_scale, digits};
      case 128: return data_type{type_id::decimal128, colx_scale, digits};
      default: break;
    }
    COLX_FAIL_AS(schema_error, "Arrow decimal format \"", format, "\" has bit width ", bits,
                 ": colx supports 32, 64 and 128");
  }
  COLX_FAIL_AS(schema_error, "unsupported Arrow format \"", format, "\": colx has no column type for it");
}

// Whether an Arrow format is a struct (a table on import).
[[nodiscard]] constexpr bool is_arrow_struct_format(std::string_view format) noexcept { return format == "+s"; }

}  // namespace colx
