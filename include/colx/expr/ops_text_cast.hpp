// SPDX-License-Identifier: Apache-2.0
#pragma once
// Casts between strings and values (the contract: expr/ops.hpp): cast<T>(a string) reads text as
// TRY_CAST does (types/text_parse.hpp: what does not parse is null), and cast<string_view>(x)
// writes x's text as CAST(x AS VARCHAR) does (types/text_format.hpp), as a computed string.
#include <colx/core/integer_values.hpp>
#include <colx/expr/ops_text.hpp>
#include <colx/types/chrono.hpp>
#include <colx/types/dec.hpp>
#include <colx/types/text_format.hpp>
#include <colx/types/text_format_float.hpp>
#include <colx/types/text_parse.hpp>

#include <type_traits>

namespace colx::expr::ops::detail {

template <class T>
inline constexpr bool dependent_false = false;

// cast<T>(s) for a string s.
template <class T>
constexpr COLX_HOST_DEVICE T parse_text(string_view s, bool& valid) {
  if constexpr (std::is_same_v<T, bool>) {
    return text::parse_bool(s, valid);
  } else if constexpr (std::is_integral_v<T>) {
    return text::parse_integer<T>(s, valid);
  } else if constexpr (std::is_floating_point_v<T>) {
    return text::parse_floating<T>(s, valid);
  } else if constexpr (dec_type<T>) {
    return text::parse_decimal<T>(s, valid);
  } else if constexpr (std::is_same_v<T, date32>) {
    return text::parse_date(s, valid);
  } else {
    static_assert(dependent_false<T>, "colx::cast<T>(a string): T is an integer, bool, float, double, colx::dec<P, S> or "
                                      "colx::date32 (timestamps and durations from text are not supported yet)");
    return T{};
  }
}

// cast<string_view>(a): a's text.
template <class A>
constexpr COLX_HOST_DEVICE auto format_text(A a) {
  if constexpr (std::is_same_v<A, string_view> || string_value<A>) {
    return a;
  } else if constexpr (std::is_same_v<A, bool>) {
    return text::bool_text{a};
  } else if constexpr (std::is_integral_v<A>) {
    return text::integer_text<A>{a};
  } else if constexpr (std::is_floating_point_v<A>) {
    return text::floating_text<A>(a);
  } else if constexpr (dec_type<A>) {
    return text::decimal_text<A>{a.unscaled};
  } else if constexpr (std::is_same_v<A, date32>) {
    return text::date_text{a};
  } else if constexpr (requires { A::unit; a.ticks; } && !std::is_same_v<A, date32> && requires { typename A::rep; } &&
                       std::is_same_v<A, timestamp<A::unit>>) {
    return text::timestamp_text<A::unit>{a.ticks};
  } else {
    static_assert(dependent_false<A>, "colx::cast<colx::string_view>(x): x is a string, an integer, a bool, a float, a double, a colx::dec<P, S>, "
                                      "a date or a timestamp");
    return string_view{};
  }
}

}  // namespace colx::expr::ops::detail
