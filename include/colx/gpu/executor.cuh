// SPDX-License-Identifier: Apache-2.0
#pragma once
// The CUDA backend's primitives, stream-ordered: a grid-stride for-each kernel, and CUB for
// reductions and scans (deterministic, temporary storage from the current device resource).
#include <colx/core/config.hpp>
#include <colx/gpu/cuda_try.cuh>
#include <colx/memory/current_resource.hpp>
#include <colx/memory/stream.hpp>

#include <cub/device/device_reduce.cuh>
#include <cub/device/device_scan.cuh>
#include <thrust/iterator/counting_iterator.h>
#include <thrust/iterator/transform_iterator.h>

#include <algorithm>

namespace colx::gpu {
namespace detail {

template <class F>
__global__ void for_each_kernel(size_type n, F f) {
  size_type const stride = static_cast<size_type>(gridDim.x) * blockDim.x;
  for (size_type i = static_cast<size_type>(blockIdx.x) * blockDim.x + threadIdx.x; i < n; i += stride) { f(i); }
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

// f(i) below n, zero at n: the scan's extra element that carries the total. At namespace scope:
// a kernel's template arguments must be nameable from nvcc's host stub.
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

 private:
  static constexpr std::size_t round_up(std::size_t bytes) {
    return (bytes + mr::default_alignment - 1) / mr::default_alignment * mr::default_alignment;
  }
};

}  // namespace colx::gpu
