// SPDX-License-Identifier: Apache-2.0
#pragma once
// The CSV reader's columns after the parse: what a column type is read as (value_kind), and the
// values read turned into the column's own type: a detected integer column narrowed to the
// smallest width that holds every value, a given type converted (checked against its range).
#include <colx/column/any_column.hpp>
#include <colx/column/bitmask_ops.hpp>
#include <colx/exec/dispatch.hpp>
#include <colx/io/csv/options.hpp>
#include <colx/io/csv/parse.hpp>
#include <colx/memory/buffer.hpp>

#include <cstdint>
#include <limits>
#include <string>
#include <tuple>
#include <utility>

namespace colx::csv::detail {

// How a column of type t is read; throws for the types CSV text cannot hold.
inline value_kind kind_of(data_type t, std::string const& column) {
  switch (t.id()) {
    case type_id::bool8: return value_kind::boolean;
    case type_id::int8: case type_id::int16: case type_id::int32: case type_id::int64:
    case type_id::uint8: case type_id::uint16: case type_id::uint32: return value_kind::int64;
    case type_id::uint64: return value_kind::uint64;
    case type_id::float32: case type_id::float64: return value_kind::float64;
    case type_id::decimal32: case type_id::decimal64: case type_id::decimal128:
      COLX_EXPECTS_AS(csv_error, t.scale() <= 0 && -t.scale() <= 18, "column \"", column, "\": a decimal of scale ", t.scale(),
                      " cannot be read from CSV (0 to 18 digits after the point)");
      return value_kind::decimal64;
    case type_id::timestamp_days: return value_kind::date32;
    case type_id::timestamp_seconds: case type_id::timestamp_milliseconds: case type_id::timestamp_microseconds: return value_kind::timestamp_us;
    case type_id::timestamp_nanoseconds: return value_kind::timestamp_ns;
    case type_id::string: return value_kind::string;
    default: COLX_FAIL_AS(csv_error, "column \"", column, "\": CSV cannot be read as ", t.to_string());
  }
}

inline std::size_t stored_width(value_kind k) {
  switch (k) {
    case value_kind::boolean: return 1;
    case value_kind::date32: return 4;
    case value_kind::string: return 0;
    default: return 8;
  }
}

struct int64_bound_fn {  // a valid value, else the identity of the bound sought
  std::int64_t const* v;
  bitmask_type const* mask;
  bool upper;
  COLX_HOST_DEVICE std::int64_t operator()(size_type i) const {
    bool const valid = (mask[i / 32] >> (i % 32)) & 1u;
    constexpr std::int64_t largest = static_cast<std::int64_t>(~std::uint64_t{0} >> 1);  // (numeric_limits is host-only in nvcc)
    return valid ? v[i] : upper ? -largest - 1 : largest;
  }
};
struct min_fn {
  COLX_HOST_DEVICE std::int64_t operator()(std::int64_t a, std::int64_t b) const { return a < b ? a : b; }
};
struct max_fn {
  COLX_HOST_DEVICE std::int64_t operator()(std::int64_t a, std::int64_t b) const { return a < b ? b : a; }
};

// out[i] = the value read, in the column's type: an integer narrowed, a double to float, a
// timestamp's microseconds to its unit, a decimal to its width.
template <class Out>
struct convert_fn {
  std::uint8_t const* in;
  Out* out;
  value_kind from;
  std::int64_t multiply, divide;  // timestamps: microseconds to the unit
  COLX_HOST_DEVICE void operator()(size_type i) const {
    if (from == value_kind::float64) {
      double v;
      std::memcpy(&v, in + static_cast<std::size_t>(i) * 8, 8);
      out[i] = static_cast<Out>(v);
      return;
    }
    std::int64_t v;
    std::memcpy(&v, in + static_cast<std::size_t>(i) * 8, 8);
    if (divide > 1) { v = v >= 0 ? v / divide : -((-v + divide - 1) / divide); }  // (floor: earlier instants)
    out[i] = static_cast<Out>(v * multiply);
  }
};

// The column of `type` from what the parse left in `values` (a value_kind's storage).
inline buffer convert_values(buffer values, value_kind k, data_type type, size_type rows, bitmask_type const* mask, bool detected,
                             data_type& result, std::string const& column, stream_ref stream, resource_ref mr) {
  result = type;
  memory_kind const kind = mr.kind();
  auto const run = [&]<class Out>(Out*, std::int64_t multiply, std::int64_t divide) {
    buffer out(static_cast<std::size_t>(rows) * sizeof(Out), stream, mr);
    on_backend(kind, stream, [&](auto const& exec) {
      exec.for_each_n(rows, convert_fn<Out>{static_cast<std::uint8_t const*>(values.data()), static_cast<Out*>(out.data()), k, multiply, divide});
    });
    return out;
  };
  std::int64_t lo = 0, hi = -1;  // of the valid values, for range checks (integers, decimals)
  if (k == value_kind::int64 || k == value_kind::decimal64) {
    auto const* v = static_cast<std::int64_t const*>(values.data());
    std::tie(lo, hi) = on_backend(kind, stream, [&](auto const& exec) {
      return std::pair(exec.transform_reduce(rows, std::numeric_limits<std::int64_t>::max(), int64_bound_fn{v, mask, false}, min_fn{}),
                       exec.transform_reduce(rows, std::numeric_limits<std::int64_t>::min(), int64_bound_fn{v, mask, true}, max_fn{}));
    });
  }
  if (k == value_kind::decimal64) {  // within the declared precision (decimal32: 9 digits)
    int const digits = type.id() == type_id::decimal32 ? std::min(9, type.declares_precision() ? type.precision() : 9)
                                                       : type.declares_precision() ? std::min(18, type.precision()) : 18;
    std::int64_t bound = 1;
    for (int d = 0; d < digits; ++d) { bound *= 10; }
    COLX_EXPECTS_AS(csv_error, lo > hi || (lo > -bound && hi < bound), "column \"", column, "\" holds values of more than ", digits,
                    " digits: not ", type.to_string());
  }
  if (k == value_kind::int64) {
    if (detected) {  // the smallest width that holds every value
      result = data_type(lo >= -128 && hi <= 127 ? type_id::int8 : lo >= -32768 && hi <= 32767 ? type_id::int16
                         : lo >= std::numeric_limits<std::int32_t>::min() && hi <= std::numeric_limits<std::int32_t>::max() ? type_id::int32
                                                                                                                                : type_id::int64);
    }
    auto const fits = [&](auto limits) {  // (every type here has a max within int64)
      return lo > hi || (lo >= static_cast<std::int64_t>(limits.min()) && hi <= static_cast<std::int64_t>(limits.max()));
    };
    switch (result.id()) {
      case type_id::int8: COLX_EXPECTS_AS(csv_error, fits(std::numeric_limits<std::int8_t>{}), "column \"", column, "\" holds values outside int8"); return run(static_cast<std::int8_t*>(nullptr), 1, 1);
      case type_id::int16: COLX_EXPECTS_AS(csv_error, fits(std::numeric_limits<std::int16_t>{}), "column \"", column, "\" holds values outside int16"); return run(static_cast<std::int16_t*>(nullptr), 1, 1);
      case type_id::int32: COLX_EXPECTS_AS(csv_error, fits(std::numeric_limits<std::int32_t>{}), "column \"", column, "\" holds values outside int32"); return run(static_cast<std::int32_t*>(nullptr), 1, 1);
      case type_id::uint8: COLX_EXPECTS_AS(csv_error, fits(std::numeric_limits<std::uint8_t>{}), "column \"", column, "\" holds values outside uint8"); return run(static_cast<std::uint8_t*>(nullptr), 1, 1);
      case type_id::uint16: COLX_EXPECTS_AS(csv_error, fits(std::numeric_limits<std::uint16_t>{}), "column \"", column, "\" holds values outside uint16"); return run(static_cast<std::uint16_t*>(nullptr), 1, 1);
      case type_id::uint32: COLX_EXPECTS_AS(csv_error, fits(std::numeric_limits<std::uint32_t>{}), "column \"", column, "\" holds values outside uint32"); return run(static_cast<std::uint32_t*>(nullptr), 1, 1);
      default: return values;  // int64
    }
  }
  if (k == value_kind::float64 && type.id() == type_id::float32) { return run(static_cast<float*>(nullptr), 1, 1); }
  if (k == value_kind::timestamp_us) {
    switch (type.id()) {
      case type_id::timestamp_seconds: return run(static_cast<std::int64_t*>(nullptr), 1, 1'000'000);
      case type_id::timestamp_milliseconds: return run(static_cast<std::int64_t*>(nullptr), 1, 1'000);
      default: return values;
    }
  }
  if (k == value_kind::decimal64 && type.id() == type_id::decimal32) { return run(static_cast<std::int32_t*>(nullptr), 1, 1); }
  if (k == value_kind::decimal64 && type.id() == type_id::decimal128) { return run(static_cast<int128_t*>(nullptr), 1, 1); }
  return values;
}

}  // namespace colx::csv::detail
