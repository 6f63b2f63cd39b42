// SPDX-License-Identifier: Apache-2.0
#pragma once
// Sort keys: asc(e), desc(e), nulls first or last; the bits a key takes in a packed radix key
// and the packing; the row comparator for keys that do not pack (strings, decimal128, keys wider
// than 128 bits together).
#include <colx/exec/row_keys.hpp>
#include <colx/expr/expression.hpp>

#include <cstdint>
#include <type_traits>
#include <utility>

namespace colx {

enum class null_order : bool { last, first };

// One sort key: an expression, its direction and where its nulls go (last by default, as pandas).
template <class E>
struct sort_key {
  E expr;
  bool descending = false;
  null_order nulls = null_order::last;

  [[nodiscard]] constexpr sort_key nulls_first() const { return {expr, descending, null_order::first}; }
  [[nodiscard]] constexpr sort_key nulls_last() const { return {expr, descending, null_order::last}; }
  template <class F>
  [[nodiscard]] constexpr auto map(F f) const {
    return sort_key<decltype(f(expr))>{f(expr), descending, nulls};
  }
};

template <class K>
inline constexpr bool is_sort_key = false;
template <class E>
inline constexpr bool is_sort_key<sort_key<E>> = true;

template <class A>
  requires expr::expression<A>
[[nodiscard]] constexpr auto asc(A const& a) {
  return sort_key<A>{a, false, null_order::last};
}
template <class A>
  requires expr::expression<A>
[[nodiscard]] constexpr auto desc(A const& a) {
  return sort_key<A>{a, true, null_order::last};
}

namespace detail {

template <class K>
[[nodiscard]] constexpr auto as_sort_key(K const& k) {
  if constexpr (is_sort_key<K>) {
    return k;
  } else {
    static_assert(expr::expression<K>, "colx::sort_by takes expressions (\"x\"_c), asc(e) or desc(e)");
    return asc(k);
  }
}

template <class Key, class Inputs>
using key_value_t = typename expr::result_t<decltype(std::declval<Key>().expr), Inputs>::value_type;
template <class Key, class Inputs>
inline constexpr bool key_nullable = expr::result_t<decltype(std::declval<Key>().expr), Inputs>::nullable;

// Bits of a key in a packed radix key: the value's, plus one for null placement when it can be null.
template <class Key, class Inputs>
constexpr int packed_bits() {
  using T = key_value_t<Key, Inputs>;
  if constexpr (radix_encoding<T>::exists) {
    return radix_encoding<T>::bits + (key_nullable<Key, Inputs> ? 1 : 0);
  } else {
    return 1000;  // cannot be packed
  }
}

// Constants, so device code reads them without calling a host constexpr function.
template <class Key, class Inputs>
inline constexpr int packed_bits_v = packed_bits<Key, Inputs>();
template <class Inputs, class... Keys>
inline constexpr int total_packed_bits = (0 + ... + packed_bits_v<Keys, Inputs>);

// Packs every key of row i into one unsigned word, the first key in the highest bits, and
// writes the row number beside it.
template <class Inputs, class Word, class... Keys>
struct pack_keys_fn {
  Inputs in;
  tuple<Keys...> keys;
  Word* out;
  std::int32_t* rows;

  COLX_HOST_DEVICE void operator()(size_type i) const {
    Word w = 0;
    [&]<std::size_t... K>(std::index_sequence<K...>) { ((w = append<K>(w, i)), ...); }(std::index_sequence_for<Keys...>{});
    out[i] = w;
    rows[i] = static_cast<std::int32_t>(i);
  }

 private:
  template <std::size_t K>
  COLX_HOST_DEVICE Word append(Word w, size_type i) const {
    auto const& key = get<K>(keys);
    using key_t = std::remove_cvref_t<decltype(key)>;
    using T = key_value_t<key_t, Inputs>;
    constexpr int value_bits = radix_encoding<T>::bits;
    constexpr int bits = packed_bits_v<key_t, Inputs>;
    constexpr std::uint64_t value_mask = value_bits == 64 ? ~std::uint64_t{0} : (std::uint64_t{1} << value_bits) - 1;
    auto const m = key.expr(in, i);
    std::uint64_t v = m.valid ? radix_encoding<T>::encode(m.value) : 0;
    if (key.descending) { v = ~v & value_mask; }
    Word k = static_cast<Word>(v);
    if constexpr (key_nullable<key_t, Inputs>) {
      bool const after = (key.nulls == null_order::last) != static_cast<bool>(m.valid);  // 1 sorts later
      k |= static_cast<Word>(after) << value_bits;  // bit 64 of a 128-bit word for a nullable 64-bit key
    }
    if constexpr (bits >= static_cast<int>(sizeof(Word) * 8)) {
      return k;
    } else {
      return static_cast<Word>((w << bits) | k);
    }
  }
};

// a before b under the keys (ties: equal, so a stable sort keeps input order).
template <class Inputs, class... Keys>
struct row_less_fn {
  Inputs in;
  tuple<Keys...> keys;
  // A string key makes a comparison costly: CUB's merge sort then calls this comparator rather
  // than inlining it at each of its few hundred comparisons (gpu/sort.cuh).
  static constexpr bool costly_compare =
      (std::is_same_v<std::remove_cvref_t<decltype(std::declval<Keys const&>().expr(std::declval<Inputs const&>(), std::int32_t{}).value)>,
                      string_view> ||
       ...);

  COLX_HOST_DEVICE bool operator()(std::int32_t a, std::int32_t b) const {
    int order = 0;
    [&]<std::size_t... K>(std::index_sequence<K...>) {
      (void)((order = compare<K>(a, b), order != 0) || ...);
    }(std::index_sequence_for<Keys...>{});
    return order < 0;
  }

 private:
  template <std::size_t K>
  COLX_HOST_DEVICE int compare(std::int32_t a, std::int32_t b) const {
    auto const& key = get<K>(keys);
    auto const x = key.expr(in, a);
    auto const y = key.expr(in, b);
    if (!x.valid || !y.valid) {
      if (!x.valid && !y.valid) { return 0; }
      bool const x_first = (key.nulls == null_order::first) == !static_cast<bool>(x.valid);
      return x_first ? -1 : 1;
    }
    int const order = value_compare(x.value, y.value);
    return key.descending ? -order : order;
  }
};

// The narrowest unsigned word holding a packed key of that many bits. Up to 128 bits (a nullable
// float64 or int64 is 65, two int64 keys are 128) the radix sort still applies: a comparator's merge
// sort inlines a few hundred comparisons into its block sort, a third of a user program's device code.
__extension__ using uint128_word = unsigned __int128;
template <int Bits>
using packed_word_t = std::conditional_t<(Bits <= 32), std::uint32_t, std::conditional_t<(Bits <= 64), std::uint64_t, uint128_word>>;

}  // namespace detail
}  // namespace colx
