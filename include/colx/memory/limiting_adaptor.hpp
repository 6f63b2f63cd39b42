// SPDX-License-Identifier: Apache-2.0
#pragma once
// Caps the bytes outstanding through it; an allocation past the cap throws colx::out_of_memory
// without touching the upstream resource.
#include <colx/core/error.hpp>
#include <colx/memory/resource.hpp>

#include <atomic>

namespace colx {

class limiting_adaptor {
 public:
  limiting_adaptor(resource_ref upstream, std::size_t limit_bytes) : _upstream(upstream), _limit(limit_bytes) {}
  limiting_adaptor(limiting_adaptor const&) = delete;
  limiting_adaptor& operator=(limiting_adaptor const&) = delete;

  [[nodiscard]] void* allocate_async(std::size_t bytes, std::size_t alignment, stream_ref stream) {
    reserve(bytes);
    try {
      return _upstream.allocate_async(bytes, alignment, stream);
    } catch (...) {
      _used.fetch_sub(bytes);
      throw;
    }
  }
  void deallocate_async(void* p, std::size_t bytes, std::size_t alignment, stream_ref stream) noexcept {
    _upstream.deallocate_async(p, bytes, alignment, stream);
    _used.fetch_sub(bytes);
  }
  [[nodiscard]] void* allocate(std::size_t bytes, std::size_t alignment) {
    reserve(bytes);
    try {
      return _upstream.allocate(bytes, alignment);
    } catch (...) {
      _used.fetch_sub(bytes);
      throw;
    }
  }
  void deallocate(void* p, std::size_t bytes, std::size_t alignment) noexcept {
    _upstream.deallocate(p, bytes, alignment);
    _used.fetch_sub(bytes);
  }

  [[nodiscard]] std::size_t limit() const noexcept { return _limit; }
  [[nodiscard]] std::size_t used() const noexcept { return _used.load(); }
  [[nodiscard]] memory_kind kind() const noexcept { return _upstream.kind(); }
  [[nodiscard]] resource_ref upstream() const noexcept { return _upstream; }

  friend bool operator==(limiting_adaptor const& a, limiting_adaptor const& b) noexcept { return &a == &b; }

 private:
  void reserve(std::size_t bytes) {
    std::size_t used = _used.load();
    do {
      if (bytes > _limit - used) {
        COLX_FAIL_AS(out_of_memory, "allocation of ", bytes, " bytes exceeds the limit of ", _limit, " bytes (",
                     used, " in use, ", _limit - used, " free)");
      }
    } while (!_used.compare_exchange_weak(used, used + bytes));
  }

  resource_ref _upstream;
  std::size_t _limit;
  std::atomic<std::size_t> _used{0};
};

}  // namespace colx
