// SPDX-License-Identifier: Apache-2.0
#pragma once
// A writer of Thrift's compact protocol (see thrift.hpp for the encoding), for the footer and page
// headers colx writes. Fields are written in increasing id order within a struct, as the format's
// delta field headers want; begin_struct/end_struct keep each struct's last id.
#include <colx/io/parquet/thrift.hpp>

#include <cstdint>
#include <span>
#include <string_view>
#include <vector>

namespace colx::parquet::thrift {

class writer {
 public:
  [[nodiscard]] std::vector<std::uint8_t> const& bytes() const noexcept { return _out; }
  [[nodiscard]] std::vector<std::uint8_t> take() && noexcept { return std::move(_out); }

  void field_i32(std::int16_t id, std::int32_t v) { header(id, wire::i32), varint(zigzag(v)); }
  void field_i64(std::int16_t id, std::int64_t v) { header(id, wire::i64), varint(zigzag(v)); }
  void field_i8(std::int16_t id, std::int8_t v) { header(id, wire::i8), _out.push_back(static_cast<std::uint8_t>(v)); }
  void field_bool(std::int16_t id, bool v) { header(id, v ? wire::bool_true : wire::bool_false); }
  void field_binary(std::int16_t id, std::span<std::uint8_t const> v) {
    header(id, wire::binary);
    varint(v.size());
    _out.insert(_out.end(), v.begin(), v.end());
  }
  void field_string(std::int16_t id, std::string_view v) {
    field_binary(id, {reinterpret_cast<std::uint8_t const*>(v.data()), v.size()});
  }
  // A struct field: its fields follow, then end_struct().
  void begin_struct(std::int16_t id) {
    header(id, wire::structure);
    _last.push_back(0);
  }
  void end_struct() {
    _out.push_back(0);
    _last.pop_back();
  }
  // A list field of n elements of `element` type; structs among them each begin with
  // begin_element() and end with end_struct().
  void begin_list(std::int16_t id, wire element, std::size_t n) {
    header(id, wire::list);
    if (n < 15) {
      _out.push_back(static_cast<std::uint8_t>(n << 4 | static_cast<unsigned>(element)));
    } else {
      _out.push_back(static_cast<std::uint8_t>(0xf0 | static_cast<unsigned>(element)));
      varint(n);
    }
  }
  void begin_element() { _last.push_back(0); }
  void element_i32(std::int32_t v) { varint(zigzag(v)); }
  void element_i64(std::int64_t v) { varint(zigzag(v)); }
  void element_string(std::string_view v) {
    varint(v.size());
    _out.insert(_out.end(), v.begin(), v.end());
  }
  // The outermost struct (a footer, a page header) ends with this.
  void end() { _out.push_back(0); }

 private:
  static std::uint64_t zigzag(std::int64_t v) { return (static_cast<std::uint64_t>(v) << 1) ^ static_cast<std::uint64_t>(v >> 63); }
  void varint(std::uint64_t v) {
    while (v >= 0x80) {
      _out.push_back(static_cast<std::uint8_t>(v | 0x80));
      v >>= 7;
    }
    _out.push_back(static_cast<std::uint8_t>(v));
  }
  void header(std::int16_t id, wire type) {
    std::int16_t& last = _last.back();
    std::int32_t const delta = id - last;
    if (delta > 0 && delta <= 15) {
      _out.push_back(static_cast<std::uint8_t>(delta << 4 | static_cast<int>(type)));
    } else {
      _out.push_back(static_cast<std::uint8_t>(type));
      varint(zigzag(id));
    }
    last = id;
  }

  std::vector<std::uint8_t> _out;
  std::vector<std::int16_t> _last{0};
};

}  // namespace colx::parquet::thrift
