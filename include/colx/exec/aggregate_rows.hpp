// SPDX-License-Identifier: Apache-2.0
#pragma once
// The row loop of a hash aggregation, shared by both backends. A thread keeps the cells of the
// last CacheSize groups it saw privately (registers on the GPU) and hands a group's cells to
// `flush` only to make room, and at the end: with few groups a thread flushes a handful of times
// in all, whatever the number of rows.
//
// The aggregation Fn provides: keep(i) (the row passes the filter), locate(i) (its group's slot,
// or -1), Fn::identity() (empty cells), add(cells&, i, slot), merge(cells* dst, slot, cells)
// (atomically) and cells_at(slot) (the table's cells of a slot).
#include <colx/core/config.hpp>

#include <cstddef>

namespace colx::detail {

inline constexpr size_type no_group = -1;

template <int CacheSize, class Fn, class Flush>
COLX_HOST_DEVICE void aggregate_cached(Fn const& fn, size_type first, size_type last, size_type step, Flush const& flush) {
  using cells = typename Fn::cells;
  size_type ids[CacheSize];
  cells cache[CacheSize];
  COLX_UNROLL
  for (int k = 0; k < CacheSize; ++k) {
    ids[k] = no_group;
    cache[k] = Fn::identity();
  }
  int victim = 0;
  for (size_type i = first; i < last; i += step) {
    if (!fn.keep(i)) { continue; }
    size_type const slot = fn.locate(i);
    if (slot < 0) { continue; }
    bool hit = false;
    COLX_UNROLL
    for (int k = 0; k < CacheSize; ++k) {
      if (ids[k] == slot) {
        fn.add(cache[k], i, slot);
        hit = true;
      }
    }
    if (hit) { continue; }
    COLX_UNROLL
    for (int k = 0; k < CacheSize; ++k) {
      if (k == victim) {
        if (ids[k] != no_group) { flush(ids[k], cache[k]); }
        ids[k] = slot;
        cache[k] = Fn::identity();
        fn.add(cache[k], i, slot);
      }
    }
    victim = victim + 1 == CacheSize ? 0 : victim + 1;
  }
  COLX_UNROLL
  for (int k = 0; k < CacheSize; ++k) {
    if (ids[k] != no_group) { flush(ids[k], cache[k]); }
  }
}

// Private cells go straight to the table.
template <class Fn>
struct flush_to_table {
  Fn const* fn;
  COLX_HOST_DEVICE void operator()(size_type slot, typename Fn::cells const& c) const { fn->merge(fn->cells_at(slot), slot, c); }
};

inline constexpr int group_cache_size = 4;

// The host backend's pass: each chunk of rows with its own private cells.
template <class Fn>
struct aggregate_chunk_fn {
  Fn fn;
  COLX_HOST_DEVICE void operator()(size_type first, size_type last, size_type step) const {
    aggregate_cached<group_cache_size>(fn, first, last, step, flush_to_table<Fn>{&fn});
  }
};

// A block's shared-memory table on the GPU (the few-groups path): as many slots of
// (group, cells) as fit in 48 KiB, at most 4096; used when a sample finds at most half as many
// groups, so that nearly every flush lands there and the global table sees one merge per group
// per block.
template <class Cells>
constexpr int shared_table_slots() {
  std::size_t const entry = sizeof(size_type) + sizeof(Cells);
  int slots = 4096;
  while (slots > 0 && static_cast<std::size_t>(slots) * entry > 48 * 1024) { slots /= 2; }
  return slots >= 64 ? slots : 0;
}
template <class Cells>
constexpr double few_groups_limit() {
  return shared_table_slots<Cells>() / 2.0;
}

}  // namespace colx::detail
