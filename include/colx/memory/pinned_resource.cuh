// SPDX-License-Identifier: Apache-2.0
#pragma once
// Page-locked host memory (cudaMallocHost): host-accessible for the host backend, and the
// device can copy to and from it at full link speed.
#include <colx/core/cuda_try.cuh>
#include <colx/memory/resource.hpp>

namespace colx::gpu {

class pinned_resource {
 public:
  [[nodiscard]] void* allocate(std::size_t bytes, std::size_t alignment = mr::default_alignment) {
    COLX_EXPECTS(alignment <= mr::default_alignment, "pinned alignment is at most ", mr::default_alignment,
                 " bytes; asked for ", alignment);
    if (bytes == 0) { return nullptr; }
    void* p = nullptr;
    COLX_CUDA_TRY(cudaMallocHost(&p, bytes));
    return p;
  }
  void deallocate(void* p, std::size_t, std::size_t = mr::default_alignment) noexcept {
    if (p != nullptr) { (void)cudaFreeHost(p); }
  }
  // cudaFreeHost waits for the device, so freeing in stream order is a synchronous free.
  [[nodiscard]] void* allocate_async(std::size_t bytes, std::size_t alignment, stream_ref) {
    return allocate(bytes, alignment);
  }
  void deallocate_async(void* p, std::size_t bytes, std::size_t alignment, stream_ref stream) noexcept {
    (void)cudaStreamSynchronize(stream.value());
    deallocate(p, bytes, alignment);
  }

  friend bool operator==(pinned_resource const&, pinned_resource const&) noexcept { return true; }
  friend void get_property(pinned_resource const&, mr::host_accessible) noexcept {}
  friend void get_property(pinned_resource const&, mr::device_accessible) noexcept {}
};

}  // namespace colx::gpu

static_assert(::cuda::mr::async_resource_with<colx::gpu::pinned_resource, ::cuda::mr::host_accessible,
                                              ::cuda::mr::device_accessible>,
              "pinned_resource must model libcu++'s cuda::mr::async_resource");
