// SPDX-License-Identifier: Apache-2.0
#pragma once
// What every kernel launch of the CUDA backend needs: temporary storage for one call (CUB's
// scratch space, a few counters) from the current device resource, and the current device's
// attributes, asked once per device.
#include <colx/core/config.hpp>
#include <colx/core/cuda_try.cuh>
#include <colx/memory/current_resource.hpp>
#include <colx/memory/stream.hpp>

#include <algorithm>
#include <array>
#include <cstddef>
#include <mutex>

namespace colx::gpu::detail {

// Allocates temporary storage from the current device resource for one call, stream-ordered.
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

// Bytes rounded up to the resources' alignment: where a second object starts in one allocation.
constexpr std::size_t round_up(std::size_t bytes) {
  return (bytes + mr::default_alignment - 1) / mr::default_alignment * mr::default_alignment;
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

}  // namespace colx::gpu::detail
