// SPDX-License-Identifier: Apache-2.0
#pragma once
// The row loop of a hash aggregation, shared by both backends. A thread keeps the cells of the
// last CacheSize groups it saw privately (register_cells, or on the GPU a slice of shared memory
// for wide cells) and hands a group's cells to `flush` only to make room, and at the end: with few
// groups a thread flushes a handful of times in all, whatever the number of rows. Where a cache
// would miss on nearly every row (more than a handful of groups), rows go to `flush` directly
// (aggregate_direct).
//
// Rows are read Unroll at a time: every load of Unroll rows (filter, keys, aggregated values) is
// issued before any of them is added, so that a thread keeps several rows' loads in flight; with
// few threads per multiprocessor (a wide aggregation's registers) that is what keeps the memory
// busy.
//
// The aggregation Fn provides: load(i) (row i as a Fn::loaded: whether it counts, what the caches
// know its group by (its packed keys, or its slot in the table), and its aggregated values),
// slot_of(id, row) (the table slot, inserting the group with `row` as its first row; -1 when
// full), Fn::identity() (empty cells), add(cells&, loaded, i), merge(cells* dst, cells)
// (atomically) and cells_at(slot) (the table's cells of a slot); for the private cells, their
// narrow form (group_by/partials.hpp): Fn::partial_cells, Fn::partial_identity(),
// add_partial(partial_cells&, loaded, i) (false where they cannot take the row) and
// widen(partial_cells) (the cells a flush merges).
#include <colx/core/config.hpp>

#include <cstddef>
#include <cstdint>

