// SPDX-License-Identifier: Apache-2.0
#pragma once
// The memory behind shared buffers: one allocation (colx's own, or foreign memory imported from
// another library and freed through that library's callback) that any number of shared_buffer
// slices refer to. It records what the buffer policies need: whether the memory was exposed (a
// raw pointer left for code we do not control), whether it may spill, and, while spilled, the
// host copy that stands in for it. Shared buffers and the spill manager drive it; user code never
// touches an owner directly.
#include <colx/memory/buffer.hpp>

#include <atomic>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <utility>

namespace colx {

class buffer_owner {
 public:
  // Takes over an allocation colx made.
  explicit buffer_owner(buffer&& memory)
      : _memory(std::move(memory)), _size(_memory.size()), _home(_memory.kind()) {}

  // Foreign memory: `release` frees it and is called exactly once, when the last slice is gone.
  buffer_owner(void* data, std::size_t size, memory_kind kind, std::function<void()> release)
      : _size(size), _home(kind), _foreign(data), _release(std::move(release)) {}

  buffer_owner(buffer_owner const&) = delete;
  buffer_owner& operator=(buffer_owner const&) = delete;
  ~buffer_owner() { free_memory(); }

  [[nodiscard]] std::size_t size() const noexcept { return _size; }
  // Where the memory lives when it is not spilled: what decides the backend that reads it.
  [[nodiscard]] memory_kind home_kind() const noexcept { return _home; }
  [[nodiscard]] bool foreign() const noexcept { return static_cast<bool>(_release) || _foreign != nullptr; }
  [[nodiscard]] stream_ref stream() const noexcept { return _memory.stream(); }
  // The stream of the latest access to foreign memory, waited for before it is released.
  void note_stream(stream_ref s) noexcept { _last_stream.store(s.value(), std::memory_order_relaxed); }

  // Exposed: a raw pointer to it was handed out. Never shared again, never spilled.
  [[nodiscard]] bool exposed() const noexcept { return _exposed.load(std::memory_order_acquire); }
  void mark_exposed() noexcept { _exposed.store(true, std::memory_order_release); }

  // Spilling state. A spillable owner was registered with the spill manager; it stops being
  // spillable for good when a pointer to it is taken outside a spill lock.
  [[nodiscard]] bool spillable() const noexcept {
    return _spillable.load(std::memory_order_acquire) && !exposed();
  }
  void set_spillable(bool on) noexcept { _spillable.store(on, std::memory_order_release); }
  [[nodiscard]] bool spilled() const noexcept { return _spilled.load(std::memory_order_acquire); }
  // Held by spill locks and by accesses in progress; the spill manager skips owners it counts.
  [[nodiscard]] std::shared_ptr<std::atomic<int>> const& pins() const noexcept { return _pins; }
  [[nodiscard]] std::uint64_t last_use() const noexcept { return _last_use.load(std::memory_order_relaxed); }
  void touch(std::uint64_t tick) noexcept { _last_use.store(tick, std::memory_order_relaxed); }
  [[nodiscard]] std::mutex& mutex() const noexcept { return _mutex; }

  // Slices (shared_buffers) that refer to this memory. Sharing is counted here, not by the
  // shared_ptr's use count: the spill manager holds owners for a moment while it looks for
  // victims, and a buffer that looked shared then was copied on write (on the writer's stream
  // of the moment), found by eight threads spilling at once.
  void add_slice() noexcept { _slices.fetch_add(1, std::memory_order_relaxed); }
  // When the last slice goes, the memory is freed at once (in the order of the stream it was last
  // given), on the thread that let it go, after any spill in progress. Were it left to the
  // owner's destructor, a spill manager that held the owner for a moment could free it later, after
  // the thread that used it had destroyed that stream (a crash in cuMemFreeAsync, eight threads
  // spilling). As in CUDA and RMM, a stream must outlive the memory ordered on it.
  void drop_slice() noexcept {
    if (_slices.fetch_sub(1, std::memory_order_acq_rel) != 1) { return; }
    std::lock_guard lock(_mutex);
    free_memory();
  }
  [[nodiscard]] int slices() const noexcept { return _slices.load(std::memory_order_acquire); }

  // The memory at home; the caller holds mutex() and has brought it home first.
  [[nodiscard]] void* data() noexcept { return _foreign != nullptr ? _foreign : _memory.data(); }

  // Moves the memory to `target` (host-accessible); false when there was nothing to move. The
  // caller holds mutex() and made sure no work still uses the memory.
  bool spill_to(resource_ref target) {
    if (spilled() || foreign() || _size == 0 || slices() == 0) { return false; }  // no slices: freed, or about to be
    stream_ref const s = _memory.stream();
    buffer away(_memory.data(), _home, _size, s, target);
    s.synchronize();  // the home memory may be freed, and the copy read, only once it is done
    _memory = std::move(away);
    _spilled.store(true, std::memory_order_release);
    return true;
  }
  // Brings spilled memory back home, allocated from `home`; false when it was not spilled.
  bool unspill(resource_ref home, stream_ref stream) {
    if (!spilled()) { return false; }
    buffer back(_memory.data(), _memory.kind(), _size, stream, home);
    stream.synchronize();  // the host copy is freed next
    // The memory keeps the stream it had, not the accessor's: a shared buffer brought back by one
    // thread on its own stream was later spilled, or freed, on that stream after the thread had
    // destroyed it (wrong results and a destroyed context with eight threads spilling at once).
    // The copy is complete, so any stream may order what comes next.
    back.set_stream(_memory.stream());
    _memory = std::move(back);
    _spilled.store(false, std::memory_order_release);
    return true;
  }

 private:
  void free_memory() noexcept {
    _memory = buffer();
    if (!_release) { return; }
    // Work queued on the last stream that used foreign device memory may still read it: the
    // producer frees it only once that work is done.
    if (_home != memory_kind::host) {
      try {
        stream_ref(_last_stream.load()).synchronize();
      } catch (...) {  // this must not throw; the release below must still happen
      }
    }
    std::exchange(_release, nullptr)();
  }

  buffer _memory;
  std::size_t _size = 0;
  memory_kind _home = memory_kind::host;
  void* _foreign = nullptr;
  std::function<void()> _release;
  std::atomic<stream_ref::value_type> _last_stream{nullptr};
  std::atomic<bool> _exposed{false};
  std::atomic<bool> _spillable{false};
  std::atomic<bool> _spilled{false};
  std::shared_ptr<std::atomic<int>> _pins = std::make_shared<std::atomic<int>>(0);
  std::atomic<std::uint64_t> _last_use{0};
  std::atomic<int> _slices{0};
  mutable std::mutex _mutex;
};

}  // namespace colx
