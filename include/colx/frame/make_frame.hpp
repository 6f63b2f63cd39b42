// SPDX-License-Identifier: Apache-2.0
#pragma once
// A frame from named host vectors in one call, its schema deduced, as pandas' DataFrame({...}):
//
//   auto df = colx::make_frame(colx::values<"id">({1, 2, 3}),
//                              colx::values<"name">({"a", "b", "c"}),
//                              colx::values<"x", std::optional<double>>({1.5, std::nullopt, 2}));
//   // colx::frame<colx::schema<field<"id", int, not_null>, field<"name", string_view, not_null>,
//   //                          field<"x", double, nullable>>>
//
// Elements of T give a not_null field of T; std::optional<T> a nullable one (std::nullopt is
// null). std::string, std::string_view and char const* give colx::string_view fields. After the
// columns may come a stream and then a memory resource or a memory_kind, as make_column takes
// them: make_frame(values<"a">(v), stream, mr) or make_frame(values<"a">(v), memory_kind::host).
#include <colx/column/factories.hpp>
#include <colx/core/fixed_string.hpp>
#include <colx/frame/frame.hpp>
#include <colx/types/schema.hpp>
#include <colx/memory/current_resource.hpp>

#include <concepts>
#include <cstddef>
#include <initializer_list>
#include <optional>
#include <string>
#include <string_view>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

namespace colx {

// One named column's values on the host, as values<"name">(...) makes them. The name is a static
// member (not deduced from a template argument): nvcc cannot deduce a fixed_string.
template <fixed_string Name, class T>
struct named_values {
  static constexpr auto name = Name;
  static constexpr bool is_named_values = true;
  using value_type = T;
  std::vector<T> values;
};

namespace detail {

template <class T>
struct optional_parts {
  using type = T;
  static constexpr bool is_optional = false;
};
template <class T>
struct optional_parts<std::optional<T>> {
  using type = T;
  static constexpr bool is_optional = true;
};

template <class T>
concept host_string = std::is_same_v<T, std::string> || std::is_same_v<T, std::string_view> ||
                      std::is_same_v<T, char const*> || std::is_same_v<T, char*>;

// The field a vector of T makes.
template <class Named>
struct field_of_values {
  using parts = optional_parts<typename Named::value_type>;
  using element = typename parts::type;
  static_assert(host_string<element> || fixed_width_element<element>,
                "colx::values: the elements must be bool, integers, floats, dates, timestamps, durations, decimals or "
                "strings (std::string, std::string_view, char const*), each optionally in a std::optional for nulls");
  using type = field<Named::name, std::conditional_t<host_string<element>, string_view, element>,
                     parts::is_optional ? nullable : not_null>;
};

template <class Named>
auto column_of_values(Named const& named, stream_ref stream, resource_ref mr) {
  using parts = optional_parts<typename Named::value_type>;
  using element = typename parts::type;
  if constexpr (host_string<element>) {
    std::vector<std::optional<std::string>> strings;
    strings.reserve(named.values.size());
    for (auto const& v : named.values) {
      if constexpr (parts::is_optional) {
        strings.push_back(v ? std::optional<std::string>(std::string(*v)) : std::nullopt);
      } else {
        strings.emplace_back(std::string(v));
      }
    }
    return make_strings_column(strings, type_id::int32, stream, mr);
  } else {
    return make_column(named.values, stream, mr);
  }
}

// Matched by a member, not by a partial specialisation on named_values<Name, T>: nvcc cannot
// deduce Name there.
template <class T>
concept named_values_type = requires { requires std::remove_cvref_t<T>::is_named_values; };

// Where the columns go: the arguments after the named values (lvalues, as make_frame forwards them).
template <class... Tail>
std::pair<stream_ref, resource_ref> frame_placement(Tail&... tail) {
  static_assert(sizeof...(Tail) <= 2,
                "colx::make_frame: after the values<\"name\">(...) columns come at most a stream and a memory resource "
                "(or a memory_kind)");
  if constexpr (sizeof...(Tail) == 0) {
    return {stream_ref{}, get_current_resource()};
  } else if constexpr (sizeof...(Tail) == 1) {
    if constexpr ((std::is_same_v<std::remove_cv_t<Tail>, memory_kind> && ...)) {
      return {stream_ref{}, get_current_resource(tail...)};
    } else {
      static_assert((std::is_convertible_v<Tail&, stream_ref> && ...),
                    "colx::make_frame: after the columns, give a stream (then optionally a memory resource or a "
                    "memory_kind), or a memory_kind alone");
      return {stream_ref(tail...), get_current_resource()};
    }
  } else {
    auto&& [stream, where] = std::tie(tail...);
    using second = std::remove_cvref_t<decltype(where)>;
    static_assert(std::is_convertible_v<decltype(stream)&, stream_ref>,
                  "colx::make_frame: the argument after the columns must be a stream when two follow them");
    if constexpr (std::is_same_v<second, memory_kind>) {
      return {stream_ref(stream), get_current_resource(where)};
    } else {
      static_assert(std::is_convertible_v<decltype(where)&, resource_ref>,
                    "colx::make_frame: the last argument must be a memory resource or a memory_kind");
      return {stream_ref(stream), resource_ref(where)};
    }
  }
}

template <std::size_t N, class... Args>
consteval std::size_t leading_named_values() {
  constexpr bool named[] = {named_values_type<Args>..., false};
  std::size_t n = 0;
  while (n < N && named[n]) { ++n; }
  return n;
}

// make_frame's work: the leading named values are the columns, the rest say where they go.
template <class... Args>
auto make_frame_from(Args&&... args) {
  constexpr std::size_t n = leading_named_values<sizeof...(Args), Args...>();
  auto all = std::forward_as_tuple(args...);
  using arg_types = std::tuple<std::remove_cvref_t<Args>...>;
  return [&]<std::size_t... C, std::size_t... T>(std::index_sequence<C...>, std::index_sequence<T...>) {
    static_assert(!(named_values_type<std::tuple_element_t<n + T, arg_types>> || ...),
                  "colx::make_frame: the values<\"name\">(...) columns come first, then a stream and a resource");
    using columns = std::tuple<std::tuple_element_t<C, arg_types>...>;
    static_assert(names_unique<std::tuple_element_t<C, columns>...>(),
                  "colx::make_frame: two columns have the same name");
    using frame_type = frame<schema<typename field_of_values<std::tuple_element_t<C, columns>>::type...>>;
    auto const [stream, mr] = frame_placement(std::get<n + T>(all)...);
    return frame_type(column_of_values(std::get<C>(all), stream, mr)...);
  }(std::make_index_sequence<n>{}, std::make_index_sequence<sizeof...(Args) - n>{});
}

}  // namespace detail

// values<"name">(vector or {list}): a column for make_frame. The element type is deduced, or
// given as the second template argument where a list cannot say it:
// values<"x", std::optional<double>>({1.5, std::nullopt}).
template <fixed_string Name, class T>
[[nodiscard]] named_values<Name, T> values(std::vector<T> v) {
  return {std::move(v)};
}
template <fixed_string Name, class T>
[[nodiscard]] named_values<Name, T> values(std::initializer_list<T> v) {
  return {std::vector<T>(v)};
}

// A frame of the named columns (see the top of this header); then optionally a stream and a
// memory resource or memory_kind. The first argument must be a column, so that make_frame never
// catches another function's call by argument-dependent lookup.
template <detail::named_values_type First, class... Args>
[[nodiscard]] auto make_frame(First&& first, Args&&... rest) {
  return detail::make_frame_from(std::forward<First>(first), std::forward<Args>(rest)...);
}

}  // namespace colx
