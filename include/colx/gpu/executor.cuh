// SPDX-License-Identifier: Apache-2.0
#pragma once
// The CUDA backend's generic primitives, stream-ordered (the contract: exec/executor.hpp): a
// grid-stride for-each kernel, row folds, one-pass compaction, and CUB for reductions and scans
// (deterministic, temporary storage from the current device resource). Sorting (gpu/sort.cuh)
// and the hash aggregation's pass (gpu/aggregate_rows.cuh) are overloads on this executor,
// included only by the operators that need them: CUB's sorts are most of a TU's parsing time.
#include <colx/core/config.hpp>
#include <colx/exec/executor.hpp>
#include <colx/core/cuda_try.cuh>
#include <colx/gpu/launch.cuh>
#include <colx/gpu/reduce_rows.cuh>
#include <colx/gpu/select_rows.cuh>
#include <colx/memory/stream.hpp>

#include <cub/device/device_reduce.cuh>
#include <cub/device/device_scan.cuh>
#include <cuda/std/functional>
#include <thrust/iterator/counting_iterator.h>
#include <thrust/iterator/transform_iterator.h>

#include <algorithm>
#include <utility>

namespace colx::gpu {
namespace detail {

template <class F>
__global__ void for_each_kernel(size_type n, F f) {
  size_type const stride = static_cast<size_type>(gridDim.x) * blockDim.x;
  for (size_type i = static_cast<size_type>(blockIdx.x) * blockDim.x + threadIdx.x; i < n; i += stride) { f(i); }
}

// Each thread takes rows first, first + step, ... (step: the grid's thread count).
template <class F>
__global__ void strided_kernel(size_type n, F f) {
  size_type const step = static_cast<size_type>(gridDim.x) * blockDim.x;
  f(static_cast<size_type>(blockIdx.x) * blockDim.x + threadIdx.x, n, step);
}

// A tile's strings, written by its warp together: each lane writes its row's bytes into the warp's
// shared staging area, then the warp copies the tile's bytes (contiguous in the output) with
// 4-byte stores, lane after lane. Written straight from each lane, 32 strings side by side made
// every store a byte scattered over the tile's range: with_columns(upper(s)) of 20-byte strings
// ran at 11% of the copy bandwidth on the H100. A tile of more bytes than the staging area (long
// strings) is written straight.
inline constexpr int string_stage_bytes = 2048;  // per warp: 64 bytes a row
template <class F, class Row>
__device__ void stage_tile_strings(F const& f, Row const& r, size_type tile, size_type n) {
  __shared__ alignas(16) char stage[8][string_stage_bytes];  // blocks of 256 threads: 8 warps
  char* const buf = stage[(threadIdx.x / 32) % 8];
  unsigned const lane = threadIdx.x % 32;
  size_type const i = tile * 32 + static_cast<size_type>(lane);
  bool const in_range = i < n;
  [&]<std::size_t... K>(std::index_sequence<K...>) {
    ((void)[&] {
      if constexpr (F::template is_string_output<K>) {
        auto const& out = get<K>(f.out);
        auto const& v = get<K>(r);
        size_type const last = tile * 32 + 32 < n ? tile * 32 + 32 : n;
        std::int64_t const base = offset_at(out, tile * 32);
        std::int64_t const end = offset_at(out, last);
        std::int64_t const origin = base & ~std::int64_t{3};  // buf[0] is this word-aligned output byte
        if (end - origin > string_stage_bytes) {
          if (in_range && v.valid) { v.value.write_to(out.chars + offset_at(out, i)); }
          return;
        }
        if (in_range && v.valid) { v.value.write_to(buf + (offset_at(out, i) - origin)); }
        __syncwarp();
        std::int64_t const first_word = (base + 3) & ~std::int64_t{3};
        std::int64_t const last_word = end & ~std::int64_t{3};
        for (std::int64_t w = first_word + 4 * lane; w < last_word; w += 128) {
          *reinterpret_cast<std::uint32_t*>(out.chars + w) = *reinterpret_cast<std::uint32_t const*>(buf + (w - origin));
        }
        std::int64_t const head_end = first_word < end ? first_word : end;
        if (base + lane < head_end) { out.chars[base + lane] = buf[base + lane - origin]; }
        std::int64_t const tail_begin = last_word > first_word ? last_word : first_word;
        if (tail_begin + lane < end) { out.chars[tail_begin + lane] = buf[tail_begin + lane - origin]; }
        __syncwarp();
      }
    }(), ...);
  }(std::make_index_sequence<decltype(f.out)::size>{});
}

// One warp per 32-row tile: lane l evaluates row 32 * tile + l, and each nullable output's
// validity word is one __ballot_sync, written by lane 0. Tiles are aligned to mask words, so no
// two warps share a word.
template <class F>
__global__ void evaluate_rows_kernel(size_type n, F f) {
  unsigned const lane = threadIdx.x % 32;
  size_type const warps = static_cast<size_type>(gridDim.x) * (blockDim.x / 32);
  for (size_type tile = (static_cast<size_type>(blockIdx.x) * blockDim.x + threadIdx.x) / 32; tile * 32 < n;
       tile += warps) {
    size_type const i = tile * 32 + lane;
    bool const in_range = i < n;
    decltype(f.row(0)) r{};
    if (in_range) {
      r = f.row(i);
      if constexpr (F::writes_strings) {
        f.store_fixed_width(i, r);
      } else {
        f.store(i, r);
      }
    }
    if constexpr (F::writes_strings) { stage_tile_strings(f, r, tile, n); }
    [&]<std::size_t... K>(std::index_sequence<K...>) {
      ((void)[&] {
        bitmask_type const bits = __ballot_sync(0xFFFFFFFFu, in_range && F::template valid<K>(r));
        if (lane == 0) { f.template store_mask<K>(tile, bits); }
      }(), ...);
    }(std::make_index_sequence<F::masked>{});
  }
}

// f(i) below n, zero at n: the scan's extra element that carries the total. At namespace scope:
// a kernel's template arguments must be nameable from the host code nvcc generates to launch it.
template <class T, class F>
struct padded {
  F f;
  size_type n;
  COLX_HOST_DEVICE T operator()(size_type i) const { return i < n ? static_cast<T>(f(i)) : T{}; }
};

}  // namespace detail

struct executor {
  stream_ref stream{};

