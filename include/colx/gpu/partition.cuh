// SPDX-License-Identifier: Apache-2.0
#pragma once
// Stable partitioning by destination on the GPU, in two passes over 4-byte destinations: each
// tile of rows counts its destinations (shared-memory counters), one scan over the counts in
// (destination, tile) order gives every tile its first position in every destination, and each
// tile then places its rows, a block of rows at a time in row order: a warp ranks its lanes among
// equal destinations with __match_any_sync, the warps' counts are scanned in warp order, so a
// row's position keeps the rows' order within its destination. The host's version is
// host/partition.hpp; exec/partition.hpp picks one.
#include <colx/core/cuda_try.cuh>
#include <colx/gpu/executor.cuh>
#include <colx/gpu/launch.cuh>

#include <cub/device/device_scan.cuh>

#include <cstdint>
#include <vector>

namespace colx::gpu {
namespace detail {

inline constexpr int partition_block = 256;
inline constexpr int partition_rounds = 16;  // block-wide rounds of rows per tile
inline constexpr size_type partition_tile = size_type{partition_block} * partition_rounds;
inline constexpr int partition_max_parts = 64;

// A template, as every kernel in a header: one definition however many units include it.
template <int Block>
__global__ void __launch_bounds__(Block)
    count_destinations_kernel(size_type n, std::uint32_t const* destination, int parts, size_type tiles, size_type* counts) {
  __shared__ unsigned int seen[partition_max_parts];
  for (int p = static_cast<int>(threadIdx.x); p < parts; p += Block) { seen[p] = 0; }
  __syncthreads();
  size_type const begin = static_cast<size_type>(blockIdx.x) * partition_tile;
  size_type const end = begin + partition_tile < n ? begin + partition_tile : n;
  for (size_type i = begin + threadIdx.x; i < end; i += Block) { atomicAdd(&seen[destination[i]], 1u); }
  __syncthreads();
  for (int p = static_cast<int>(threadIdx.x); p < parts; p += Block) {
    counts[static_cast<size_type>(p) * tiles + blockIdx.x] = seen[p];
  }
}

template <class I>
__global__ void __launch_bounds__(partition_block)
    place_rows_kernel(size_type n, std::uint32_t const* destination, int parts, size_type tiles, size_type const* firsts,
                      I* positions) {
  constexpr int warps = partition_block / 32;
  __shared__ size_type next[partition_max_parts];            // this tile's next position per destination
  __shared__ unsigned int before[warps][partition_max_parts];  // per warp: its count, then the warps' before it
  __shared__ unsigned int round_total[partition_max_parts];
  int const lane = static_cast<int>(threadIdx.x % 32);
  int const warp = static_cast<int>(threadIdx.x / 32);
  for (int p = static_cast<int>(threadIdx.x); p < parts; p += partition_block) {
    next[p] = firsts[static_cast<size_type>(p) * tiles + blockIdx.x];
  }
  size_type const begin = static_cast<size_type>(blockIdx.x) * partition_tile;
  size_type const end = begin + partition_tile < n ? begin + partition_tile : n;
  for (size_type first = begin; first < end; first += partition_block) {
    for (int k = static_cast<int>(threadIdx.x); k < warps * parts; k += partition_block) { before[k / parts][k % parts] = 0; }
    __syncthreads();
    size_type const i = first + threadIdx.x;
    bool const here = i < end;
    unsigned int const d = here ? destination[i] : 0xffffffffu;
    unsigned int const peers = __match_any_sync(0xffffffffu, d);
    unsigned int const rank = __popc(peers & ((1u << lane) - 1u));
    if (here && rank == 0) { before[warp][d] = static_cast<unsigned int>(__popc(peers)); }
    __syncthreads();
    for (int p = static_cast<int>(threadIdx.x); p < parts; p += partition_block) {
      unsigned int sum = 0;
      for (int w = 0; w < warps; ++w) {
        unsigned int const c = before[w][p];
        before[w][p] = sum;
        sum += c;
      }
      round_total[p] = sum;
    }
    __syncthreads();
    if (here) { positions[i] = static_cast<I>(next[d] + before[warp][d] + rank); }
    __syncthreads();
    for (int p = static_cast<int>(threadIdx.x); p < parts; p += partition_block) { next[p] += round_total[p]; }
  }
}

}  // namespace detail

// positions[i]: row i's place in an order grouped by destination (0 .. parts - 1), stable within
// each; returns where each destination's rows begin (parts + 1 bounds). Synchronises.
template <class I>
std::vector<size_type> partition_positions(executor const& exec, size_type n, std::uint32_t const* destination, int parts,
                                           I* positions) {
  COLX_EXPECTS(0 < parts && parts <= detail::partition_max_parts, "partition: ", parts, " destinations; the GPU takes 1 to ",
               detail::partition_max_parts);
  std::vector<size_type> bounds(static_cast<std::size_t>(parts) + 1, 0);
  if (n == 0) { return bounds; }
  size_type const tiles = (n + detail::partition_tile - 1) / detail::partition_tile;
  size_type const cells = tiles * parts;
  std::size_t scan_bytes = 0;
  COLX_CUDA_TRY(cub::DeviceScan::ExclusiveSum(nullptr, scan_bytes, static_cast<size_type*>(nullptr), static_cast<size_type*>(nullptr),
                                              cells, exec.stream.value()));
  std::size_t const counts_at = detail::round_up(scan_bytes);
  detail::temporary_storage temp(counts_at + 2 * static_cast<std::size_t>(cells) * sizeof(size_type), exec.stream);
  auto* const counts = reinterpret_cast<size_type*>(static_cast<char*>(temp.data()) + counts_at);
  auto* const firsts = counts + cells;
  detail::count_destinations_kernel<detail::partition_block><<<static_cast<unsigned>(tiles), detail::partition_block, 0, exec.stream.value()>>>(
      n, destination, parts, tiles, counts);
  COLX_CUDA_TRY(cudaGetLastError());
  COLX_CUDA_TRY(cub::DeviceScan::ExclusiveSum(temp.data(), scan_bytes, counts, firsts, cells, exec.stream.value()));
  // Each destination begins where its first tile does: one strided copy of `parts` values.
  COLX_CUDA_TRY(cudaMemcpy2DAsync(bounds.data(), sizeof(size_type), firsts, static_cast<std::size_t>(tiles) * sizeof(size_type),
                                  sizeof(size_type), static_cast<std::size_t>(parts), cudaMemcpyDeviceToHost,
                                  exec.stream.value()));
  detail::place_rows_kernel<I><<<static_cast<unsigned>(tiles), detail::partition_block, 0, exec.stream.value()>>>(
      n, destination, parts, tiles, firsts, positions);
  COLX_CUDA_TRY(cudaGetLastError());
  exec.stream.synchronize();
  bounds.back() = n;
  return bounds;
}

}  // namespace colx::gpu
