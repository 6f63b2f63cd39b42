// SPDX-License-Identifier: Apache-2.0
#pragma once
// A non-owning view of one UTF-8 string inside a strings column: what a kernel sees per row.
#include <colx/core/config.hpp>

namespace colx {

class string_view {
 public:
  constexpr string_view() noexcept = default;
  constexpr COLX_HOST_DEVICE string_view(char const* data, size_type size_bytes) noexcept
      : _data(data), _size(size_bytes) {}

  [[nodiscard]] constexpr COLX_HOST_DEVICE char const* data() const noexcept { return _data; }
  [[nodiscard]] constexpr COLX_HOST_DEVICE size_type size_bytes() const noexcept { return _size; }
  [[nodiscard]] constexpr COLX_HOST_DEVICE bool empty() const noexcept { return _size == 0; }
  // Copies the bytes to out: what a computed string (expr/ops_text.hpp) also offers, so an output
  // column writes a stored string and a computed one alike.
  constexpr COLX_HOST_DEVICE void write_to(char* out) const noexcept {
    for (size_type i = 0; i < _size; ++i) { out[i] = _data[i]; }
  }

  // The number of code points: bytes that do not continue a multi-byte sequence.
  [[nodiscard]] constexpr COLX_HOST_DEVICE size_type length() const noexcept {
    size_type n = 0;
    for (size_type i = 0; i < _size; ++i) { n += (static_cast<unsigned char>(_data[i]) & 0xC0u) != 0x80u; }
    return n;
  }

  // Byte-wise lexicographic order, which for UTF-8 is code-point order.
  [[nodiscard]] constexpr COLX_HOST_DEVICE int compare(string_view other) const noexcept {
    size_type const n = _size < other._size ? _size : other._size;
    for (size_type i = 0; i < n; ++i) {
      auto const a = static_cast<unsigned char>(_data[i]);
      auto const b = static_cast<unsigned char>(other._data[i]);
      if (a != b) { return a < b ? -1 : 1; }
    }
    return _size == other._size ? 0 : (_size < other._size ? -1 : 1);
  }

  friend constexpr COLX_HOST_DEVICE bool operator==(string_view a, string_view b) noexcept {
    return a._size == b._size && a.compare(b) == 0;
  }
  friend constexpr COLX_HOST_DEVICE bool operator!=(string_view a, string_view b) noexcept { return !(a == b); }
  friend constexpr COLX_HOST_DEVICE bool operator<(string_view a, string_view b) noexcept { return a.compare(b) < 0; }
  friend constexpr COLX_HOST_DEVICE bool operator<=(string_view a, string_view b) noexcept { return a.compare(b) <= 0; }
  friend constexpr COLX_HOST_DEVICE bool operator>(string_view a, string_view b) noexcept { return a.compare(b) > 0; }
  friend constexpr COLX_HOST_DEVICE bool operator>=(string_view a, string_view b) noexcept { return a.compare(b) >= 0; }

 private:
  char const* _data = nullptr;
  size_type _size = 0;
};

}  // namespace colx