  static constexpr int block_size = 256;

  // Calls f(i) on the device for every i in [0, n). F must be trivially copyable with a
  // __device__ call operator: a named functor, not a host lambda.
  template <class F>
  void for_each_n(size_type n, F f) const {
    if (n <= 0) { return; }
    // A grid-stride loop over enough blocks to fill the device several times over.
    size_type const blocks = std::min<size_type>((n + block_size - 1) / block_size, size_type{1} << 16);
    detail::for_each_kernel<<<static_cast<unsigned>(blocks), block_size, 0, stream.value()>>>(n, f);
    COLX_CUDA_TRY(cudaGetLastError());
  }

  // f(first, last, step) once per thread, the threads' strided ranges covering [0, n) once:
  // for work that keeps per-thread state across rows (group-by's private caches). The grid is
  // a few blocks per multiprocessor, so each thread sees many rows.
  template <class F>
  void for_each_strided(size_type n, F f) const {
    if (n <= 0) { return; }
    size_type const blocks =
        std::max<size_type>(1, std::min<size_type>((n + block_size - 1) / block_size, size_type{4} * detail::multiprocessors()));
    detail::strided_kernel<<<static_cast<unsigned>(blocks), block_size, 0, stream.value()>>>(n, f);
    COLX_CUDA_TRY(cudaGetLastError());
  }

