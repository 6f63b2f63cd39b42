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
#include <colx/gpu/warp_runs.cuh>

#include <cstddef>
#include <type_traits>

namespace colx::gpu::detail {

template <class Fn>
struct flush_to_block {
  Fn const* fn;
  std::uint64_t* ids;         // the group id of each shared slot, or no_group_id
  size_type* rows;            // a row of each shared slot's group (a packed key's rep row)
  typename Fn::cells* cells;  // the shared slots' cells
  unsigned mask;              // shared slots - 1; 0 without a shared table
  int shift;                  // 64 - log2(shared slots)
  COLX_DEVICE void operator()(std::uint64_t id, size_type row, typename Fn::cells const& c) const {
    typename Fn::cells* const dst = target(id, row);
    if (dst != nullptr) { fn->merge(dst, c); }  // one merge site: the cells' merge code is most of the kernel
  }
  // The block's cells of a group; the global table's when there is no block table (many
  // groups), it is full, or the id is the one a block table cannot hold; null when the global
  // table is full (the pass is then rerun).
  COLX_DEVICE typename Fn::cells* target(std::uint64_t id, size_type row) const {
    if (mask != 0 && id != colx::detail::no_group_id) {
      // Multiplicative hashing, the product's top bits: one multiplication where mix64 takes two
      // and a dozen shifts and xors, on a path every row of the few-groups pass takes.
      unsigned s = static_cast<unsigned>((id * 0x9e3779b97f4a7c15ull) >> shift);
      // A warp waits for its longest probe, so the common case (found) is tested first; a table
      // has at least 64 slots, so 16 probes never wrap onto themselves.
      for (int probe = 0; probe < 16; ++probe, s = (s + 1) & mask) {
        std::uint64_t held = ids[s];
        if (held == id) { return cells + s; }
        if (held == colx::detail::no_group_id) {
          held = colx::detail::atomic_cas(ids + s, colx::detail::no_group_id, id);
          if (held == colx::detail::no_group_id) {
            rows[s] = row;  // read after the block's barrier
            return cells + s;
          }
          if (held == id) { return cells + s; }
        }
      }
    }
    size_type const slot = fn->slot_of(id, row);
    return slot < 0 ? nullptr : fn->cells_at(slot);
  }
};

// A thread's private cells in shared memory, word by word: word j of thread t's cell k at
// words[(k * cell_words + j) * Block + t], so that a warp's accesses to one word are 32
// consecutive words, whatever the cell's size. (Cells side by side put thread t's at t times the
// cell's size: with TPC-H Q1's 64-byte private cells, a warp's 8-byte accesses fell in two banks,
// 16-way conflicts that kept shared memory 99% busy and took the kernel from 1.23 to 2.61 ms.)
// with(k, f) reads the cell into registers, lets f change it, and writes it back.
template <class Cells, int Block>
struct shared_cells {
  using word = std::conditional_t<sizeof(Cells) % 8 == 0, std::uint64_t, std::uint32_t>;
  static constexpr int cell_words = static_cast<int>((sizeof(Cells) + sizeof(word) - 1) / sizeof(word));
  word* words;  // the block's: CacheSize * cell_words * Block of them
  template <class F>
  COLX_DEVICE void with(int k, F const& f) const {
    word* const at = words + k * cell_words * Block + static_cast<int>(threadIdx.x);
    word w[cell_words];
    COLX_UNROLL
    for (int j = 0; j < cell_words; ++j) { w[j] = at[j * Block]; }
    Cells c;
    __builtin_memcpy(&c, w, sizeof(Cells));
    f(c);
    __builtin_memcpy(w, &c, sizeof(Cells));
    COLX_UNROLL
    for (int j = 0; j < cell_words; ++j) { at[j * Block] = w[j]; }
  }
};
template <class Cells>
inline constexpr std::size_t shared_cell_bytes_v = sizeof(typename shared_cells<Cells, 32>::word) * shared_cells<Cells, 32>::cell_words;

// Whether private cells go to shared memory (see exec/aggregate_rows.hpp): when CacheSize of the
// table's cells would take more than 32 registers. There they are kept narrow (group_by/partials.hpp).
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
  if constexpr (cells_in_shared_v<Fn, CacheSize>) { bytes += std::size_t{Block} * CacheSize * shared_cell_bytes_v<typename Fn::partial_cells>; }
  return bytes;
}

