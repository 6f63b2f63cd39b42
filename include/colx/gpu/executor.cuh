// SPDX-License-Identifier: Apache-2.0
#pragma once
// The CUDA backend's primitives, stream-ordered: a grid-stride for-each kernel, and CUB for
// reductions and scans (deterministic, temporary storage from the current device resource).
#include <colx/core/config.hpp>
#include <colx/gpu/cuda_try.cuh>
#include <colx/gpu/aggregate_rows.cuh>
#include <colx/gpu/select_rows.cuh>
#include <colx/gpu/sort.cuh>
#include <colx/memory/current_resource.hpp>
#include <colx/memory/stream.hpp>

#include <colx/column/bitmask.hpp>

#include <cub/block/block_reduce.cuh>
#include <cub/device/device_reduce.cuh>
#include <cub/device/device_scan.cuh>
#include <cuda/std/functional>
#include <thrust/iterator/counting_iterator.h>
#include <thrust/iterator/transform_iterator.h>

#include <array>
#include <mutex>
#include <optional>
#include <utility>
#include <vector>

#include <algorithm>

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

// Allocates CUB's temporary storage from the current device resource for one call.
class temporary_storage {
 public:
  temporary_storage(std::size_t bytes, stream_ref stream)
      : _mr(get_current_device_resource()), _stream(stream), _bytes(bytes),
        _data(_mr.allocate_async(std::max<std::size_t>(bytes, 1), mr::default_alignment, stream)) {}
  temporary_storage(temporary_storage const&) = delete;
  temporary_storage& operator=(temporary_storage const&) = delete;
  ~temporary_storage() { _mr.deallocate_async(_data, std::max<std::size_t>(_bytes, 1), mr::default_alignment, _stream); }
  [[nodiscard]] void* data() const noexcept { return _data; }

 private:
  resource_ref _mr;
  stream_ref _stream;
  std::size_t _bytes;
  void* _data;
};

// Folds a block's rows into one state: each thread takes rows i, i + stride, ... in order (four
// at a time, so their loads are in flight together), then cub::BlockReduce merges the threads'
// states in a fixed tree. With a grid fixed per device, results repeat exactly run to run.
template <int Block, class State, class Acc, class Merge>
__global__ void __launch_bounds__(Block) reduce_rows_kernel(size_type n, State init, Acc acc, Merge merge, State* partials) {
  State s = init;
  size_type const stride = static_cast<size_type>(gridDim.x) * Block;
  size_type i = static_cast<size_type>(blockIdx.x) * Block + threadIdx.x;
  for (; i + 3 * stride < n; i += 4 * stride) {
    acc(s, i);
    acc(s, i + stride);
    acc(s, i + 2 * stride);
    acc(s, i + 3 * stride);
  }
  for (; i < n; i += stride) { acc(s, i); }
  using block_reduce = cub::BlockReduce<State, Block>;
  __shared__ typename block_reduce::TempStorage temp;
  State const r = block_reduce(temp).Reduce(s, merge);
  if (threadIdx.x == 0) { partials[blockIdx.x] = r; }
}

template <class State, class Merge>
struct merge_partials {
  State const* partials;
  Merge merge;
  COLX_HOST_DEVICE void operator()(State& s, size_type i) const { s = merge(s, partials[i]); }
};

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
      f.store(i, r);
    }
    [&]<std::size_t... K>(std::index_sequence<K...>) {
      ((void)[&] {
        bitmask_type const bits = __ballot_sync(0xFFFFFFFFu, in_range && F::template valid<K>(r));
        if (lane == 0) { f.template store_mask<K>(tile, bits); }
      }(), ...);
    }(std::make_index_sequence<F::masked>{});
  }
}