  // Returns the op-reduction of init and f(0), ..., f(n-1) to the host: synchronises the stream.
  template <class T, class F, class Op>
  [[nodiscard]] T transform_reduce(size_type n, T init, F f, Op op) const {
    auto const in = thrust::make_transform_iterator(thrust::counting_iterator<size_type>(0), f);
    std::size_t temp_bytes = 0;
    COLX_CUDA_TRY(cub::DeviceReduce::Reduce(nullptr, temp_bytes, in, static_cast<T*>(nullptr), n, op, init, stream.value()));
    std::size_t const result_offset = detail::round_up(temp_bytes);
    detail::temporary_storage temp(result_offset + sizeof(T), stream);
    auto* result = reinterpret_cast<T*>(static_cast<char*>(temp.data()) + result_offset);
    COLX_CUDA_TRY(cub::DeviceReduce::Reduce(temp.data(), temp_bytes, in, result, n, op, init, stream.value()));
    T host_result{};
    COLX_CUDA_TRY(cudaMemcpyAsync(&host_result, result, sizeof(T), cudaMemcpyDeviceToHost, stream.value()));
    stream.synchronize();
    return host_result;
  }

  // Folds rows into a state (see detail::reduce_rows_kernel): one pass over the rows by a grid
  // fixed per device, one tiny pass over the blocks' states; returns the state to the host. The
  // grid is 32 blocks a multiprocessor, four times what can be resident: TPC-H Q6's fold over 600M
  // rows took 3.62 ms with 8 a multiprocessor and 3.20 with 32, LIKE '%green%' 0.76 and 0.71 ms
  // (H200).
  template <class State, class Acc, class Merge>
  [[nodiscard]] State reduce_rows(size_type n, State init, Acc acc, Merge merge) const {
    constexpr int block = 256;
    size_type const blocks =
        std::max<size_type>(1, std::min<size_type>((n + block - 1) / block, size_type{32} * detail::multiprocessors()));
    detail::temporary_storage temp((static_cast<std::size_t>(blocks) + 1) * sizeof(State), stream);
    auto* partials = static_cast<State*>(temp.data());
    detail::reduce_rows_kernel<block><<<static_cast<unsigned>(blocks), block, 0, stream.value()>>>(n, init, acc, merge, partials);
    COLX_CUDA_TRY(cudaGetLastError());
    if (blocks > 1) {  // (one block's state is the result already: a launch less for small folds)
      detail::reduce_rows_kernel<block><<<1, block, 0, stream.value()>>>(
          blocks, init, detail::merge_partials<State, Merge>{partials, merge}, merge, partials + blocks);
      COLX_CUDA_TRY(cudaGetLastError());
    }
    State result;
    COLX_CUDA_TRY(cudaMemcpyAsync(&result, partials + (blocks > 1 ? blocks : 0), sizeof(State), cudaMemcpyDeviceToHost,
                                  stream.value()));
    stream.synchronize();
    return result;
  }

  // Evaluates rows with one warp per 32-row tile (see detail::evaluate_rows_kernel); the
  // contract on F is the host executor's.
  template <class F>
  void evaluate_rows(size_type n, F const& f) const {
    if (n <= 0) { return; }
    constexpr int block = 256;
    size_type const tiles = (n + 31) / 32;
    size_type const blocks = std::min<size_type>((tiles + block / 32 - 1) / (block / 32), size_type{32} * detail::multiprocessors());
    detail::evaluate_rows_kernel<<<static_cast<unsigned>(blocks), block, 0, stream.value()>>>(n, f);
    COLX_CUDA_TRY(cudaGetLastError());
  }

