// SPDX-License-Identifier: Apache-2.0
#pragma once
// A reader of Thrift's compact protocol, the encoding of Parquet's footer and page headers. It
// reads from a byte span and checks every length and count against what is left, so a corrupt or
// hostile file gives a parquet_error, never a read past the end; nesting is bounded, so skipping
// an unknown field cannot recurse without end.
//
// Compact protocol in brief: a struct is a run of fields ended by a 0 byte; a field's header
// byte holds the field id's delta from the previous one (high nibble; 0: a zigzag varint id
// follows) and its type (low nibble); booleans live in the type nibble; integers are zigzag
// varints; binary is a varint length then bytes; a list's header holds its size (high nibble, 15:
// a varint follows) and its element type.
#include <colx/core/error.hpp>

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <span>
#include <string>

namespace colx {

// A Parquet file is not what its format says: a bad magic number, a footer that does not parse,
// a page that decodes past its end. The message names what and where.
class parquet_error : public logic_error {
 public:
  using logic_error::logic_error;
};

}  // namespace colx

namespace colx::parquet::thrift {

enum class wire : std::uint8_t {
  stop = 0,
  bool_true = 1,
  bool_false = 2,
  i8 = 3,
  i16 = 4,
  i32 = 5,
  i64 = 6,
  dbl = 7,
  binary = 8,
  list = 9,
  set = 10,
  map = 11,
  structure = 12,
};

class reader {
 public:
  explicit reader(std::span<std::uint8_t const> bytes, char const* what) : _bytes(bytes), _what(what) {}

  [[nodiscard]] std::size_t position() const noexcept { return _pos; }

  // The next field of the struct being read: its id and wire type, or stop at the struct's end.
  // Booleans carry their value in the type; value_bool() reads it.
  struct field {
    std::int16_t id;
    wire type;
  };
  [[nodiscard]] field next_field(std::int16_t& last_id) {
    std::uint8_t const header = byte();
    if (header == 0) { return {0, wire::stop}; }
    auto const type = static_cast<wire>(header & 0x0f);
    std::int16_t const delta = static_cast<std::int16_t>(header >> 4);
    last_id = delta != 0 ? static_cast<std::int16_t>(last_id + delta) : static_cast<std::int16_t>(zigzag(varint()));
    _last_bool = type == wire::bool_true;
    return {last_id, type};
  }

  [[nodiscard]] bool value_bool(wire type) {
    if (type == wire::bool_true || type == wire::bool_false) { return _last_bool; }
    return byte() == 1;  // a boolean inside a list is a byte of its own
  }
  [[nodiscard]] std::int64_t value_int(wire type) {
    switch (type) {
      case wire::i8: return static_cast<std::int8_t>(byte());
      case wire::i16:
      case wire::i32:
      case wire::i64: return zigzag(varint());
      default: fail("an integer field has wire type ", static_cast<int>(type));
    }
  }
  [[nodiscard]] std::int32_t value_i32(wire type) {
    std::int64_t const v = value_int(type);
    if (v < INT32_MIN || v > INT32_MAX) { fail("a 32-bit field holds ", v); }
    return static_cast<std::int32_t>(v);
  }
  [[nodiscard]] std::span<std::uint8_t const> value_binary(wire type) {
    if (type != wire::binary) { fail("a binary field has wire type ", static_cast<int>(type)); }
    std::uint64_t const n = varint();
    need(n);
    auto const out = _bytes.subspan(_pos, static_cast<std::size_t>(n));
    _pos += static_cast<std::size_t>(n);
    return out;
  }
  [[nodiscard]] std::string value_string(wire type) {
    auto const b = value_binary(type);
    return {reinterpret_cast<char const*>(b.data()), b.size()};
  }
  // A list's element type and size; the caller reads that many elements.
  struct list_header {
    wire element;
    std::uint32_t size;
  };
  [[nodiscard]] list_header value_list(wire type) {
    if (type != wire::list && type != wire::set) { fail("a list field has wire type ", static_cast<int>(type)); }
    std::uint8_t const header = byte();
    std::uint64_t size = header >> 4;
    if (size == 15) { size = varint(); }
    // Every element takes at least one byte: a larger count is corrupt (and would allocate much).
    if (size > _bytes.size() - _pos) { fail("a list claims ", size, " elements in ", _bytes.size() - _pos, " bytes"); }
    return {static_cast<wire>(header & 0x0f), static_cast<std::uint32_t>(size)};
  }

