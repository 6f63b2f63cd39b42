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
#include <tuple>
#include <type_traits>

namespace colx::detail {

// Bits of a key in a packed word; 1000 when it has no fixed-width encoding (strings, decimal128).
// Without `NullBit`, a key that can be null has no bit for it: the word of a key known to be valid
// (a join's, where a row with a null key never enters the table).
template <class Key, class Inputs, bool NullBit = true>
constexpr int packed_key_bits() {
  using result = expr::result_t<Key, Inputs>;
  if constexpr (radix_encoding<typename result::value_type>::exists) {
    return radix_encoding<typename result::value_type>::bits + (NullBit && result::nullable ? 1 : 0);
  } else {
    return 1000;
  }
}
// Constants, so device code reads them without calling a host constexpr function.
template <class Key, class Inputs, bool NullBit = true>
inline constexpr int packed_key_bits_v = packed_key_bits<Key, Inputs, NullBit>();
template <class Inputs, class... Keys>
inline constexpr bool keys_pack_v = (0 + ... + packed_key_bits_v<Keys, Inputs>) <= 64;
// The keys' values alone fit one word (a nullable int64 key: 64 bits, where with its null bit 65).
template <class Inputs, class... Keys>
inline constexpr bool key_values_pack_v = (0 + ... + packed_key_bits_v<Keys, Inputs, false>) <= 64;

// Appends a key's value m (as `Key` of `Inputs` evaluates it) to the word.
template <class Key, class Inputs, bool NullBit = true, class M>
COLX_HOST_DEVICE std::uint64_t append_packed_value(std::uint64_t w, M const& m) {
  using result = expr::result_t<Key, Inputs>;
  constexpr int bits = packed_key_bits_v<Key, Inputs, NullBit>;
  std::uint64_t v = m.valid ? radix_encoding<typename result::value_type>::encode(m.value) : 0;
  if constexpr (NullBit && result::nullable) { v = (v << 1) | (m.valid ? 0u : 1u); }
  if constexpr (bits >= 64) {
    return v;
  } else {
    return (w << bits) | v;
  }
}
// The same for a key of another side, packed as `LayoutKey` (of `LayoutInputs`) packs its own:
// with a null bit exactly when that key can be null (and `NullBit`). A value that key cannot hold
// (a null where it has no null bit; an integer of another type out of its range) can match
// nothing: `ok` becomes false.
template <class LayoutKey, class LayoutInputs, bool NullBit = true, class Key, class Inputs>
COLX_HOST_DEVICE std::uint64_t append_packed_key_as(std::uint64_t w, Key const& key, Inputs const& in, size_type i, bool& ok) {
  using layout = expr::result_t<LayoutKey, LayoutInputs>;
  using T = typename layout::value_type;
  constexpr int bits = packed_key_bits_v<LayoutKey, LayoutInputs, NullBit>;
  auto const m = key(in, i);
  std::uint64_t v = 0;
  if (m.valid) {
    using V = std::remove_cvref_t<decltype(m.value)>;
    if constexpr (std::is_same_v<V, T>) {
      v = radix_encoding<T>::encode(m.value);
    } else if constexpr (plain_integer<V> && plain_integer<T>) {  // integers of another type, by value
      if (fits_in<T>(m.value)) {
        v = radix_encoding<T>::encode(static_cast<T>(m.value));
      } else {
        ok = false;
      }
    }
  }
  if constexpr (NullBit && layout::nullable) {
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

// Row i's keys as one word (keys_pack_v must hold; without `NullBits`, key_values_pack_v, and
// the keys must be valid).
template <bool NullBits = true, class Inputs, class... Keys>
COLX_HOST_DEVICE std::uint64_t pack_keys(Inputs const& in, size_type i, Keys const&... keys) {
  std::uint64_t w = 0;
  ((w = append_packed_value<Keys, Inputs, NullBits>(w, keys(in, i))), ...);
  return w;
}

// Key K of a word pack_keys made (the last key sits in the lowest bits): so a table that keeps
// the word needs no row of the group to produce its keys.
template <std::size_t K, class Inputs, class... Keys>
COLX_HOST_DEVICE auto unpack_key(std::uint64_t w) {
  using key = std::tuple_element_t<K, std::tuple<Keys...>>;
  using result = expr::result_t<key, Inputs>;
  using value_type = typename result::value_type;
  constexpr int bits = packed_key_bits_v<key, Inputs>;
  constexpr int shift = [] {
    int const widths[] = {packed_key_bits_v<Keys, Inputs>...};
    int s = 0;
    for (std::size_t k = K + 1; k < sizeof...(Keys); ++k) { s += widths[k]; }
    return s;
  }();
  std::uint64_t v = w;
  if constexpr (bits < 64) { v = (w >> shift) & ((std::uint64_t{1} << bits) - 1); }
  bool valid = true;
  if constexpr (result::nullable) {
    valid = (v & 1u) == 0;
    v >>= 1;
  }
  return expr::maybe<value_type, true>{radix_encoding<value_type>::decode(v), valid};
}

// ---- short keys, packed at run time ----------------------------------------------------------------
// Keys with strings among them cannot pack by type, but a row whose strings are short can (TPC-H
// Q1 groups by two one-letter strings): after a sentinel bit, each string as a 3-bit length
// (0 to 6; 7 for null) and its bytes, each other key as above, 61 bits at most; the top bit tags
// the word, so that it is never a table slot number, and bit 62 stays clear, so that it is never
// no_group_id. The layout is fixed by the keys' types and each length precedes its bytes, so two
// rows have the same word exactly when their keys are equal. A row whose strings do not fit
// packs to 0 and is found the slow way.
inline constexpr int short_pack_bits = 61;
inline constexpr std::uint64_t short_pack_tag = std::uint64_t{1} << 63;

template <class Key, class Inputs>
inline constexpr bool is_string_key_v = std::is_same_v<typename expr::result_t<Key, Inputs>::value_type, string_view>;
template <class Key, class Inputs>
inline constexpr int short_key_least_bits_v = is_string_key_v<Key, Inputs> ? 3 : packed_key_bits_v<Key, Inputs>;
template <class Inputs, class... Keys>
inline constexpr bool keys_pack_short_v = !keys_pack_v<Inputs, Keys...> && (is_string_key_v<Keys, Inputs> || ...) &&
                                          (0 + ... + short_key_least_bits_v<Keys, Inputs>) <= short_pack_bits;

inline constexpr int short_string_bytes = 6;

// Appends a key's value m; false when the word has no room for it. A string's bytes are read by
// a loop that stops after `length` of them: one load for a one-letter flag. (Predicated loads of
// all 6 possible bytes, placed by shifts, took a third more instructions, and TPC-H Q1 0.1 ms
// longer on the H100.)
template <class Key, class Inputs, class M>
COLX_HOST_DEVICE bool append_short_value(std::uint64_t& w, int& used, M const& m) {
  if constexpr (is_string_key_v<Key, Inputs>) {
    if (!m.valid) {
      w = (w << 3) | 7u;
      used += 3;
      return used <= short_pack_bits;
    }
    auto const size = m.value.size_bytes();
    bool const fits = size <= short_string_bytes && used + 3 + 8 * static_cast<int>(size) <= short_pack_bits;
    int const length = fits ? static_cast<int>(size) : 0;
    w = (w << 3) | static_cast<std::uint64_t>(length);
    COLX_UNROLL
    for (int b = 0; b < short_string_bytes; ++b) {
      if (b == length) { break; }
      w = (w << 8) | static_cast<unsigned char>(m.value.data()[b]);
    }
    used += 3 + 8 * length;
    return fits;
  } else {
    w = append_packed_value<Key, Inputs>(w, m);
    used += packed_key_bits_v<Key, Inputs>;
    return used <= short_pack_bits;
  }
}
// Row i's keys as a tagged word, or 0 when they do not fit (keys_pack_short_v must hold). Every
// key is evaluated before any is packed, so that the strings' offsets are read together and then
// their bytes together, not one string's after another's.
template <class Inputs, class... Keys>
COLX_HOST_DEVICE std::uint64_t pack_short_keys(Inputs const& in, size_type i, Keys const&... keys) {
  auto const values = tuple{keys(in, i)...};
  std::uint64_t w = 1;
  int used = 0;
  bool fits = true;
  [&]<std::size_t... K>(std::index_sequence<K...>) {
    ((fits = append_short_value<Keys, Inputs>(w, used, get<K>(values)) && fits), ...);
  }(std::index_sequence_for<Keys...>{});
  return fits ? (short_pack_tag | w) : 0;
}

}  // namespace colx::detail
