// SPDX-License-Identifier: Apache-2.0
#pragma once
// The GPU's hash-aggregation pass (see exec/aggregate_rows.hpp for the row loop): each block may
// first merge its threads' private cells into a shared-memory table keyed by the global slot, and
// merge that table into the global one once at the end. With few groups the global table then
// sees one merge per group per block instead of contention from every thread.
#include <colx/exec/aggregate_rows.hpp>
#include <colx/exec/atomics.hpp>
#include <colx/exec/row_keys.hpp>

namespace colx::gpu::detail {

template <class Fn>
struct flush_to_block {
  Fn const* fn;
  size_type* ids;                  // the global slot of each shared slot, or no_group
  typename Fn::cells* cells;       // the shared slots' cells
  unsigned mask;                   // shared slots - 1; 0 without a shared table
  COLX_DEVICE void operator()(size_type slot, typename Fn::cells const& c) const {
    fn->merge(target(slot), slot, c);  // one merge site: the cells' merge code is most of the kernel
  }
  // The block's cells of a slot; the global table's when there is no block table (many groups)
  // or it is full.
  COLX_DEVICE typename Fn::cells* target(size_type slot) const {
    if (mask == 0) { return fn->cells_at(slot); }
    unsigned s = static_cast<unsigned>(colx::detail::mix64(static_cast<std::uint64_t>(slot))) & mask;
    for (unsigned probe = 0; probe <= mask && probe < 16; ++probe, s = (s + 1) & mask) {
      size_type held = ids[s];
      if (held == colx::detail::no_group) { held = colx::detail::atomic_cas(ids + s, colx::detail::no_group, slot); }
      if (held == colx::detail::no_group || held == slot) { return cells + s; }
    }
    return fn->cells_at(slot);
  }
};

template <int Block, int CacheSize, class Fn>
__global__ void __launch_bounds__(Block) aggregate_rows_kernel(size_type n, Fn fn, int shared_slots) {
  using cells = typename Fn::cells;
  extern __shared__ size_type shared[];
  size_type* const ids = shared;
  cells* const block_cells = reinterpret_cast<cells*>(shared + shared_slots);
  for (int s = threadIdx.x; s < shared_slots; s += Block) {
    ids[s] = colx::detail::no_group;
    block_cells[s] = Fn::identity();
  }
  __syncthreads();
  size_type const step = static_cast<size_type>(gridDim.x) * Block;
  size_type const first = static_cast<size_type>(blockIdx.x) * Block + threadIdx.x;
  // One row loop for both paths (the test is uniform across the grid): half the code to compile.
  unsigned const mask = shared_slots > 0 ? static_cast<unsigned>(shared_slots - 1) : 0;
  colx::detail::aggregate_cached<CacheSize>(fn, first, n, step, flush_to_block<Fn>{&fn, ids, block_cells, mask});
  __syncthreads();
  for (int s = threadIdx.x; s < shared_slots; s += Block) {
    size_type const slot = ids[s];
    if (slot != colx::detail::no_group) { fn.merge(fn.cells_at(slot), slot, block_cells[s]); }
  }
}

}  // namespace colx::gpu::detail
