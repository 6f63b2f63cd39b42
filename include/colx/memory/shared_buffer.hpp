// SPDX-License-Identifier: Apache-2.0
#pragma once
// A slice [offset, offset + size) of a buffer_owner's memory, shared by reference: copying a
// shared_buffer is a shallow copy. Every use of its address says what it is for:
//   read()   for work that only reads;
//   write()  for work that writes: with copy-on-write on, memory another slice shares is copied
//            first, and only this slice moves to the copy;
//   expose() for handing the address to code we do not control (interop): shared memory is
//            copied first, and the owner is marked exposed, so it is never shared or spilled
//            again; a shallow copy of an exposed buffer is a deep one under copy-on-write.
// Each access also brings spilled memory back and locks it (spill_manager.hpp).
#include <colx/core/options.hpp>
#include <colx/memory/spill_manager.hpp>

#include <memory>
#include <utility>

namespace colx {

class shared_buffer {
 public:
  shared_buffer() = default;

  // Takes over an allocation: the first and only slice of a new owner.
  explicit shared_buffer(buffer&& memory) : _empty_kind(memory.kind()) {
    if (memory.empty() && memory.data() == nullptr) { return; }  // nothing to own; the kind still counts
    _owner = std::make_shared<buffer_owner>(std::move(memory));
    _owner->add_slice();
    _size = _owner->size();
    spill_manager::get().track(_owner);
  }

  // Foreign memory (another library's): `release` is called exactly once, when the last slice
  // is gone. colx never writes it in place under copy-on-write, nor spills it.
  [[nodiscard]] static shared_buffer adopt(void* data, std::size_t bytes, memory_kind kind, std::function<void()> release) {
    shared_buffer out;
    out._owner = std::make_shared<buffer_owner>(data, bytes, kind, std::move(release));
    out._owner->add_slice();
    out._size = bytes;
    return out;
  }

  // Shallow; but an exposed buffer's holder may write it at any time, so under copy-on-write
  // the copy gets memory of its own.
  shared_buffer(shared_buffer const& other) : _offset(other._offset), _size(other._size), _empty_kind(other._empty_kind) {
    if (other._owner && other._owner->exposed() && copy_on_write()) {  // before taking a slice: the copy may throw
      *this = other.copy(other.stream(), other.memory_resource_for_copy());
      return;
    }
    _owner = other._owner;
    if (_owner) { _owner->add_slice(); }
  }
  shared_buffer& operator=(shared_buffer const& other) {
    if (this != &other) { *this = shared_buffer(other); }
    return *this;
  }
  shared_buffer(shared_buffer&& other) noexcept
      : _owner(std::move(other._owner)), _offset(std::exchange(other._offset, 0)), _size(std::exchange(other._size, 0)),
        _empty_kind(other._empty_kind) {}
  shared_buffer& operator=(shared_buffer&& other) noexcept {
    if (this == &other) { return *this; }
    let_go();
    _owner = std::move(other._owner);
    _offset = std::exchange(other._offset, 0);
    _size = std::exchange(other._size, 0);
    _empty_kind = other._empty_kind;
    return *this;
  }

  ~shared_buffer() { let_go(); }

  [[nodiscard]] std::size_t size() const noexcept { return _size; }
  [[nodiscard]] bool empty() const noexcept { return _size == 0; }
  // Where the memory lives when it is not spilled: which backend works on it.
  [[nodiscard]] memory_kind kind() const noexcept { return _owner ? _owner->home_kind() : _empty_kind; }
  [[nodiscard]] stream_ref stream() const noexcept { return _owner ? _owner->stream() : stream_ref{}; }

  // Another slice refers to the same memory.
  [[nodiscard]] bool is_shared() const noexcept { return _owner && _owner->slices() > 1; }
  [[nodiscard]] bool shares_memory_with(shared_buffer const& other) const noexcept {
    return _owner && _owner == other._owner;
  }
  [[nodiscard]] bool is_exposed() const noexcept { return _owner && _owner->exposed(); }
  [[nodiscard]] bool is_spilled() const noexcept { return _owner && _owner->spilled(); }
  [[nodiscard]] bool is_spillable() const noexcept { return _owner && _owner->spillable(); }
  [[nodiscard]] bool is_foreign() const noexcept { return _owner && _owner->foreign(); }

  [[nodiscard]] void const* read(stream_ref stream = {}) const { return address(stream); }

  [[nodiscard]] void* write(stream_ref stream = {}) {
    if (_owner && copy_on_write() && (is_shared() || _owner->foreign())) { *this = copy(stream, memory_resource_for_copy()); }
    return address(stream);
  }

  [[nodiscard]] void* expose(stream_ref stream = {}, call_site where = call_site::current()) {
    if (!_owner) { return nullptr; }
    if (copy_on_write() && is_shared() && !_owner->exposed()) { *this = copy(stream, memory_resource_for_copy()); }
    void* p = address(stream);
    _owner->mark_exposed();
    spill_manager::get().record_exposure(_size, where);
    return p;
  }

  // Bytes [offset, offset + size) of this slice, sharing its memory.
  [[nodiscard]] shared_buffer slice(std::size_t offset, std::size_t size) const {
    COLX_EXPECTS_AS(out_of_range, offset <= _size && size <= _size - offset, "bytes [", offset, ", ", offset + size,
                    ") are outside a buffer of ", _size, " bytes");
    shared_buffer out = *this;
    out._offset += offset;
    out._size = size;
    return out;
  }

  // A deep copy of this slice's bytes: a new owner of its own.
  [[nodiscard]] shared_buffer copy(stream_ref stream, resource_ref mr) const {
    if (!_owner) { return shared_buffer(buffer(0, stream, mr)); }
    spill_lock_scope const lock(stream);
    return shared_buffer(buffer(read(stream), kind(), _size, stream, mr));
  }

 private:
  void let_go() noexcept {
    if (_owner) { std::exchange(_owner, nullptr)->drop_slice(); }
  }
  [[nodiscard]] void* address(stream_ref stream) const {
    if (!_owner) { return nullptr; }
    buffer_owner& o = *_owner;
    if (o.foreign()) { o.note_stream(stream); }
    void* base = o.spillable() || o.spilled() ? spill_manager::get().access(o, stream) : o.data();
    return base == nullptr ? nullptr : static_cast<char*>(base) + _offset;
  }
  // Copies go where the memory lives now, from the current resource of that kind.
  [[nodiscard]] resource_ref memory_resource_for_copy() const { return get_current_resource(kind()); }

  std::shared_ptr<buffer_owner> _owner;
  std::size_t _offset = 0;
  std::size_t _size = 0;
  // Where an empty buffer (no owner) was allocated for: an empty device column is still a device column.
  memory_kind _empty_kind = memory_kind::host;
};

}  // namespace colx
