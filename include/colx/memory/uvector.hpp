// SPDX-License-Identifier: Apache-2.0
#pragma once
// A typed, uninitialised, owning array of trivially copyable T in any kind of memory, as RMM's
// device_uvector: no constructor runs on elements, so allocation costs no kernel.
#include <colx/memory/buffer.hpp>

#include <limits>
#include <span>
#include <type_traits>
#include <vector>

namespace colx {

template <class T>
class uvector {
  static_assert(std::is_trivially_copyable_v<T>,
                "colx::uvector<T> holds raw memory that kernels and memcpy move: T must be trivially copyable");

 public:
  using value_type = T;

  uvector() = default;
  explicit uvector(size_type n, stream_ref stream = {}, resource_ref mr = get_current_resource())
      : _storage(bytes_for(n), stream, mr) {}
  // A copy of host memory.
  uvector(std::span<T const> host_values, stream_ref stream = {}, resource_ref mr = get_current_resource())
      : _storage(host_values.data(), memory_kind::host, host_values.size_bytes(), stream, mr) {}
  uvector(uvector const& other, stream_ref stream, resource_ref mr) : _storage(other._storage, stream, mr) {}
  explicit uvector(buffer&& storage) : _storage(std::move(storage)) {
    COLX_EXPECTS(_storage.size() % sizeof(T) == 0, "a buffer of ", _storage.size(),
                 " bytes does not hold a whole number of ", sizeof(T), "-byte elements");
  }

  [[nodiscard]] T* data() noexcept { return static_cast<T*>(_storage.data()); }
  [[nodiscard]] T const* data() const noexcept { return static_cast<T const*>(_storage.data()); }
  [[nodiscard]] size_type size() const noexcept { return static_cast<size_type>(_storage.size() / sizeof(T)); }
  [[nodiscard]] bool empty() const noexcept { return _storage.empty(); }
  [[nodiscard]] memory_kind kind() const noexcept { return _storage.kind(); }
  [[nodiscard]] stream_ref stream() const noexcept { return _storage.stream(); }
  [[nodiscard]] resource_ref memory_resource() const noexcept { return _storage.memory_resource(); }

  void resize(size_type n, stream_ref stream) { _storage.resize(bytes_for(n), stream); }
  void reserve(size_type n, stream_ref stream) { _storage.reserve(bytes_for(n), stream); }
  void shrink_to_fit(stream_ref stream) { _storage.shrink_to_fit(stream); }

  // One element to or from the host; element() returns a host value, so it synchronises.
  [[nodiscard]] T element(size_type i, stream_ref stream) const {
    check_index(i);
    T value;
    detail::copy_bytes(&value, memory_kind::host, data() + i, kind(), sizeof(T), stream);
    return value;
  }
  void set_element(size_type i, T const& value, stream_ref stream) {
    check_index(i);
    // A copy from pageable memory has read its source when cudaMemcpyAsync returns.
    detail::copy_bytes(data() + i, kind(), &value, memory_kind::host, sizeof(T), stream);
  }

  // All elements copied into a host vector (synchronises).
  [[nodiscard]] std::vector<T> to_host(stream_ref stream = {}) const {
    std::vector<T> out(static_cast<std::size_t>(size()));
    detail::copy_bytes(out.data(), memory_kind::host, data(), kind(), _storage.size(), stream);
    return out;
  }

  // Gives up the storage, e.g. to become a column's data buffer.
  [[nodiscard]] buffer release() && noexcept { return std::move(_storage); }

 private:
  static std::size_t bytes_for(size_type n) {
    COLX_EXPECTS(n >= 0, "a negative element count (", n, ") for a uvector");
    COLX_EXPECTS_AS(out_of_memory, static_cast<std::size_t>(n) <= std::numeric_limits<std::size_t>::max() / sizeof(T),
                    "a uvector of ", n, " elements of ", sizeof(T), " bytes is larger than memory can be");
    return static_cast<std::size_t>(n) * sizeof(T);
  }
  void check_index(size_type i) const {
    COLX_EXPECTS_AS(out_of_range, i >= 0 && i < size(), "index ", i, " is outside a uvector of ", size(), " elements");
  }

  buffer _storage;
};

}  // namespace colx
