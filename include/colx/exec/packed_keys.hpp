// SPDX-License-Identifier: Apache-2.0
#pragma once
// Keys packed into one 64-bit word: fixed-width keys of 8 bytes in all at most (plus a bit per
// nullable key) map one-to-one to a word, so hash tables can keep the word in the slot and
// compare keys as words, reading no input row again. Each key contributes its value's
// order-preserving encoding (radix_encoding: one NaN, -0.0 as 0.0, as keys_equal sees them) and,
// when it can be null, a null bit; a null's value bits are 0.
#include <colx/exec/row_keys.hpp>
#include <colx/expr/expression.hpp>

#include <cstdint>

namespace colx::detail {

// Bits of a key in a packed word; 1000 when it has no fixed-width encoding (strings, decimal128).
template <class Key, class Inputs>
constexpr int packed_key_bits() {
  using result = expr::result_t<Key, Inputs>;
  if constexpr (radix_encoding<typename result::value_type>::exists) {
    return radix_encoding<typename result::value_type>::bits + (result::nullable ? 1 : 0);
  } else {
    return 1000;
  }
}
// Constants, so device code reads them without calling a host constexpr function.
template <class Key, class Inputs>
inline constexpr int packed_key_bits_v = packed_key_bits<Key, Inputs>();
template <class Inputs, class... Keys>
inline constexpr bool keys_pack_v = (0 + ... + packed_key_bits_v<Keys, Inputs>) <= 64;

template <class Key, class Inputs>
COLX_HOST_DEVICE std::uint64_t append_packed_key(std::uint64_t w, Key const& key, Inputs const& in, size_type i) {
  using result = expr::result_t<Key, Inputs>;
  constexpr int bits = packed_key_bits_v<Key, Inputs>;
  auto const m = key(in, i);
  std::uint64_t v = m.valid ? radix_encoding<typename result::value_type>::encode(m.value) : 0;
  if constexpr (result::nullable) { v = (v << 1) | (m.valid ? 0u : 1u); }
  if constexpr (bits >= 64) {
    return v;
  } else {
    return (w << bits) | v;
  }
}
// The same for a key of another side whose value type is the same, packed as `LayoutKey` (of
// `LayoutInputs`) packs its own: with a null bit exactly when that key can be null. A null value
// where that key cannot be null can match nothing: `ok` becomes false.
template <class LayoutKey, class LayoutInputs, class Key, class Inputs>
COLX_HOST_DEVICE std::uint64_t append_packed_key_as(std::uint64_t w, Key const& key, Inputs const& in, size_type i, bool& ok) {
  using layout = expr::result_t<LayoutKey, LayoutInputs>;
  constexpr int bits = packed_key_bits_v<LayoutKey, LayoutInputs>;
  auto const m = key(in, i);
  std::uint64_t v = m.valid ? radix_encoding<typename layout::value_type>::encode(m.value) : 0;
  if constexpr (layout::nullable) {
    v = (v << 1) | (m.valid ? 0u : 1u);
  } else if (!m.valid) {
    ok = false;
  }
  if constexpr (bits >= 64) {
    return v;
  } else {
    return (w << bits) | v;
  }
}

// Row i's keys as one word (keys_pack_v must hold).
template <class Inputs, class... Keys>
COLX_HOST_DEVICE std::uint64_t pack_keys(Inputs const& in, size_type i, Keys const&... keys) {
  std::uint64_t w = 0;
  ((w = append_packed_key(w, keys, in, i)), ...);
  return w;
}

}  // namespace colx::detail
