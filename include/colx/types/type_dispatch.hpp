// SPDX-License-Identifier: Apache-2.0
#pragma once
// The single run-time dispatch on the way in from untyped data: type_dispatch(type, f, args...)
// calls f.template operator()<T>(args...) with T the element type of `type`. Nested (double)
// dispatch multiplies instantiations; colx never does it.
#include <colx/core/error.hpp>
#include <colx/types/data_type.hpp>

#include <utility>

namespace colx {

template <class F, class... Args>
decltype(auto) type_dispatch(data_type type, F&& f, Args&&... args) {
#define COLX_DISPATCH_CASE(Id) \
  case type_id::Id: return std::forward<F>(f).template operator()<id_to_type<type_id::Id>>(std::forward<Args>(args)...);
  switch (type.id()) {
    COLX_DISPATCH_CASE(bool8)
    COLX_DISPATCH_CASE(int8)
    COLX_DISPATCH_CASE(int16)
    COLX_DISPATCH_CASE(int32)
    COLX_DISPATCH_CASE(int64)
    COLX_DISPATCH_CASE(uint8)
    COLX_DISPATCH_CASE(uint16)
    COLX_DISPATCH_CASE(uint32)
    COLX_DISPATCH_CASE(uint64)
    COLX_DISPATCH_CASE(float32)
    COLX_DISPATCH_CASE(float64)
    COLX_DISPATCH_CASE(timestamp_days)
    COLX_DISPATCH_CASE(timestamp_seconds)
    COLX_DISPATCH_CASE(timestamp_milliseconds)
    COLX_DISPATCH_CASE(timestamp_microseconds)
    COLX_DISPATCH_CASE(timestamp_nanoseconds)
    COLX_DISPATCH_CASE(duration_days)
    COLX_DISPATCH_CASE(duration_seconds)
    COLX_DISPATCH_CASE(duration_milliseconds)
    COLX_DISPATCH_CASE(duration_microseconds)
    COLX_DISPATCH_CASE(duration_nanoseconds)
    COLX_DISPATCH_CASE(decimal32)
    COLX_DISPATCH_CASE(decimal64)
    COLX_DISPATCH_CASE(decimal128)
    COLX_DISPATCH_CASE(string)
    default: break;
  }
#undef COLX_DISPATCH_CASE
  COLX_FAIL_AS(schema_error, "cannot dispatch on type ", type.to_string());
}

namespace detail {
struct element_size {
  template <class T>
  std::size_t operator()() const noexcept { return sizeof(T); }
};
}  // namespace detail

// Size in bytes of one element of a fixed-width type (of a dictionary: of a code).
[[nodiscard]] inline std::size_t size_of(data_type type) {
  COLX_EXPECTS(is_fixed_width(type.id()), "size_of needs a fixed-width type, not ", type.to_string());
  if (type.id() == type_id::dictionary) { return type_dispatch(data_type{type.codes()}, detail::element_size{}); }
  return type_dispatch(type, detail::element_size{});
}

}  // namespace colx