// Blocks per multiprocessor the kernel is compiled for: with private cells in shared memory, as
// many as the shared memory of a multiprocessor (228 KiB on the H100 and H200, 1 KiB of it
// reserved per block; a GPU with less fits fewer, and the kernel then has fewer registers than it
// could: slower, not wrong) holds with the private-cache path's block table (private_cache_table_slots), at most 4
// (64 registers a thread at 256 threads); else 1. Registers beyond what the blocks that fit can
// use are none gained: TPC-H Q1 compiled for 4 blocks where 3 fit spilled to local memory. (Its
// 48-byte cells for 4 groups once left shared memory for 4 blocks, where its 80 registers allowed
// only 3: 50% occupancy instead of 37.5%, the kernel 1.66 ms instead of 1.77 on the H100.)
template <int Block, class Fn, int CacheSize>
constexpr int aggregate_min_blocks() {
  if constexpr (cells_in_shared_v<Fn, CacheSize>) {
    std::size_t const block = aggregate_shared_bytes<Block, CacheSize, Fn>(colx::detail::private_cache_table_slots<typename Fn::cells>()) + 1024;
    std::size_t const fit = std::size_t{228 * 1024} / block;
    return fit < 1 ? 1 : fit > 4 ? 4 : static_cast<int>(fit);
  } else {
    return 1;
  }
}
template <int Block, class Fn, int CacheSize>
inline constexpr int aggregate_min_blocks_v = aggregate_min_blocks<Block, Fn, CacheSize>();

// Rows loaded ahead: with private cells in shared memory the kernel has few registers (64 to 85 where
// 4 to 3 blocks fit), and two
// wide rows in flight (TPC-H Q1's, 80 bytes) spill to local memory; one at a time, Q1 took
// 1.87 ms instead of 2.08 on the H100 (same machine, five runs each).
template <class Fn, int CacheSize>
inline constexpr int aggregate_kernel_unroll_v =
    cells_in_shared_v<Fn, CacheSize> && sizeof(typename Fn::loaded) > 32 ? 1 : colx::detail::aggregate_unroll_v<Fn>;

template <int Block, int CacheSize, class Fn>
__global__ void __launch_bounds__(Block, aggregate_min_blocks_v<Block, Fn, CacheSize>)
    aggregate_rows_kernel(size_type n, Fn fn, int shared_slots) {
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
  flush_to_block<Fn> const flush{&fn, ids, rows, block_cells, mask, 64 - __popc(mask)};
  constexpr int unroll = aggregate_kernel_unroll_v<Fn, CacheSize>;
  if constexpr (cells_in_shared_v<Fn, CacheSize>) {
    using private_cells = shared_cells<typename Fn::partial_cells, Block>;
    // 8-byte aligned: the block table before it has 0 or a power of two (at least 64) of slots,
    // each 16 bytes of id and row and a cell of whole 4-byte words.
    private_cells cache{reinterpret_cast<typename private_cells::word*>(block_cells + shared_slots)};
    colx::detail::aggregate_cached<CacheSize, unroll, true>(fn, first, n, step, cache, flush);
  } else if constexpr (CacheSize == 1) {
    colx::detail::aggregate_direct<unroll>(fn, first, n, step, flush);
  } else {
    colx::detail::register_cells<cells, CacheSize> cache;
    colx::detail::aggregate_cached<CacheSize, unroll, false>(fn, first, n, step, cache, flush);
  }
  __syncthreads();
  for (int s = threadIdx.x; s < shared_slots; s += Block) {
    if (ids[s] == colx::detail::no_group_id) { continue; }
    size_type const slot = fn.slot_of(ids[s], rows[s]);
    if (slot >= 0) { fn.merge(fn.cells_at(slot), block_cells[s]); }
  }
}

