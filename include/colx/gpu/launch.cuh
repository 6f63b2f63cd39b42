// SPDX-License-Identifier: Apache-2.0
#pragma once
// What every kernel launch of the CUDA backend needs: temporary storage for one call (CUB's
// scratch space, a few counters) from the current device resource, and the current device's
// attributes and kernels' occupancy, asked once per device.
#include <colx/core/config.hpp>
#include <colx/core/cuda_try.cuh>
#include <colx/memory/current_resource.hpp>
#include <colx/memory/stream.hpp>

#include <algorithm>
#include <array>
#include <cstddef>
#include <mutex>
#include <vector>

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

// Blocks of `kernel` (of `block` threads and `shared_bytes` of dynamic shared memory) one
// multiprocessor of the current device holds at once, asked once per device and size: the
// question, with the attribute a kernel needs to take more than 48 KiB, took 3 to 4 us of each
// group-by (CUPTI, H200). The attribute only ever rises, so that no size asked later lowers it
// under one whose answer is kept.
template <class Kernel>
int resident_blocks(Kernel* kernel, int block, std::size_t shared_bytes) {
  struct answer {
    void const* kernel;  // (kernels of one signature share this function's statics)
    int device, block;
    std::size_t shared_bytes;
    int resident;
  };
  static std::mutex mutex;
  static std::vector<answer> known;
  void const* const key = reinterpret_cast<void const*>(kernel);
  int device = 0;
  COLX_CUDA_TRY(cudaGetDevice(&device));
  std::lock_guard lock(mutex);
  std::size_t opted_in = 48 * 1024;  // what the kernel may take on this device: the most asked of it so far
  for (answer const& a : known) {
    if (a.kernel != key || a.device != device) { continue; }
    if (a.block == block && a.shared_bytes == shared_bytes) { return a.resident; }
    opted_in = std::max(opted_in, a.shared_bytes);
  }
  if (shared_bytes > opted_in) {  // beyond the default, a kernel must ask for it; only ever more
    COLX_CUDA_TRY(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, static_cast<int>(shared_bytes)));
  }
  int resident = 0;
  COLX_CUDA_TRY(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&resident, kernel, block, shared_bytes));
  known.push_back({key, device, block, shared_bytes, resident});
  return resident;
}

}  // namespace colx::gpu::detail
