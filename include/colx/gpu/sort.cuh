// SPDX-License-Identifier: Apache-2.0
#pragma once
// Sorting on the device: CUB's radix sort for keys that encode as unsigned integers, Thrust's
// merge sort with a comparator for the rest (strings, keys wider than 64 bits). Temporary storage
// comes from the current device resource, on the caller's stream.
#include <colx/core/error.hpp>
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

template <class V, class Less>
void stable_sort(V* first, size_type n, Less less, stream_ref stream) {
  thrust::stable_sort(thrust::cuda::par_nosync(thrust_allocator(stream)).on(stream.value()), first, first + n, less);
  COLX_CUDA_TRY(cudaGetLastError());
}

}  // namespace colx::gpu::detail