  // Skips a value of any type (fields this reader does not use).
  void skip(wire type, int depth = 0) {
    if (depth > max_depth) { fail("nesting deeper than ", max_depth, " levels"); }
    switch (type) {
      case wire::bool_true:
      case wire::bool_false: return;
      case wire::i8: (void)byte(); return;
      case wire::i16:
      case wire::i32:
      case wire::i64: (void)varint(); return;
      case wire::dbl: need(8), _pos += 8; return;
      case wire::binary: (void)value_binary(type); return;
      case wire::list:
      case wire::set: {
        auto const h = value_list(type);
        for (std::uint32_t i = 0; i < h.size; ++i) { skip_element(h.element, depth + 1); }
        return;
      }
      case wire::map: {
        std::uint64_t const n = varint();
        if (n == 0) { return; }
        if (n > _bytes.size() - _pos) { fail("a map claims ", n, " entries"); }
        std::uint8_t const kinds = byte();
        for (std::uint64_t i = 0; i < n; ++i) {
          skip_element(static_cast<wire>(kinds >> 4), depth + 1);
          skip_element(static_cast<wire>(kinds & 0x0f), depth + 1);
        }
        return;
      }
      case wire::structure: {
        std::int16_t last = 0;
        for (field f = next_field(last); f.type != wire::stop; f = next_field(last)) { skip(f.type, depth + 1); }
        return;
      }
      default: fail("unknown wire type ", static_cast<int>(type));
    }
  }

  template <class... Parts>
  [[noreturn]] void fail(Parts const&... parts) const {
    COLX_FAIL_AS(parquet_error, _what, ": ", parts..., " (at byte ", _pos, " of ", _bytes.size(), ")");
  }

 private:
  static constexpr int max_depth = 32;

  void skip_element(wire type, int depth) {
    if (type == wire::bool_true || type == wire::bool_false) {
      (void)byte();
    } else {
      skip(type, depth);
    }
  }
  void need(std::uint64_t n) const {
    if (n > _bytes.size() - _pos) { fail("needs ", n, " more bytes"); }
  }
  std::uint8_t byte() {
    need(1);
    return _bytes[_pos++];
  }
  std::uint64_t varint() {
    std::uint64_t v = 0;
    for (int shift = 0; shift < 64; shift += 7) {
      std::uint8_t const b = byte();
      v |= static_cast<std::uint64_t>(b & 0x7f) << shift;
      if ((b & 0x80) == 0) { return v; }
    }
    fail("a varint longer than 10 bytes");
  }
  static std::int64_t zigzag(std::uint64_t v) noexcept {
    return static_cast<std::int64_t>(v >> 1) ^ -static_cast<std::int64_t>(v & 1);
  }

  std::span<std::uint8_t const> _bytes;
  std::size_t _pos = 0;
  char const* _what;
  bool _last_bool = false;
};

// Reads a struct: calls on_field(reader, id, type) for each field; on_field skips what it does not
// read (it returns false for a field it did not take).
template <class OnField>
void read_struct(reader& r, OnField&& on_field) {
  std::int16_t last = 0;
  for (auto f = r.next_field(last); f.type != wire::stop; f = r.next_field(last)) {
    if (!on_field(f.id, f.type)) { r.skip(f.type); }
  }
}

// Reads a list of structs, each by read_one(reader).
template <class ReadOne>
void read_list(reader& r, wire type, ReadOne&& read_one) {
  auto const h = r.value_list(type);
  if (h.element != wire::structure) { r.fail("a list of structs has elements of wire type ", static_cast<int>(h.element)); }
  for (std::uint32_t i = 0; i < h.size; ++i) { read_one(); }
}

}  // namespace colx::parquet::thrift
