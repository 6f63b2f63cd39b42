// SPDX-License-Identifier: Apache-2.0
#pragma once
// Where each row goes, and the rows regrouped so that each destination's rows are contiguous.
//
// A hash destination takes the high bits of a second mix of the keys' hash. The group-by and join
// tables index their slots by the low bits of the first hash, so on a rank, whose keys all share
// a destination, the slots still spread over the whole table (with the same bits for both, every
// key of rank r would land in the slots congruent to r). A range destination counts the splitters
// below a key: equal keys always share a rank, and rank r's keys all sort before rank r + 1's.
//
// Regrouping is stable: a destination's rows keep their order. Each row's place comes from two
// passes over the 4-byte destinations (exec/partition.hpp); fixed-width columns without nulls
// are then scattered to their places (read once in order), others gathered by the inverse.
#include <colx/dist/communicator.hpp>
#include <colx/dist/exchange.hpp>
#include <colx/exec/dispatch.hpp>
#include <colx/exec/partition.hpp>
#include <colx/exec/row_keys.hpp>
#include <colx/frame/gather.hpp>
#include <colx/memory/uvector.hpp>

#include <cstdint>
#include <utility>
#include <vector>

namespace colx::dist {
namespace detail {

inline constexpr std::uint64_t hash_seed = 0x2545f4914f6cdd1dull;  // the tables' seed (group_by, join)

[[nodiscard]] constexpr COLX_HOST_DEVICE std::uint32_t destination_of(std::uint64_t hash, std::uint32_t parts) noexcept {
  std::uint64_t const again = colx::detail::mix64(hash ^ 0x6a09e667f3bcc908ull);
  return static_cast<std::uint32_t>(((again >> 32) * parts) >> 32);
}

// Bound key expressions (column positions, no names) over a frame's inputs.
template <class Inputs, class... Keys>
struct hash_destination_fn {
  Inputs in;
  tuple<Keys...> keys;
  std::uint32_t parts;
  std::uint32_t* out;
  COLX_HOST_DEVICE void operator()(size_type i) const {
    std::uint64_t h = hash_seed;
    [&]<std::size_t... K>(std::index_sequence<K...>) {
      ((h = colx::detail::hash_combine(h, colx::detail::hash_key(get<K>(keys)(in, i)))), ...);
    }(std::index_sequence_for<Keys...>{});
    out[i] = destination_of(h, parts);
  }
};

// out[positions[i]] = in[i], for values of one width (the bytes moved as they are).
template <class W, class I>
struct scatter_values_fn {
  W const* in;
  W* out;
  I const* positions;
  COLX_HOST_DEVICE void operator()(size_type i) const { out[positions[i]] = in[i]; }
};
template <class I>
struct invert_fn {
  I const* positions;
  I* rows;
  COLX_HOST_DEVICE void operator()(size_type i) const { rows[positions[i]] = static_cast<I>(i); }
};
struct alignas(16) sixteen_bytes {
  std::uint64_t lo, hi;
};

// A fixed-width column without nulls, moved to its places by one scatter of its values.
template <class I>
any_column scatter_column(any_column_view const& v, I const* positions, stream_ref stream, resource_ref mr) {
  std::size_t const width = size_of(v.type());
  any_column out(v.type(), v.size(), buffer(static_cast<std::size_t>(v.size()) * width, stream, mr));
  auto const run = [&]<class W>(std::type_identity<W>) {
    auto const* in = static_cast<W const*>(v.head()) + v.offset();
    on_backend(v.kind(), stream, [&](auto const& exec) {
      exec.for_each_n(v.size(), scatter_values_fn<W, I>{in, static_cast<W*>(out.mutable_data(stream)), positions});
    });
  };
  switch (width) {
    case 1: run(std::type_identity<std::uint8_t>{}); break;
    case 2: run(std::type_identity<std::uint16_t>{}); break;
    case 4: run(std::type_identity<std::uint32_t>{}); break;
    case 8: run(std::type_identity<std::uint64_t>{}); break;
    case 16: run(std::type_identity<sixteen_bytes>{}); break;
    default: COLX_FAIL("partition: no scatter for ", width, "-byte values");
  }
  return out;
}

inline bool scatterable(any_column_view const& v) {
  return v.type().id() != type_id::string && v.type().id() != type_id::dictionary && v.null_count() == 0;
}

template <class I, class Schema>
frame<Schema> gather_by_destination(frame<Schema> const& f, std::uint32_t const* destination, int parts,
                                    std::vector<size_type>& bounds, stream_ref stream) {
  size_type const n = f.num_rows();
  resource_ref const mr = get_current_resource(f.kind());
  uvector<I> positions(n, stream, mr);
  bounds = on_backend(f.kind(), stream, [&](auto const& exec) {
    return partition_positions(exec, n, destination, parts, positions.data());
  });
  for (int p = 0; p < parts; ++p) {  // one destination takes every row: they stay as they are
    if (bounds[static_cast<std::size_t>(p) + 1] - bounds[static_cast<std::size_t>(p)] == n) { return f; }
  }
  std::vector<any_column_view> views;
  [&]<std::size_t... C>(std::index_sequence<C...>) {
    (views.push_back(static_cast<any_column_view>(f.template column_at<C>())), ...);
  }(std::make_index_sequence<Schema::size>{});
  bool all_scatterable = true;
  for (auto const& v : views) { all_scatterable = all_scatterable && scatterable(v); }
  if (all_scatterable) {  // every column by a scatter: read once in order, written once
    std::vector<any_column> columns;
    for (auto const& v : views) { columns.push_back(scatter_column(v, positions.data(), stream, mr)); }
    return typed_frame<Schema>(columns, std::make_index_sequence<Schema::size>{});
  }
  // Strings or nulls: the rows each place takes, then one gather of every column.
  uvector<I> rows(n, stream, mr);
  on_backend(f.kind(), stream, [&](auto const& exec) { exec.for_each_n(n, invert_fn<I>{positions.data(), rows.data()}); });
  return take(f, column<I>(std::move(rows)), stream);
}

}  // namespace detail

// The rows of `f` regrouped by destination (destination[i] in [0, parts)) and where each
// destination's rows begin: bounds[p] .. bounds[p + 1].
template <class Schema>
[[nodiscard]] std::pair<frame<Schema>, std::vector<size_type>> group_by_destination(frame<Schema> const& f,
                                                                                   std::uint32_t const* destination,
                                                                                   int parts, stream_ref stream = {}) {
  std::vector<size_type> bounds;
  if (parts == 1 || f.num_rows() == 0) {  // nothing to regroup: every row (if any) to the one part
    bounds.assign(static_cast<std::size_t>(parts) + 1, f.num_rows());
    bounds.front() = 0;
    return {f, bounds};
  }
  if (f.num_rows() < (size_type{1} << 31)) {
    auto grouped = detail::gather_by_destination<std::int32_t>(f, destination, parts, bounds, stream);
    return {std::move(grouped), bounds};
  }
  auto grouped = detail::gather_by_destination<std::int64_t>(f, destination, parts, bounds, stream);
  return {std::move(grouped), bounds};
}

// Each row's destination by the hash of its key columns ("k"_c, ...): equal keys, one rank.
template <class Schema, class... Keys>
[[nodiscard]] uvector<std::uint32_t> hash_destinations(frame<Schema> const& f, int parts, stream_ref stream, Keys const&... keys) {
  static_assert(sizeof...(Keys) > 0, "colx::dist: a hash shuffle needs at least one key");
  static_assert((expr::column_ref<Keys> && ...),
                "colx::dist: shuffle keys are columns (\"k\"_c); add computed keys with with_columns first");
  uvector<std::uint32_t> out(f.num_rows(), stream, get_current_resource(f.kind()));
  if (f.num_rows() == 0) { return out; }
  using inputs_t = typename frame<Schema>::inputs_type;
  using fn_t = detail::hash_destination_fn<inputs_t, decltype(expr::bind<Schema>(keys))...>;
  fn_t const fn{f.inputs(), tuple<decltype(expr::bind<Schema>(keys))...>(expr::bind<Schema>(keys)...),
                static_cast<std::uint32_t>(parts), out.data()};
  on_backend(f.kind(), stream, [&](auto const& exec) { exec.for_each_n(f.num_rows(), fn); });
  return out;
}

}  // namespace colx::dist
