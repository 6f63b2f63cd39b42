// SPDX-License-Identifier: Apache-2.0
#pragma once
// Stream-ordered device memory from a cudaMemPool of our own (cudaMallocFromPoolAsync): the
// default device resource. Freed blocks stay in the pool for reuse, so steady-state allocation
// costs no driver call.
#include <colx/core/cuda_try.cuh>
#include <colx/memory/resource.hpp>

#include <cstdint>
#include <limits>

namespace colx::gpu {

class pool_resource {
 public:
  // A pool on `device` (the current device when negative). `release_threshold` bytes stay
  // reserved after a synchronisation; by default everything stays, as RMM's async resource.
  explicit pool_resource(int device = -1, std::uint64_t release_threshold = std::numeric_limits<std::uint64_t>::max()) {
    if (device < 0) { COLX_CUDA_TRY(cudaGetDevice(&device)); }
    cudaMemPoolProps props{};
    props.allocType = cudaMemAllocationTypePinned;
    props.handleTypes = cudaMemHandleTypeNone;
    props.location.type = cudaMemLocationTypeDevice;
    props.location.id = device;
    COLX_CUDA_TRY(cudaMemPoolCreate(&_pool, &props));
    COLX_CUDA_TRY(cudaMemPoolSetAttribute(_pool, cudaMemPoolAttrReleaseThreshold, &release_threshold));
    _device = device;
  }
  pool_resource(pool_resource const&) = delete;
  pool_resource& operator=(pool_resource const&) = delete;
  ~pool_resource() { (void)cudaMemPoolDestroy(_pool); }

  [[nodiscard]] void* allocate_async(std::size_t bytes, std::size_t alignment, stream_ref stream) {
    COLX_EXPECTS(alignment <= mr::default_alignment, "device pool alignment is at most ",
                 mr::default_alignment, " bytes; asked for ", alignment);
    if (bytes == 0) { return nullptr; }
    void* p = nullptr;
    cudaError_t const status = cudaMallocFromPoolAsync(&p, bytes, _pool, stream.value());
    if (status == cudaErrorMemoryAllocation) {
      (void)cudaGetLastError();
      COLX_FAIL_AS(out_of_memory, "device pool allocation of ", bytes, " bytes failed on device ", _device);
    }
    COLX_CUDA_TRY(status);
    return p;
  }
  void deallocate_async(void* p, std::size_t, std::size_t, stream_ref stream) noexcept {
    if (p != nullptr) { (void)cudaFreeAsync(p, stream.value()); }
  }
  // Synchronous forms, for cuda::mr::resource: ordered on the default stream and waited for.
  [[nodiscard]] void* allocate(std::size_t bytes, std::size_t alignment) {
    void* p = allocate_async(bytes, alignment, stream_ref{});
    stream_ref{}.synchronize();
    return p;
  }
  void deallocate(void* p, std::size_t bytes, std::size_t alignment) noexcept {
    deallocate_async(p, bytes, alignment, stream_ref{});
    (void)cudaStreamSynchronize(nullptr);
  }

  [[nodiscard]] cudaMemPool_t pool() const noexcept { return _pool; }
  [[nodiscard]] int device() const noexcept { return _device; }

  friend bool operator==(pool_resource const& a, pool_resource const& b) noexcept { return a._pool == b._pool; }
  friend void get_property(pool_resource const&, mr::device_accessible) noexcept {}

 private:
  cudaMemPool_t _pool{};
  int _device = 0;
};

// Raw cudaMallocAsync on the device's default pool, with no pool of our own: the baseline the
// benchmarks compare against, and a resource for code that shares the driver's default pool.
class async_resource {
 public:
  [[nodiscard]] void* allocate_async(std::size_t bytes, std::size_t, stream_ref stream) {
    if (bytes == 0) { return nullptr; }
    void* p = nullptr;
    COLX_CUDA_TRY(cudaMallocAsync(&p, bytes, stream.value()));
    return p;
  }
  void deallocate_async(void* p, std::size_t, std::size_t, stream_ref stream) noexcept {
    if (p != nullptr) { (void)cudaFreeAsync(p, stream.value()); }
  }
  [[nodiscard]] void* allocate(std::size_t bytes, std::size_t alignment) {
    void* p = allocate_async(bytes, alignment, stream_ref{});
    stream_ref{}.synchronize();
    return p;
  }
  void deallocate(void* p, std::size_t bytes, std::size_t alignment) noexcept {
    deallocate_async(p, bytes, alignment, stream_ref{});
    (void)cudaStreamSynchronize(nullptr);
  }
  friend bool operator==(async_resource const&, async_resource const&) noexcept { return true; }
  friend void get_property(async_resource const&, mr::device_accessible) noexcept {}
};

}  // namespace colx::gpu

static_assert(::cuda::mr::async_resource_with<colx::gpu::pool_resource, ::cuda::mr::device_accessible>,
              "pool_resource must model libcu++'s cuda::mr::async_resource");
static_assert(::cuda::mr::async_resource_with<colx::gpu::async_resource, ::cuda::mr::device_accessible>,
              "async_resource must model libcu++'s cuda::mr::async_resource");
