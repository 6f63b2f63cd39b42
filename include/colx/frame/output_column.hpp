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
#include <colx/memory/uvector.hpp>

#include <array>
#include <limits>
#include <memory>
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
  // kept rows finish() is given (output_null_counts counts every column's in one pass).
  bitmask_type const* mask_bits() const { return column_.nullable() ? column_.null_mask() : nullptr; }
  any_column finish_untyped(size_type kept, size_type nulls) {
    data_type const type = column_.type();
    auto contents = std::move(column_).release().release();
    contents.data = contents.data.slice(0, static_cast<std::size_t>(kept) * sizeof(T));
    return any_column(type, kept, std::move(contents.data), std::move(contents.mask), nulls);
  }
  std::shared_ptr<colx::column<T> const> finish(size_type kept, size_type nulls, stream_ref) {
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
  std::shared_ptr<dictionary_column<V, Code> const> finish(size_type kept, size_type nulls, stream_ref) {
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
// offsets, and one more kernel copies the kept strings' bytes. When every string written has the
// same size (uniform_bytes: they all come from one fixed-width column), the offsets are known
// without the scan, and its wait for the total: the result is fixed-width too.
template <>
struct output_column<string_view> {
  uvector<std::int64_t> lengths;  // rows + 1: the scan writes the total after the last row
  uvector<char const*> sources;
  buffer mask;
  size_type uniform_bytes = -1;
  resource_ref mr;
  strings_staging_view view(stream_ref) { return {lengths.data(), sources.data(), static_cast<bitmask_type*>(mask.data())}; }

  output_column(size_type rows, bool nullable, data_type, any_column const* like, stream_ref stream, resource_ref mr_)
      : lengths(rows + 1, stream, mr_), sources(rows, stream, mr_),
        mask(nullable ? create_bitmask(rows, false, stream, mr_) : buffer(0, stream, mr_)),
        uniform_bytes(like != nullptr && like->type().id() == type_id::string ? like->uniform_bytes() : -1), mr(mr_) {}

  bitmask_type const* mask_bits() const { return mask.empty() ? nullptr : static_cast<bitmask_type const*>(mask.data()); }
  std::shared_ptr<strings_column const> finish(size_type kept, size_type nulls, stream_ref stream) {
    if (!mask.empty()) { mask.resize(bitmask_allocation_bytes(kept), stream); }
    if (uniform_bytes >= 0) {
      buffer chars(static_cast<std::size_t>(kept) * static_cast<std::size_t>(uniform_bytes), stream, mr);
      on_backend(mr.kind(), stream, [&](auto const& exec) {
        exec.for_each_n(kept, copy_fixed_chars_fn{sources.data(), lengths.data(), static_cast<char*>(chars.data()), uniform_bytes});
      });
      return std::make_shared<strings_column const>(
          make_fixed_width_strings(kept, uniform_bytes, std::move(chars), std::move(mask), nulls, stream, mr));
    }
    uvector<std::int64_t> offsets(kept + 1, stream, mr);
    std::int64_t const chars_total = on_backend(mr.kind(), stream, [&](auto const& exec) {
      return exec.exclusive_scan(kept, std::int64_t{0}, string_length_fn{lengths.data()}, offsets.data());
    });
    buffer chars(static_cast<std::size_t>(chars_total), stream, mr);
    // The bytes are written as with_columns writes computed strings: on the GPU a warp stages its
    // 32 rows' strings in shared memory and stores them coalesced (one thread a row, byte by byte,
    // copied 20-byte strings at 11% of the copy bandwidth on the H100).
    using copy_fn = evaluate_fn<staged_strings, tuple<strings_write_view>, staged_string>;
    copy_fn const copy{staged_strings{sources.data(), lengths.data()}, tuple<staged_string>(staged_string{}),
                       tuple<strings_write_view>(strings_write_view{offsets.data(), true, static_cast<char*>(chars.data()), nullptr})};
    on_backend(mr.kind(), stream, [&](auto const& exec) { exec.evaluate_rows(kept, copy); });
    std::vector<any_column> children;
    if (chars_total <= std::numeric_limits<std::int32_t>::max()) {
      uvector<std::int32_t> narrow(kept + 1, stream, mr);
      on_backend(mr.kind(), stream,
                 [&](auto const& exec) { exec.for_each_n(kept + 1, narrow_offsets_fn{offsets.data(), narrow.data()}); });
      children.emplace_back(data_type{type_id::int32}, kept + 1, std::move(narrow).release());
    } else {
      children.emplace_back(data_type{type_id::int64}, kept + 1, std::move(offsets).release());
    }
    return std::make_shared<strings_column const>(
        any_column(data_type{type_id::string}, kept, std::move(chars), std::move(mask), nulls, std::move(children)));
  }
};

// The null counts of a kernel's output columns at `kept` rows, counted in one pass over all their
// masks (one wait, where a count each took a reduction and a wait), for their finish().
template <class... Outputs>
std::array<size_type, sizeof...(Outputs)> output_null_counts(std::tuple<Outputs...> const& outputs, size_type kept,
                                                            memory_kind kind, stream_ref stream) {
  return std::apply(
      [&](auto const&... out) {
        return count_unset_bits(std::array<bitmask_type const*, sizeof...(Outputs)>{out.mask_bits()...}, kept, kind, stream);
      },
      outputs);
}

// The data_type of a frame column (a decimal keeps its scale).
template <class C>
[[nodiscard]] data_type type_of(C const& c) {
  return c.untyped().type();
}

}  // namespace colx::detail
