// SPDX-License-Identifier: Apache-2.0
#pragma once
// Sorting on the host executor, the same contract as gpu/sort.cuh: stable sorts of (key, value)
// pairs and of keys by unsigned key encodings, and a stable sort by a comparator.
#include <colx/host/executor.hpp>

#include <algorithm>
#include <cstddef>
#include <utility>
#include <vector>

namespace colx::host {

// Stable sort of (key, value) pairs by key, ascending (the radix sort's contract; keys are
// unsigned encodings or integers, so < is a strict weak order). The keys agree outside the bit
// range given, so whole keys compare as the radix sort's bits would.
template <class K, class V>
void sort_pairs(executor const&, size_type n, K const* keys_in, K* keys_out, V const* values_in, V* values_out, int, int) {
  std::vector<std::pair<K, V>> pairs(static_cast<std::size_t>(n));
  for (size_type i = 0; i < n; ++i) { pairs[static_cast<std::size_t>(i)] = {keys_in[i], values_in[i]}; }
  std::stable_sort(pairs.begin(), pairs.end(), [](auto const& a, auto const& b) { return a.first < b.first; });
  for (size_type i = 0; i < n; ++i) {
    keys_out[i] = pairs[static_cast<std::size_t>(i)].first;
    values_out[i] = pairs[static_cast<std::size_t>(i)].second;
  }
}

template <class K>
void sort_keys(executor const&, size_type n, K const* keys_in, K* keys_out, bool descending) {
  std::copy(keys_in, keys_in + n, keys_out);
  if (descending) {
    std::stable_sort(keys_out, keys_out + n, [](K a, K b) { return b < a; });
  } else {
    std::stable_sort(keys_out, keys_out + n);
  }
}

// Sorts [first, first + n) in place by less(a, b), stably.
template <class V, class Less>
void sort_by_comparator(executor const&, V* first, size_type n, Less less) {
  std::stable_sort(first, first + n, less);
}

}  // namespace colx::host
