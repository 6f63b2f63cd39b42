// SPDX-License-Identifier: Apache-2.0
#pragma once
// Making columns: from host vectors (with std::optional for nulls), sequences and fills; and
// reading them back into host vectors.
#include <colx/column/bitmask_ops.hpp>
#include <colx/column/column.hpp>
#include <colx/column/strings_column.hpp>
#include <colx/exec/dispatch.hpp>

#include <initializer_list>
#include <limits>
#include <optional>
#include <span>
#include <string>
#include <type_traits>
#include <vector>

namespace colx {
namespace detail {

// std::vector<bool> packs bits and has no data(): bools are staged on the host as bytes.
template <class T>
using host_staging_t = std::conditional_t<std::is_same_v<T, bool>, std::uint8_t, T>;

// Host words of a mask with bit i set where valid(i); returns the words and the null count.
template <class Valid>
std::pair<std::vector<bitmask_type>, size_type> host_bitmask(size_type n, Valid valid) {
  std::vector<bitmask_type> words(bitmask_allocation_bytes(n) / sizeof(bitmask_type), 0);
  size_type nulls = 0;
  for (size_type i = 0; i < n; ++i) {
    if (valid(i)) {
      set_bit(words.data(), i);
    } else {
      ++nulls;
    }
  }
  return {std::move(words), nulls};
}

template <class T>
struct sequence_fn {
  T* out;
  T init, step;
  COLX_HOST_DEVICE void operator()(size_type i) const { out[i] = static_cast<T>(init + static_cast<T>(i) * step); }
};

template <class T>
struct fill_fn {
  T* out;
  T value;
  COLX_HOST_DEVICE void operator()(size_type i) const { out[i] = value; }
};

// The validity bits of rows [offset, offset + size) of a mask, copied to the host: words
// covering those rows, with row i at bit (offset % 32) + i.
inline std::vector<bitmask_type> host_mask_words(bitmask_type const* mask, size_type offset, size_type size,
                                                 memory_kind kind, stream_ref stream) {
  if (mask == nullptr || size == 0) { return {}; }
  size_type const first_word = offset / bits_per_word;
  size_type const words = bitmask_words(offset + size) - first_word;
  std::vector<bitmask_type> out(static_cast<std::size_t>(words));
  copy_bytes(out.data(), memory_kind::host, mask + first_word, kind, out.size() * sizeof(bitmask_type), stream);
  return out;
}

}  // namespace detail

// A column holding `values`, without a validity mask.
template <fixed_width_element T>
[[nodiscard]] column<T> make_column(std::span<T const> values, stream_ref stream = {},
                                    resource_ref mr = get_current_resource()) {
  return column<T>(uvector<T>(values, stream, mr));
}
template <fixed_width_element T>
[[nodiscard]] column<T> make_column(std::vector<T> const& values, stream_ref stream = {},
                                    resource_ref mr = get_current_resource()) {
  if constexpr (std::is_same_v<T, bool>) {
    std::vector<std::uint8_t> const bytes(values.begin(), values.end());
    return column<T>(uvector<T>(std::span<T const>(reinterpret_cast<bool const*>(bytes.data()), bytes.size()), stream, mr));
  } else {
    return make_column(std::span<T const>(values), stream, mr);
  }
}

// A column where std::nullopt is null. It has a validity mask only if some value is null.
template <fixed_width_element T>
[[nodiscard]] column<T> make_column(std::vector<std::optional<T>> const& values, stream_ref stream = {},
                                    resource_ref mr = get_current_resource()) {
  auto const n = static_cast<size_type>(values.size());
  std::vector<detail::host_staging_t<T>> dense(values.size(), detail::host_staging_t<T>{});
  for (std::size_t i = 0; i < values.size(); ++i) {
    if (values[i]) { dense[i] = *values[i]; }
  }
  auto [words, nulls] = detail::host_bitmask(n, [&](size_type i) { return values[static_cast<std::size_t>(i)].has_value(); });
  uvector<T> data(std::span<T const>(reinterpret_cast<T const*>(dense.data()), dense.size()), stream, mr);
  buffer mask = nulls == 0 ? buffer(0, stream, mr)
                           : buffer(words.data(), memory_kind::host, words.size() * sizeof(bitmask_type), stream, mr);
  return column<T>(std::move(data), std::move(mask), nulls);
}

// A decimal column: `unscaled` values with the given scale (value = unscaled * 10^scale).
template <class Rep>
[[nodiscard]] column<decimal<Rep>> make_decimal_column(std::vector<std::optional<decimal<Rep>>> const& values,
                                                       std::int32_t scale, stream_ref stream = {},
                                                       resource_ref mr = get_current_resource()) {
  auto unscaled = make_column(values, stream, mr);
  size_type const size = unscaled.size();
  size_type const nulls = unscaled.null_count();
  auto parts = std::move(unscaled).release().release();
  return column<decimal<Rep>>(
      any_column(data_type_of<decimal<Rep>>(scale), size, std::move(parts.data), std::move(parts.mask), nulls));
}

// A strings column where std::nullopt is null. Offsets are int32 (Arrow's utf8) unless
// `offset_type` is int64 (large_utf8); int32 offsets throw if the chars exceed 2^31 - 1 bytes.
[[nodiscard]] inline strings_column make_strings_column(std::vector<std::optional<std::string>> const& values,
                                                        type_id offset_type = type_id::int32, stream_ref stream = {},
                                                        resource_ref mr = get_current_resource()) {
  COLX_EXPECTS(offset_type == type_id::int32 || offset_type == type_id::int64, "strings offsets must be int32 or int64, not ",
               to_string(offset_type));
  auto const n = static_cast<size_type>(values.size());
  std::vector<std::int64_t> offsets(values.size() + 1, 0);
  std::string chars;
  for (std::size_t i = 0; i < values.size(); ++i) {
    if (values[i]) { chars += *values[i]; }
    offsets[i + 1] = static_cast<std::int64_t>(chars.size());
  }
  bool const large = offset_type == type_id::int64;
  COLX_EXPECTS(large || chars.size() <= static_cast<std::size_t>(std::numeric_limits<std::int32_t>::max()),
               "strings of ", chars.size(), " bytes need int64 offsets");
  buffer offsets_buffer = [&] {
    if (large) { return buffer(offsets.data(), memory_kind::host, offsets.size() * sizeof(std::int64_t), stream, mr); }
    // A copy from pageable memory has read its source when it returns, so `narrow` may die.
    std::vector<std::int32_t> narrow(offsets.begin(), offsets.end());
    return buffer(narrow.data(), memory_kind::host, narrow.size() * sizeof(std::int32_t), stream, mr);
  }();
  auto [words, nulls] = detail::host_bitmask(n, [&](size_type i) { return values[static_cast<std::size_t>(i)].has_value(); });
  buffer mask = nulls == 0 ? buffer(0, stream, mr)
                           : buffer(words.data(), memory_kind::host, words.size() * sizeof(bitmask_type), stream, mr);
  std::vector<any_column> children;
  children.emplace_back(data_type{offset_type}, n + 1, std::move(offsets_buffer));
  buffer chars_buffer(chars.data(), memory_kind::host, chars.size(), stream, mr);
  return strings_column(
      any_column(data_type{type_id::string}, n, std::move(chars_buffer), std::move(mask), nulls, std::move(children)));
}

// make_column<std::string>(...) (or <colx::string_view>, or no template argument): a strings
// column, as make_strings_column makes it with int32 offsets. std::nullopt is null.
template <class T>
concept string_element_name = std::is_same_v<T, std::string> || std::is_same_v<T, string_view>;

template <string_element_name T = std::string>
[[nodiscard]] strings_column make_column(std::vector<std::optional<std::string>> const& values, stream_ref stream = {},
                                         resource_ref mr = get_current_resource()) {
  return make_strings_column(values, type_id::int32, stream, mr);
}
template <string_element_name T = std::string>
[[nodiscard]] strings_column make_column(std::vector<std::string> const& values, stream_ref stream = {},
                                         resource_ref mr = get_current_resource()) {
  return make_strings_column(std::vector<std::optional<std::string>>(values.begin(), values.end()), type_id::int32, stream, mr);
}
// A braced list, {"a", std::nullopt, "c"}: picked over both vectors, which it would fit alike.
template <string_element_name T>
[[nodiscard]] strings_column make_column(std::initializer_list<std::optional<std::string>> values, stream_ref stream = {},
                                         resource_ref mr = get_current_resource()) {
  return make_strings_column(std::vector<std::optional<std::string>>(values), type_id::int32, stream, mr);
}

// n strings that all have `width` bytes (SQL's CHAR(n): one-letter flags, fixed-size codes),
// given end to end: row i is chars[i * width, (i + 1) * width). With a mask, null rows' bytes are
// ignored. The offsets (0, width, 2 width, ...) are written here, so the column knows its strings
// are uniform (uniform_bytes): fused kernels then find row i's bytes at i * width and read no
// offsets. Otherwise it is an ordinary strings column.
[[nodiscard]] inline strings_column make_fixed_width_strings(size_type n, size_type width, buffer chars, buffer mask = {},
                                                             size_type null_count = 0, stream_ref stream = {},
                                                             resource_ref mr = get_current_resource()) {
  COLX_EXPECTS(n >= 0 && width >= 0, "fixed-width strings need a row count and a width that are not negative (", n, " rows of ",
               width, " bytes)");
  std::size_t const bytes = static_cast<std::size_t>(n) * static_cast<std::size_t>(width);
  COLX_EXPECTS(chars.size() >= bytes, "chars of ", chars.size(), " bytes cannot hold ", n, " strings of ", width, " bytes");
  COLX_EXPECTS(chars.size() == 0 || chars.kind() == mr.kind(), "the chars live in ", to_string(chars.kind()),
               " memory, but the offsets would be written to ", to_string(mr.kind()), " memory");
  std::vector<any_column> children;
  auto const write_offsets = [&]<class Offset>(Offset) {
    uvector<Offset> offsets(n + 1, stream, mr);
    on_backend(mr.kind(), stream, [&](auto const& exec) {
      exec.for_each_n(n + 1, detail::sequence_fn<Offset>{offsets.data(), Offset{0}, static_cast<Offset>(width)});
    });
    children.emplace_back(data_type_of<Offset>(), n + 1, std::move(offsets).release());
  };
  if (bytes <= static_cast<std::size_t>(std::numeric_limits<std::int32_t>::max())) {
    write_offsets(std::int32_t{});
  } else {
    write_offsets(std::int64_t{});
  }
  any_column c(data_type{type_id::string}, n, std::move(chars), std::move(mask), null_count, std::move(children));
  c.set_uniform_bytes(width, detail::built_uniform_offsets{});
  return strings_column(std::move(c));
}

// n rows: init, init + step, init + 2 * step, ... (arithmetic types).
template <class T>
[[nodiscard]] column<T> sequence(size_type n, T init, T step = T{1}, stream_ref stream = {},
                                 resource_ref mr = get_current_resource()) {
  static_assert(std::is_arithmetic_v<T> && !std::is_same_v<T, bool>, "sequence needs an arithmetic element type");
  uvector<T> data(n, stream, mr);
  on_backend(data.kind(), stream, [&](auto const& exec) { exec.for_each_n(n, detail::sequence_fn<T>{data.data(), init, step}); });
  return column<T>(std::move(data));
}

// n rows, each `value`; with std::nullopt, n null rows.
template <fixed_width_element T>
[[nodiscard]] column<T> fill(size_type n, std::optional<T> value, stream_ref stream = {},
                             resource_ref mr = get_current_resource()) {
  uvector<T> data(n, stream, mr);
  on_backend(data.kind(), stream,
             [&](auto const& exec) { exec.for_each_n(n, detail::fill_fn<T>{data.data(), value.value_or(T{})}); });
  if (value) { return column<T>(std::move(data)); }
  return column<T>(std::move(data), create_bitmask(n, false, stream, mr), n);
}

// The view's values on the host; null rows hold unspecified values.
template <class T>
[[nodiscard]] std::vector<T> to_vector(column_view<T> const& view, stream_ref stream = {}) {
  std::vector<detail::host_staging_t<T>> out(static_cast<std::size_t>(view.size()));
  detail::copy_bytes(out.data(), memory_kind::host, view.data(), view.kind(), out.size() * sizeof(T), stream);
  if constexpr (std::is_same_v<T, bool>) {
    return std::vector<bool>(out.begin(), out.end());
  } else {
    return out;
  }
}

// The view's rows on the host, std::nullopt for nulls.
template <class T>
[[nodiscard]] std::vector<std::optional<T>> to_optional_vector(column_view<T> const& view, stream_ref stream = {}) {
  auto const values = to_vector(view, stream);
  auto const words = detail::host_mask_words(view.null_mask(), view.offset(), view.size(), view.kind(), stream);
  size_type const bit0 = view.offset() % bits_per_word;
  std::vector<std::optional<T>> out(values.size());
  for (std::size_t i = 0; i < values.size(); ++i) {
    if (words.empty() || bit_is_set(words.data(), bit0 + static_cast<size_type>(i))) { out[i] = values[i]; }
  }
  return out;
}

// The view's strings on the host, std::nullopt for nulls.
[[nodiscard]] inline std::vector<std::optional<std::string>> to_strings(strings_column_view const& view,
                                                                        stream_ref stream = {}) {
  if (view.empty()) { return {}; }
  std::vector<std::int64_t> offsets(static_cast<std::size_t>(view.size() + 1));
  view.visit([&](auto const& dv) {
    using Offset = std::remove_cv_t<std::remove_pointer_t<decltype(dv.offsets)>>;
    std::vector<Offset> raw(offsets.size());
    detail::copy_bytes(raw.data(), memory_kind::host, dv.offsets, view.kind(), raw.size() * sizeof(Offset), stream);
    std::copy(raw.begin(), raw.end(), offsets.begin());
  });
  std::string chars(static_cast<std::size_t>(offsets.back() - offsets.front()), '\0');
  detail::copy_bytes(chars.data(), memory_kind::host, view.chars() + offsets.front(), view.kind(), chars.size(), stream);
  auto const words = detail::host_mask_words(view.null_mask(), view.offset(), view.size(), view.kind(), stream);
  size_type const bit0 = view.offset() % bits_per_word;
  std::vector<std::optional<std::string>> out(static_cast<std::size_t>(view.size()));
  for (std::size_t i = 0; i < out.size(); ++i) {
    if (words.empty() || bit_is_set(words.data(), bit0 + static_cast<size_type>(i))) {
      out[i] = chars.substr(static_cast<std::size_t>(offsets[i] - offsets.front()),
                            static_cast<std::size_t>(offsets[i + 1] - offsets[i]));
    }
  }
  return out;
}

}  // namespace colx
