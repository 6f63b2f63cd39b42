// SPDX-License-Identifier: Apache-2.0
#pragma once
// Building dictionary columns and taking them apart:
//   encode<Code>(values)           a column of V → dictionary_column<V, Code>, its dictionary the
//                                   distinct values in ascending order (so codes order as values)
//   decode(dict)                   → the column of values, one gather
//   make_dictionary_column(codes, dictionary)
//                                   from parts, checked: codes index the dictionary, whose values
//                                   are distinct and not null
//   unify_dictionaries(columns)    columns over different dictionaries, recoded over one (their
//                                   union), so that they concatenate and compare as codes
// A dictionary's values are distinct, always: equal values then have equal codes, which is what
// lets a group-by key or a kept row work on the codes alone.
#include <colx/column/dictionary_checks.hpp>
#include <colx/expr/functions.hpp>
#include <colx/frame/distinct.hpp>
#include <colx/frame/gather.hpp>
#include <colx/frame/join/run.hpp>
#include <colx/frame/rank.hpp>
#include <colx/frame/sort.hpp>

#include <cstdint>
#include <limits>
#include <optional>
#include <span>
#include <utility>
#include <vector>

namespace colx {
namespace detail {

template <class V>
using values_frame = frame<schema<field<"value", V>>>;

template <class V>
values_frame<V> frame_of_values(any_column values) {
  return values_frame<V>(column_storage_t<V>(std::move(values)));
}

// Sorted position k holds row order[k], in run run[k] (from 1) of equal values; a non-null row's
// code is its run's number less one.
template <class Code>
struct write_codes_fn {
  std::int32_t const* order;
  std::int64_t const* run;
  size_type valid_rows;  // null rows sort last
  Code* codes;
  COLX_HOST_DEVICE void operator()(size_type k) const {
    codes[order[k]] = k < valid_rows ? static_cast<Code>(run[k] - 1) : Code{0};
  }
};
// Dictionary entry e is the value of the row that starts run e + 1.
struct run_first_row_fn {
  std::int32_t const* order;
  std::int64_t const* run_start;
  COLX_HOST_DEVICE size_type operator()(size_type e) const { return order[run_start[e + 1]]; }
};
// Decoding gathers dictionary entry codes[i] for row i, none for a null row.
template <class Code>
struct code_index_fn {
  column_device_view<Code> codes;
  COLX_HOST_DEVICE size_type operator()(size_type i) const {
    return codes.is_valid(i) ? static_cast<size_type>(codes.value(i)) : size_type{-1};
  }
};
// Row i's code in the union: mapping holds the union's code of every entry of the columns'
// dictionaries, end to end; this column's entries start at `first`.
template <class Code>
struct remap_codes_fn {
  column_device_view<Code> codes;
  Code const* mapping;
  size_type first;
  Code* out;
  COLX_HOST_DEVICE void operator()(size_type i) const {
    out[i] = codes.is_valid(i) ? mapping[first + static_cast<size_type>(codes.value(i))] : Code{0};
  }
};
// Row i's code: the position of its value in the sorted dictionary (the build side probed), 0
// for a null row.
template <class Code, class Probe>
struct code_of_row_fn {
  Probe probe;
  Code* codes;
  COLX_HOST_DEVICE void operator()(size_type i) const {
    size_type const entry = only_match(probe, i);
    codes[i] = entry < 0 ? Code{0} : static_cast<Code>(entry);
  }
};

template <class V, class Code, class C>
dictionary_column<V, Code> dictionary_column_of(C const& c, uvector<Code>&& codes, any_column entries, stream_ref stream,
                                                resource_ref mr) {
  buffer mask(0, stream, mr);
  if (c.null_count() > 0) {  // the input's validity, at row 0 of a new mask
    any_column_view const v = c;
    mask = copy_bitmask(v.null_mask(), v.offset(), v.offset() + v.size(), c.kind(), stream, mr);
  }
  std::vector<any_column> children;
  children.push_back(std::move(entries));
  return dictionary_column<V, Code>(any_column(data_type_of<dictionary<V, Code>>(), c.size(), std::move(codes).release(),
                                               std::move(mask), c.null_count(), std::move(children)));
}

// Strings of few distinct values (what dictionaries are for: a Parquet or CSV field read as one)
// are encoded without sorting the rows: their distinct values are found by a hash group-by and
// sorted (a few), and each row's value is looked up among them by a hash join's probe: two passes
// over the rows, no sort of them (TPC-H lineitem's four flag and mode columns at SF 1 took 5 s to
// encode by sorting on the host, 0.8 s this way). Empty (nothing done) where more than a quarter
// of the values are distinct: the rows are then sorted instead.
template <class V, class Code, class C>
std::optional<dictionary_column<V, Code>> encode_by_hashing(C const& c, values_frame<V> const& f, stream_ref stream) {
  using namespace colx::literals;
  resource_ref const mr = get_current_resource(f.kind());
  auto const values = run(f | drop_nulls(), distinct(keep_rows::any), stream, mr);
  if (values.num_rows() > f.num_rows() / 4) { return std::nullopt; }
  COLX_EXPECTS(values.num_rows() - 1 <= static_cast<size_type>(std::numeric_limits<Code>::max()), "encode: ",
               values.num_rows(), " distinct values do not fit codes of type ", to_string(type_to_id<Code>), "; use a wider Code");
  auto const dictionary = run(values, sort_by("value"_c), stream, mr);
  auto const built = build(dictionary, on("value"_c), join_options{}, stream);
  probe_key_codes none;  // plain values: no arrays
  auto const probe = make_probe<join_kind::left>(f, expr::row_marker{}, built, on("value"_c), "encode", none, stream);
  uvector<Code> codes(f.num_rows(), stream, mr);
  on_backend(f.kind(), stream, [&](auto const& exec) {
    exec.for_each_n(f.num_rows(), code_of_row_fn<Code, std::remove_cvref_t<decltype(probe)>>{probe, codes.data()});
  });
  return dictionary_column_of<V, Code>(c, std::move(codes), dictionary.template column_at<0>().untyped(), stream, mr);
}
}  // namespace detail

// The values of `c` as a dictionary column: codes of type Code, the dictionary the distinct
// values in ascending (byte) order. Throws logic_error when there are more distinct values than
// Code can number. Strings of few distinct values: a hash pass for the distinct values and one
// looking each row's up (detail::encode_by_hashing); else one sort of the rows, a scan and a
// gather of the dictionary.
template <class Code = std::int32_t, class C>
[[nodiscard]] auto encode(C const& c, stream_ref stream = {}) {
  using V = typename std::remove_cvref_t<decltype(input_of(c).value(0))>;
  static_assert(!dictionary_type<V>, "colx::encode takes a column of values, not a dictionary column");
  using namespace colx::literals;
  spill_lock_scope const spill_lock(stream);
  detail::values_frame<V> const f = detail::frame_of_values<V>(c.untyped());
  if constexpr (std::is_same_v<V, string_view>) {
    if (auto hashed = detail::encode_by_hashing<V, Code>(c, f, stream)) { return std::move(*hashed); }
  }
  size_type const n = f.num_rows();
  memory_kind const kind = f.kind();
  resource_ref const mr = get_current_resource(kind);
  auto const keys = detail::bind_sort_keys<typename detail::values_frame<V>::schema_type>(asc(is_null("value"_c)),
                                                                                     asc("value"_c));
  auto const order = detail::sorted_rows(f, keys, stream);
  auto const less = detail::make_row_less(f.inputs(), keys);
  using less_t = std::remove_cvref_t<decltype(less)>;
  uvector<std::int64_t> run(n, stream, mr);
  uvector<std::int64_t> run_start(n + 2, stream, mr);
  uvector<Code> codes(n, stream, mr);
  size_type const valid_rows = n - c.null_count();
  on_backend(kind, stream, [&](auto const& exec) {
    detail::run_start_fn<less_t> const starts_run{less, order.data()};
    exec.inclusive_scan(n, starts_run, run.data(), detail::running_sum<std::int64_t>{});
    exec.for_each_n(n, detail::mark_run_start_fn<less_t>{starts_run, run.data(), run_start.data()});
    exec.for_each_n(n, detail::write_codes_fn<Code>{order.data(), run.data(), valid_rows, codes.data()});
  });
  // Runs of non-null values: the run of the last valid sorted position.
  std::int64_t entries = 0;
  if (valid_rows > 0) { detail::copy_bytes(&entries, memory_kind::host, run.data() + valid_rows - 1, kind, sizeof entries, stream); }
  stream.synchronize();
  COLX_EXPECTS(entries - 1 <= static_cast<std::int64_t>(std::numeric_limits<Code>::max()), "encode: ", entries,
               " distinct values do not fit codes of type ", to_string(type_to_id<Code>), "; use a wider Code");
  auto const dictionary_rows = detail::gather_frame(f, detail::run_first_row_fn{order.data(), run_start.data()},
                                                    static_cast<size_type>(entries), false, stream, mr);
  return detail::dictionary_column_of<V, Code>(c, std::move(codes), dictionary_rows.template column_at<0>().untyped(), stream, mr);
}

// The values of a dictionary column, as a column of its value type: row i is entry codes[i].
template <class V, class Code>
[[nodiscard]] column_storage_t<V> decode(dictionary_column<V, Code> const& c, stream_ref stream = {}) {
  spill_lock_scope const spill_lock(stream);
  resource_ref const mr = get_current_resource(c.kind());
  auto const values = detail::frame_of_values<V>(c.dictionary());
  detail::code_index_fn<Code> const index{c.codes().device_view()};
  auto const out = detail::gather_frame(values, index, c.size(), c.nullable(), stream, mr);
  return column_storage_t<V>(any_column(out.template column_at<0>().untyped()));
}

// A dictionary column from its parts, checked (a code outside the dictionary would read memory
// that is not the column's): every valid code indexes `dictionary`, whose values are distinct and
// not null. Throws logic_error naming what is wrong. Synchronises the stream.
template <class Code, class Values>
[[nodiscard]] auto make_dictionary_column(column<Code> codes, Values dictionary, stream_ref stream = {}) {
  using V = typename std::remove_cvref_t<decltype(input_of(dictionary).value(0))>;
  static_assert(!dictionary_type<V>, "colx::make_dictionary_column: the dictionary is a column of values, not of codes");
  COLX_EXPECTS(codes.empty() || dictionary.empty() || is_host_accessible(codes.kind()) == is_host_accessible(dictionary.kind()),
               "make_dictionary_column: codes in ", to_string(codes.kind()), " memory, dictionary in ",
               to_string(dictionary.kind()), " memory");
  any_column c = std::move(codes).release();
  size_type const rows = c.size();
  size_type const nulls = c.null_count();
  auto contents = std::move(c).release();
  std::vector<any_column> children;
  children.push_back(std::move(dictionary).release());
  COLX_EXPECTS(children.front().null_count() == 0, "make_dictionary_column: the dictionary holds ",
               children.front().null_count(), " null values; a null row is a null code");
  any_column out(data_type_of<colx::dictionary<V, Code>>(), rows, std::move(contents.data), std::move(contents.mask), nulls,
                 std::move(children));
  check_dictionary(out, stream, "make_dictionary_column");
  return dictionary_column<V, Code>(std::move(out));
}

// `columns` recoded over one dictionary: the union of their dictionaries' values, in ascending
// order (one encode of the dictionaries end to end, not of the rows), each column's codes mapped
// into it (one gather a column). The results share that dictionary, so they concatenate, and a
// join or a comparison reads their codes alike. As pyarrow's unify_dictionaries, but the union is
// sorted. Throws logic_error when the union has more values than Code can number, or when the
// columns live in different kinds of memory.
template <class V, class Code>
[[nodiscard]] std::vector<dictionary_column<V, Code>> unify_dictionaries(std::span<dictionary_column<V, Code> const> columns,
                                                                         stream_ref stream = {}) {
  std::vector<dictionary_column<V, Code>> out;
  if (columns.empty()) { return out; }
  spill_lock_scope const spill_lock(stream);
  memory_kind const kind = columns.front().kind();
  std::vector<any_column_view> dictionaries;
  for (auto const& c : columns) {
    COLX_EXPECTS(is_host_accessible(c.kind()) == is_host_accessible(kind), "unify_dictionaries: columns in ",
                 to_string(kind), " and ", to_string(c.kind()), " memory");
    dictionaries.push_back(c.dictionary().view());
  }
  resource_ref const mr = get_current_resource(kind);
  auto const unified = encode<Code>(column_storage_t<V>(concatenate(dictionaries, stream, mr)), stream);
  Code const* const mapping = unified.codes().data();
  size_type first = 0;
  for (auto const& c : columns) {
    uvector<Code> codes(c.size(), stream, mr);
    on_backend(kind, stream, [&](auto const& exec) {
      exec.for_each_n(c.size(), detail::remap_codes_fn<Code>{c.codes().device_view(), mapping, first, codes.data()});
    });
    buffer mask(0, stream, mr);
    if (c.null_count() > 0) {
      any_column_view const v = c;
      mask = copy_bitmask(v.null_mask(), v.offset(), v.offset() + v.size(), kind, stream, mr);
    }
    std::vector<any_column> children;
    children.push_back(unified.dictionary());  // shallow: every result shares it
    out.emplace_back(any_column(data_type_of<dictionary<V, Code>>(), c.size(), std::move(codes).release(), std::move(mask),
                                c.null_count(), std::move(children)));
    first += c.dictionary_size();
  }
  return out;  // `unified`, whose codes the gathers read, is freed in stream order after them
}

}  // namespace colx
