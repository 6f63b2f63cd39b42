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
// Regrouping is stable: a destination's rows keep their order. It selects each destination's
// row numbers (one pass over 4-byte destinations per rank), then gathers every column once.
#include <colx/dist/communicator.hpp>
#include <colx/exec/dispatch.hpp>
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

struct destination_is_fn {
  std::uint32_t const* destination;
  std::uint32_t part;
  COLX_HOST_DEVICE bool operator()(size_type i) const { return destination[i] == part; }
};
template <class I>
struct row_number_fn {
  COLX_HOST_DEVICE I operator()(size_type i) const { return static_cast<I>(i); }
};
template <class I>
struct store_row_fn {
  I* out;
  COLX_HOST_DEVICE void operator()(size_type k, I row) const { out[k] = row; }
};

template <class I, class Schema>
frame<Schema> gather_by_destination(frame<Schema> const& f, std::uint32_t const* destination, int parts,
                                    std::vector<size_type>& bounds, stream_ref stream) {
  size_type const n = f.num_rows();
  uvector<I> rows(n, stream, get_current_resource(f.kind()));
  bounds.assign(static_cast<std::size_t>(parts) + 1, 0);
  on_backend(f.kind(), stream, [&](auto const& exec) {
    for (int p = 0; p < parts; ++p) {
      size_type const at = bounds[static_cast<std::size_t>(p)];
      size_type const kept = exec.select_rows(n, destination_is_fn{destination, static_cast<std::uint32_t>(p)},
                                              row_number_fn<I>{}, store_row_fn<I>{rows.data() + at});
      bounds[static_cast<std::size_t>(p) + 1] = at + kept;
    }
  });
  COLX_EXPECTS(bounds.back() == n, "partition: destinations outside [0, ", parts, ")");
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
  if (parts == 1 || f.num_rows() == 0) {
    bounds.assign(static_cast<std::size_t>(parts) + 1, f.num_rows());
    bounds.front() = 0;
    if (parts > 1) { std::fill(bounds.begin() + 1, bounds.end(), 0); }
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
