// SPDX-License-Identifier: Apache-2.0
#pragma once
// A sorted group-by whose keys bound its groups to a handful (dictionary columns of a few entries
// and booleans: TPC-H Q1's flags, Q4's order priorities, Q12's ship modes) writes its rows in key
// order straight from the table: a group's place is the number of groups whose keys come before
// its own, counted over the table's few slots. Compacting the table and then sorting the result
// took seven launches more (the compaction's two; each dictionary ranked, the keys packed, placed
// and every column gathered) and a second frame's allocations: about 0.1 ms of TPC-H Q1's 1.1.
#include <colx/exec/dispatch.hpp>
#include <colx/frame/gather.hpp>
#include <colx/frame/group_by/output.hpp>
#include <colx/frame/kernels.hpp>
#include <colx/frame/sort_dictionary.hpp>
#include <colx/memory/buffer.hpp>
#include <colx/memory/uvector.hpp>

#include <array>
#include <cstddef>
#include <cstdint>
#include <type_traits>
#include <utility>
#include <vector>

namespace colx::detail {

// Whether a bound key orders its groups in place: a dictionary's codes (by their entries' ranks)
// or a boolean column. These, with 8-bit integers, are the keys groups_bound bounds; a bound under
// 8 groups leaves no room for an 8-bit key's 256 values, so those are never asked for.
template <class Bound>
inline constexpr bool key_sorts_in_place = false;
template <std::size_t I, class T, bool Nullable>
inline constexpr bool key_sorts_in_place<expr::bound_codes<I, T, Nullable>> = true;
template <std::size_t I, bool Nullable>
inline constexpr bool key_sorts_in_place<expr::bound_col<I, bool, Nullable>> = true;

template <class Bound>
inline constexpr bool is_codes_key = false;
template <std::size_t I, class T, bool Nullable>
inline constexpr bool is_codes_key<expr::bound_codes<I, T, Nullable>> = true;

template <class Keys>
inline constexpr bool keys_sort_in_place = false;
template <class... Keys>
inline constexpr bool keys_sort_in_place<tuple<Keys...>> = (key_sorts_in_place<Keys> && ...);

// Where one key puts a group: a dictionary code at its entry's rank in value order, a boolean at
// its value, a null after every value (sort_by's default order: ascending, nulls last).
struct key_order {
  std::uint32_t const* ranks = nullptr;  // by code, for a dictionary key
  std::uint64_t values = 2;              // the key's distinct values; a null's rank
};

// The most table slots counted pairwise (each slot compares itself with every other): a bounded
// group-by's table has 64.
inline constexpr size_type most_slots_sorted_in_place = 1024;

// Slot s's group, written at its place in key order (ties, which distinct dictionary entries do
// not make, by slot).
template <class Fn, class Item, std::size_t NumKeys, class Store>
struct place_sorted_group_fn {
  Fn fn;
  key_order order[NumKeys];
  size_type slots;
  Store store;

  COLX_HOST_DEVICE std::uint64_t rank_of(size_type s) const {
    auto const slot = static_cast<std::uint64_t>(s);
    std::uint64_t const word = slot > fn.slot_mask ? Fn::empty_word : *fn.word_at(slot);  // (as load_group_fn)
    std::uint64_t rank = 0;
    [&]<std::size_t... K>(std::index_sequence<K...>) {
      ((rank = rank * (order[K].values + 1) + key_rank(order[K], fn.template unpack<K>(word))), ...);
    }(std::make_index_sequence<NumKeys>{});
    return rank;
  }
  COLX_HOST_DEVICE void operator()(size_type s) const {
    if (!fn.occupied(static_cast<std::uint64_t>(s))) { return; }
    std::uint64_t const mine = rank_of(s);
    size_type before = 0;
    for (size_type t = 0; t < slots; ++t) {
      if (t == s || !fn.occupied(static_cast<std::uint64_t>(t))) { continue; }
      std::uint64_t const theirs = rank_of(t);
      before += theirs < mine || (theirs == mine && t < s) ? 1 : 0;
    }
    store(before, load_group_fn<Fn, Item, NumKeys>{fn}(s));
  }

 private:
  template <class Key>
  static COLX_HOST_DEVICE std::uint64_t key_rank(key_order const& order, Key const& key) {
    if (!key.valid) { return order.values; }
    if (order.ranks != nullptr) { return order.ranks[static_cast<size_type>(key.value)]; }
    return static_cast<std::uint64_t>(key.value);
  }
};

// Key K's order over frame f's rows: its dictionary's entries ranked (one launch, the ranks kept
// in `held` until the placing pass has run), or a boolean's two values.
template <class Key, class Frame>
key_order key_order_of(Frame const& f, stream_ref stream, std::vector<buffer>& held) {
  if constexpr (is_codes_key<Key>) {  // (a bounded group-by's dictionaries have under 8 entries)
    auto const values = get<Key::position>(f.inputs()).values;
    size_type const size = values.size;
    uvector<std::uint32_t> ranks(size, stream, get_current_resource(f.kind()));
    on_backend(f.kind(), stream, [&](auto const& exec) {
      exec.for_each_n(size, count_rank_fn<decltype(values), std::uint32_t>{values, size, ranks.data()});
    });
    key_order const order{ranks.data(), static_cast<std::uint64_t>(size)};
    held.push_back(std::move(ranks).release());
    return order;
  } else {
    return key_order{nullptr, 2};
  }
}

// The result of a bounded, sorted group-by (group_by/aggregate.hpp): its `groups` rows in key order,
// written by one pass over the table's `slots`.
template <class Schema, class Item, std::size_t NumKeys, class Frame, class Fn, class Keys>
frame<Schema> write_sorted_groups(Frame const& f, Fn const& fn, Keys const& keys, size_type slots, size_type groups,
                                  std::array<bool, Schema::size> const& masked, std::array<data_type, Schema::size> const& types,
                                  column_likes<Schema::size> const& likes, stream_ref stream, resource_ref mr) {
  std::vector<buffer> held;
  std::array<key_order, NumKeys> order{};
  [&]<std::size_t... K>(std::index_sequence<K...>) {
    ((order[K] = key_order_of<std::remove_cvref_t<decltype(get<K>(keys))>>(f, stream, held)), ...);
  }(std::make_index_sequence<NumKeys>{});
  return write_frame<Schema>(groups, masked, types, likes, stream, mr, [&](auto const& views) {
    using store_t = store_row_fn<std::remove_cvref_t<decltype(views)>>;
    place_sorted_group_fn<Fn, Item, NumKeys, store_t> place{fn, {}, slots, store_t{views}};
    for (std::size_t k = 0; k < NumKeys; ++k) { place.order[k] = order[k]; }
    on_backend(f.kind(), stream, [&](auto const& exec) { exec.for_each_n(slots, place); });
    return groups;
  });
}

}  // namespace colx::detail
