// SPDX-License-Identifier: Apache-2.0
#pragma once
// The resources colx allocates from when a call is given none, as RMM's per-device "current
// resource". In a CUDA build the default for new columns is the current device's resource; in a
// host-only build it is the host resource, so the same code runs on whichever backend is there.
// A CUDA program may make host memory the default (set_default_memory_kind): its new columns then
// stay on the host, and memory still decides the backend.
#include <colx/memory/host_resource.hpp>
#include <colx/memory/resource.hpp>

#include <mutex>
#include <optional>
#include <unordered_map>
#include <utility>

#if COLX_HAS_CUDA
#  include <colx/memory/pinned_pool_resource.cuh>
#  include <colx/memory/pool_resource.cuh>
#endif

namespace colx {
namespace detail {

struct current_resources {
  std::mutex mutex;
  std::optional<resource_ref> host;
  std::optional<resource_ref> pinned;
  std::unordered_map<int, resource_ref> device;  // by device ordinal
  memory_kind default_kind = COLX_HAS_CUDA ? memory_kind::device : memory_kind::host;

  static current_resources& get() {
    static current_resources instance;
    return instance;
  }
};

inline resource_ref default_host_resource() {
  static host_resource resource;
  return resource;
}

}  // namespace detail

[[nodiscard]] inline resource_ref get_current_host_resource() {
  auto& current = detail::current_resources::get();
  std::lock_guard lock(current.mutex);
  return current.host.value_or(detail::default_host_resource());
}

// Returns the previous resource. The new one must outlive every allocation made from it.
inline resource_ref set_current_host_resource(resource_ref resource) {
  COLX_EXPECTS(is_host_accessible(resource.kind()), "the current host resource must allocate host memory, not ",
               to_string(resource.kind()), " memory");
  auto previous = get_current_host_resource();
  auto& current = detail::current_resources::get();
  std::lock_guard lock(current.mutex);
  current.host = resource;
  return previous;
}

#if COLX_HAS_CUDA
[[nodiscard]] inline int current_device() {
  int device = 0;
  COLX_CUDA_TRY(cudaGetDevice(&device));
  return device;
}

[[nodiscard]] inline resource_ref get_current_device_resource(int device = current_device()) {
  auto& current = detail::current_resources::get();
  std::lock_guard lock(current.mutex);
  if (auto it = current.device.find(device); it != current.device.end()) { return it->second; }
  // Never destroyed: a pool torn down after the CUDA context at exit would fail.
  auto* pool = new gpu::pool_resource(device);
  return current.device.emplace(device, resource_ref{*pool}).first->second;
}

inline resource_ref set_current_device_resource(resource_ref resource, int device = current_device()) {
  COLX_EXPECTS(resource.kind() == memory_kind::device, "the current device resource must allocate device memory, not ",
               to_string(resource.kind()), " memory");
  auto previous = get_current_device_resource(device);
  auto& current = detail::current_resources::get();
  std::lock_guard lock(current.mutex);
  current.device.insert_or_assign(device, resource);
  return previous;
}

namespace gpu {
// The pinned pool colx makes the current pinned resource unless another is set; reserve() on it
// pins memory ahead of a spill-heavy workload. Never destroyed: unpinning after the CUDA context
// is gone at exit would fail.
[[nodiscard]] inline pinned_pool_resource& default_pinned_pool() {
  static auto* const pool = new pinned_pool_resource();
  return *pool;
}
}  // namespace gpu

// Pinned host memory: a caching pool by default, since pinning pages is slow.
[[nodiscard]] inline resource_ref get_current_pinned_resource() {
  auto& current = detail::current_resources::get();
  std::lock_guard lock(current.mutex);
  if (!current.pinned) { current.pinned = resource_ref{gpu::default_pinned_pool()}; }
  return *current.pinned;
}

inline resource_ref set_current_pinned_resource(resource_ref resource) {
  COLX_EXPECTS(resource.kind() == memory_kind::pinned, "the current pinned resource must allocate pinned memory, not ",
               to_string(resource.kind()), " memory");
  auto previous = get_current_pinned_resource();
  auto& current = detail::current_resources::get();
  std::lock_guard lock(current.mutex);
  current.pinned = resource;
  return previous;
}

#endif

// The current resource for memory of the given kind.
[[nodiscard]] inline resource_ref get_current_resource(memory_kind kind) {
  switch (kind) {
    case memory_kind::host: return get_current_host_resource();
#if COLX_HAS_CUDA
    case memory_kind::pinned: return get_current_pinned_resource();
    case memory_kind::device: return get_current_device_resource();
#else
    case memory_kind::pinned:
    case memory_kind::device: break;
#endif
  }
  COLX_FAIL(to_string(kind), " memory needs the CUDA backend: compile this translation unit with nvcc");
}

// The memory new columns go to when a call is given no resource: device memory in a CUDA build,
// host memory in a host-only build, unless set otherwise.
[[nodiscard]] inline memory_kind get_default_memory_kind() {
  auto& current = detail::current_resources::get();
  std::lock_guard lock(current.mutex);
  return current.default_kind;
}
// Returns the previous kind. Device and pinned memory need a CUDA build.
inline memory_kind set_default_memory_kind(memory_kind kind) {
  COLX_EXPECTS(COLX_HAS_CUDA || kind == memory_kind::host, "the default memory kind cannot be ", to_string(kind),
               " memory in a build without CUDA");
  auto& current = detail::current_resources::get();
  std::lock_guard lock(current.mutex);
  return std::exchange(current.default_kind, kind);
}

// Where new columns go by default: the current resource of the default memory kind.
[[nodiscard]] inline resource_ref get_current_resource() { return get_current_resource(get_default_memory_kind()); }

// Where an operation on existing data writes its result: the resource the caller gave, or by
// default the current resource of the input's memory kind, so that a host frame's results stay
// in host memory in a CUDA build too. (Factories from host values default to
// get_current_resource(), the build's backend, instead.)
class output_resource {
 public:
  output_resource() = default;
  output_resource(resource_ref mr) noexcept : _mr(mr), _given(true) {}  // NOLINT: implicit, as resource_ref
  template <class R>
    requires(mr::async_resource<R> && !std::same_as<R, resource_ref> && !std::same_as<R, output_resource>)
  output_resource(R& resource) noexcept : _mr(resource), _given(true) {}  // NOLINT: implicit, as resource_ref

  // The resource to write results of an input in `input` memory to.
  [[nodiscard]] resource_ref for_input(memory_kind input) const { return _given ? _mr : get_current_resource(input); }

 private:
  resource_ref _mr = get_current_host_resource();  // unused unless given
  bool _given = false;
};

}  // namespace colx
