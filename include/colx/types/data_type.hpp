// SPDX-License-Identifier: Apache-2.0
#pragma once
// The run-time type of a column: an id, plus a scale for decimals. The compile-time face of the
// same fact is the element type T of column<T>; type_to_id and id_to_type map between them.
#include <colx/core/config.hpp>
#include <colx/types/chrono.hpp>
#include <colx/types/dec.hpp>
#include <colx/types/dictionary.hpp>
#include <colx/types/string_view.hpp>

#include <cstdint>
#include <string>

namespace colx {

enum class type_id : std::uint8_t {
  empty,  // no type: a default-constructed column
  bool8,  // one byte per value, 0 or 1 (Arrow packs bits; interop converts)
  int8,
  int16,
  int32,
  int64,
  uint8,
  uint16,
  uint32,
  uint64,
  float32,
  float64,
  timestamp_days,
  timestamp_seconds,
  timestamp_milliseconds,
  timestamp_microseconds,
  timestamp_nanoseconds,
  duration_days,
  duration_seconds,
  duration_milliseconds,
  duration_microseconds,
  duration_nanoseconds,
  decimal32,
  decimal64,
  decimal128,
  string,      // UTF-8, as offsets + chars children
  dictionary,  // integer codes (data_type::codes()) into a child column of values, as Arrow's
  num_type_ids
};

[[nodiscard]] constexpr char const* to_string(type_id id) noexcept {
  constexpr char const* names[] = {"empty",   "bool8",   "int8",    "int16",   "int32",   "int64",
                                   "uint8",   "uint16",  "uint32",  "uint64",  "float32", "float64",
                                   "timestamp[days]", "timestamp[s]", "timestamp[ms]", "timestamp[us]", "timestamp[ns]",
                                   "duration[days]",  "duration[s]",  "duration[ms]",  "duration[us]",  "duration[ns]",
                                   "decimal32", "decimal64", "decimal128", "string", "dictionary"};
  static_assert(sizeof(names) / sizeof(names[0]) == static_cast<std::size_t>(type_id::num_type_ids));
  auto const i = static_cast<std::size_t>(id);
  return i < static_cast<std::size_t>(type_id::num_type_ids) ? names[i] : "invalid";
}

class data_type {
 public:
  constexpr data_type() noexcept = default;
  constexpr explicit data_type(type_id id) noexcept : _id(id) {}
  // A decimal type: values are unscaled * 10^scale (negative scale: digits after the point), of
  // at most `precision` digits (0: not known, so as many as the width holds: 9, 18 or 38).
  constexpr data_type(type_id id, std::int32_t scale, std::int32_t precision = 0) noexcept
      : _id(id), _scale(scale), _precision(precision) {}

  [[nodiscard]] constexpr type_id id() const noexcept { return _id; }
  [[nodiscard]] constexpr std::int32_t scale() const noexcept { return _scale; }
  // A decimal's digits at most: as declared (Arrow's and SQL's precision), else its width's.
  [[nodiscard]] constexpr std::int32_t precision() const noexcept {
    if (_precision != 0) { return _precision; }
    return _id == type_id::decimal32 ? 9 : _id == type_id::decimal64 ? 18 : _id == type_id::decimal128 ? 38 : 0;
  }
  [[nodiscard]] constexpr bool declares_precision() const noexcept { return _precision != 0; }

  // A dictionary column's type: its codes are integers of type `codes`; what they index is the
  // column's child, whose own type says what the values are.
  [[nodiscard]] static constexpr data_type dictionary_of(type_id codes) noexcept {
    data_type t(type_id::dictionary);
    t._codes = codes;
    return t;
  }
  // The codes' integer type of a dictionary type (empty for any other).
  [[nodiscard]] constexpr type_id codes() const noexcept { return _codes; }

  // Equal types hold values of one meaning: the id and a decimal's scale. The precision is a bound
  // on the values, not part of their meaning (decimals of one scale concatenate and join).
  friend constexpr bool operator==(data_type a, data_type b) noexcept {
    return a._id == b._id && (!is_decimal(a._id) || a._scale == b._scale) && a._codes == b._codes;
  }

  [[nodiscard]] std::string to_string() const {
    std::string s = colx::to_string(_id);
    if (is_decimal(_id)) {
      s += _precision != 0 ? "(precision " + std::to_string(_precision) + ", scale " + std::to_string(_scale) + ")"
                           : "(scale " + std::to_string(_scale) + ")";
    }
    if (_id == type_id::dictionary) { s += std::string("(codes ") + colx::to_string(_codes) + ")"; }
    return s;
  }

