// SPDX-License-Identifier: Apache-2.0
#pragma once
// The element-wise string operations (the contract: expr/ops.hpp): lengths in code points and
// predicates on UTF-8 bytes.
#include <colx/core/config.hpp>
#include <colx/types/string_view.hpp>

#include <cstdint>

namespace colx::expr::ops {

struct length {
  static constexpr char const* symbol = "length";
  static constexpr COLX_HOST_DEVICE std::int32_t apply(string_view s) { return static_cast<std::int32_t>(s.length()); }
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

}  // namespace colx::expr::ops
