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

  // Byte-wise lexicographic order, which for UTF-8 is code-point order. Eight bytes of each are
  // loaded before any is compared: on the GPU each load of a byte loop waited on the comparison
  // before it, and a sort by names that share a long prefix ("Supplier#000006757", TPC-H Q21's
  // top 100) took 1.9 ms for 4,000 rows.
  [[nodiscard]] constexpr COLX_HOST_DEVICE int compare(string_view other) const noexcept {
    size_type const n = _size < other._size ? _size : other._size;
    size_type i = 0;
    for (; i + 8 <= n; i += 8) {
      unsigned char a[8];
      unsigned char b[8];
      COLX_UNROLL
      for (int k = 0; k < 8; ++k) {
        a[k] = static_cast<unsigned char>(_data[i + k]);
        b[k] = static_cast<unsigned char>(other._data[i + k]);
      }
      COLX_UNROLL
      for (int k = 0; k < 8; ++k) {
        if (a[k] != b[k]) { return a[k] < b[k] ? -1 : 1; }
      }
    }
    for (; i < n; ++i) {
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
