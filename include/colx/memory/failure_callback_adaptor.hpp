// SPDX-License-Identifier: Apache-2.0
#pragma once
// Calls back when the upstream runs out of memory, and retries while the callback says it freed
// something (or that memory may have come free meanwhile): the hook a spill manager uses to
// spill on demand.
#include <colx/core/error.hpp>
#include <colx/memory/resource.hpp>

#include <functional>
#include <new>
#include <utility>

namespace colx {

class failure_callback_adaptor {
 public:
  // callback(bytes) is called after the upstream failed to allocate `bytes`; it returns true when
  // it released memory and the allocation should be tried again, false to let out_of_memory fly.
  using callback = std::function<bool(std::size_t bytes)>;
  // The same, told how many times this allocation has failed before (0 the first time), so
  // that a callback which waits for memory to come free can bound its waiting.
  using counting_callback = std::function<bool(std::size_t bytes, int failures_before)>;

  failure_callback_adaptor(resource_ref upstream, callback on_failure) : _upstream(upstream) {
    if (on_failure) {
      _on_failure = [f = std::move(on_failure)](std::size_t bytes, int) { return f(bytes); };
    }
  }
  failure_callback_adaptor(resource_ref upstream, counting_callback on_failure)
      : _upstream(upstream), _on_failure(std::move(on_failure)) {}
  failure_callback_adaptor(failure_callback_adaptor const&) = delete;
  failure_callback_adaptor& operator=(failure_callback_adaptor const&) = delete;

  [[nodiscard]] void* allocate_async(std::size_t bytes, std::size_t alignment, stream_ref stream) {
    return retry(bytes, [&] { return _upstream.allocate_async(bytes, alignment, stream); });
  }
  void deallocate_async(void* p, std::size_t bytes, std::size_t alignment, stream_ref stream) noexcept {
    _upstream.deallocate_async(p, bytes, alignment, stream);
  }
  [[nodiscard]] void* allocate(std::size_t bytes, std::size_t alignment) {
    return retry(bytes, [&] { return _upstream.allocate(bytes, alignment); });
  }
  void deallocate(void* p, std::size_t bytes, std::size_t alignment) noexcept {
    _upstream.deallocate(p, bytes, alignment);
  }

  [[nodiscard]] memory_kind kind() const noexcept { return _upstream.kind(); }
  [[nodiscard]] resource_ref upstream() const noexcept { return _upstream; }

  friend bool operator==(failure_callback_adaptor const& a, failure_callback_adaptor const& b) noexcept {
    return &a == &b;
  }

 private:
  template <class Allocate>
  void* retry(std::size_t bytes, Allocate allocate) {
    for (int failures = 0;; ++failures) {
      try {
        return allocate();
      } catch (std::bad_alloc const&) {  // colx's out_of_memory, or an RMM upstream's
        if (!_on_failure || !_on_failure(bytes, failures)) { throw; }
      }
    }
  }

  resource_ref _upstream;
  counting_callback _on_failure;
};

}  // namespace colx
