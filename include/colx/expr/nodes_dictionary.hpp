// SPDX-License-Identifier: Apache-2.0
#pragma once
// The expression nodes that read a dictionary column by its codes (dictionary_literal,
// dictionary_like), and the traits nodes.hpp uses to build them in place of a comparison or a
// LIKE over the decoded values.
#include <colx/expr/expression.hpp>
#include <colx/expr/ops.hpp>

#include <cstdint>
#include <string>
#include <type_traits>

namespace colx::expr {

// `column == "literal"` (or !=) where the column is a dictionary of strings: the codes compare
// once the literal's code is known (frame/resolve_literals.hpp looks it up in the column's
// dictionary before a launch: one code compare a row, no string read), the decoded values until
// then. A literal the dictionary lacks has code -1, which no row has.
template <bool Equal, std::size_t I, class T, bool Nullable, std::size_t N>
struct dictionary_literal : node<dictionary_literal<Equal, I, T, Nullable, N>> {
  static constexpr std::int64_t unresolved = -2;
  static constexpr std::size_t position = I;
  string_literal<N> literal;
  std::int64_t code = unresolved;
  constexpr explicit dictionary_literal(string_literal<N> l) : literal(l) {}
  template <class Inputs>
  [[nodiscard]] COLX_HOST_DEVICE maybe<bool, Nullable> operator()(Inputs const& in, size_type i) const {
    auto const& view = get<I>(in);
    bool const equal = code != unresolved ? static_cast<std::int64_t>(view.code(i)) == code
                                          : view.value(i) == string_view(literal.chars, literal.size);
    if constexpr (Nullable) {
      return {Equal == equal, view.is_valid(i)};
    } else {
      return {Equal == equal};
    }
  }
  [[nodiscard]] std::string to_string() const {
    return "($" + std::to_string(I) + (Equal ? " == " : " != ") + literal.to_string() + ", by code)";
  }
};

namespace detail {
template <class E>
struct dictionary_string_column : std::false_type {};
template <std::size_t I, class Code, bool Nullable>
struct dictionary_string_column<bound_col<I, dictionary<string_view, Code>, Nullable>> : std::true_type {
  static constexpr bool nullable = Nullable;
};
// A bound column of stored (not dictionary-encoded) strings: a search in it reads the column's
// bytes a word at a time (strings_input_view::contains) rather than the row's string_view.
template <class E>
struct plain_string_column : std::false_type {};
template <std::size_t I, bool Nullable>
struct plain_string_column<bound_col<I, string_view, Nullable>> : std::true_type {};
template <class E>
struct string_constant : std::false_type {};
template <std::size_t N>
struct string_constant<string_literal<N>> : std::true_type {};
}  // namespace detail

// like(column, "constant") where the column is a dictionary of strings: the pattern is matched
// once per dictionary entry before a launch (frame/resolve_literals.hpp), into a bit an entry, and
// a row reads its code's bit: no string read. The bits of up to 256 entries are held in the node;
// a larger dictionary's in a buffer the terminal keeps (`many`). Until resolved, and where no
// terminal keeps a buffer, the node matches the decoded values.
template <std::size_t I, class T, bool Nullable, std::size_t N>
struct dictionary_like : node<dictionary_like<I, T, Nullable, N>> {
  static constexpr std::size_t position = I;
  static constexpr int max_entries = 256;  // every uint8 code
  string_literal<N> pattern;
  ops::like_shape shape;
  bool resolved = false;
  std::uint32_t matches[max_entries / 32] = {};
  std::uint32_t const* many = nullptr;  // entry e's bit: many[e / 32] >> (e % 32)
  constexpr explicit dictionary_like(string_literal<N> p) : pattern(p), shape(ops::shape_of(string_view(p.chars, p.size))) {}
  template <class Inputs>
  [[nodiscard]] COLX_HOST_DEVICE maybe<bool, Nullable> operator()(Inputs const& in, size_type i) const {
    auto const& view = get<I>(in);
    bool const valid = !Nullable || view.is_valid(i);  // a null row's code may be anything: not followed
    bool match = false;
    if (resolved) {
      auto const code = static_cast<std::uint32_t>(view.code(i));
      match = valid && (((many != nullptr ? many[code / 32] : matches[code / 32]) >> (code % 32)) & 1u) != 0;
    } else {
      match = valid && ops::like_shaped(view.value(i), string_view(pattern.chars, pattern.size), shape);
    }
    if constexpr (Nullable) {
      return {match, valid};
    } else {
      return {match};
    }
  }
  [[nodiscard]] std::string to_string() const { return "($" + std::to_string(I) + " like " + pattern.to_string() + ", by code)"; }
};

}  // namespace colx::expr
