// SPDX-License-Identifier: Apache-2.0
#pragma once
// A minimal tuple that is trivially copyable when its members are and works in device code:
// what a fused kernel receives as its column views and outputs. std::tuple is neither usable in
// device code nor guaranteed trivially copyable; cuda::std::tuple is absent from host-only builds.
#include <colx/core/config.hpp>

#include <cstddef>
#include <utility>

namespace colx {
namespace detail {

template <std::size_t I, class T>
struct tuple_leaf {
  T value;
};

template <class Indices, class... Ts>
struct tuple_base;

template <std::size_t... Is, class... Ts>
struct tuple_base<std::index_sequence<Is...>, Ts...> : tuple_leaf<Is, Ts>... {
  constexpr tuple_base() = default;
  constexpr COLX_HOST_DEVICE explicit tuple_base(Ts const&... values)
    requires(sizeof...(Ts) > 0)
      : tuple_leaf<Is, Ts>{values}... {}
};

}  // namespace detail

template <class... Ts>
struct tuple : detail::tuple_base<std::index_sequence_for<Ts...>, Ts...> {
  using detail::tuple_base<std::index_sequence_for<Ts...>, Ts...>::tuple_base;
  static constexpr std::size_t size = sizeof...(Ts);
};

template <class... Ts>
tuple(Ts...) -> tuple<Ts...>;

template <std::size_t I, class T>
[[nodiscard]] constexpr COLX_HOST_DEVICE T const& get(detail::tuple_leaf<I, T> const& leaf) noexcept {
  return leaf.value;
}
template <std::size_t I, class T>
[[nodiscard]] constexpr COLX_HOST_DEVICE T& get(detail::tuple_leaf<I, T>& leaf) noexcept {
  return leaf.value;
}

// Calls f(get<0>(t), get<1>(t), ...).
template <class F, class... Ts>
constexpr COLX_HOST_DEVICE decltype(auto) apply(F&& f, tuple<Ts...> const& t) {
  return [&]<std::size_t... Is>(std::index_sequence<Is...>) -> decltype(auto) {
    return std::forward<F>(f)(get<Is>(t)...);
  }(std::index_sequence_for<Ts...>{});
}

}  // namespace colx
