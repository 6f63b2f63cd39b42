// SPDX-License-Identifier: Apache-2.0
#pragma once
// Cells of a host column read one at a time, for the file writers: a string's bytes, a
// dictionary column's code.
#include <colx/column/any_column_view.hpp>

#include <cstdint>
#include <cstring>
#include <string_view>

namespace colx::io::detail {

// Row r's bytes of a strings view in host memory.
inline std::string_view string_at(any_column_view const& v, size_type r) {
  auto const& offsets = v.children().front();
  std::size_t const at = static_cast<std::size_t>(offsets.offset() + v.offset() + r);  // (offsets are indexed by the parent's row)
  std::int64_t begin = 0, end = 0;
  if (offsets.type().id() == type_id::int64) {
    auto const* p = static_cast<std::int64_t const*>(offsets.head());
    begin = p[at], end = p[at + 1];
  } else {
    auto const* p = static_cast<std::int32_t const*>(offsets.head());
    begin = p[at], end = p[at + 1];
  }
  return {static_cast<char const*>(v.head()) + begin, static_cast<std::size_t>(end - begin)};
}

// The code of row r of a dictionary column's codes, as an index into its dictionary.
inline std::int64_t code_at(any_column_view const& v, size_type r) {
  auto const* head = static_cast<std::uint8_t const*>(v.head());
  std::size_t const row = static_cast<std::size_t>(v.offset() + r);
  auto const load = [&]<class T>(T*) {
    T c;
    std::memcpy(&c, head + row * sizeof(T), sizeof(T));
    return static_cast<std::int64_t>(c);
  };
  switch (v.type().codes()) {
    case type_id::int8: return load(static_cast<std::int8_t*>(nullptr));
    case type_id::int16: return load(static_cast<std::int16_t*>(nullptr));
    case type_id::int32: return load(static_cast<std::int32_t*>(nullptr));
    case type_id::int64: return load(static_cast<std::int64_t*>(nullptr));
    case type_id::uint8: return load(static_cast<std::uint8_t*>(nullptr));
    case type_id::uint16: return load(static_cast<std::uint16_t*>(nullptr));
    case type_id::uint32: return load(static_cast<std::uint32_t*>(nullptr));
    default: return load(static_cast<std::uint64_t*>(nullptr));
  }
}

}  // namespace colx::io::detail
