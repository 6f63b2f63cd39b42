// SPDX-License-Identifier: Apache-2.0
#pragma once
// The first k rows of a frame under sort keys, without sorting every row where a comparator
// sort would (keys that do not pack into 128 bits: a decimal128 sum, a string).
//
// Each row's first key is mapped to a 64-bit prefix that orders like it, ties allowed (a 128-bit
// value beyond 64 bits, a string's bytes past the eighth). Let T be the k-th smallest prefix: a row
// whose prefix is above T has at least k rows strictly before it, so the first k rows are among
// the candidates whose prefix is at most T (k rows, and those tied with the k-th on its prefix).
// A radix sort of the prefixes, a compaction of the candidates and a comparator sort of those
// few replace a comparator sort of every row: TPC-H Q10 took its top 20 of 380,000 groups, by a
// sum of decimals, with a merge sort of all of them (0.35 ms on an H200). Where more than 8,192
// rows tie with the k-th on its prefix (strings that share their first 8 bytes), the prefixes' sort
// and a wait were spent for nothing and every row is sorted.
#include <colx/exec/dispatch.hpp>
#include <colx/exec/row_keys.hpp>
#include <colx/exec/sort.hpp>
#include <colx/frame/sort_dictionary.hpp>
#include <colx/frame/sort_keys.hpp>
#include <colx/memory/current_resource.hpp>
#include <colx/memory/uvector.hpp>

#include <cstdint>
#include <optional>
#include <tuple>
#include <type_traits>

namespace colx::detail {

// A 64-bit number that orders like values of T (ascending), with ties; `prefix_bits` of it used.
template <class T>
inline constexpr bool has_order_prefix =
    radix_encoding<T>::exists || std::is_same_v<T, string_view> || sizeof(raw_t<T>) == 16;
template <class T>
constexpr int order_prefix_bits() {
  if constexpr (radix_encoding<T>::exists) {
    return radix_encoding<T>::bits;
  } else {
    return 64;
  }
}
template <class T>
inline constexpr int prefix_bits = order_prefix_bits<T>();

template <class T>
[[nodiscard]] COLX_HOST_DEVICE std::uint64_t order_prefix(T v) {
  if constexpr (radix_encoding<T>::exists) {
    return radix_encoding<T>::encode(v);
  } else if constexpr (std::is_same_v<T, string_view>) {
    std::uint64_t p = 0;  // the first 8 bytes, big-endian, zeros past the end (compare() is unsigned)
    for (size_type j = 0; j < 8; ++j) {
      p = (p << 8) | (j < v.size_bytes() ? static_cast<std::uint64_t>(static_cast<unsigned char>(v.data()[j])) : 0u);
    }
    return p;
  } else {
    // A 128-bit value clamped to 64 bits (a sum of decimals mostly fits: its high half alone tied
    // every row of TPC-H Q10), the sign bit flipped.
    auto const r = raw_value(v);
    auto const low = static_cast<decltype(r)>(INT64_MIN);  // (not numeric_limits: host-only in device code)
    auto const high = static_cast<decltype(r)>(INT64_MAX);
    auto const clamped = static_cast<std::int64_t>(r < low ? low : r > high ? high : r);
    return static_cast<std::uint64_t>(clamped) ^ (std::uint64_t{1} << 63);
  }
}

// Row i's prefix under one sort key: direction applied, and the null placement in the highest
// bit where the key can be null (a 64-bit prefix gives up its lowest bit for it).
template <class Inputs, class Key>
struct key_prefix_fn {
  Inputs in;
  Key key;
  std::uint64_t* out;
  COLX_HOST_DEVICE void operator()(size_type i) const {
    using T = key_value_t<Key, Inputs>;
    constexpr int bits = prefix_bits<T>;
    constexpr std::uint64_t mask = bits == 64 ? ~std::uint64_t{0} : (std::uint64_t{1} << bits) - 1;
    auto const m = key.expr(in, i);
    std::uint64_t v = m.valid ? order_prefix(m.value) : 0;
    if (key.descending) { v = ~v & mask; }
    if constexpr (key_nullable<Key, Inputs>) {
      auto const after = static_cast<std::uint64_t>((key.nulls == null_order::last) != static_cast<bool>(m.valid));
      v = bits == 64 ? (after << 63) | (v >> 1) : (after << bits) | v;
    }
    out[i] = v;
  }
};

struct prefix_at_most_fn {
  std::uint64_t const* prefix;
  std::uint64_t const* threshold;  // device memory: the k-th smallest prefix, never read back
  COLX_HOST_DEVICE bool operator()(size_type i) const { return prefix[i] <= *threshold; }
};
struct row_index_fn {
  COLX_HOST_DEVICE size_type operator()(size_type i) const { return i; }
};
struct store_row_index_fn {
  std::int32_t* out;
  COLX_HOST_DEVICE void operator()(size_type k, size_type i) const { out[k] = static_cast<std::int32_t>(i); }
};

// Where the candidates' path applies: enough rows that sorting them all costs more, few enough
// taken that the candidates are few, and keys that the radix path does not sort already.
inline constexpr size_type top_rows_min_rows = 8192;
inline constexpr size_type top_rows_max_k = 1024;
inline constexpr size_type top_rows_max_candidates = 8192;

// The first k rows of f or more, in sorted order under the (bound) keys, from the candidates;
// nothing where the path does not apply (the caller sorts every row).
template <class Frame, class... Keys>
std::optional<uvector<std::int32_t>> top_rows(Frame const& f, size_type k, tuple<Keys...> const& keys, stream_ref stream) {
  using inputs = typename Frame::inputs_type;
  using first_key = std::tuple_element_t<0, std::tuple<Keys...>>;
  size_type const n = f.num_rows();
  if constexpr (total_packed_bits<inputs, Keys...> > 128 &&
                !(dictionary_key<std::remove_cvref_t<decltype(std::declval<Keys const&>().expr)>>::value || ...) &&
                has_order_prefix<key_value_t<first_key, inputs>>) {
    if (n >= top_rows_min_rows && k >= 1 && k <= top_rows_max_k) {
      resource_ref const mr = get_current_resource(f.kind());
      uvector<std::uint64_t> prefix(n, stream, mr);
      uvector<std::uint64_t> sorted(n, stream, mr);
      uvector<std::int32_t> candidates(n, stream, mr);
      size_type const m = on_backend(f.kind(), stream, [&](auto const& exec) {
        exec.for_each_n(n, key_prefix_fn<inputs, first_key>{f.inputs(), get<0>(keys), prefix.data()});
        sort_keys(exec, n, prefix.data(), sorted.data(), false);
        return exec.select_rows(n, prefix_at_most_fn{prefix.data(), sorted.data() + (k - 1)}, row_index_fn{},
                                store_row_index_fn{candidates.data()});
      });
      if (m <= top_rows_max_candidates) {
        on_backend(f.kind(), stream, [&](auto const& exec) {
          sort_by_comparator(exec, candidates.data(), m, row_less_fn<inputs, Keys...>{f.inputs(), keys});
        });
        return candidates;  // m >= k rows; the first k are the answer
      }
    }
  }
  return std::nullopt;
}

}  // namespace colx::detail
