// SPDX-License-Identifier: Apache-2.0
#pragma once
// The element-wise string operations (the contract: expr/ops.hpp): lengths in code points,
// predicates on UTF-8 bytes, and SQL's LIKE.
#include <colx/core/config.hpp>
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
// Byte-wise substring search; UTF-8 makes a byte match a code-point match.
struct contains {
  static constexpr char const* symbol = "contains";
  static constexpr COLX_HOST_DEVICE bool apply(string_view s, string_view p) {
    for (size_type start = 0; start + p.size_bytes() <= s.size_bytes(); ++start) {
      if (string_view(s.data() + start, p.size_bytes()) == p) { return true; }
    }
    return false;
  }
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

}  // namespace colx::expr::ops
