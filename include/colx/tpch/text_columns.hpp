// SPDX-License-Identifier: Apache-2.0
#pragma once
// The TPC-H generator's text columns: a row's name picked from a few fixed names, written as a
// strings column by a scan of the lengths and one copying pass, and one-character flags as
// fixed-width strings.
#include <colx/column/factories.hpp>
#include <colx/column/strings_column.hpp>
#include <colx/core/error.hpp>
#include <colx/exec/dispatch.hpp>
#include <colx/memory/uvector.hpp>

#include <algorithm>
#include <cstdint>
#include <initializer_list>
#include <limits>
#include <string_view>
#include <utility>

namespace colx::tpch::detail {

// A few fixed names back to back. Kernels get it by value: a constant array at namespace scope
// could not be read in device code.
struct name_table {
  static constexpr std::int32_t capacity = 8;
  char chars[96];
  std::int32_t offsets[capacity + 1];  // name k is chars[offsets[k], offsets[k + 1])
  std::int32_t longest;
};

[[nodiscard]] inline name_table make_name_table(std::initializer_list<std::string_view> names) {
  name_table t{};
  COLX_EXPECTS(names.size() <= name_table::capacity, "tpch: a name table holds at most ", name_table::capacity, " names");
  std::int32_t k = 0;
  for (auto const name : names) {
    COLX_EXPECTS(t.offsets[k] + name.size() <= sizeof(t.chars), "tpch: the names do not fit a name table");
    name.copy(t.chars + t.offsets[k], name.size());
    t.offsets[k + 1] = t.offsets[k] + static_cast<std::int32_t>(name.size());
    t.longest = std::max(t.longest, static_cast<std::int32_t>(name.size()));
    ++k;
  }
  return t;
}

template <class Choose>
struct name_length_fn {
  Choose choose;
  name_table names;
  COLX_HOST_DEVICE std::int64_t operator()(size_type i) const {
    std::int32_t const k = choose(i);
    return names.offsets[k + 1] - names.offsets[k];
  }
};

template <class Choose, class Offset>
struct copy_name_fn {
  Choose choose;
  name_table names;
  Offset const* offsets;
  char* chars;
  COLX_HOST_DEVICE void operator()(size_type i) const {
    std::int32_t const k = choose(i);
    Offset at = offsets[i];
    for (std::int32_t b = names.offsets[k]; b < names.offsets[k + 1]; ++b) { chars[at++] = names.chars[b]; }
  }
};

// Arrow's utf8 (int32 offsets) while the chars fit, large_utf8 beyond.
template <class Build>
[[nodiscard]] strings_column with_offset_type(size_type max_chars, Build build) {
  if (max_chars <= std::numeric_limits<std::int32_t>::max()) { return build(std::int32_t{}); }
  return build(std::int64_t{});
}

template <class Offset>
[[nodiscard]] strings_column assemble_strings(size_type n, buffer chars, uvector<Offset> offsets, stream_ref stream,
                                              resource_ref mr) {
  std::vector<any_column> children;
  children.emplace_back(data_type_of<Offset>(), n + 1, std::move(offsets).release());
  return strings_column(
      any_column(data_type{type_id::string}, n, std::move(chars), buffer(0, stream, mr), 0, std::move(children)));
}

// Row i is names[choose(i)]: a scan of the lengths gives the offsets, then one pass copies the
// bytes (choose is recomputed there rather than stored, which is cheaper than a round trip).
template <class Choose>
[[nodiscard]] strings_column choice_strings(size_type n, Choose choose, name_table const& names, stream_ref stream,
                                            resource_ref mr) {
  return with_offset_type(n * names.longest, [&]<class Offset>(Offset) {
    uvector<Offset> offsets(n + 1, stream, mr);
    return on_backend(mr.kind(), stream, [&](auto const& exec) {
      Offset const total = exec.exclusive_scan(n, Offset{0}, name_length_fn<Choose>{choose, names}, offsets.data());
      buffer chars(static_cast<std::size_t>(total), stream, mr);
      exec.for_each_n(n, copy_name_fn<Choose, Offset>{choose, names, offsets.data(), static_cast<char*>(chars.data())});
      return assemble_strings(n, std::move(chars), std::move(offsets), stream, mr);
    });
  });
}

// One character a row, already written: a fixed-width strings column (offsets 0, 1, ..., n), so
// that kernels read a flag's one byte and not its offsets.
[[nodiscard]] inline strings_column one_char_strings(uvector<char>&& chars, stream_ref stream, resource_ref mr) {
  size_type const n = chars.size();
  return make_fixed_width_strings(n, 1, std::move(chars).release(), buffer(0, stream, mr), 0, stream, mr);
}

}  // namespace colx::tpch::detail
