// SPDX-License-Identifier: Apache-2.0
#pragma once
// The lock that keeps spillable buffers in place while work uses their addresses: every buffer
// accessed on a thread while a scope lives there stays put until the scope ends and, on the CUDA
// backend, until its stream has finished the work queued meanwhile (spill_manager.hpp).
#include <colx/memory/stream.hpp>

#include <atomic>
#include <memory>
#include <vector>

namespace colx {

// Keeps every spillable buffer accessed on this thread while it lives in place until the scope
// ends and the work queued on `stream` meanwhile has finished. Scopes nest; each releases its own.
class spill_lock_scope {
 public:
  explicit spill_lock_scope(stream_ref stream = {}) : _stream(stream), _outer(innermost()) { innermost() = this; }
  spill_lock_scope(spill_lock_scope const&) = delete;
  spill_lock_scope& operator=(spill_lock_scope const&) = delete;
  ~spill_lock_scope() {
    innermost() = _outer;
    if (_held.empty()) { return; }
#if COLX_HAS_CUDA
    // Released when the stream gets there: no wait for the device. The callback may not call
    // CUDA, so it only counts down; it owns the counters, not the buffers.
    auto* held = new std::vector<std::shared_ptr<std::atomic<int>>>(std::move(_held));
    if (cudaLaunchHostFunc(_stream.value(), &release, held) == cudaSuccess) { return; }
    (void)cudaGetLastError();
    _stream.synchronize();
    release(held);
#else
    for (auto const& pins : _held) { pins->fetch_sub(1); }
#endif
  }

  // The innermost scope on this thread, or null.
  [[nodiscard]] static spill_lock_scope* current() noexcept { return innermost(); }
  void hold(std::shared_ptr<std::atomic<int>> const& pins) {
    pins->fetch_add(1);
    _held.push_back(pins);
  }
  // Whether an open scope on this thread holds `pins`: those stay held until the thread goes on.
  [[nodiscard]] static bool held_on_this_thread(std::atomic<int> const* pins) noexcept {
    for (spill_lock_scope const* s = innermost(); s != nullptr; s = s->_outer) {
      for (auto const& p : s->_held) {
        if (p.get() == pins) { return true; }
      }
    }
    return false;
  }

 private:
  static spill_lock_scope*& innermost() noexcept {
    thread_local spill_lock_scope* scope = nullptr;
    return scope;
  }
#if COLX_HAS_CUDA
  static void CUDART_CB release(void* held) {
    auto* pins = static_cast<std::vector<std::shared_ptr<std::atomic<int>>>*>(held);
    for (auto const& p : *pins) { p->fetch_sub(1); }
    delete pins;
  }
#endif

  stream_ref _stream;
  spill_lock_scope* _outer;
  std::vector<std::shared_ptr<std::atomic<int>>> _held;
};

}  // namespace colx