  [[nodiscard]] static constexpr bool is_decimal(type_id id) noexcept {
    return id == type_id::decimal32 || id == type_id::decimal64 || id == type_id::decimal128;
  }

 private:
  type_id _id = type_id::empty;
  type_id _codes = type_id::empty;  // dictionaries only
  std::int32_t _scale = 0;
  std::int32_t _precision = 0;
};

// ---- compile-time mapping between element types and ids ----------------------------------

namespace detail {
template <type_id Id> struct id_to_type_impl { using type = void; };
#define COLX_MAP_TYPE(Type, Id) \
  template <> struct id_to_type_impl<type_id::Id> { using type = Type; };
COLX_MAP_TYPE(bool, bool8)
COLX_MAP_TYPE(std::int8_t, int8)
COLX_MAP_TYPE(std::int16_t, int16)
COLX_MAP_TYPE(std::int32_t, int32)
COLX_MAP_TYPE(std::int64_t, int64)
COLX_MAP_TYPE(std::uint8_t, uint8)
COLX_MAP_TYPE(std::uint16_t, uint16)
COLX_MAP_TYPE(std::uint32_t, uint32)
COLX_MAP_TYPE(std::uint64_t, uint64)
COLX_MAP_TYPE(float, float32)
COLX_MAP_TYPE(double, float64)
COLX_MAP_TYPE(date32, timestamp_days)
COLX_MAP_TYPE(timestamp_s, timestamp_seconds)
COLX_MAP_TYPE(timestamp_ms, timestamp_milliseconds)
COLX_MAP_TYPE(timestamp_us, timestamp_microseconds)
COLX_MAP_TYPE(timestamp_ns, timestamp_nanoseconds)
COLX_MAP_TYPE(duration_days, duration_days)
COLX_MAP_TYPE(duration_s, duration_seconds)
COLX_MAP_TYPE(duration_ms, duration_milliseconds)
COLX_MAP_TYPE(duration_us, duration_microseconds)
COLX_MAP_TYPE(duration_ns, duration_nanoseconds)
COLX_MAP_TYPE(decimal32, decimal32)
COLX_MAP_TYPE(decimal64, decimal64)
COLX_MAP_TYPE(decimal128, decimal128)
COLX_MAP_TYPE(string_view, string)
#undef COLX_MAP_TYPE

template <class T, std::size_t I = 1>
constexpr type_id find_id() {
  if constexpr (std::is_void_v<T>) {
    return type_id::empty;  // (the ids no element type maps to, dictionary among them, map to void)
  } else if constexpr (dictionary_type<T>) {
    return type_id::dictionary;
  } else if constexpr (dec_type<T>) {
    return find_id<decimal<typename T::rep>>();  // a dec<P, S> column is a decimal column of scale -S
  } else if constexpr (I == static_cast<std::size_t>(type_id::num_type_ids)) {
    return type_id::empty;
  } else if constexpr (std::is_same_v<T, typename id_to_type_impl<static_cast<type_id>(I)>::type>) {
    return static_cast<type_id>(I);
  } else {
    return find_id<T, I + 1>();
  }
}
}  // namespace detail

// The element type of a column of type `Id` (string_view for strings).
template <type_id Id>
using id_to_type = typename detail::id_to_type_impl<Id>::type;

// True for the element types colx columns can hold.
template <class T>
concept column_element = detail::find_id<T>() != type_id::empty;

// True for element types stored one fixed-size value per row (all but strings and dictionaries).
template <class T>
concept fixed_width_element = column_element<T> && !std::is_same_v<T, string_view> && !dictionary_type<T>;

template <class T>
  requires column_element<T>
inline constexpr type_id type_to_id = detail::find_id<T>();

// The data_type of elements of type T. A dec<P, S> knows its scale; for the run-time scaled
// decimal32/64/128, pass it (0 otherwise).
template <column_element T>
[[nodiscard]] constexpr data_type data_type_of(std::int32_t scale = 0) noexcept {
  if constexpr (dictionary_type<T>) {
    return data_type::dictionary_of(type_to_id<typename T::code_type>);
  } else if constexpr (dec_type<T>) {
    return data_type{type_to_id<T>, -T::scale, T::precision};
  } else {
    return data_type{type_to_id<T>, scale};
  }
}

// Fixed-width data buffers: a dictionary column's data is its codes (its values are a child).
[[nodiscard]] constexpr bool is_fixed_width(type_id id) noexcept { return id != type_id::empty && id != type_id::string; }

}  // namespace colx
