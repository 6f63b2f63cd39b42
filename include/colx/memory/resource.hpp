// SPDX-License-Identifier: Apache-2.0
#pragma once
// The memory-resource interface, shaped as libcu++'s cuda::mr concepts so that any conforming
// resource (RMM's included) can be passed where colx allocates, and a non-owning, type-erased
// resource_ref to pass it with.
#include <colx/core/config.hpp>
#include <colx/memory/stream.hpp>

#include <concepts>
#include <cstddef>

#if COLX_HAS_CUDA
#  include <cuda/memory_resource>
#endif

namespace colx {

namespace mr {
#if COLX_HAS_CUDA
using ::cuda::mr::device_accessible;
using ::cuda::mr::host_accessible;
#else
// Host-only builds have no libcu++: the same two properties, spelled the same way.
struct device_accessible {};
struct host_accessible {};
#endif

// A resource R has property P when get_property(r, P{}) is found (as a friend, by ADL).
template <class R, class P>
concept has_property = requires(R const& r) { get_property(r, P{}); };

template <class R>
concept resource = std::equality_comparable<R> &&
                   requires(R& r, void* p, std::size_t bytes, std::size_t alignment) {
                     { r.allocate(bytes, alignment) } -> std::same_as<void*>;
                     { r.deallocate(p, bytes, alignment) } -> std::same_as<void>;
                   };

template <class R>
concept async_resource = resource<R> && requires(R& r, void* p, std::size_t bytes, std::size_t alignment, stream_ref s) {
  { r.allocate_async(bytes, alignment, s) } -> std::same_as<void*>;
  { r.deallocate_async(p, bytes, alignment, s) } -> std::same_as<void>;
};

// The alignment colx asks for: enough for any element type and for 64-byte padded bitmasks,
// and what cudaMalloc gives anyway.
inline constexpr std::size_t default_alignment = 256;
}  // namespace mr

// Where memory lives, which decides the backend that processes it.
enum class memory_kind : unsigned char {
  host,    // pageable host memory: the host backend
  pinned,  // page-locked host memory the device can reach: the host backend, fast copies
  device,  // device memory: the CUDA backend
};

[[nodiscard]] constexpr bool is_host_accessible(memory_kind kind) noexcept { return kind != memory_kind::device; }
[[nodiscard]] constexpr char const* to_string(memory_kind kind) noexcept {
  switch (kind) {
    case memory_kind::host: return "host";
    case memory_kind::pinned: return "pinned host";
    case memory_kind::device: return "device";
  }
  return "?";
}

// Where a resource type's memory lives, from its static properties.
template <class R>
[[nodiscard]] constexpr memory_kind memory_kind_of() noexcept {
  constexpr bool on_device = mr::has_property<R, mr::device_accessible>;
  constexpr bool on_host = mr::has_property<R, mr::host_accessible>;
  static_assert(on_device || on_host,
                "a colx memory resource must declare where its memory lives: give it a friend "
                "get_property(R const&, colx::mr::device_accessible) and/or ...host_accessible");
  if constexpr (on_device && on_host) {
    return memory_kind::pinned;
  } else if constexpr (on_device) {
    return memory_kind::device;
  } else {
    return memory_kind::host;
  }
}

// Where a resource's memory lives: adaptors over a type-erased upstream answer at run time
// through a kind() member; every other resource through its static properties.
template <class R>
[[nodiscard]] memory_kind kind_of(R const& resource) noexcept {
  if constexpr (requires { { resource.kind() } -> std::same_as<memory_kind>; }) {
    return resource.kind();
  } else {
    return memory_kind_of<R>();
  }
}

// A non-owning reference to any async resource; cheap to copy. The referenced resource must
// outlive every allocation made through the reference.
class resource_ref {
 public:
  template <class R>
    requires(mr::async_resource<R> && !std::same_as<R, resource_ref>)
  resource_ref(R& resource) noexcept  // NOLINT: implicit, as cuda::mr::resource_ref
      : _resource(&resource), _vtable(&vtable_for<R>) {}

  [[nodiscard]] void* allocate_async(std::size_t bytes, std::size_t alignment, stream_ref stream) const {
    return _vtable->allocate_async(_resource, bytes, alignment, stream);
  }
  void deallocate_async(void* p, std::size_t bytes, std::size_t alignment, stream_ref stream) const noexcept {
    _vtable->deallocate_async(_resource, p, bytes, alignment, stream);
  }
  [[nodiscard]] void* allocate(std::size_t bytes, std::size_t alignment) const {
    return _vtable->allocate(_resource, bytes, alignment);
  }
  void deallocate(void* p, std::size_t bytes, std::size_t alignment) const noexcept {
    _vtable->deallocate(_resource, p, bytes, alignment);
  }
  [[nodiscard]] memory_kind kind() const noexcept { return _vtable->kind(_resource); }

  // Two references are equal when they refer to resources that can free each other's memory.
  // A template, so that no implicit conversion to resource_ref is ever tried to compare others.
  template <std::same_as<resource_ref> Ref>
  friend bool operator==(Ref const& a, Ref const& b) noexcept {
    return a._resource == b._resource || (a._vtable == b._vtable && a._vtable->equal(a._resource, b._resource));
  }

 private:
  struct vtable {
    void* (*allocate_async)(void*, std::size_t, std::size_t, stream_ref);
    void (*deallocate_async)(void*, void*, std::size_t, std::size_t, stream_ref) noexcept;
    void* (*allocate)(void*, std::size_t, std::size_t);
    void (*deallocate)(void*, void*, std::size_t, std::size_t) noexcept;
    bool (*equal)(void const*, void const*) noexcept;
    memory_kind (*kind)(void const*) noexcept;
  };

  template <class R>
  static constexpr vtable vtable_for{
      [](void* r, std::size_t b, std::size_t a, stream_ref s) -> void* { return static_cast<R*>(r)->allocate_async(b, a, s); },
      [](void* r, void* p, std::size_t b, std::size_t a, stream_ref s) noexcept { static_cast<R*>(r)->deallocate_async(p, b, a, s); },
      [](void* r, std::size_t b, std::size_t a) -> void* { return static_cast<R*>(r)->allocate(b, a); },
      [](void* r, void* p, std::size_t b, std::size_t a) noexcept { static_cast<R*>(r)->deallocate(p, b, a); },
      [](void const* x, void const* y) noexcept { return *static_cast<R const*>(x) == *static_cast<R const*>(y); },
      [](void const* r) noexcept { return kind_of(*static_cast<R const*>(r)); },
  };

  void* _resource;
  vtable const* _vtable;
};

}  // namespace colx
