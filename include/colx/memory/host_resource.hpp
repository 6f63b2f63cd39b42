// SPDX-License-Identifier: Apache-2.0
#pragma once
// Pageable host memory from aligned operator new: the host backend's default resource.
#include <colx/core/error.hpp>
#include <colx/memory/resource.hpp>

#include <new>

namespace colx {

class host_resource {
 public:
  [[nodiscard]] void* allocate(std::size_t bytes, std::size_t alignment = mr::default_alignment) {
    if (bytes == 0) { return nullptr; }
    try {
      return ::operator new(bytes, std::align_val_t{alignment});
    } catch (std::bad_alloc const&) {
      COLX_FAIL_AS(out_of_memory, "host allocation of ", bytes, " bytes failed");
    }
  }
  void deallocate(void* p, std::size_t, std::size_t alignment = mr::default_alignment) noexcept {
    if (p != nullptr) { ::operator delete(p, std::align_val_t{alignment}); }
  }
  // Host memory is usable as soon as it is allocated: the stream orders nothing here.
  [[nodiscard]] void* allocate_async(std::size_t bytes, std::size_t alignment, stream_ref) {
    return allocate(bytes, alignment);
  }
  void deallocate_async(void* p, std::size_t bytes, std::size_t alignment, stream_ref) noexcept {
    deallocate(p, bytes, alignment);
  }

  friend bool operator==(host_resource const&, host_resource const&) noexcept { return true; }
  friend void get_property(host_resource const&, mr::host_accessible) noexcept {}
};

}  // namespace colx
