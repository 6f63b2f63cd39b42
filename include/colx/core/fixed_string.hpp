// SPDX-License-Identifier: Apache-2.0
#pragma once
// A string usable as a template argument: the names of columns and fields. nvcc 13 cannot deduce
// a fixed_string template parameter from a function argument, so name-carrying types expose a
// static `name` member that generic code reads through the `named` concept instead.
#include <cstddef>
#include <string_view>

namespace colx {

template <std::size_t N>
struct fixed_string {
  char chars[N]{};

  constexpr fixed_string() noexcept = default;
  constexpr fixed_string(char const (&s)[N]) noexcept {  // NOLINT: implicit from a literal
    for (std::size_t i = 0; i < N; ++i) { chars[i] = s[i]; }
  }
  [[nodiscard]] constexpr std::string_view view() const noexcept { return {chars, N - 1}; }
  [[nodiscard]] static constexpr std::size_t size() noexcept { return N - 1; }

  template <std::size_t M>
  [[nodiscard]] constexpr bool operator==(fixed_string<M> const& other) const noexcept {
    return view() == other.view();
  }
};

// "a" + "_right": names derived at compile time.
template <std::size_t N, std::size_t M>
[[nodiscard]] constexpr fixed_string<N + M - 1> operator+(fixed_string<N> const& a, fixed_string<M> const& b) noexcept {
  fixed_string<N + M - 1> out;
  for (std::size_t i = 0; i + 1 < N; ++i) { out.chars[i] = a.chars[i]; }
  for (std::size_t i = 0; i < M; ++i) { out.chars[N - 1 + i] = b.chars[i]; }
  return out;
}

// A type that carries a compile-time name.
template <class T>
concept named = requires { T::name.view(); };

}  // namespace colx
