// SPDX-License-Identifier: Apache-2.0
#pragma once
// Output columns for kernels that write whole rows of several columns at once.
#include <colx/column/bitmask_ops.hpp>
#include <colx/column/column.hpp>
#include <colx/column/dictionary_column.hpp>
#include <colx/column/factories.hpp>
#include <colx/column/strings_column.hpp>
#include <colx/exec/dispatch.hpp>
#include <colx/frame/kernels.hpp>
#include <colx/memory/copy_bytes.hpp>
#include <colx/memory/uvector.hpp>

#include <algorithm>
#include <array>
#include <bit>
#include <limits>
#include <memory>
#include <optional>
#include <tuple>
#include <vector>

namespace colx::detail {

// One output column of a kernel that writes rows in any order (compaction, gather, group-by,
// join): allocated for `rows` rows (an upper bound for a compaction), with a mask of all-null bits
// when the output may hold nulls (the kernel sets valid bits atomically), and trimmed to the rows
// written by finish().
// `like` is the column whose rows are copied, when there is one: the output takes its layout (a
// fixed-width strings column's width, a dictionary column's dictionary).
template <class T>
struct output_column {
  column<T> column_;
  mutable_column_device_view<T> view(stream_ref stream) { return column_.mutable_device_view(stream); }

  output_column(size_type rows, bool nullable, data_type type, any_column const* /*like*/, stream_ref stream, resource_ref mr)
      : column_(uvector<T>(rows, stream, mr), nullable ? create_bitmask(rows, false, stream, mr) : buffer(0, stream, mr), 0,
                type) {}

  // The mask the kernel sets valid bits in (null: the column has none), whose nulls among the
  // kept rows finish() is given (finish_outputs counts every column's in one pass).
  bitmask_type const* mask_bits() const { return column_.nullable() ? column_.null_mask() : nullptr; }
  any_column finish_untyped(size_type kept, size_type nulls) {
    data_type const type = column_.type();
    auto contents = std::move(column_).release().release();
    contents.data = contents.data.slice(0, static_cast<std::size_t>(kept) * sizeof(T));
    return any_column(type, kept, std::move(contents.data), std::move(contents.mask), nulls);
  }
  // Where the host must learn a byte total before finish() (strings only): none here.
  std::int64_t const* scan_chars(size_type, stream_ref) { return nullptr; }
  std::shared_ptr<colx::column<T> const> finish(size_type kept, size_type nulls, std::int64_t /*chars*/, stream_ref) {
    return std::make_shared<colx::column<T> const>(finish_untyped(kept, nulls));
  }
};

// Dictionary columns: kept rows copy their codes, and the output shares the source's dictionary.
template <class V, class Code>
struct output_column<dictionary<V, Code>> {
  output_column<Code> codes;
  any_column values;  // shared with the source column, not copied
  mutable_column_device_view<Code> view(stream_ref stream) { return codes.view(stream); }

  output_column(size_type rows, bool nullable, data_type, any_column const* like, stream_ref stream, resource_ref mr)
      : codes(rows, nullable, data_type_of<Code>(), nullptr, stream, mr), values(dictionary_of(like)) {}

  bitmask_type const* mask_bits() const { return codes.mask_bits(); }
  std::int64_t const* scan_chars(size_type, stream_ref) { return nullptr; }
  std::shared_ptr<dictionary_column<V, Code> const> finish(size_type kept, size_type nulls, std::int64_t, stream_ref) {
    any_column c = codes.finish_untyped(kept, nulls);
    auto contents = std::move(c).release();
    std::vector<any_column> children;
    children.push_back(std::move(values));
    return std::make_shared<dictionary_column<V, Code> const>(any_column(data_type_of<dictionary<V, Code>>(), kept,
                                                                         std::move(contents.data), std::move(contents.mask),
                                                                         nulls, std::move(children)));
  }

 private:
  static any_column dictionary_of(any_column const* like) {
    COLX_EXPECTS(like != nullptr && like->type().id() == type_id::dictionary,
                 "a dictionary output column is written from a dictionary column, whose dictionary it shares");
    return like->children().front();
  }
};

// Strings: lengths and source pointers during the pass; then a scan of the lengths gives the
// offsets (scan_chars, which leaves the byte total in device memory for the host to read with the
// other columns' numbers: finish_outputs), and one more kernel copies the kept strings' bytes.
// When every string written has the same size (uniform_bytes: they all come from one fixed-width
// column), the offsets are known without the scan, and the total without a read: the result is
// fixed-width too.
template <>
struct output_column<string_view> {
  uvector<std::int64_t> lengths;  // rows + 1
  uvector<char const*> sources;
  buffer mask;
  size_type uniform_bytes = -1;
  resource_ref mr;
  std::optional<uvector<std::int64_t>> offsets;  // kept + 1, from scan_chars
  strings_staging_view view(stream_ref) { return {lengths.data(), sources.data(), static_cast<bitmask_type*>(mask.data())}; }

