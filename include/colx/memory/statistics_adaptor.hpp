// SPDX-License-Identifier: Apache-2.0
#pragma once
// Counts what passes through it: bytes and allocations outstanding, their peaks, and totals.
#include <colx/memory/resource.hpp>

#include <algorithm>
#include <cstdint>
#include <mutex>

namespace colx {

struct memory_statistics {
  std::int64_t current_bytes = 0;
  std::int64_t peak_bytes = 0;
  std::int64_t total_bytes = 0;
  std::int64_t current_allocations = 0;
  std::int64_t peak_allocations = 0;
  std::int64_t total_allocations = 0;
};

class statistics_adaptor {
 public:
  explicit statistics_adaptor(resource_ref upstream) : _upstream(upstream) {}
  statistics_adaptor(statistics_adaptor const&) = delete;
  statistics_adaptor& operator=(statistics_adaptor const&) = delete;

  [[nodiscard]] void* allocate_async(std::size_t bytes, std::size_t alignment, stream_ref stream) {
    void* p = _upstream.allocate_async(bytes, alignment, stream);
    record(static_cast<std::int64_t>(bytes), 1);
    return p;
  }
  void deallocate_async(void* p, std::size_t bytes, std::size_t alignment, stream_ref stream) noexcept {
    _upstream.deallocate_async(p, bytes, alignment, stream);
    record(-static_cast<std::int64_t>(bytes), -1);
  }
  [[nodiscard]] void* allocate(std::size_t bytes, std::size_t alignment) {
    void* p = _upstream.allocate(bytes, alignment);
    record(static_cast<std::int64_t>(bytes), 1);
    return p;
  }
  void deallocate(void* p, std::size_t bytes, std::size_t alignment) noexcept {
    _upstream.deallocate(p, bytes, alignment);
    record(-static_cast<std::int64_t>(bytes), -1);
  }

  [[nodiscard]] memory_statistics statistics() const {
    std::lock_guard lock(_mutex);
    return _stats;
  }
  [[nodiscard]] memory_kind kind() const noexcept { return _upstream.kind(); }
  [[nodiscard]] resource_ref upstream() const noexcept { return _upstream; }

  friend bool operator==(statistics_adaptor const& a, statistics_adaptor const& b) noexcept { return &a == &b; }

 private:
  void record(std::int64_t bytes, std::int64_t count) noexcept {
    std::lock_guard lock(_mutex);
    _stats.current_bytes += bytes;
    _stats.current_allocations += count;
    _stats.peak_bytes = std::max(_stats.peak_bytes, _stats.current_bytes);
    _stats.peak_allocations = std::max(_stats.peak_allocations, _stats.current_allocations);
    if (count > 0) {
      _stats.total_bytes += bytes;
      _stats.total_allocations += count;
    }
  }

  resource_ref _upstream;
  mutable std::mutex _mutex;
  memory_statistics _stats;
};

}  // namespace colx
