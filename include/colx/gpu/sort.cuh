// SPDX-License-Identifier: Apache-2.0
#pragma once
// Sorting on the device: CUB's radix sort for keys that encode as unsigned integers, Thrust's
// merge sort with a comparator for the rest (strings, keys wider than 64 bits). Temporary storage
// comes from the current device resource, on the caller's stream.
#include <colx/core/error.hpp>
#include <colx/exec/atomics.hpp>
#include <colx/gpu/cuda_try.cuh>
#include <colx/memory/current_resource.hpp>
#include <colx/memory/stream.hpp>

#include <cub/device/device_radix_sort.cuh>
#include <thrust/execution_policy.h>
#include <thrust/sort.h>

#include <cstddef>

namespace colx::gpu::detail {

// Thrust's temporary allocations through the current device resource, stream-ordered.
class thrust_allocator {
 public:
  using value_type = char;
  explicit thrust_allocator(stream_ref stream) : _mr(get_current_device_resource()), _stream(stream) {}
  char* allocate(std::ptrdiff_t bytes) {
    return static_cast<char*>(_mr.allocate_async(static_cast<std::size_t>(bytes), mr::default_alignment, _stream));
  }
  void deallocate(char* p, std::size_t bytes) { _mr.deallocate_async(p, bytes, mr::default_alignment, _stream); }

 private:
  resource_ref _mr;
  stream_ref _stream;
};

// CUB's radix sort of (key, value) pairs, stable, keys ascending or descending over bits
// [0, end_bit). Keys of a signed or floating type are ordered by value (CUB flips their bits).
template <class K, class V, class Temp>
void radix_sort_pairs(size_type n, K const* keys_in, K* keys_out, V const* values_in, V* values_out, int end_bit,
                      bool descending, stream_ref stream) {
  auto const call = [&](void* temp, std::size_t& bytes) {
    return descending ? cub::DeviceRadixSort::SortPairsDescending(temp, bytes, keys_in, keys_out, values_in, values_out, n, 0,
                                                                  end_bit, stream.value())
                      : cub::DeviceRadixSort::SortPairs(temp, bytes, keys_in, keys_out, values_in, values_out, n, 0, end_bit,
                                                        stream.value());
  };
  std::size_t bytes = 0;
  COLX_CUDA_TRY(call(nullptr, bytes));
  Temp temp(bytes, stream);
  COLX_CUDA_TRY(call(temp.data(), bytes));
}

template <class K, class Temp>
void radix_sort_keys(size_type n, K const* keys_in, K* keys_out, bool descending, stream_ref stream) {
  auto const call = [&](void* temp, std::size_t& bytes) {
    return descending ? cub::DeviceRadixSort::SortKeysDescending(temp, bytes, keys_in, keys_out, n, 0,
                                                                 static_cast<int>(sizeof(K) * 8), stream.value())
                      : cub::DeviceRadixSort::SortKeys(temp, bytes, keys_in, keys_out, n, 0, static_cast<int>(sizeof(K) * 8),
                                                       stream.value());
  };
  std::size_t bytes = 0;
  COLX_CUDA_TRY(call(nullptr, bytes));
  Temp temp(bytes, stream);
  COLX_CUDA_TRY(call(temp.data(), bytes));
}

// Few rows (a group-by's sorted result, a top-k's candidates): each row's place is the number of
// rows that go before it, found by comparing every pair at once, and ties go by position. A merge
// sort's passes are chains of dependent comparisons, each a few loads of keys from memory: it
// took 219 us on the H100 to sort TPC-H Q1's four result rows by two string keys.
inline constexpr size_type pairwise_sort_limit = 1024;

template <class V, class Less>
__global__ void rank_by_pairs_kernel(V const* values, size_type n, Less less, size_type* ranks) {
  size_type const k = static_cast<size_type>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (k >= n * n) { return; }
  size_type const i = k / n;
  size_type const j = k % n;
  if (i == j) { return; }
  V const a = values[i];
  V const b = values[j];
  if (less(b, a) || (j < i && !less(a, b))) { colx::detail::atomic_add(ranks + i, size_type{1}); }
}
template <class V>
__global__ void place_by_rank_kernel(V const* values, size_type n, size_type const* ranks, V* out) {
  size_type const i = static_cast<size_type>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i < n) { out[ranks[i]] = values[i]; }
}

template <class V, class Less>
void stable_sort(V* first, size_type n, Less less, stream_ref stream) {
  if (n <= 1) { return; }
  if (n <= pairwise_sort_limit) {
    thrust_allocator temp(stream);
    std::size_t const bytes = static_cast<std::size_t>(n) * (sizeof(size_type) + sizeof(V));
    char* const storage = temp.allocate(static_cast<std::ptrdiff_t>(bytes));
    auto* const ranks = reinterpret_cast<size_type*>(storage);
    auto* const sorted = reinterpret_cast<V*>(storage + static_cast<std::size_t>(n) * sizeof(size_type));
    constexpr int block = 256;
    COLX_CUDA_TRY(cudaMemsetAsync(ranks, 0, static_cast<std::size_t>(n) * sizeof(size_type), stream.value()));
    rank_by_pairs_kernel<<<static_cast<unsigned>((n * n + block - 1) / block), block, 0, stream.value()>>>(first, n, less, ranks);
    COLX_CUDA_TRY(cudaGetLastError());
    place_by_rank_kernel<<<static_cast<unsigned>((n + block - 1) / block), block, 0, stream.value()>>>(first, n, ranks, sorted);
    COLX_CUDA_TRY(cudaGetLastError());
    COLX_CUDA_TRY(cudaMemcpyAsync(first, sorted, static_cast<std::size_t>(n) * sizeof(V), cudaMemcpyDeviceToDevice, stream.value()));
    temp.deallocate(storage, bytes);
    return;
  }
  thrust::stable_sort(thrust::cuda::par_nosync(thrust_allocator(stream)).on(stream.value()), first, first + n, less);
  COLX_CUDA_TRY(cudaGetLastError());
}

}  // namespace colx::gpu::detail
