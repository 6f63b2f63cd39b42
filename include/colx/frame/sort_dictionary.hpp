// SPDX-License-Identifier: Apache-2.0
#pragma once
// Sorting by a dictionary column without decoding it. Each dictionary entry's rank in value order
// is found once, by sorting the dictionary (its few distinct values, not the rows); the rows then
// sort by the rank of their code, a small unsigned integer that the packed radix sort takes. A
// dictionary's values are distinct, so equal values have equal codes and equal ranks: the order
// is the values' order, ties and stability included.
#include <colx/exec/dispatch.hpp>
#include <colx/exec/row_keys.hpp>
#include <colx/exec/sort.hpp>
#include <colx/expr/expression.hpp>
#include <colx/memory/uvector.hpp>

#include <cstdint>
#include <string>
#include <type_traits>
#include <vector>

namespace colx::detail {

struct iota_fn {
  std::int32_t* rows;
  COLX_HOST_DEVICE void operator()(size_type i) const { rows[i] = static_cast<std::int32_t>(i); }
};

// The rank of row i's code, in place of the dictionary column a sort key names.
template <std::size_t I, class Rank, bool Nullable>
struct bound_rank : expr::node<bound_rank<I, Rank, Nullable>> {
  using value_type = Rank;
  static constexpr std::size_t position = I;
  Rank const* ranks = nullptr;  // by code: the entry's place in value order
  template <class Inputs>
  [[nodiscard]] COLX_HOST_DEVICE expr::maybe<Rank, Nullable> operator()(Inputs const& in, size_type i) const {
    auto const& view = get<I>(in);
    if constexpr (Nullable) {
      bool const valid = view.is_valid(i);  // a null row's code may be anything: not followed
      return {valid ? ranks[static_cast<size_type>(view.code(i))] : Rank{}, valid};
    } else {
      return {ranks[static_cast<size_type>(view.code(i))]};
    }
  }
  [[nodiscard]] static std::string to_string() { return "rank($" + std::to_string(I) + ")"; }
};

template <class E>
struct dictionary_key : std::false_type {};
template <std::size_t I, class V, class Code, bool Nullable>
struct dictionary_key<expr::bound_col<I, dictionary<V, Code>, Nullable>> : std::true_type {
  using rank_type = std::make_unsigned_t<Code>;  // ranks are below the dictionary's size
  using leaf = bound_rank<I, rank_type, Nullable>;
};

// Dictionary entry a before entry b in value order.
template <class Values>
struct entry_less_fn {
  Values values;
  COLX_HOST_DEVICE bool operator()(std::int32_t a, std::int32_t b) const { return value_less(values.value(a), values.value(b)); }
};
// Entry i's place in value order, counted over every entry: for a few entries, one launch in
// place of a sort's. (A dictionary's values are distinct; ties would go by position.)
template <class Values>
COLX_HOST_DEVICE size_type entry_rank(Values const& values, size_type size, size_type i) {
  entry_less_fn<Values> const less{values};
  size_type before = 0;
  for (size_type j = 0; j < size; ++j) { before += (less(j, i) || (j < i && !less(i, j))) ? 1 : 0; }
  return before;
}
template <class Values, class Rank>
struct count_rank_fn {
  Values values;
  size_type size;
  Rank* ranks;
  COLX_HOST_DEVICE void operator()(size_type i) const { ranks[i] = static_cast<Rank>(entry_rank(values, size, i)); }
};
inline constexpr size_type counted_rank_entries = 256;
template <class Rank>
struct place_rank_fn {
  std::int32_t const* order;
  Rank* ranks;
  COLX_HOST_DEVICE void operator()(size_type j) const { ranks[order[j]] = static_cast<Rank>(j); }
};

// The key with a dictionary column replaced by the ranks of its codes (kept alive in `held`);
// any other key as it is. Only a key that is the column itself is replaced: an expression over
// a dictionary column sorts by its decoded values.
template <class Key, class Frame>
[[nodiscard]] auto rank_dictionary_key(Key const& key, Frame const& f, stream_ref stream, std::vector<buffer>& held) {
  using E = std::remove_cvref_t<decltype(key.expr)>;
  if constexpr (dictionary_key<E>::value) {
    using rank_t = typename dictionary_key<E>::rank_type;
    auto const values = get<E::position>(f.inputs()).values;
    size_type const size = values.size;
    resource_ref const mr = get_current_resource(f.kind());
    uvector<rank_t> ranks(size, stream, mr);
    on_backend(f.kind(), stream, [&](auto const& exec) {
      if (size <= counted_rank_entries) {
        exec.for_each_n(size, count_rank_fn<decltype(values), rank_t>{values, size, ranks.data()});
        return;
      }
      uvector<std::int32_t> order(size, stream, mr);
      exec.for_each_n(size, iota_fn{order.data()});
      sort_by_comparator(exec, order.data(), size, entry_less_fn<decltype(values)>{values});
      exec.for_each_n(size, place_rank_fn<rank_t>{order.data(), ranks.data()});
    });
    typename dictionary_key<E>::leaf leaf;
    leaf.ranks = ranks.data();
    held.push_back(std::move(ranks).release());
    return key.map([leaf](auto const&) { return leaf; });
  } else {
    return key;
  }
}

}  // namespace colx::detail