  output_column(size_type rows, bool nullable, data_type, any_column const* like, stream_ref stream, resource_ref mr_)
      : lengths(rows + 1, stream, mr_), sources(rows, stream, mr_),
        mask(nullable ? create_bitmask(rows, false, stream, mr_) : buffer(0, stream, mr_)),
        uniform_bytes(like != nullptr && like->type().id() == type_id::string ? like->uniform_bytes() : -1), mr(mr_) {}

  bitmask_type const* mask_bits() const { return mask.empty() ? nullptr : static_cast<bitmask_type const*>(mask.data()); }
  std::int64_t const* scan_chars(size_type kept, stream_ref stream) {
    if (uniform_bytes >= 0) { return nullptr; }
    offsets.emplace(kept + 1, stream, mr);
    on_backend(mr.kind(), stream, [&](auto const& exec) {
      exec.exclusive_scan_async(kept, std::int64_t{0}, string_length_fn{lengths.data()}, offsets->data());
    });
    return offsets->data() + kept;
  }
  std::shared_ptr<strings_column const> finish(size_type kept, size_type nulls, std::int64_t chars_total, stream_ref stream) {
    if (!mask.empty()) { mask.resize(bitmask_allocation_bytes(kept), stream); }
    if (uniform_bytes >= 0) {
      buffer chars(static_cast<std::size_t>(kept) * static_cast<std::size_t>(uniform_bytes), stream, mr);
      on_backend(mr.kind(), stream, [&](auto const& exec) {
        exec.for_each_n(kept, copy_fixed_chars_fn{sources.data(), lengths.data(), static_cast<char*>(chars.data()), uniform_bytes});
      });
      return std::make_shared<strings_column const>(
          make_fixed_width_strings(kept, uniform_bytes, std::move(chars), std::move(mask), nulls, stream, mr));
    }
    COLX_EXPECTS(offsets.has_value(), "a strings output column is finished after scan_chars");
    buffer chars(static_cast<std::size_t>(chars_total), stream, mr);
    // The bytes are written as with_columns writes computed strings: on the GPU a warp stages its
    // 32 rows' strings in shared memory and stores them coalesced (one thread a row, byte by byte,
    // copied 20-byte strings at 11% of the copy bandwidth on the H100).
    using copy_fn = evaluate_fn<staged_strings, tuple<strings_write_view>, staged_string>;
    copy_fn const copy{staged_strings{sources.data(), lengths.data()}, tuple<staged_string>(staged_string{}),
                       tuple<strings_write_view>(strings_write_view{offsets->data(), true, static_cast<char*>(chars.data()), nullptr})};
    on_backend(mr.kind(), stream, [&](auto const& exec) { exec.evaluate_rows(kept, copy); });
    std::vector<any_column> children;
    if (chars_total <= std::numeric_limits<std::int32_t>::max()) {
      uvector<std::int32_t> narrow(kept + 1, stream, mr);
      on_backend(mr.kind(), stream,
                 [&](auto const& exec) { exec.for_each_n(kept + 1, narrow_offsets_fn{offsets->data(), narrow.data()}); });
      children.emplace_back(data_type{type_id::int32}, kept + 1, std::move(narrow).release());
    } else {
      children.emplace_back(data_type{type_id::int64}, kept + 1, std::move(*offsets).release());
    }
    return std::make_shared<strings_column const>(
        any_column(data_type{type_id::string}, kept, std::move(chars), std::move(mask), nulls, std::move(children)));
  }
};

// What the host must know to finish a kernel's output columns, read in one pass with one wait:
// each column's null count among the kept rows and each strings column's byte total (the last
// entry of its scanned offsets). A count each took a reduction and a wait, a total each a copy and
// a wait: TPC-H Q2 waited 16 times for its strings' totals. Slots are padded (to a power of two up
// to 8, then to a multiple of 8) so that frames of similar widths share the kernel.
template <std::size_t N>
struct finish_counts {
  size_type nulls[N];
  std::int64_t chars[N];
};
template <std::size_t N>
struct count_finish_fn {
  bitmask_type const* masks[N];   // null: no mask, or its count is known
  std::int64_t const* totals[N];  // null: no total to read
  size_type words;                // of the kept rows' masks; the pass has at least one item
  size_type bits;
  COLX_HOST_DEVICE void operator()(finish_counts<N>& s, size_type w) const {
    if (w < words) {
      bitmask_type const rows = low_bits(bits - w * bits_per_word);
      for (std::size_t m = 0; m < N; ++m) {
        if (masks[m] != nullptr) { s.nulls[m] += popcount(~masks[m][w] & rows); }
      }
    }
    if (w == 0) {
      for (std::size_t m = 0; m < N; ++m) {
        if (totals[m] != nullptr) { s.chars[m] += *totals[m]; }
      }
    }
  }
};
template <std::size_t N>
struct merge_finish_counts_fn {
  COLX_HOST_DEVICE finish_counts<N> operator()(finish_counts<N> a, finish_counts<N> const& b) const {
    for (std::size_t m = 0; m < N; ++m) {
      a.nulls[m] += b.nulls[m];
      a.chars[m] += b.chars[m];
    }
    return a;
  }
};

// Trims a kernel's output columns to the `kept` rows written and returns them as a tuple of
// columns. `known_nulls`, where given, holds every column's null count (a gather of a permutation
// keeps its source's): then only strings' totals are read, and a frame without variable-width
// strings finishes without a wait.
template <class... Outputs>
auto finish_outputs(std::tuple<Outputs...>& outputs, size_type kept, memory_kind kind, stream_ref stream,
                    std::array<size_type, sizeof...(Outputs)> const* known_nulls = nullptr) {
  constexpr std::size_t n = sizeof...(Outputs);
  std::array<std::int64_t const*, n> totals{};
  std::array<bitmask_type const*, n> masks{};
  [&]<std::size_t... C>(std::index_sequence<C...>) {
    ((totals[C] = std::get<C>(outputs).scan_chars(kept, stream), masks[C] = std::get<C>(outputs).mask_bits()), ...);
  }(std::make_index_sequence<n>{});
  std::array<size_type, n> nulls{};
  std::array<std::int64_t, n> chars{};
  if (known_nulls != nullptr) {
    nulls = *known_nulls;
    masks = {};
  }
  if constexpr (n > 64) {
    // Wide frames: the masks in passes of 64 (a thread holds a count per mask), each total apart.
    if (known_nulls == nullptr) { nulls = count_unset_bits(masks, kept, kind, stream); }
    for (std::size_t c = 0; c < n; ++c) {
      if (totals[c] != nullptr) { copy_bytes(&chars[c], memory_kind::host, totals[c], kind, sizeof(std::int64_t), stream); }
    }
  } else if (n > 0) {
    bool const any_total = std::any_of(totals.begin(), totals.end(), [](auto const* t) { return t != nullptr; });
    bool const any_mask = kept > 0 && std::any_of(masks.begin(), masks.end(), [](auto const* m) { return m != nullptr; });
    if (any_total || any_mask) {
      constexpr std::size_t slots = n <= 8 ? std::bit_ceil(n) : (n + 7) / 8 * 8;
      count_finish_fn<slots> fn{{}, {}, any_mask ? bitmask_words(kept) : 0, kept};
      std::copy(masks.begin(), masks.end(), fn.masks);
      std::copy(totals.begin(), totals.end(), fn.totals);
      auto const counts = on_backend(kind, stream, [&](auto const& exec) {
        return exec.reduce_rows(std::max<size_type>(fn.words, 1), finish_counts<slots>{}, fn, merge_finish_counts_fn<slots>{});
      });
      for (std::size_t c = 0; c < n; ++c) {
        if (masks[c] != nullptr) { nulls[c] = counts.nulls[c]; }
        chars[c] = counts.chars[c];
      }
    }
  }
  return [&]<std::size_t... C>(std::index_sequence<C...>) {
    return std::tuple(std::get<C>(outputs).finish(kept, nulls[C], chars[C], stream)...);
  }(std::make_index_sequence<n>{});
}

// The data_type of a frame column (a decimal keeps its scale).
template <class C>
[[nodiscard]] data_type type_of(C const& c) {
  return c.untyped().type();
}

}  // namespace colx::detail
