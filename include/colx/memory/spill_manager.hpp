// SPDX-License-Identifier: Apache-2.0
#pragma once
// Spilling, as cuDF's: column buffers in device memory register with the spill manager, which
// moves the least recently used ones to pinned host memory when device memory is short (a soft
// limit, or an allocation that failed) and brings them back when they are next accessed.
//
// A buffer may move only while nothing holds its address. Work that reads buffers runs inside a
// spill_lock_scope: every buffer it touches stays put until the scope ends and, on the CUDA
// backend, until the stream has finished the work queued in the scope (a host callback on the
// stream releases the locks; nothing waits for the device). A pointer taken outside any scope
// could be held for ever, so such a buffer stops being spillable for good; exposed buffers
// (handed to other libraries) never spill.
//
// Switches (environment, read once, or the API below):
//   COLX_SPILL=1               register new device buffers as spillable
//   COLX_SPILL_ON_DEMAND=0|1   spill when a device allocation fails (default: on with COLX_SPILL)
//   COLX_SPILL_DEVICE_LIMIT=N  soft limit on spillable device bytes (512, 64MiB, 2GiB)
//   COLX_SPILL_STATS=0|1|2     statistics: off; bytes and time each way; also where each exposure happened
#include <colx/core/options.hpp>
#include <colx/memory/buffer_owner.hpp>
#include <colx/memory/current_resource.hpp>
#include <colx/memory/failure_callback_adaptor.hpp>
#include <colx/memory/spill_lock_scope.hpp>
#include <colx/memory/spill_statistics.hpp>

#include <algorithm>
#include <chrono>
#include <string>
#include <thread>
#include <vector>

namespace colx {

class spill_manager {
 public:
  // The process's manager.
  static spill_manager& get() {
    static spill_manager instance;
    return instance;
  }

  // ---- switches -------------------------------------------------------------------------
  [[nodiscard]] bool enabled() const noexcept { return _enabled.load(std::memory_order_relaxed); }
  // Buffers created while enabled are spillable; turning it off stops new registrations and
  // spilling, and brings nothing back by itself (accesses do). Returns the previous setting.
  bool set_enabled(bool on) {
    bool const previous = _enabled.exchange(on);
    if (on && _on_demand_wanted) { install_on_demand(); }
    return previous;
  }
  [[nodiscard]] bool on_demand() const noexcept { return _on_demand_wanted; }
  // Spill when an allocation of spillable memory's kind fails, through the current resource's
  // out-of-memory callback. Takes effect while spilling is enabled.
  void set_on_demand(bool on) {
    std::lock_guard lock(_settings_mutex);
    _on_demand_wanted = on;
    if (on && enabled()) { install_on_demand_locked(); }
    if (!on) { remove_on_demand_locked(); }
  }
  [[nodiscard]] std::optional<std::size_t> device_limit() const {
    std::lock_guard lock(_settings_mutex);
    return _limit;
  }
  void set_device_limit(std::optional<std::size_t> bytes) {
    {
      std::lock_guard lock(_settings_mutex);
      _limit = bytes;
    }
    make_room(0);
  }
  [[nodiscard]] int statistics_level() const noexcept { return _stats_level.load(std::memory_order_relaxed); }
  void set_statistics_level(int level) {
    COLX_EXPECTS(0 <= level && level <= 2, "spill statistics level ", level, " is not 0, 1 or 2");
    _stats_level.store(level);
  }
  [[nodiscard]] spill_statistics statistics() const {
    std::lock_guard lock(_stats_mutex);
    return _stats;
  }
  void reset_statistics() {
    std::lock_guard lock(_stats_mutex);
    _stats = {};
  }

  // Which memory spills, and where it goes: device memory to the current pinned resource unless
  // told otherwise. Host-only builds (and their tests) can spill host memory to another host
  // resource; the rules are the same.
  [[nodiscard]] memory_kind spilled_kind() const {
    std::lock_guard lock(_settings_mutex);
    return _from;
  }
  void set_spill_target(memory_kind from, std::optional<resource_ref> to) {
    std::lock_guard lock(_settings_mutex);
    if (_installed) { remove_on_demand_locked(); }
    _from = from;
    _to = to;
    if (_on_demand_wanted && enabled()) { install_on_demand_locked(); }
  }

  // ---- what buffers ask of it -------------------------------------------------------------
  // A new owner of freshly written memory: spillable when enabled and of the spilled kind.
  void track(std::shared_ptr<buffer_owner> const& owner) {
    if (!enabled() || owner->size() == 0 || owner->foreign() || owner->home_kind() != spilled_kind()) { return; }
    owner->touch(next_tick());
    owner->set_spillable(true);
    {
      std::lock_guard lock(_registry_mutex);
      _owners.push_back(owner);
    }
    owner->pins()->fetch_add(1);  // not itself the victim of the room it makes
    try {
      make_room(0);
    } catch (...) {
      owner->pins()->fetch_sub(1);
      throw;
    }
    owner->pins()->fetch_sub(1);
  }