// ---- the partitioned many-groups pass -----------------------------------------------------------
// With many groups of packed keys the table is far larger than L2, and adding a row costs a random
// read of its slot from DRAM and later the write-back of that line: Nsight Compute saw 13.6 GB of
// DRAM traffic for 10M groups over 100M rows of 16 bytes. So rows are first copied, as records
// (the group's word, the aggregated values, and the row where a cell reads it), into partitions
// by the top bits of their group's home slot, a partition's slice of the table small enough for
// L2. The records are then added in partition order: the threads at work at any moment share one
// or two slices. Two passes over the rows (count, then scatter), one over the records.

inline constexpr int most_partitions = 256;

template <class Fn, bool Row = Fn::reads_rows>
struct partition_record {
  std::uint64_t id;
  typename Fn::values v;
  size_type row;
  COLX_DEVICE size_type row_or(size_type) const { return row; }
};
template <class Fn>
struct partition_record<Fn, false> {
  std::uint64_t id;
  typename Fn::values v;
  COLX_DEVICE size_type row_or(size_type j) const { return j; }  // no cell reads it
};

// Rows a scatter block stages per round: 4 a thread, fewer for wide records, so that the
// staging area stays within 32 KiB; 0 where a record is too wide to stage (no partitioning).
template <class Fn, int Block>
inline constexpr int scatter_items_v = sizeof(partition_record<Fn>) * Block * 4 <= 32 * 1024   ? 4
                                       : sizeof(partition_record<Fn>) * Block * 2 <= 32 * 1024 ? 2
                                       : sizeof(partition_record<Fn>) * Block <= 32 * 1024     ? 1
                                                                                               : 0;

// Rows per partition: counted per block in shared memory, then one atomic per partition.
template <int Block, class Fn>
__global__ void __launch_bounds__(Block) count_partitions_kernel(size_type n, Fn fn, int shift, int parts, size_type* counts) {
  __shared__ unsigned local[most_partitions];
  for (int p = threadIdx.x; p < parts; p += Block) { local[p] = 0; }
  __syncthreads();
  size_type const step = static_cast<size_type>(gridDim.x) * Block;
  for (size_type i = static_cast<size_type>(blockIdx.x) * Block + threadIdx.x; i < n; i += step) {
    if (fn.keep(i)) { atomicAdd(local + (fn.home_slot(fn.pack(i)) >> shift), 1u); }
  }
  __syncthreads();
  for (int p = threadIdx.x; p < parts; p += Block) {
    if (local[p] != 0) { colx::detail::atomic_add(counts + p, static_cast<size_type>(local[p])); }
  }
}

