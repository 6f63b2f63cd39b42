// SPDX-License-Identifier: Apache-2.0
#pragma once
// What a dictionary column from outside (Arrow, make_dictionary_column) is checked for before colx
// trusts it: every valid code indexes the dictionary (a code past its end would read memory that
// is not the column's), and the dictionary's values are distinct (equal values with two codes
// would make a group-by on codes split one group in two). Arrow allows both; colx refuses them
// with a message rather than give a wrong answer.
#include <colx/column/any_column.hpp>
#include <colx/column/factories.hpp>
#include <colx/exec/dispatch.hpp>
#include <colx/exec/scan_ops.hpp>
#include <colx/types/type_dispatch.hpp>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>
#include <unordered_set>

namespace colx {
namespace detail {

template <class Code>
struct code_outside_fn {
  Code const* codes;  // row 0 of the view
  bitmask_type const* mask;
  size_type mask_offset;
  std::int64_t entries;
  COLX_HOST_DEVICE std::int64_t operator()(size_type i) const {
    bool const valid = mask == nullptr || bit_is_set(mask, mask_offset + i);
    auto const code = static_cast<std::int64_t>(codes[i]);
    return valid && !(0 <= code && code < entries) ? 1 : 0;
  }
};

struct count_codes_outside {
  any_column_view const& view;
  std::int64_t entries;
  stream_ref stream;
  template <class Code>
  std::int64_t operator()() const {
    if constexpr (std::is_integral_v<Code> && !std::is_same_v<Code, bool>) {
      auto const* codes = static_cast<Code const*>(view.head()) + view.offset();
      code_outside_fn<Code> const outside{codes, view.null_mask(), view.offset(), entries};
      return on_backend(view.kind(), stream, [&](auto const& exec) {
        return exec.transform_reduce(view.size(), std::int64_t{0}, outside, running_sum<std::int64_t>{});
      });
    } else {
      return 0;  // not reached: dictionary codes are integers (any_column checks)
    }
  }
};

// Values equal to an earlier one, compared on the host as their bytes (floats as their value:
// -0.0 is 0.0 and every NaN one NaN, as group-by keys see them).
struct count_repeated_values {
  any_column_view const& values;
  stream_ref stream;
  template <class T>
  size_type operator()() const {
    std::unordered_set<std::string> seen;
    size_type repeated = 0;
    auto const note = [&](std::string key) { repeated += seen.insert(std::move(key)).second ? 0 : 1; };
    if constexpr (std::is_same_v<T, string_view>) {
      for (auto const& s : to_strings(strings_column_view(values), stream)) { note(s.value_or("")); }
    } else {
      for (T v : to_vector(values.as<T>(), stream)) {
        if constexpr (std::is_floating_point_v<T>) {
          if (v == T{0}) { v = T{0}; }
          if (std::isnan(v)) { v = std::numeric_limits<T>::quiet_NaN(); }
        }
        std::string key(sizeof(T), '\0');
        std::memcpy(key.data(), &v, sizeof(T));
        note(std::move(key));
      }
    }
    return repeated;
  }
};

}  // namespace detail

// Throws logic_error naming `what` unless the dictionary column `c` can be trusted: its dictionary
// has no nulls and distinct values, and every valid code indexes it. Synchronises the stream.
inline void check_dictionary(any_column_view const& c, stream_ref stream, std::string_view what) {
  COLX_EXPECTS(c.type().id() == type_id::dictionary, what, ": a column of type ", c.type().to_string(), " is not a dictionary");
  any_column_view const& values = c.child(0);
  COLX_EXPECTS(values.null_count() == 0, what, ": the dictionary holds ", values.null_count(),
               " null values; colx keeps nulls in the codes (a null row), so a dictionary's values are never null");
  std::int64_t const outside =
      c.empty() ? 0 : type_dispatch(data_type{c.type().codes()}, detail::count_codes_outside{c, values.size(), stream});
  COLX_EXPECTS(outside == 0, what, ": ", outside, " of ", c.size(), " codes are outside the dictionary's ", values.size(),
               " entries");
  size_type const repeated = values.empty() ? 0 : type_dispatch(values.type(), detail::count_repeated_values{values, stream});
  COLX_EXPECTS(repeated == 0, what, ": the dictionary's ", values.size(), " values repeat ", repeated,
               " times; colx needs distinct dictionary values (equal values with two codes would split a group); "
               "decode the column and encode it again");
}

}  // namespace colx
