// SPDX-License-Identifier: Apache-2.0
#pragma once
// Page-locked host memory with a cache: cudaMallocHost pins pages and costs about a millisecond
// per megabyte, so freed blocks are kept and reused (best fit, at most twice the size asked for)
// instead of being unpinned. The default pinned resource.
#include <colx/gpu/pinned_resource.cuh>

#include <map>
#include <mutex>
#include <unordered_map>

namespace colx::gpu {

class pinned_pool_resource {
 public:
  pinned_pool_resource() = default;
  pinned_pool_resource(pinned_pool_resource const&) = delete;
  pinned_pool_resource& operator=(pinned_pool_resource const&) = delete;
  ~pinned_pool_resource() {
    release();
    for (auto const& [p, bytes] : _live) { _upstream.deallocate(p, bytes); }
  }

  [[nodiscard]] void* allocate(std::size_t bytes, std::size_t alignment = mr::default_alignment) {
    COLX_EXPECTS(alignment <= mr::default_alignment, "pinned alignment is at most ", mr::default_alignment,
                 " bytes; asked for ", alignment);
    if (bytes == 0) { return nullptr; }
    std::lock_guard lock(_mutex);
    if (auto it = _free.lower_bound(bytes); it != _free.end() && it->first <= 2 * bytes) {
      auto const [size, p] = *it;
      _free.erase(it);
      _cached_bytes -= size;
      _live.emplace(p, size);
      return p;
    }
    void* p = _upstream.allocate(bytes, alignment);
    _live.emplace(p, bytes);
    return p;
  }
  void deallocate(void* p, std::size_t, std::size_t = mr::default_alignment) noexcept {
    if (p == nullptr) { return; }
    std::lock_guard lock(_mutex);
    auto const it = _live.find(p);
    if (it == _live.end()) { return; }  // not ours: nothing to do safely
    _free.emplace(it->second, p);
    _cached_bytes += it->second;
    _live.erase(it);
  }
  [[nodiscard]] void* allocate_async(std::size_t bytes, std::size_t alignment, stream_ref) {
    return allocate(bytes, alignment);
  }
  // A block may still be read or written by a copy on `stream`: wait for it before reuse.
  void deallocate_async(void* p, std::size_t bytes, std::size_t alignment, stream_ref stream) noexcept {
    (void)cudaStreamSynchronize(stream.value());
    deallocate(p, bytes, alignment);
  }

  // Unpins every cached block.
  void release() noexcept {
    std::lock_guard lock(_mutex);
    for (auto const& [bytes, p] : _free) { _upstream.deallocate(p, bytes); }
    _free.clear();
    _cached_bytes = 0;
  }
  [[nodiscard]] std::size_t cached_bytes() const {
    std::lock_guard lock(_mutex);
    return _cached_bytes;
  }

  friend bool operator==(pinned_pool_resource const& a, pinned_pool_resource const& b) noexcept { return &a == &b; }
  friend void get_property(pinned_pool_resource const&, mr::host_accessible) noexcept {}
  friend void get_property(pinned_pool_resource const&, mr::device_accessible) noexcept {}

 private:
  pinned_resource _upstream;
  mutable std::mutex _mutex;
  std::multimap<std::size_t, void*> _free;     // by size, for best fit
  std::unordered_map<void*, std::size_t> _live;  // block sizes, which may exceed what was asked
  std::size_t _cached_bytes = 0;
};

}  // namespace colx::gpu
