// SPDX-License-Identifier: Apache-2.0
#pragma once
// A join's public vocabulary: its kinds, its options, the key columns of a side (on(...)) and the
// suffixes that set apart the left's and the right's columns of the same name.
#include <colx/core/fixed_string.hpp>
#include <colx/expr/expression.hpp>

namespace colx {

enum class join_kind { inner, left, right, full, semi, anti };

struct join_options {
  bool nulls_equal = false;  // SQL: a null key equals nothing; true: null keys match each other
};

// The key columns of one side: on("a"_c, "b"_c).
template <class... Cols>
struct join_keys {
  static_assert(sizeof...(Cols) > 0, "colx::on needs at least one key column");
  static_assert((expr::column_ref<Cols> && ...), "colx::on takes key columns: on(\"key\"_c, ...)");
};
template <class... Cols>
[[nodiscard]] constexpr join_keys<Cols...> on(Cols const&...) {
  return {};
}

// What is appended to the names of a left and a right column of the same name that are not one
// shared key: suffixes<"_l", "_r">(); without it "_x" and "_y", as in pandas. A suffix may be
// empty: suffixes<"", "_right">() is Polars' spelling.
template <fixed_string Left, fixed_string Right>
struct join_suffixes {
  static constexpr auto left = Left;
  static constexpr auto right = Right;
};
template <fixed_string Left, fixed_string Right>
[[nodiscard]] constexpr join_suffixes<Left, Right> suffixes() {
  return {};
}
using default_join_suffixes = join_suffixes<"_x", "_y">;
// Matched by their static members, never by deducing the names (nvcc cannot deduce a
// fixed_string template argument).
template <class S>
concept join_suffix_pair = requires {
  S::left.view();
  S::right.view();
};

}  // namespace colx
