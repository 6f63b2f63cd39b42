// SPDX-License-Identifier: Apache-2.0
#pragma once
// The element-wise string operations (the contract: expr/ops.hpp): lengths in code points,
// predicates on UTF-8 bytes, and SQL's LIKE.
#include <colx/core/config.hpp>
#include <colx/types/string_search.hpp>
#include <colx/types/string_view.hpp>
#include <colx/types/utf8.hpp>

#include <cstdint>

namespace colx::expr::ops {

struct length {
  static constexpr char const* symbol = "length";
  static constexpr COLX_HOST_DEVICE std::int32_t apply(string_view s) { return static_cast<std::int32_t>(s.length()); }
};
struct length_bytes {
  static constexpr char const* symbol = "length_bytes";
  static constexpr COLX_HOST_DEVICE std::int32_t apply(string_view s) { return s.size_bytes(); }
};
struct starts_with {
  static constexpr char const* symbol = "starts_with";
  static constexpr COLX_HOST_DEVICE bool apply(string_view s, string_view p) {
    return p.size_bytes() <= s.size_bytes() && string_view(s.data(), p.size_bytes()) == p;
  }
};
struct ends_with {
  static constexpr char const* symbol = "ends_with";
  static constexpr COLX_HOST_DEVICE bool apply(string_view s, string_view p) {
    return p.size_bytes() <= s.size_bytes() && string_view(s.data() + s.size_bytes() - p.size_bytes(), p.size_bytes()) == p;
  }
};

// Whether `lit` occurs in s, byte-wise (UTF-8 makes a byte match a code-point match). A strings
// column searched in a kernel goes through strings_input_view::contains, which reads words.
using colx::detail::occurs;
struct contains {
  static constexpr char const* symbol = "contains";
  static constexpr COLX_HOST_DEVICE bool apply(string_view s, string_view p) { return occurs(s, p); }
};

// SQL's LIKE: % matches any run of characters, _ one character (a UTF-8 code point), anything
// else itself; no escape character (DuckDB's default). CaseInsensitive folds ASCII letters (ILIKE).
// Greedy with one backtracking point, the last %: linear for the common patterns (a prefix, a
// suffix, %word%), at worst the string's length times the pattern's.
template <bool CaseInsensitive>
struct like_pattern {
  static constexpr char const* symbol = CaseInsensitive ? "ilike" : "like";
  static constexpr COLX_HOST_DEVICE char fold(char c) {
    return CaseInsensitive && c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c;
  }
  static constexpr COLX_HOST_DEVICE bool apply(string_view s, string_view p) {
    char const* const str = s.data();
    char const* const pat = p.data();
    size_type const n = s.size_bytes();
    size_type const m = p.size_bytes();
    size_type i = 0;
    size_type j = 0;
    size_type star_j = -1;  // the pattern position after the last %, and where its run now ends
    size_type star_i = 0;
    while (i < n) {
      if (j < m && pat[j] == '%') {
        star_j = ++j;
        star_i = i;
      } else if (j < m && pat[j] == '_') {
        i = utf8::next(s, i);
        ++j;
      } else if (j < m && fold(pat[j]) == fold(str[i])) {
        ++i;
        ++j;
      } else if (star_j >= 0) {  // let the last % take one more character, and try again after it
        star_i = utf8::next(s, star_i);
        i = star_i;
        j = star_j;
      } else {
        return false;
      }
    }
    while (j < m && pat[j] == '%') { ++j; }
    return j == m && i == n;
  }
};
using like = like_pattern<false>;
using ilike = like_pattern<true>;

// The shape of a constant LIKE pattern, found once when the pipeline is written. Most patterns
// are a literal with % at neither, one or both ends, and those are tested as equality, a prefix,
// a suffix or a substring search, not by the general matcher. '%a%b%' (2 to 4 literals between
// %s, as TPC-H Q13's '%special%requests%' and Q16's '%Customer%Complaints%') is each literal
// searched for after the first place the one before it was found: where any match exists, the
// earliest places also match. A pattern with _, or with several literals and one at either end,
// takes the general matcher.
struct like_shape {
  enum kind_t : std::uint8_t { general, exact, prefix, suffix, infix, in_order };
  static constexpr int most_literals = 4;
  kind_t kind = general;
  int literals = 0;                         // 1, or 2 to most_literals for in_order
  std::int32_t begin[most_literals] = {};  // each literal, in the pattern
  std::int32_t size[most_literals] = {};
  [[nodiscard]] constexpr COLX_HOST_DEVICE string_view literal(string_view pattern, int k) const noexcept {
    return {pattern.data() + begin[k], size[k]};
  }
};
[[nodiscard]] constexpr like_shape shape_of(string_view p) noexcept {
  size_type begin = 0;
  size_type end = p.size_bytes();
  while (begin < end && p.data()[begin] == '%') { ++begin; }
  while (end > begin && p.data()[end - 1] == '%') { --end; }
  like_shape shape;
  for (size_type i = begin; i < end; ++i) {
    if (p.data()[i] == '_') { return {}; }
  }
  for (size_type i = begin; i < end;) {  // the literals between runs of %
    size_type j = i;
    while (j < end && p.data()[j] != '%') { ++j; }
    if (shape.literals == like_shape::most_literals) { return {}; }
    shape.begin[shape.literals] = static_cast<std::int32_t>(i);
    shape.size[shape.literals] = static_cast<std::int32_t>(j - i);
    ++shape.literals;
    while (j < end && p.data()[j] == '%') { ++j; }
    i = j;
  }
  if (shape.literals == 0) {  // "" or only %s: the empty literal
    shape.literals = 1;
    shape.begin[0] = static_cast<std::int32_t>(begin);
  }
  bool const lead = begin > 0;
  bool const trail = end < p.size_bytes();
  if (shape.literals > 1) {
    if (!lead || !trail) { return {}; }
    shape.kind = like_shape::in_order;
    return shape;
  }
  shape.kind = lead && trail ? like_shape::infix : lead ? like_shape::suffix : trail ? like_shape::prefix : like_shape::exact;
  return shape;
}
[[nodiscard]] constexpr COLX_HOST_DEVICE bool like_shaped(string_view s, string_view pattern, like_shape const& shape) noexcept {
  string_view const lit = shape.literal(pattern, 0);
  switch (shape.kind) {
    case like_shape::exact: return s == lit;
    case like_shape::prefix: return starts_with::apply(s, lit);
    case like_shape::suffix: return ends_with::apply(s, lit);
    case like_shape::infix: return occurs(s, lit);
    case like_shape::in_order: {
      size_type from = 0;
      for (int k = 0; k < shape.literals; ++k) {
        size_type const at = colx::detail::find(s, shape.literal(pattern, k), from);
        if (at < 0) { return false; }
        from = at + shape.size[k];
      }
      return true;
    }
    default: return like::apply(s, pattern);
  }
}

}  // namespace colx::expr::ops