// Each row that counts to its partition. A block takes Block * Items rows a round: ranks them
// within their partitions (shared-memory counters), stages them in partition order in shared
// memory, reserves each partition's share with one atomic on its cursor, and writes the staged
// records out in order, so that consecutive threads write consecutive records.
template <int Block, int Items, class Fn>
__global__ void __launch_bounds__(Block)
    scatter_partitions_kernel(size_type n, Fn fn, int shift, int parts, size_type* cursors, partition_record<Fn>* out) {
  using record = partition_record<Fn>;
  constexpr int tile = Block * Items;
  __shared__ unsigned counts[most_partitions];
  __shared__ unsigned starts[most_partitions];  // a partition's first staged record
  __shared__ size_type bases[most_partitions];  // where its records go in `out`
  __shared__ unsigned char parts_of[tile];
  __shared__ unsigned staged_count;
  __shared__ alignas(alignof(record)) unsigned char staging_bytes[tile * sizeof(record)];
  auto* const staged = reinterpret_cast<record*>(staging_bytes);
  for (size_type start = static_cast<size_type>(blockIdx.x) * tile; start < n; start += static_cast<size_type>(gridDim.x) * tile) {
    for (int p = threadIdx.x; p < parts; p += Block) { counts[p] = 0; }
    __syncthreads();
    record rec[Items];
    int part[Items];
    unsigned rank[Items];
    COLX_UNROLL
    for (int u = 0; u < Items; ++u) {
      size_type const i = start + u * Block + threadIdx.x;
      part[u] = -1;
      if (i < n) {
        auto const row = fn.load(i);
        if (row.counts) {
          rec[u].id = row.id;
          rec[u].v = row.v;
          if constexpr (Fn::reads_rows) { rec[u].row = i; }
          part[u] = static_cast<int>(fn.home_slot(row.id) >> shift);
          rank[u] = atomicAdd(counts + part[u], 1u);
        }
      }
    }
    __syncthreads();
    if (threadIdx.x == 0) {  // at most 256 partitions: a serial scan is a few hundred cycles a round
      unsigned sum = 0;
      for (int p = 0; p < parts; ++p) {
        starts[p] = sum;
        sum += counts[p];
      }
      staged_count = sum;
    }
    for (int p = threadIdx.x; p < parts; p += Block) {
      bases[p] = counts[p] == 0 ? 0 : colx::detail::atomic_fetch_add(cursors + p, static_cast<size_type>(counts[p]));
    }
    __syncthreads();
    COLX_UNROLL
    for (int u = 0; u < Items; ++u) {
      if (part[u] >= 0) {
        unsigned const at = starts[part[u]] + rank[u];
        staged[at] = rec[u];
        parts_of[at] = static_cast<unsigned char>(part[u]);
      }
    }
    __syncthreads();
    for (unsigned at = threadIdx.x; at < staged_count; at += Block) {
      int const p = parts_of[at];
      out[bases[p] + (at - starts[p])] = staged[at];
    }
    __syncthreads();  // before the next round reuses the shared arrays
  }
}

// Adds the records to the table: each thread takes Unroll records at a time and reads all their
// home slots before resolving any, so that Unroll reads (L2 hits, mostly) are in flight at once;
// a record whose group is not at its home slot takes the full probe. The scatter stages a
// block's rows of a partition side by side, mostly in row order, so rows of one group that came
// in a run (lineitem by order) mostly stay consecutive records: a warp's runs of one group are
// folded first (gpu/warp_runs.cuh). The loop's bound is the warp's, so that its lanes fold
// together to the last round.
template <int Block, int Unroll, class Fn>
__global__ void __launch_bounds__(Block) add_records_kernel(size_type n, Fn fn, partition_record<Fn> const* records) {
  using cells = typename Fn::cells;
  size_type const step = static_cast<size_type>(gridDim.x) * Block;
  size_type const lane = threadIdx.x % 32;
  for (size_type base = static_cast<size_type>(blockIdx.x) * Block + threadIdx.x; base - lane < n; base += Unroll * step) {
    partition_record<Fn> rec[Unroll]{};
    std::uint64_t held[Unroll]{};
    COLX_UNROLL
    for (int u = 0; u < Unroll; ++u) {
      if (base + u * step < n) { rec[u] = records[base + u * step]; }
    }
    COLX_UNROLL
    for (int u = 0; u < Unroll; ++u) {
      if (base + u * step < n) { held[u] = *fn.word_at(fn.home_slot(rec[u].id)); }
    }
    COLX_UNROLL
    for (int u = 0; u < Unroll; ++u) {
      size_type const j = base + u * step;
      typename Fn::loaded row;
      row.counts = j < n;
      row.id = rec[u].id;
      row.v = rec[u].v;
      size_type const at = rec[u].row_or(j);
      cells c = Fn::identity();
      if (!fold_warp_run(fn, row, at, c)) { continue; }
      std::uint64_t const id = rec[u].id;
      size_type const slot = held[u] == id && id != Fn::empty_word ? static_cast<size_type>(fn.home_slot(id)) : fn.locate_word(id);
      if (slot < 0) { continue; }  // the table is full: the pass is rerun larger
      fn.merge(fn.cells_at(slot), c);
    }
  }
}

}  // namespace colx::gpu::detail