// An attribute of the current device, asked once per device.
template <cudaDeviceAttr Attribute>
int device_attribute() {
  static std::mutex mutex;
  static std::array<int, 64> cached{};
  int device = 0;
  COLX_CUDA_TRY(cudaGetDevice(&device));
  std::lock_guard lock(mutex);
  if (device < 64 && cached[static_cast<std::size_t>(device)] > 0) { return cached[static_cast<std::size_t>(device)]; }
  int value = 0;
  COLX_CUDA_TRY(cudaDeviceGetAttribute(&value, Attribute, device));
  if (device < 64) { cached[static_cast<std::size_t>(device)] = value; }
  return value;
}
// Streaming multiprocessors of the current device.
inline int multiprocessors() { return device_attribute<cudaDevAttrMultiProcessorCount>(); }

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

  // The hash aggregation's pass over n rows (exec/aggregate_rows.hpp), with a shared-memory table
  // of `shared_slots` slots per block when that is not 0 (gpu/aggregate_rows.cuh). Private caches
  // of several groups pay only when a thread's rows fall into very few groups: otherwise every
  // row misses, and the threads of a warp take different paths through the cache.
  template <class Fn>
  void aggregate_rows(size_type n, Fn const& fn, int shared_slots, bool tiny) const {
    if (n <= 0) { return; }
    if constexpr (requires { Fn::partitionable; }) {
      if constexpr (Fn::partitionable) {
        if (!tiny && shared_slots == 0 && aggregate_partitioned(n, fn)) { return; }
      }
    }
    if (tiny) {
      launch_aggregate<colx::detail::group_cache_size>(n, fn, shared_slots);
    } else {
      launch_aggregate<1>(n, fn, shared_slots);
    }
  }

 private:
  // The many-groups pass through partitions (gpu/aggregate_rows.cuh) when the table is larger than
  // L2, with slices of at most half of it; false (nothing done) when the table fits, the rows are
  // few, or the records find no memory.
  template <class Fn>
  bool aggregate_partitioned(size_type n, Fn const& fn) const {
    constexpr int items = detail::scatter_items_v<Fn, block_size>;
    if constexpr (items == 0) {  // records too wide to stage
      (void)n;
      (void)fn;
      return false;
    } else {
      auto const l2 = static_cast<std::size_t>(detail::device_attribute<cudaDevAttrL2CacheSize>());
      std::size_t const table = fn.table_bytes();
      std::uint64_t const slots = fn.slot_mask + 1;
      if (n < (size_type{1} << 20) || l2 == 0 || table <= l2) { return false; }
      int parts = 2;
      while (parts < detail::most_partitions && table / static_cast<std::size_t>(parts) > l2 / 2) { parts *= 2; }
      if (static_cast<std::uint64_t>(parts) > slots) { return false; }
      int shift = 0;
      while ((std::uint64_t{1} << shift) * static_cast<std::uint64_t>(parts) < slots) { ++shift; }

      using record = detail::partition_record<Fn>;
      detail::temporary_storage counts(static_cast<std::size_t>(parts) * sizeof(size_type), stream);
      auto* const cursors = static_cast<size_type*>(counts.data());
      COLX_CUDA_TRY(cudaMemsetAsync(cursors, 0, static_cast<std::size_t>(parts) * sizeof(size_type), stream.value()));
      size_type const blocks = std::min<size_type>((n + block_size - 1) / block_size, size_type{8} * detail::multiprocessors());
      detail::count_partitions_kernel<block_size><<<static_cast<unsigned>(blocks), block_size, 0, stream.value()>>>(n, fn, shift, parts, cursors);
      COLX_CUDA_TRY(cudaGetLastError());
      std::vector<size_type> offsets(static_cast<std::size_t>(parts));
      COLX_CUDA_TRY(cudaMemcpyAsync(offsets.data(), cursors, offsets.size() * sizeof(size_type), cudaMemcpyDeviceToHost, stream.value()));
      stream.synchronize();
      size_type total = 0;
      for (auto& o : offsets) { total += std::exchange(o, total); }  // exclusive prefix: each partition's first record
      if (total == 0) { return true; }
      std::optional<detail::temporary_storage> records;
      try {
        records.emplace(static_cast<std::size_t>(total) * sizeof(record), stream);
      } catch (out_of_memory const&) {
        return false;
      }
      // From pageable memory: the call returns once it has taken `offsets`.
      COLX_CUDA_TRY(cudaMemcpyAsync(cursors, offsets.data(), offsets.size() * sizeof(size_type), cudaMemcpyHostToDevice, stream.value()));
      auto* const out = static_cast<record*>(records->data());
      detail::scatter_partitions_kernel<block_size, items>
          <<<static_cast<unsigned>(blocks), block_size, 0, stream.value()>>>(n, fn, shift, parts, cursors, out);
      COLX_CUDA_TRY(cudaGetLastError());
      auto const add = detail::add_records_kernel<block_size, 4, Fn>;
      int resident = 0;
      COLX_CUDA_TRY(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&resident, add, block_size, 0));
      size_type const add_blocks = std::max<size_type>(
          1, std::min<size_type>((total + block_size - 1) / block_size, size_type{std::max(resident, 1)} * detail::multiprocessors()));
      add<<<static_cast<unsigned>(add_blocks), block_size, 0, stream.value()>>>(total, fn, out);
      COLX_CUDA_TRY(cudaGetLastError());
      return true;
    }
  }

  // As many blocks as can be resident at once (at most one per block_size rows): each thread
  // then sees many rows, and its private cells pay.
  template <int CacheSize, class Fn>
  void launch_aggregate(size_type n, Fn const& fn, int shared_slots) const {
    auto const kernel = detail::aggregate_rows_kernel<block_size, CacheSize, Fn>;
    std::size_t const shared_bytes = detail::aggregate_shared_bytes<block_size, CacheSize, Fn>(shared_slots);
    if constexpr (CacheSize > 1) {
      // Private cells too wide for shared memory (a dozen aggregations at once): one per thread,
      // in registers, as with many groups.
      if (shared_bytes > static_cast<std::size_t>(detail::device_attribute<cudaDevAttrMaxSharedMemoryPerBlockOptin>())) {
        launch_aggregate<1>(n, fn, shared_slots);
        return;
      }
    }
    if (shared_bytes > 48 * 1024) {  // beyond the default, a kernel must ask for it
      COLX_CUDA_TRY(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, static_cast<int>(shared_bytes)));
    }
    int resident = 0;
    COLX_CUDA_TRY(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&resident, kernel, block_size, shared_bytes));
    size_type const blocks = std::max<size_type>(
        1, std::min<size_type>((n + block_size - 1) / block_size, size_type{std::max(resident, 1)} * detail::multiprocessors()));
    kernel<<<static_cast<unsigned>(blocks), block_size, shared_bytes, stream.value()>>>(n, fn, shared_slots);
    COLX_CUDA_TRY(cudaGetLastError());
  }

 public:
  // Returns the op-reduction of init and f(0), ..., f(n-1) to the host: synchronises the stream.
  template <class T, class F, class Op>
  [[nodiscard]] T transform_reduce(size_type n, T init, F f, Op op) const {
    auto const in = thrust::make_transform_iterator(thrust::counting_iterator<size_type>(0), f);
    std::size_t temp_bytes = 0;
    COLX_CUDA_TRY(cub::DeviceReduce::Reduce(nullptr, temp_bytes, in, static_cast<T*>(nullptr), n, op, init, stream.value()));
    std::size_t const result_offset = round_up(temp_bytes);
    detail::temporary_storage temp(result_offset + sizeof(T), stream);
    auto* result = reinterpret_cast<T*>(static_cast<char*>(temp.data()) + result_offset);
    COLX_CUDA_TRY(cub::DeviceReduce::Reduce(temp.data(), temp_bytes, in, result, n, op, init, stream.value()));
    T host_result{};
    COLX_CUDA_TRY(cudaMemcpyAsync(&host_result, result, sizeof(T), cudaMemcpyDeviceToHost, stream.value()));
    stream.synchronize();
    return host_result;
  }

  // Folds rows into a state (see detail::reduce_rows_kernel): one pass over the rows by a grid
  // fixed per device, one tiny pass over the blocks' states; returns the state to the host.
  template <class State, class Acc, class Merge>
  [[nodiscard]] State reduce_rows(size_type n, State init, Acc acc, Merge merge) const {
    constexpr int block = 256;
    size_type const blocks =
        std::max<size_type>(1, std::min<size_type>((n + block - 1) / block, size_type{8} * detail::multiprocessors()));
    detail::temporary_storage temp((static_cast<std::size_t>(blocks) + 1) * sizeof(State), stream);
    auto* partials = static_cast<State*>(temp.data());
    detail::reduce_rows_kernel<block><<<static_cast<unsigned>(blocks), block, 0, stream.value()>>>(n, init, acc, merge, partials);
    COLX_CUDA_TRY(cudaGetLastError());
    detail::reduce_rows_kernel<block><<<1, block, 0, stream.value()>>>(
        blocks, init, detail::merge_partials<State, Merge>{partials, merge}, merge, partials + blocks);
    COLX_CUDA_TRY(cudaGetLastError());
    State result;
    COLX_CUDA_TRY(cudaMemcpyAsync(&result, partials + blocks, sizeof(State), cudaMemcpyDeviceToHost, stream.value()));
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
  // exists. Returns the count (synchronises).
  template <class Keep, class Load, class Store>
  size_type select_rows(size_type n, Keep keep, Load load, Store store) const {
    if (n == 0) { return 0; }
    size_type const tiles = (n + detail::select_tile - 1) / detail::select_tile;
    COLX_EXPECTS(tiles < (size_type{1} << 31), "select_rows: ", n, " rows are too many for one pass");
    std::size_t state_bytes = 0;
    COLX_CUDA_TRY(detail::select_tile_state::AllocationSize(static_cast<int>(tiles), state_bytes));
    std::size_t const total_offset = round_up(state_bytes);
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
    long long kept = 0;
    COLX_CUDA_TRY(cudaMemcpyAsync(&kept, total, sizeof(long long), cudaMemcpyDeviceToHost, stream.value()));
    stream.synchronize();
    return static_cast<size_type>(kept);
  }

  // out[i] = init + f(0) + ... + f(i-1) for i in [0, n]: n + 1 outputs, the last one the total,
  // which is returned (synchronises the stream).
  template <class T, class F, class Out>
  T exclusive_scan(size_type n, T init, F f, Out out) const {
    auto const in = thrust::make_transform_iterator(thrust::counting_iterator<size_type>(0), detail::padded<T, F>{f, n});
    std::size_t temp_bytes = 0;
    COLX_CUDA_TRY(cub::DeviceScan::ExclusiveScan(nullptr, temp_bytes, in, out, ::cuda::std::plus<>{}, init, n + 1,
                                                 stream.value()));
    detail::temporary_storage temp(temp_bytes, stream);
    COLX_CUDA_TRY(cub::DeviceScan::ExclusiveScan(temp.data(), temp_bytes, in, out, ::cuda::std::plus<>{}, init, n + 1,
                                                 stream.value()));
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

  // Stable radix sort of (key, value) pairs by the key's bits [0, end_bit); see gpu/sort.cuh.
  template <class K, class V>
  void sort_pairs(size_type n, K const* keys_in, K* keys_out, V const* values_in, V* values_out, int end_bit,
                  bool descending) const {
    if (n > 0) {
      detail::radix_sort_pairs<K, V, detail::temporary_storage>(n, keys_in, keys_out, values_in, values_out, end_bit,
                                                                 descending, stream);
    }
  }
  template <class K>
  void sort_keys(size_type n, K const* keys_in, K* keys_out, bool descending) const {
    if (n > 0) { detail::radix_sort_keys<K, detail::temporary_storage>(n, keys_in, keys_out, descending, stream); }
  }
  // Sorts [first, first + n) in place by less(a, b), stably (a merge sort).
  template <class V, class Less>
  void stable_sort(V* first, size_type n, Less less) const {
    if (n > 1) { detail::stable_sort(first, n, less, stream); }
  }

 private:
  static constexpr std::size_t round_up(std::size_t bytes) {
    return (bytes + mr::default_alignment - 1) / mr::default_alignment * mr::default_alignment;
  }
};

}  // namespace colx::gpu
