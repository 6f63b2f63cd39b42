// SPDX-License-Identifier: Apache-2.0
#pragma once
// The GPU's hash-aggregation pass (see exec/aggregate_rows.hpp for the row loop): each block may
// first merge its threads' private cells into a shared-memory table keyed by group id (the packed
// keys, or the global slot), and merge that table into the global one once at the end. With few
// groups the global table then sees one merge per group per block instead of contention from
// every thread, and with packed keys a row touches no global memory but its own columns.
#include <colx/exec/aggregate_rows.hpp>
#include <colx/exec/atomics.hpp>
#include <colx/exec/row_keys.hpp>

namespace colx::gpu::detail {

template <class Fn>
struct flush_to_block {
  Fn const* fn;
  std::uint64_t* ids;         // the group id of each shared slot, or no_group_id
  size_type* rows;            // a row of each shared slot's group (a packed key's rep row)
  typename Fn::cells* cells;  // the shared slots' cells
  unsigned mask;              // shared slots - 1; 0 without a shared table
  COLX_DEVICE void operator()(std::uint64_t id, size_type row, typename Fn::cells const& c) const {
    typename Fn::cells* const dst = target(id, row);
    if (dst != nullptr) { fn->merge(dst, c); }  // one merge site: the cells' merge code is most of the kernel
  }
  // The block's cells of a group; the global table's when there is no block table (many
  // groups), it is full, or the id is the one a block table cannot hold; null when the global
  // table is full (the pass is then rerun).
  COLX_DEVICE typename Fn::cells* target(std::uint64_t id, size_type row) const {
    if (mask != 0 && id != colx::detail::no_group_id) {
      unsigned s = static_cast<unsigned>(colx::detail::mix64(id)) & mask;
      for (unsigned probe = 0; probe <= mask && probe < 16; ++probe, s = (s + 1) & mask) {
        std::uint64_t held = ids[s];
        if (held == colx::detail::no_group_id) {
          held = colx::detail::atomic_cas(ids + s, colx::detail::no_group_id, id);
          if (held == colx::detail::no_group_id) {
            rows[s] = row;  // read after the block's barrier
            return cells + s;
          }
        }
        if (held == id) { return cells + s; }
      }
    }
    size_type const slot = fn->slot_of(id, row);
    return slot < 0 ? nullptr : fn->cells_at(slot);
  }
};

// A thread's private cells in shared memory: cell k of thread t at cells[k * Block + t], so a
// warp's accesses to one field fall in distinct banks.
template <class Cells, int Block>
struct shared_cells {
  Cells* cells;  // the block's, CacheSize * Block of them
  COLX_DEVICE Cells& at(int k) const { return cells[k * Block + static_cast<int>(threadIdx.x)]; }
  template <class F>
  COLX_DEVICE void with(int k, F const& f) const {
    f(at(k));
  }
};

// Whether private cells go to shared memory (see exec/aggregate_rows.hpp): when CacheSize of them
// would take more than 32 registers.
template <class Fn, int CacheSize>
inline constexpr bool cells_in_shared_v = CacheSize > 1 && CacheSize * sizeof(typename Fn::cells) > 128;

// Shared memory per block: the block table (ids, rows, then cells, for `shared_slots` slots), then
// the threads' private cells when they live there.
template <class Fn>
constexpr std::size_t shared_table_bytes(int shared_slots) {
  return static_cast<std::size_t>(shared_slots) * (sizeof(std::uint64_t) + sizeof(size_type) + sizeof(typename Fn::cells));
}
template <int Block, int CacheSize, class Fn>
constexpr std::size_t aggregate_shared_bytes(int shared_slots) {
  std::size_t bytes = shared_table_bytes<Fn>(shared_slots);
  if constexpr (cells_in_shared_v<Fn, CacheSize>) { bytes += std::size_t{Block} * CacheSize * sizeof(typename Fn::cells); }
  return bytes;
}

template <int Block, int CacheSize, class Fn>
__global__ void __launch_bounds__(Block) aggregate_rows_kernel(size_type n, Fn fn, int shared_slots) {
  using cells = typename Fn::cells;
  extern __shared__ std::uint64_t shared[];
  std::uint64_t* const ids = shared;
  size_type* const rows = reinterpret_cast<size_type*>(ids + shared_slots);
  cells* const block_cells = reinterpret_cast<cells*>(rows + shared_slots);
  for (int s = threadIdx.x; s < shared_slots; s += Block) {
    ids[s] = colx::detail::no_group_id;
    block_cells[s] = Fn::identity();
  }
  __syncthreads();
  size_type const step = static_cast<size_type>(gridDim.x) * Block;
  size_type const first = static_cast<size_type>(blockIdx.x) * Block + threadIdx.x;
  // One row loop for both paths (the test is uniform across the grid): half the code to compile.
  unsigned const mask = shared_slots > 0 ? static_cast<unsigned>(shared_slots - 1) : 0;
  flush_to_block<Fn> const flush{&fn, ids, rows, block_cells, mask};
  constexpr int unroll = colx::detail::aggregate_unroll_v<Fn>;
  if constexpr (cells_in_shared_v<Fn, CacheSize>) {
    shared_cells<cells, Block> cache{block_cells + shared_slots};
    colx::detail::aggregate_cached<CacheSize, unroll>(fn, first, n, step, cache, flush);
  } else {
    colx::detail::register_cells<cells, CacheSize> cache;
    colx::detail::aggregate_cached<CacheSize, unroll>(fn, first, n, step, cache, flush);
  }
  __syncthreads();
  for (int s = threadIdx.x; s < shared_slots; s += Block) {
    if (ids[s] == colx::detail::no_group_id) { continue; }
    size_type const slot = fn.slot_of(ids[s], rows[s]);
    if (slot >= 0) { fn.merge(fn.cells_at(slot), block_cells[s]); }
  }
}

}  // namespace colx::gpu::detail
