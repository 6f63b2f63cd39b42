// SPDX-License-Identifier: Apache-2.0
#pragma once
// String operations that give strings (the contract: expr/ops.hpp). Those that take part of their
// input (substr, trim) give a string_view into it. The others give a computed string: a small
// value holding its inputs' views that knows its size in bytes before it writes them
// (size_bytes, write_to), so with_columns sizes every row, scans the sizes into offsets and then
// writes each row's bytes at its offset, with no scratch space per row.
#include <colx/core/config.hpp>
#include <colx/types/string_view.hpp>
#include <colx/types/utf8.hpp>

#include <concepts>
#include <cstdint>
#include <type_traits>

namespace colx {

// A row's string: a string_view, or a computed string from below.
template <class S>
concept string_value = requires(S const& s, char* out) {
  { s.size_bytes() } -> std::convertible_to<size_type>;
  s.write_to(out);
};

// A string computed per row (upper, concat, a cast to text), not a view of stored bytes.
template <class S>
inline constexpr bool computed_string = string_value<S> && !std::is_same_v<S, string_view>;

}  // namespace colx

namespace colx::expr::ops {

// Whether an op takes computed strings as they are (it writes them, never reads their bytes).
template <class Op>
inline constexpr bool takes_computed_strings = requires { Op::takes_computed_strings; };
// Every other op reads its strings' bytes, which a computed string does not have yet. Nodes call
// it inside a static_assert, so it is checked where the node is, before the op's own overloads fail.
template <class Op, class... Values>
constexpr COLX_HOST_DEVICE bool check_string_operands() {
  static_assert(takes_computed_strings<Op> || !(computed_string<Values> || ...),
                "colx: this function reads a string's characters, and an argument is a computed string (upper, "
                "lower, concat, replace, lpad/rpad or a cast to text): store it first with "
                "with_columns(e.as<\"name\">()), then use its column");
  return true;
}

namespace detail {
// Positions below zero are before the string; a length may not push an end past 2^31.
constexpr COLX_HOST_DEVICE std::int64_t clamp_position(std::int64_t p) noexcept {
  return p < 0 ? 0 : (p > (std::int64_t{1} << 31) ? (std::int64_t{1} << 31) : p);
}
// Whether the code point at s[i, i + bytes) is one of the code points of `set`.
constexpr COLX_HOST_DEVICE bool in_set(string_view s, size_type i, size_type bytes, string_view set) noexcept {
  for (size_type j = 0; j < set.size_bytes(); j = utf8::next(set, j)) {
    if (utf8::next(set, j) - j == bytes && string_view(set.data() + j, bytes) == string_view(s.data() + i, bytes)) {
      return true;
    }
  }
  return false;
}
}  // namespace detail

// SQL's substring(s, start[, length]) in characters, as DuckDB: start is 1-based; 0 is the position
// before the first character and a negative start counts from the end; a negative length takes
// the characters before start. Out-of-range parts are empty, never an error.
struct substr {
  static constexpr char const* symbol = "substr";
  template <std::integral B, std::integral L>
  static constexpr COLX_HOST_DEVICE string_view apply(string_view s, B start_, L length_) {
    auto const start = static_cast<std::int64_t>(start_);
    auto const length = static_cast<std::int64_t>(length_);
    std::int64_t begin = start > 0 ? start - 1 : start == 0 ? -1 : utf8::characters(s) + start;
    std::int64_t end = begin;
    if (length >= 0) {
      end = begin + detail::clamp_position(length);
    } else {
      begin = begin - detail::clamp_position(-length);
    }
    begin = detail::clamp_position(begin);
    end = detail::clamp_position(end);
    if (end <= begin) { return {s.data(), 0}; }
    size_type const first = utf8::byte_of(s, static_cast<size_type>(begin));
    string_view const rest(s.data() + first, s.size_bytes() - first);
    return {rest.data(), utf8::byte_of(rest, static_cast<size_type>(end - begin))};
  }
  template <std::integral B>
  static constexpr COLX_HOST_DEVICE string_view apply(string_view s, B start) {
    return apply(s, start, std::int64_t{1} << 31);
  }
};

// trim / ltrim / rtrim: without a set, spaces (' ' only, as DuckDB); with one, any of its characters.
template <bool Left, bool Right>
struct trim_chars {
  static constexpr char const* symbol = Left && Right ? "trim" : Left ? "ltrim" : "rtrim";
  static constexpr COLX_HOST_DEVICE string_view apply(string_view s) { return apply(s, string_view(" ", 1)); }
  static constexpr COLX_HOST_DEVICE string_view apply(string_view s, string_view set) {
    size_type begin = 0;
    size_type end = s.size_bytes();
    while (Left && begin < end && detail::in_set(s, begin, utf8::next(s, begin) - begin, set)) { begin = utf8::next(s, begin); }
    while (Right && end > begin) {
      size_type last = end - 1;  // back to the first byte of the last character (at most 3 steps)
      while (last > begin && end - last < 4 && (static_cast<unsigned char>(s.data()[last]) & 0xC0u) == 0x80u) { --last; }
      if (!detail::in_set(s, last, end - last, set)) { break; }
      end = last;
    }
    return {s.data() + begin, end - begin};
  }
};
using trim = trim_chars<true, true>;
using ltrim = trim_chars<true, false>;
using rtrim = trim_chars<false, true>;

// ---- computed strings ----------------------------------------------------------------------------

// upper(s) / lower(s): the same bytes, case-mapped (see utf8::map_case for which letters).
template <class S>
struct case_mapped {
  S s;
  bool to_upper;
  [[nodiscard]] constexpr COLX_HOST_DEVICE size_type size_bytes() const noexcept { return s.size_bytes(); }
  constexpr COLX_HOST_DEVICE void write_to(char* out) const noexcept {
    if constexpr (std::is_same_v<S, string_view>) {
      utf8::write_case_mapped(s, out, to_upper);
    } else {  // a computed input: written first, then mapped where it lies
      s.write_to(out);
      utf8::write_case_mapped(string_view(out, s.size_bytes()), out, to_upper);
    }
  }
};
template <bool Upper>
struct change_case {
  static constexpr char const* symbol = Upper ? "upper" : "lower";
  static constexpr bool takes_computed_strings = true;
  template <string_value S>
  static constexpr COLX_HOST_DEVICE case_mapped<S> apply(S s) {
    return {s, Upper};
  }
};
using upper = change_case<true>;
using lower = change_case<false>;

// a || b. A part that is absent (concat's null argument) writes nothing.
template <class A, class B>
struct joined {
  A a;
  B b;
  bool has_a = true;
  bool has_b = true;
  [[nodiscard]] constexpr COLX_HOST_DEVICE size_type size_bytes() const noexcept {
    return (has_a ? a.size_bytes() : 0) + (has_b ? b.size_bytes() : 0);
  }
  constexpr COLX_HOST_DEVICE void write_to(char* out) const noexcept {
    if (has_a) { a.write_to(out); }
    if (has_b) { b.write_to(out + (has_a ? a.size_bytes() : 0)); }
  }
};
struct concat {
  static constexpr char const* symbol = "||";
  static constexpr bool takes_computed_strings = true;
  template <string_value A, string_value B>
  static constexpr COLX_HOST_DEVICE joined<A, B> apply(A a, B b) {
    return {a, b};
  }
};

// if_else and coalesce over strings of which one is computed: the branch taken, written as itself.
template <class A, class B>
struct either_string {
  A a;
  B b;
  bool first;
  [[nodiscard]] constexpr COLX_HOST_DEVICE size_type size_bytes() const noexcept { return first ? a.size_bytes() : b.size_bytes(); }
  constexpr COLX_HOST_DEVICE void write_to(char* out) const noexcept {
    if (first) {
      a.write_to(out);
    } else {
      b.write_to(out);
    }
  }
};
// The value type of a branch between X and Y when both are strings and one is computed.
template <class X, class Y>
inline constexpr bool computed_branches = string_value<X> && string_value<Y> && (computed_string<X> || computed_string<Y>);

// replace(s, from, to): every occurrence of `from`, left to right and not overlapping, becomes
// `to`; an empty `from` replaces nothing (as DuckDB).
struct replaced {
  string_view s;
  string_view from;
  string_view to;
  [[nodiscard]] constexpr COLX_HOST_DEVICE bool at(size_type i) const noexcept {
    return i + from.size_bytes() <= s.size_bytes() && string_view(s.data() + i, from.size_bytes()) == from;
  }
  [[nodiscard]] constexpr COLX_HOST_DEVICE size_type size_bytes() const noexcept {
    if (from.empty()) { return s.size_bytes(); }
    size_type size = 0;
    for (size_type i = 0; i < s.size_bytes();) {
      bool const hit = at(i);
      size += hit ? to.size_bytes() : 1;
      i += hit ? from.size_bytes() : 1;
    }
    return size;
  }
  constexpr COLX_HOST_DEVICE void write_to(char* out) const noexcept {
    if (from.empty()) { return s.write_to(out); }
    for (size_type i = 0; i < s.size_bytes();) {
      if (at(i)) {
        to.write_to(out);
        out += to.size_bytes();
        i += from.size_bytes();
      } else {
        *out++ = s.data()[i++];
      }
    }
  }
};
struct replace {
  static constexpr char const* symbol = "replace";
  static constexpr COLX_HOST_DEVICE replaced apply(string_view s, string_view from, string_view to) { return {s, from, to}; }
};

// lpad / rpad(s, width, fill): s cut or padded to `width` characters with `fill` repeated (its
// characters in order); a string longer than width keeps its first width characters, at either
// side, as DuckDB. Null when padding is needed and fill is empty (DuckDB raises an error).
struct padded_text {
  string_view s;
  string_view fill;
  size_type kept_bytes;  // of s
  size_type pad_characters;
  bool left;
  [[nodiscard]] constexpr COLX_HOST_DEVICE size_type pad_bytes() const noexcept {
    size_type bytes = 0;
    size_type j = 0;
    for (size_type k = 0; k < pad_characters; ++k) {
      size_type const next = utf8::next(fill, j);
      bytes += next - j;
      j = next < fill.size_bytes() ? next : 0;
    }
    return bytes;
  }
  [[nodiscard]] constexpr COLX_HOST_DEVICE size_type size_bytes() const noexcept { return kept_bytes + pad_bytes(); }
  constexpr COLX_HOST_DEVICE void write_to(char* out) const noexcept {
    char* pad = left ? out : out + kept_bytes;
    string_view(s.data(), kept_bytes).write_to(left ? out + pad_bytes() : out);
    size_type j = 0;
    for (size_type k = 0; k < pad_characters; ++k) {
      size_type const next = utf8::next(fill, j);
      for (size_type b = j; b < next; ++b) { *pad++ = fill.data()[b]; }
      j = next < fill.size_bytes() ? next : 0;
    }
  }
};
template <bool Left>
struct pad {
  static constexpr char const* symbol = Left ? "lpad" : "rpad";
  static constexpr bool produces_nulls = true;
  template <class... Ts>
  static constexpr bool nulls_for = true;
  template <std::integral W>
  static constexpr COLX_HOST_DEVICE padded_text apply(string_view s, W width_, string_view fill, bool& valid) {
    auto const width = static_cast<size_type>(detail::clamp_position(static_cast<std::int64_t>(width_)));
    size_type const kept = utf8::byte_of(s, width);
    size_type const have = utf8::characters(string_view(s.data(), kept));
    size_type const missing = width - have;
    if (missing > 0 && fill.empty()) {
      valid = false;
      return {};
    }
    return {s, fill, kept, missing, Left};
  }
};
using lpad = pad<true>;
using rpad = pad<false>;

}  // namespace colx::expr::ops