  // Compaction in one pass with a single-pass scan (see gpu/select_rows.cuh): store(k, load(i))
  // for the k-th kept row i; every output column is written in the same pass and no index column
  // exists. Returns the count (synchronises), or `known_kept` where the caller knows it already
  // (a group-by's groups, counted by its pass): then nothing waits.
  template <class Keep, class Load, class Store>
  size_type select_rows(size_type n, Keep keep, Load load, Store store, size_type known_kept = -1) const {
    if (n == 0) { return 0; }
    size_type const tiles = (n + detail::select_tile - 1) / detail::select_tile;
    COLX_EXPECTS(tiles < (size_type{1} << 31), "select_rows: ", n, " rows are too many for one pass");
    std::size_t state_bytes = 0;
    COLX_CUDA_TRY(detail::select_tile_state::AllocationSize(static_cast<int>(tiles), state_bytes));
    std::size_t const total_offset = detail::round_up(state_bytes);
    detail::temporary_storage temp(total_offset + sizeof(long long), stream);
    detail::select_tile_state state;
    COLX_CUDA_TRY(state.Init(static_cast<int>(tiles), temp.data(), state_bytes));
    auto* total = reinterpret_cast<long long*>(static_cast<char*>(temp.data()) + total_offset);
    detail::init_select_tiles<<<static_cast<unsigned>((tiles + 32 + 255) / 256), 256, 0, stream.value()>>>(
        state, static_cast<int>(tiles));
    COLX_CUDA_TRY(cudaGetLastError());
    detail::select_rows_kernel<<<static_cast<unsigned>(tiles), detail::select_block, 0, stream.value()>>>(
        n, keep, load, store, state, total);
    COLX_CUDA_TRY(cudaGetLastError());
    if (known_kept >= 0) { return known_kept; }
    long long kept = 0;
    COLX_CUDA_TRY(cudaMemcpyAsync(&kept, total, sizeof(long long), cudaMemcpyDeviceToHost, stream.value()));
    stream.synchronize();
    return static_cast<size_type>(kept);
  }

  // out[i] = init + f(0) + ... + f(i-1) for i in [0, n]: n + 1 outputs, the last one the total,
  // left in out[n]: nothing waits (exclusive_scan below reads the total back).
  template <class T, class F, class Out>
  void exclusive_scan_async(size_type n, T init, F f, Out out) const {
    auto const in = thrust::make_transform_iterator(thrust::counting_iterator<size_type>(0), detail::padded<T, F>{f, n});
    std::size_t temp_bytes = 0;
    COLX_CUDA_TRY(cub::DeviceScan::ExclusiveScan(nullptr, temp_bytes, in, out, ::cuda::std::plus<>{}, init, n + 1,
                                                 stream.value()));
    detail::temporary_storage temp(temp_bytes, stream);
    COLX_CUDA_TRY(cub::DeviceScan::ExclusiveScan(temp.data(), temp_bytes, in, out, ::cuda::std::plus<>{}, init, n + 1,
                                                 stream.value()));
  }

  // The same, returning the total (synchronises the stream).
  template <class T, class F, class Out>
  T exclusive_scan(size_type n, T init, F f, Out out) const {
    exclusive_scan_async(n, init, f, out);
    T total{};
    COLX_CUDA_TRY(cudaMemcpyAsync(&total, &out[n], sizeof(T), cudaMemcpyDeviceToHost, stream.value()));
    stream.synchronize();
    return total;
  }

  // out[i] = f(0) op ... op f(i); with `keys`, restarting wherever keys[i] != keys[i - 1] (runs of
  // equal keys are scanned separately: a per-group scan over rows sorted by group).
  template <class T, class F, class Op, class Key = std::uint32_t>
  void inclusive_scan(size_type n, F f, T* out, Op op, Key const* keys = nullptr) const {
    if (n <= 0) { return; }
    auto const in = thrust::make_transform_iterator(thrust::counting_iterator<size_type>(0), f);
    std::size_t temp_bytes = 0;
    auto const scan = [&](void* temp) {
      if (keys == nullptr) {
        COLX_CUDA_TRY(cub::DeviceScan::InclusiveScan(temp, temp_bytes, in, out, op, n, stream.value()));
      } else {
        COLX_CUDA_TRY(cub::DeviceScan::InclusiveScanByKey(temp, temp_bytes, keys, in, out, op, n, ::cuda::std::equal_to<>{},
                                                          stream.value()));
      }
    };
    scan(nullptr);
    detail::temporary_storage temp(temp_bytes, stream);
    scan(temp.data());
  }
};

static_assert(colx::executor<executor>, "gpu::executor must offer every primitive of exec/executor.hpp");

}  // namespace colx::gpu