  // The address of an owner's memory for work about to use it: brought home first when spilled,
  // locked in the current spill_lock_scope, or made unspillable when there is none.
  void* access(buffer_owner& owner, stream_ref stream);

  // Records an exposure (level 2 keeps where it happened).
  void record_exposure(std::size_t bytes, call_site const& where) {
    if (statistics_level() < 2) { return; }
    std::string key = std::string(where.file) + ":" + std::to_string(where.line) + " (" + where.function + ")";
    std::lock_guard lock(_stats_mutex);
    auto& e = _stats.exposures[std::move(key)];
    ++e.count;
    e.bytes += bytes;
  }

  // Spills least recently used buffers until at least `bytes` were moved or none is left that
  // may move. Returns the bytes moved.
  std::size_t spill(std::size_t bytes) { return spill_pass(bytes).moved; }

  // Spillable bytes now in home memory, and now spilled.
  [[nodiscard]] std::size_t resident_bytes() const { return tracked_bytes(false); }
  [[nodiscard]] std::size_t spilled_bytes() const { return tracked_bytes(true); }

 private:
  spill_manager()
      : _enabled(detail::env_flag("COLX_SPILL")),
        _on_demand_wanted(std::getenv("COLX_SPILL_ON_DEMAND") == nullptr || detail::env_flag("COLX_SPILL_ON_DEMAND")),
        _stats_level(detail::env_level("COLX_SPILL_STATS", 2)), _limit(detail::env_bytes("COLX_SPILL_DEVICE_LIMIT")) {
    if (_enabled && _on_demand_wanted) { install_on_demand_locked(); }
  }

  std::uint64_t next_tick() noexcept { return _tick.fetch_add(1, std::memory_order_relaxed) + 1; }

  resource_ref spill_target() const {
    std::lock_guard lock(_settings_mutex);
    if (_to) { return *_to; }
#if COLX_HAS_CUDA
    return get_current_pinned_resource();
#else
    return get_current_host_resource();
#endif
  }

  // Owners that may move, least recently used first. They are held weakly, each only while it is
  // looked at, and sorted by a snapshot of their last use: other threads touch them meanwhile, and
  // a comparison that changes its mind during std::sort reads out of bounds (found by eight threads
  // spilling at once).
  struct candidate {
    std::weak_ptr<buffer_owner> owner;
    std::uint64_t last_use;
  };
  std::vector<candidate> spill_candidates() {
    std::vector<candidate> live;
    {
      std::lock_guard lock(_registry_mutex);
      std::erase_if(_owners, [](auto const& w) { return w.expired(); });
      for (auto const& w : _owners) {
        if (auto owner = w.lock(); owner && owner->spillable() && !owner->spilled() && owner->slices() > 0) {
          live.push_back({w, owner->last_use()});
        }
      }
    }
    std::sort(live.begin(), live.end(), [](candidate const& a, candidate const& b) { return a.last_use < b.last_use; });
    return live;
  }

  // The owner this thread is bringing back, if any: its own pin, not to be waited for.
  static buffer_owner const*& accessing_here() noexcept {
    thread_local buffer_owner const* owner = nullptr;
    return owner;
  }

  struct spill_result {
    std::size_t moved = 0;
    std::size_t busy = 0;  // bytes that could not move now but will once work in flight is done
  };
  spill_result spill_pass(std::size_t bytes);

  // The on-demand hook: spill; when nothing could move because everything spillable is locked by
  // work in flight (other threads', or work this thread queued on a stream that has not got there
  // yet), wait for some of it to finish and have the allocation tried again, a bounded number of
  // times: other threads' pipelines also free their intermediates as they end. Buffers held by
  // this thread's open scopes are not waited for; they cannot move until it goes on.
  bool spill_or_wait(std::size_t bytes, int failures_before) {
    if (!enabled()) { return false; }
    auto const [moved, busy] = spill_pass(bytes);
    if (moved > 0) { return true; }
    if (busy == 0 || failures_before >= max_waits) { return false; }
    std::this_thread::sleep_for(std::chrono::microseconds(std::min(50 << std::min(failures_before, 6), 2000)));
    return true;
  }
  // About two seconds of waiting in all before out_of_memory.
  static constexpr int max_waits = 1000;

  std::size_t tracked_bytes(bool spilled) const {
    std::size_t total = 0;
    std::lock_guard lock(_registry_mutex);
    for (auto const& w : _owners) {
      if (auto owner = w.lock(); owner && owner->slices() > 0 && owner->spilled() == spilled) { total += owner->size(); }
    }
    return total;
  }

  // Spills until `incoming` more bytes fit under the soft limit. Buffers pinned by the caller
  // (the one being brought back or registered) are not candidates.
  void make_room(std::size_t incoming) {
    auto const limit = device_limit();
    if (!limit || !enabled()) { return; }
    std::size_t const wanted = resident_bytes() + incoming;
    if (wanted > *limit) { spill(wanted - *limit); }
  }