namespace colx::detail {

inline constexpr size_type no_group = -1;
// "No group" among group ids (a packed key word or a slot): a key may pack to this very word,
// so the caches below track use with flags, and block tables send that key to the global table.
inline constexpr std::uint64_t no_group_id = ~std::uint64_t{0};

// Where a thread keeps its private cells. In registers: an array indexed only by unrolled
// constants (a dynamic index would put it in local memory), so an access to cell k is CacheSize
// predicated copies of the work. That suits small cells; wide ones (TPC-H Q1's eight aggregations
// make 104 bytes a group) would take most of a thread's registers and starve the multiprocessor
// of threads, so the GPU keeps them in the thread's slice of shared memory instead, in narrow
// form (group_by/partials.hpp: 64 bytes for Q1's) and word by word (gpu/aggregate_rows.cuh),
// where cell k is read and written with indexed accesses.
template <class Cells, int CacheSize>
struct register_cells {
  Cells cells[CacheSize]{};  // set before use (a victim is reset first); zeroed so no compiler sees it unset
  template <class F>
  COLX_HOST_DEVICE void with(int k, F const& f) {
    COLX_UNROLL
    for (int j = 0; j < CacheSize; ++j) {
      if (j == k) { f(cells[j]); }
    }
  }
};

// Rows base, base + step, ... (Unroll of them, those below last) into batch: every load issued
// before any is used.
template <int Unroll, class Fn>
COLX_HOST_DEVICE void load_rows(Fn const& fn, size_type base, size_type last, size_type step, typename Fn::loaded* batch) {
  COLX_UNROLL
  for (int u = 0; u < Unroll; ++u) {
    size_type const i = base + u * step;
    if (i < last) { batch[u] = fn.load(i); }
  }
}

// visit(row, i) for each row i of first, first + step, ... below last that counts, Unroll rows
// loaded at a time.
template <int Unroll, class Fn, class Visit>
COLX_HOST_DEVICE void for_each_counted_row(Fn const& fn, size_type first, size_type last, size_type step, Visit const& visit) {
  for (size_type base = first; base < last; base += Unroll * step) {
    typename Fn::loaded batch[Unroll];
    load_rows<Unroll>(fn, base, last, step, batch);
    COLX_UNROLL
    for (int u = 0; u < Unroll; ++u) {
      if (batch[u].counts) { visit(batch[u], base + u * step); }
    }
  }
}

// A thread's private cells: the narrow form (group_by/partials.hpp), or the table's own cells.
// The narrow form pays where the cells live in the GPU's shared memory (more blocks fit); in
// registers its checks only add work (a group-by of four keys summing a DECIMAL(15,2) took
// 0.52 ms instead of 0.39 over 60M rows on the H200).
template <class Fn, bool Narrow>
struct private_form {
  using type = typename Fn::partial_cells;
  static COLX_HOST_DEVICE type identity() { return Fn::partial_identity(); }
  static COLX_HOST_DEVICE bool add(Fn const& fn, type& c, typename Fn::loaded const& row, size_type i) {
    return fn.add_partial(c, row, i);
  }
  static COLX_HOST_DEVICE typename Fn::cells widen(Fn const& fn, type const& c) { return fn.widen(c); }
};
template <class Fn>
struct private_form<Fn, false> {
  using type = typename Fn::cells;
  static COLX_HOST_DEVICE type identity() { return Fn::identity(); }
  static COLX_HOST_DEVICE bool add(Fn const& fn, type& c, typename Fn::loaded const& row, size_type i) {
    fn.add(c, row, i);
    return true;
  }
  static COLX_HOST_DEVICE type const& widen(Fn const&, type const& c) { return c; }
};

template <int CacheSize, int Unroll, bool Narrow, class Fn, class Cache, class Flush>
COLX_HOST_DEVICE void aggregate_cached(Fn const& fn, size_type first, size_type last, size_type step, Cache& cache,
                                       Flush const& flush) {
  using form = private_form<Fn, Narrow>;
  using partial = typename form::type;
  std::uint64_t ids[CacheSize];
  size_type rows[CacheSize];  // the first row the cache saw of each group: a packed key's rep row
  bool used[CacheSize];
  COLX_UNROLL
  for (int k = 0; k < CacheSize; ++k) {
    ids[k] = no_group_id;
    rows[k] = no_group;
    used[k] = false;
  }
  int victim = 0;
  for_each_counted_row<Unroll>(fn, first, last, step, [&](typename Fn::loaded const& row, size_type i) {
    int hit = -1;
    COLX_UNROLL
    for (int k = 0; k < CacheSize; ++k) {
      if (used[k] && ids[k] == row.id) { hit = k; }
    }
    if (hit >= 0) {
      bool added = false;
      cache.with(hit, [&](partial& c) { added = form::add(fn, c, row, i); });
      if (added) { return; }
    }
    // A new group takes the victim's place, the victim's cells going to the table first; or the
    // group's own cells, full (a narrow sum would overflow), go there and start afresh.
    int const place = hit >= 0 ? hit : victim;
    std::uint64_t old_id = no_group_id;
    size_type old_row = no_group;
    bool old_used = false;
    COLX_UNROLL
    for (int k = 0; k < CacheSize; ++k) {
      if (k == place) {
        old_id = ids[k];
        old_row = rows[k];
        old_used = used[k];
        ids[k] = row.id;
        rows[k] = i;
        used[k] = true;
      }
    }
    cache.with(place, [&](partial& c) {
      if (old_used) { flush(old_id, old_row, form::widen(fn, c)); }
      c = form::identity();
      form::add(fn, c, row, i);  // a lone value always fits
    });
    if (hit < 0) { victim = victim + 1 == CacheSize ? 0 : victim + 1; }
  });
  COLX_UNROLL
  for (int k = 0; k < CacheSize; ++k) {
    if (used[k]) {
      cache.with(k, [&](partial& c) { flush(ids[k], rows[k], form::widen(fn, c)); });
    }
  }
}

// No private cells: each row's cells go to `flush` at once. The GPU's rows come grid-stride, so
// a thread's consecutive rows are far apart and a cache of one group nearly always misses; then
// it only adds bookkeeping (the compare, the victim's state, a flush of the previous row's cells)
// to the flush every row pays anyway. With this and a cheaper block-table hash
// (gpu/aggregate_rows.cuh), 1,000 groups over 100M rows took 0.72 ms instead of 1.27 on the H100.
// (Folding a warp's runs of one group first, as the partitioned pass does (gpu/warp_runs.cuh),
// made no TPC-H query faster here, and Q15, whose filter keeps 4% of the rows, went from 1.49 to
// 2.22 ms at SF 10 on the H200.)
template <int Unroll, class Fn, class Flush>
COLX_HOST_DEVICE void aggregate_direct(Fn const& fn, size_type first, size_type last, size_type step, Flush const& flush) {
  for_each_counted_row<Unroll>(fn, first, last, step, [&](typename Fn::loaded const& row, size_type i) {
    typename Fn::cells c = Fn::identity();
    fn.add(c, row, i);
    flush(row.id, i, c);
  });
}

// Private cells go straight to the table.
template <class Fn>
struct flush_to_table {
  Fn const* fn;
  COLX_HOST_DEVICE void operator()(std::uint64_t id, size_type row, typename Fn::cells const& c) const {
    size_type const slot = fn->slot_of(id, row);
    if (slot >= 0) { fn->merge(fn->cells_at(slot), c); }
  }
};

inline constexpr int group_cache_size = 4;

// How a pass runs, chosen from a sample of the rows (group_by/plan.hpp): per-thread caches of a
// few groups first (private_caches), each block's shared-memory table of shared_slots slots (0:
// none), and on the GPU, partitions by slot even when the table fits L2 (tests only).
struct aggregate_pass_options {
  int shared_slots = 0;
  bool private_caches = false;
  bool always_partition = false;
};

// Rows a GPU thread loads ahead: 4 of up to 32 bytes, 2 of up to 96 (a TPC-H Q1 row), else 1. (A
// constant: device code reads it without calling a host constexpr function.)
template <class Fn>
inline constexpr int aggregate_unroll_v = sizeof(typename Fn::loaded) <= 32 ? 4 : sizeof(typename Fn::loaded) <= 96 ? 2 : 1;

// The host backend's pass: each chunk of rows with its own private cells.
template <class Fn>
struct aggregate_chunk_fn {
  Fn fn;
  COLX_HOST_DEVICE void operator()(size_type first, size_type last, size_type step) const {
    register_cells<typename Fn::partial_cells, group_cache_size> cache;
    aggregate_cached<group_cache_size, 1, true>(fn, first, last, step, cache, flush_to_table<Fn>{&fn});
  }
};

// A block's shared-memory table on the GPU (the few-groups path): as many slots of
// (group, cells) as fit in 48 KiB, at most 4096; used when a sample finds at most half as many
// groups, so that nearly every flush lands there and the global table sees one merge per group
// per block.
template <class Cells>
constexpr int shared_table_slots() {
  std::size_t const entry = sizeof(std::uint64_t) + sizeof(size_type) + sizeof(Cells);  // id, row, cells
  int slots = 4096;
  while (slots > 0 && static_cast<std::size_t>(slots) * entry > 48 * 1024) { slots /= 2; }
  return slots >= 64 ? slots : 0;
}
// The block table beside per-thread caches (at most 64 slots): a handful of groups needs few,
// which leaves shared memory to the threads' private cells where those live there.
template <class Cells>
constexpr int private_cache_table_slots() {
  return shared_table_slots<Cells>() < 64 ? shared_table_slots<Cells>() : 64;
}
template <class Cells>
constexpr double few_groups_limit() {
  return shared_table_slots<Cells>() / 2.0;
}

}  // namespace colx::detail
