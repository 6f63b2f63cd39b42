// SPDX-License-Identifier: Apache-2.0
#pragma once
// Page-locked host memory with a cache: cudaMallocHost pins pages and costs about a millisecond
// per megabyte, so freed blocks are kept and reused (best fit, at most twice the size asked for)
// instead of being unpinned. reserve() pins memory up front as arenas that allocations are carved
// from first (first fit; freed ranges merge with their neighbours): work that will need much
// pinned memory at once, such as spilling, then pins nothing while it runs. The default pinned
// resource.
#include <colx/memory/pinned_resource.cuh>

#include <iterator>
#include <map>
#include <mutex>
#include <unordered_map>
#include <vector>

namespace colx::gpu {

class pinned_pool_resource {
 public:
  pinned_pool_resource() = default;
  pinned_pool_resource(pinned_pool_resource const&) = delete;
  pinned_pool_resource& operator=(pinned_pool_resource const&) = delete;
  ~pinned_pool_resource() {
    release();
    for (auto const& [p, bytes] : _live) { _upstream.deallocate(p, bytes); }
    for (auto const& a : _arenas) { _upstream.deallocate(a.base, a.bytes); }
  }

  // Pins `bytes` (rounded up to 256) now, as one more arena.
  void reserve(std::size_t bytes) {
    if (bytes == 0) { return; }
    bytes = round_up(bytes);
    auto* const base = static_cast<char*>(_upstream.allocate(bytes));
    std::lock_guard lock(_mutex);
    _arenas.push_back({base, bytes});
    _arena_free.emplace(base, free_range{bytes, _arenas.size() - 1});
  }
  [[nodiscard]] std::size_t reserved_bytes() const {
    std::lock_guard lock(_mutex);
    std::size_t total = 0;
    for (auto const& a : _arenas) { total += a.bytes; }
    return total;
  }
  // The largest allocation the arenas can serve now.
  [[nodiscard]] std::size_t largest_free_range() const {
    std::lock_guard lock(_mutex);
    std::size_t most = 0;
    for (auto const& [p, r] : _arena_free) { most = r.bytes > most ? r.bytes : most; }
    return most;
  }

  [[nodiscard]] void* allocate(std::size_t bytes, std::size_t alignment = mr::default_alignment) {
    COLX_EXPECTS(alignment <= mr::default_alignment, "pinned alignment is at most ", mr::default_alignment,
                 " bytes; asked for ", alignment);
    if (bytes == 0) { return nullptr; }
    std::lock_guard lock(_mutex);
    if (void* p = allocate_from_arenas(bytes)) { return p; }
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
    if (auto const a = _arena_live.find(p); a != _arena_live.end()) {
      free_range const range = a->second;
      _arena_live.erase(a);
      return_to_arena(static_cast<char*>(p), range);
      return;
    }
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
  struct arena {
    char* base;
    std::size_t bytes;
  };
  struct free_range {
    std::size_t bytes;
    std::size_t arena;  // ranges of two arenas never merge, even where their addresses touch
  };
  static std::size_t round_up(std::size_t bytes) { return (bytes + 255) / 256 * 256; }

  void* allocate_from_arenas(std::size_t bytes) {
    std::size_t const need = round_up(bytes);
    for (auto it = _arena_free.begin(); it != _arena_free.end(); ++it) {
      if (it->second.bytes < need) { continue; }
      char* const p = it->first;
      free_range const range = it->second;
      _arena_free.erase(it);
      if (range.bytes > need) { _arena_free.emplace(p + need, free_range{range.bytes - need, range.arena}); }
      _arena_live.emplace(p, free_range{need, range.arena});
      return p;
    }
    return nullptr;
  }
  void return_to_arena(char* p, free_range range) {
    auto it = _arena_free.emplace(p, range).first;
    if (auto next = std::next(it);
        next != _arena_free.end() && next->second.arena == range.arena && it->first + it->second.bytes == next->first) {
      it->second.bytes += next->second.bytes;
      _arena_free.erase(next);
    }
    if (it != _arena_free.begin()) {
      auto prev = std::prev(it);
      if (prev->second.arena == range.arena && prev->first + prev->second.bytes == it->first) {
        prev->second.bytes += it->second.bytes;
        _arena_free.erase(it);
      }
    }
  }

  pinned_resource _upstream;
  mutable std::mutex _mutex;
  std::multimap<std::size_t, void*> _free;     // by size, for best fit
  std::unordered_map<void*, std::size_t> _live;  // block sizes, which may exceed what was asked
  std::size_t _cached_bytes = 0;
  std::vector<arena> _arenas;
  std::map<char*, free_range> _arena_free;              // by address, to merge neighbours
  std::unordered_map<void*, free_range> _arena_live;   // carved from an arena, with their rounded size
};

}  // namespace colx::gpu
