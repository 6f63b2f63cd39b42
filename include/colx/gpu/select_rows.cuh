// SPDX-License-Identifier: Apache-2.0
#pragma once
// Stream compaction in one pass over the rows, with a single-pass scan (decoupled look-back,
// through CUB's ScanTileState and TilePrefixCallbackOp). Each warp owns 32 * items consecutive
// rows: it evaluates the predicate for 32 rows at a time (coalesced), keeps the verdicts as
// ballot words, and once the tile's offset is known, writes its kept rows to consecutive output
// positions, again 32 rows at a time. Columns other than the predicate's are read only where a
// row is kept, and no index column exists. Kept rows are loaded into registers a few groups at
// a time before any is stored, so their loads overlap. A keep that returns a verdict (a join's
// build row) keeps it in registers for load(i, verdict) (exec/select_verdict.hpp).
#include <colx/core/config.hpp>
#include <colx/exec/select_verdict.hpp>
#include <colx/core/cuda_try.cuh>

#include <cub/agent/single_pass_scan_operators.cuh>
#include <cuda/std/functional>

namespace colx::gpu::detail {

inline constexpr int select_block = 256;
inline constexpr int select_items = 8;  // 32-row groups per warp and tile
inline constexpr size_type select_tile = size_type{select_block} * select_items;

using select_tile_state = cub::ScanTileState<long long>;

// A template, so that a header may define it in every translation unit.
template <class State>
__global__ void init_select_tiles(State state, int tiles) {
  state.InitializeStatus(tiles);
}

template <class Keep, class Load, class Store>
__global__ void __launch_bounds__(select_block)
    select_rows_kernel(size_type n, Keep keep, Load load, Store store, select_tile_state state, long long* kept_total) {
  using prefix_op = cub::TilePrefixCallbackOp<long long, ::cuda::std::plus<>, select_tile_state>;
  constexpr int warps = select_block / 32;
  __shared__ typename prefix_op::TempStorage prefix_storage;
  __shared__ long long warp_offset[warps];
  __shared__ long long tile_offset;

  int const tile = static_cast<int>(blockIdx.x);
  int const warp = static_cast<int>(threadIdx.x) / 32;
  unsigned const lane = threadIdx.x % 32;
  size_type const first = tile * select_tile + static_cast<size_type>(warp) * 32 * select_items;

  // Verdicts, as ballot words identical in every lane, and what each lane's verdicts carry.
  using verdict = colx::detail::verdict_t<Keep>;
  verdict held[select_items];  // plain bools are dead once balloted
  unsigned kept[select_items];
  int count = 0;
#pragma unroll
  for (int j = 0; j < select_items; ++j) {
    size_type const i = first + j * 32 + lane;
    held[j] = i < n ? keep(i) : verdict{};
    kept[j] = __ballot_sync(0xFFFFFFFFu, static_cast<bool>(held[j]));
    count += __popc(kept[j]);
  }
  if (lane == 0) { warp_offset[warp] = count; }
  __syncthreads();

  // The tile's offset: an exclusive scan of the warps' counts, then the look-back.
  if (warp == 0) {
    long long const mine = lane < warps ? warp_offset[lane] : 0;
    long long inclusive = mine;
#pragma unroll
    for (int d = 1; d < warps; d *= 2) {
      long long const up = __shfl_up_sync(0xFFFFFFFFu, inclusive, d);
      if (static_cast<int>(lane) >= d) { inclusive += up; }
    }
    long long const aggregate = __shfl_sync(0xFFFFFFFFu, inclusive, warps - 1);
    __syncwarp();
    if (lane < warps) { warp_offset[lane] = inclusive - mine; }
    long long prefix = 0;
    if (tile == 0) {
      if (lane == 0) { state.SetInclusive(0, aggregate); }
    } else {
      prefix_op op(state, prefix_storage, ::cuda::std::plus<>{}, tile);
      prefix = op(aggregate);
    }
    if (lane == 0) {
      tile_offset = prefix;
      if (tile == static_cast<int>(gridDim.x) - 1) { *kept_total = prefix + aggregate; }
    }
  }
  __syncthreads();

  // Kept rows, a few groups at a time: all their loads first, then all their stores.
  constexpr int group = 4;
  long long offset = tile_offset + warp_offset[warp];
  unsigned const below = (1u << lane) - 1u;
#pragma unroll
  for (int g = 0; g < select_items; g += group) {
    decltype(colx::detail::load_kept(load, size_type{}, verdict{})) items[group];
#pragma unroll
    for (int j = 0; j < group; ++j) {
      if ((kept[g + j] >> lane) & 1u) { items[j] = colx::detail::load_kept(load, first + (g + j) * 32 + lane, held[g + j]); }
    }
#pragma unroll
    for (int j = 0; j < group; ++j) {
      if ((kept[g + j] >> lane) & 1u) { store(static_cast<size_type>(offset + __popc(kept[g + j] & below)), items[j]); }
      offset += __popc(kept[g + j]);
    }
  }
}

}  // namespace colx::gpu::detail