  void count(spill_statistics::direction& d, std::size_t bytes, std::chrono::steady_clock::time_point start) {
    if (statistics_level() < 1) { return; }
    double const seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    std::lock_guard lock(_stats_mutex);
    d.bytes += bytes;
    ++d.count;
    d.seconds += seconds;
  }

  void install_on_demand() {
    std::lock_guard lock(_settings_mutex);
    install_on_demand_locked();
  }
  // Wraps the current resource of the spilled kind so that a failed allocation spills and retries.
  void install_on_demand_locked() {
    if (_installed) { return; }
#if !COLX_HAS_CUDA
    if (_from != memory_kind::host) { return; }  // no device memory to run out of
#endif
    resource_ref const upstream = get_current_resource(_from);
    // Every hook ever installed stays, chained: memory allocated through one may outlive its
    // removal, and resources must outlive their allocations (until exit, for statics).
    _hooks = new on_demand_hook{
        failure_callback_adaptor(upstream, failure_callback_adaptor::counting_callback(
                                                [this](std::size_t bytes, int failures_before) { return spill_or_wait(bytes, failures_before); })),
        _hooks};
    _previous = upstream;
    set_current(_from, _hooks->adaptor);
    _installed = true;
  }
  void remove_on_demand_locked() {
    if (!_installed) { return; }
    set_current(_from, *_previous);  // the adaptor stays alive for what was allocated through it
    _installed = false;
  }
  static void set_current(memory_kind kind, resource_ref r) {
    switch (kind) {
      case memory_kind::host: set_current_host_resource(r); return;
#if COLX_HAS_CUDA
      case memory_kind::pinned: set_current_pinned_resource(r); return;
      case memory_kind::device: set_current_device_resource(r); return;
#else
      default: break;
#endif
    }
    COLX_FAIL(to_string(kind), " memory needs the CUDA backend");
  }

  std::atomic<bool> _enabled;
  bool _on_demand_wanted;
  std::atomic<int> _stats_level;
  std::optional<std::size_t> _limit;
  memory_kind _from = memory_kind::device;
  std::optional<resource_ref> _to;
  bool _installed = false;
  struct on_demand_hook {
    failure_callback_adaptor adaptor;
    on_demand_hook* older;
  };
  on_demand_hook* _hooks = nullptr;
  std::optional<resource_ref> _previous;
  mutable std::mutex _settings_mutex;

  std::vector<std::weak_ptr<buffer_owner>> _owners;
  mutable std::mutex _registry_mutex;
  std::atomic<std::uint64_t> _tick{0};

  spill_statistics _stats;
  mutable std::mutex _stats_mutex;
};

inline spill_manager::spill_result spill_manager::spill_pass(std::size_t bytes) {
  spill_result result;
  resource_ref const target = spill_target();
  auto const busy = [&](buffer_owner const& owner) {
    if (&owner != accessing_here() && !spill_lock_scope::held_on_this_thread(owner.pins().get())) { result.busy += owner.size(); }
  };
  for (auto const& c : spill_candidates()) {
    if (result.moved >= bytes && bytes != 0) { break; }
    std::shared_ptr<buffer_owner> const owner = c.owner.lock();
    if (!owner) { continue; }
    if (owner->pins()->load() != 0) {  // checked before try_lock: this thread may hold its mutex
      busy(*owner);
      continue;
    }
    std::unique_lock lock(owner->mutex(), std::try_to_lock);
    if (!lock.owns_lock() || owner->pins()->load() != 0) {
      busy(*owner);
      continue;
    }
    if (!owner->spillable() || owner->spilled()) { continue; }
    auto const start = std::chrono::steady_clock::now();
    try {
      if (owner->spill_to(target)) {
        result.moved += owner->size();
        count(_stats.to_host, owner->size(), start);
      }
    } catch (std::bad_alloc const&) {
      break;  // the spill target is full too: report what moved, let the caller decide
    }
  }
  return result;
}

inline void* spill_manager::access(buffer_owner& owner, stream_ref stream) {
  owner.pins()->fetch_add(1);  // the spill manager keeps its hands off while we look
  struct unpin {
    buffer_owner& o;
    buffer_owner const* outer = std::exchange(accessing_here(), &o);
    ~unpin() {
      accessing_here() = outer;
      o.pins()->fetch_sub(1);
    }
  } const guard{owner};
  std::lock_guard lock(owner.mutex());
  if (owner.spilled()) {
    make_room(owner.size());
    auto const start = std::chrono::steady_clock::now();
    owner.unspill(get_current_resource(owner.home_kind()), stream);
    count(_stats.to_device, owner.size(), start);
  }
  owner.touch(next_tick());
  if (auto* scope = spill_lock_scope::current()) {
    scope->hold(owner.pins());
  } else {
    owner.set_spillable(false);  // whoever holds this address may keep it: it stays here
  }
  return owner.data();
}

}  // namespace colx
