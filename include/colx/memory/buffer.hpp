// SPDX-License-Identifier: Apache-2.0
#pragma once
// An owning, untyped, uninitialised allocation from a memory resource, freed in stream order.
// One class for every kind of memory: where a buffer lives is a run-time fact (its resource's
// kind), because columns move between host and device at run time.
#include <colx/core/error.hpp>
#include <colx/memory/copy_bytes.hpp>
#include <colx/memory/current_resource.hpp>
#include <colx/memory/resource.hpp>

#include <utility>

namespace colx {

class buffer {
 public:
  // An empty buffer. It allocates nothing, so it needs no device: it refers to the host resource.
  buffer() : _mr(detail::default_host_resource()) {}

  // `bytes` uninitialised bytes from `mr`, ready for work ordered on `stream`.
  explicit buffer(std::size_t bytes, stream_ref stream = {}, resource_ref mr = get_current_resource())
      : _stream(stream), _mr(mr) {
    allocate(bytes);
    _size = bytes;
  }

  // A copy of `bytes` bytes at `source`, which lives in memory of kind `source_kind`.
  buffer(void const* source, memory_kind source_kind, std::size_t bytes, stream_ref stream = {},
         resource_ref mr = get_current_resource())
      : buffer(bytes, stream, mr) {
    detail::copy_bytes(_data, kind(), source, source_kind, bytes, stream);
  }

  // Deep copies are explicit: they allocate and take a stream.
  buffer(buffer const& other, stream_ref stream, resource_ref mr)
      : buffer(other.data(), other.kind(), other.size(), stream, mr) {}
  buffer(buffer const&) = delete;
  buffer& operator=(buffer const&) = delete;

  buffer(buffer&& other) noexcept
      : _data(std::exchange(other._data, nullptr)), _size(std::exchange(other._size, 0)),
        _capacity(std::exchange(other._capacity, 0)), _stream(other._stream), _mr(other._mr) {}
  buffer& operator=(buffer&& other) noexcept {
    if (this != &other) {
      release();
      _data = std::exchange(other._data, nullptr);
      _size = std::exchange(other._size, 0);
      _capacity = std::exchange(other._capacity, 0);
      _stream = other._stream;
      _mr = other._mr;
    }
    return *this;
  }
  ~buffer() { release(); }

  [[nodiscard]] void* data() noexcept { return _data; }
  [[nodiscard]] void const* data() const noexcept { return _data; }
  [[nodiscard]] std::size_t size() const noexcept { return _size; }
  [[nodiscard]] std::size_t capacity() const noexcept { return _capacity; }
  [[nodiscard]] bool empty() const noexcept { return _size == 0; }
  [[nodiscard]] memory_kind kind() const noexcept { return _mr.kind(); }
  [[nodiscard]] resource_ref memory_resource() const noexcept { return _mr; }
  [[nodiscard]] stream_ref stream() const noexcept { return _stream; }
  // The stream the buffer will be freed on: the one that last used it.
  void set_stream(stream_ref stream) noexcept { _stream = stream; }

  // Grows or shrinks the visible size; the first min(old, new) bytes are kept, new bytes are
  // uninitialised. Reallocates only when growing past the capacity.
  void resize(std::size_t bytes, stream_ref stream) {
    set_stream(stream);
    if (bytes > _capacity) { reallocate(bytes); }
    _size = bytes;
  }
  void reserve(std::size_t bytes, stream_ref stream) {
    set_stream(stream);
    if (bytes > _capacity) { reallocate(bytes); }
  }
  void shrink_to_fit(stream_ref stream) {
    set_stream(stream);
    if (_size != _capacity) { reallocate(_size); }
  }

 private:
  void allocate(std::size_t bytes) {
    _data = bytes == 0 ? nullptr : _mr.allocate_async(bytes, mr::default_alignment, _stream);
    _capacity = bytes;
  }
  void release() noexcept {
    if (_data != nullptr) { _mr.deallocate_async(_data, _capacity, mr::default_alignment, _stream); }
    _data = nullptr;
    _size = _capacity = 0;
  }
  void reallocate(std::size_t bytes) {
    buffer grown(bytes, _stream, _mr);
    detail::copy_bytes(grown._data, kind(), _data, kind(), std::min(bytes, _size), _stream);
    grown._size = _size;
    *this = std::move(grown);
  }

  void* _data = nullptr;
  std::size_t _size = 0;
  std::size_t _capacity = 0;
  stream_ref _stream{};
  resource_ref _mr;
};

}  // namespace colx
