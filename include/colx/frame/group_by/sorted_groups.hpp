// SPDX-License-Identifier: Apache-2.0
#pragma once
// A sorted group-by whose keys bound its groups to a handful (dictionary columns of a few entries
// and booleans: TPC-H Q1's flags, Q4's order priorities, Q12's ship modes) writes its rows in key
// order straight from the table: a group's place is the number of groups whose keys come before
// its own, counted over the table's few slots, each dictionary's entries ranked by a launch made
// before the aggregation pass. Compacting the table and then sorting the result took seven
// launches (the compaction's two; each dictionary ranked, the keys packed, placed and every column
// gathered), a second frame's allocations and two more waits.
#include <colx/exec/aggregate_rows.hpp>
#include <colx/exec/atomics.hpp>
#include <colx/exec/dispatch.hpp>
#include <colx/frame/gather.hpp>
#include <colx/frame/group_by/output.hpp>
#include <colx/frame/kernels.hpp>
#include <colx/frame/sort_dictionary.hpp>

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <type_traits>
#include <utility>

namespace colx::detail {

// Whether a bound key orders its groups in place: a dictionary's codes (by their entries' ranks)
// or a boolean column. These, with 8-bit integers, are the keys groups_bound bounds; a bound under
// 8 groups leaves no room for an 8-bit key's 256 values, so those are never asked for.
template <class Bound>
inline constexpr bool is_codes_key = false;
template <std::size_t I, class T, bool Nullable>
inline constexpr bool is_codes_key<expr::bound_codes<I, T, Nullable>> = true;
template <class Bound>
inline constexpr bool is_bool_key = false;
template <std::size_t I, bool Nullable>
inline constexpr bool is_bool_key<expr::bound_col<I, bool, Nullable>> = true;
template <class Bound>
inline constexpr bool key_sorts_in_place = is_codes_key<Bound> || is_bool_key<Bound>;

template <class Keys>
inline constexpr bool keys_sort_in_place = false;
template <class... Keys>
inline constexpr bool keys_sort_in_place<tuple<Keys...>> = (key_sorts_in_place<Keys> && ...);

// A bounded group-by's dictionaries have fewer entries than this: its bound is under the per-thread
// caches' limit (group_by/plan.hpp's use_private_caches), and each entry is a group.
inline constexpr size_type most_entries_sorted_in_place = 8;
static_assert(2 * group_cache_size <= most_entries_sorted_in_place,
              "a bounded group-by's dictionary may have more entries than the placing pass ranks");

// Each key's dictionary entries ranked in value order, one byte an entry in a word a key (a
// boolean key's word is unused). Ranked by a launch made while the host prepares the pass
// (rank_key_entries), where the GPU is idle: a thread an entry. (Each placing thread ranked the
// entries itself, after the pass: a chain of dependent reads of the dictionaries' strings that
// took most of that pass's 18 us for TPC-H Q1's two flags on an H200.)
template <class Fn, class Positions>
struct rank_key_entries_fn;
template <class Fn, std::size_t... K>
struct rank_key_entries_fn<Fn, std::index_sequence<K...>> {
  Fn fn;
  std::uint8_t* ranks;  // num_keys * most_entries_sorted_in_place bytes
  COLX_HOST_DEVICE void operator()(size_type j) const {
    auto const key = static_cast<std::size_t>(j / most_entries_sorted_in_place);
    size_type const entry = j % most_entries_sorted_in_place;
    (rank_of<K>(key, entry), ...);
  }
  template <std::size_t J>
  COLX_HOST_DEVICE void rank_of(std::size_t key, size_type entry) const {
    using bound = std::remove_cvref_t<decltype(get<J>(fn.keys))>;
    if constexpr (is_codes_key<bound>) {
      auto const& entries = get<bound::position>(fn.in).values;
      if (key == J) {  // (bytes past the entries are never read, but written: the word is read whole)
        ranks[J * most_entries_sorted_in_place + static_cast<std::size_t>(entry)] =
            entry < entries.size ? static_cast<std::uint8_t>(entry_rank(entries, entries.size, entry)) : std::uint8_t{0};
      }
    }
  }
};
template <std::size_t NumKeys, class Fn>
uvector<std::uint64_t> rank_key_entries(Fn const& fn, memory_kind kind, stream_ref stream, resource_ref mr) {
  uvector<std::uint64_t> words(static_cast<size_type>(NumKeys), stream, mr);
  constexpr bool any_codes = []<std::size_t... K>(std::index_sequence<K...>) {
    return (is_codes_key<std::remove_cvref_t<decltype(get<K>(std::declval<Fn const&>().keys))>> || ...);
  }(std::make_index_sequence<NumKeys>{});
  if constexpr (any_codes) {  // (booleans only: nothing to rank, and no word is read)
    auto* const bytes = reinterpret_cast<std::uint8_t*>(words.data());
    on_backend(kind, stream, [&](auto const& exec) {
      exec.for_each_n(static_cast<size_type>(NumKeys) * most_entries_sorted_in_place,
                      rank_key_entries_fn<Fn, std::make_index_sequence<NumKeys>>{fn, bytes});
    });
  }
  return words;
}

// Where key Key puts a group: a dictionary code at its entry's rank in value order, a boolean at
// its value, a null after every value (sort_by's default order: ascending, nulls last).
template <class Key, class Inputs>
struct key_ranks {
  std::uint64_t rank_bytes = 0;  // byte e: entry e's rank
  std::uint64_t values = 2;      // the key's distinct values; a null's rank

  COLX_HOST_DEVICE key_ranks(Inputs const& in, std::uint64_t const* ranked) {
    if constexpr (is_codes_key<Key>) {
      values = static_cast<std::uint64_t>(get<Key::position>(in).values.size);
      rank_bytes = *ranked;
    }
  }
  template <class Value>
  COLX_HOST_DEVICE std::uint64_t of(Value const& key) const {
    if (!key.valid) { return values; }
    if constexpr (is_codes_key<Key>) {
      return (rank_bytes >> (8 * static_cast<unsigned>(key.value))) & 0xffu;
    } else {
      return static_cast<std::uint64_t>(key.value);
    }
  }
};

// The most table slots counted pairwise (each slot compares itself with every other): a bounded
// group-by's table has 64.
inline constexpr size_type most_slots_sorted_in_place = 1024;

// Every key's ranks, and a group's place in key order from its slot's packed word.
template <class Fn, class Positions>
struct group_key_ranks;
template <class Fn, std::size_t... K>
struct group_key_ranks<Fn, std::index_sequence<K...>> {
  using inputs = std::remove_cvref_t<decltype(std::declval<Fn const&>().in)>;
  template <std::size_t J>
  using key_t = std::remove_cvref_t<decltype(get<J>(std::declval<Fn const&>().keys))>;
  tuple<key_ranks<key_t<K>, inputs>...> ranks;

  COLX_HOST_DEVICE group_key_ranks(Fn const& fn, std::uint64_t const* ranked)
      : ranks(key_ranks<key_t<K>, inputs>(fn.in, ranked + K)...) {}
  // The place of the group whose slot holds `word` (the extra slot's group's keys are empty_word).
  COLX_HOST_DEVICE std::uint64_t place_of(Fn const& fn, std::uint64_t slot, std::uint64_t word) const {
    std::uint64_t const keys = slot > fn.slot_mask ? Fn::empty_word : word;  // (as load_group_fn)
    std::uint64_t place = 0;
    ((place = place * (get<K>(ranks).values + 1) + get<K>(ranks).of(fn.template unpack<K>(keys))), ...);
    return place;
  }
};

// Slots whose words a placing thread reads at once: independent loads in flight together, where
// one at a time made 64 round trips to memory.
inline constexpr size_type placing_batch = 16;

// Slot s's group, written at its place in key order (ties, which distinct dictionary entries do
// not make, by slot), its nulls counted per column into `nulls`.
template <class Fn, class Item, std::size_t NumKeys, class Store>
struct place_sorted_group_fn {
  Fn fn;
  size_type slots;
  Store store;
  size_type* nulls;
  std::uint64_t const* ranked;  // rank_key_entries'

  COLX_HOST_DEVICE void operator()(size_type s) const {
    auto const mine_slot = static_cast<std::uint64_t>(s);
    std::uint64_t const my_word = *fn.word_at(mine_slot);
    if (!fn.occupied_word(mine_slot, my_word)) { return; }
    group_key_ranks<Fn, std::make_index_sequence<NumKeys>> const ranks(fn, ranked);
    std::uint64_t const mine = ranks.place_of(fn, mine_slot, my_word);
    size_type before = 0;
    for (size_type t0 = 0; t0 < slots; t0 += placing_batch) {
      std::uint64_t words[placing_batch];
      COLX_UNROLL
      for (size_type u = 0; u < placing_batch; ++u) {
        words[u] = t0 + u < slots ? *fn.word_at(static_cast<std::uint64_t>(t0 + u)) : std::uint64_t{0};
      }
      COLX_UNROLL
      for (size_type u = 0; u < placing_batch; ++u) {
        size_type const t = t0 + u;
        auto const slot = static_cast<std::uint64_t>(t);
        if (t >= slots || t == s || !fn.occupied_word(slot, words[u])) { continue; }
        std::uint64_t const theirs = ranks.place_of(fn, slot, words[u]);
        before += theirs < mine || (theirs == mine && t < s) ? 1 : 0;
      }
    }
    Item const row = load_group_fn<Fn, Item, NumKeys>{fn}(s);
    for (std::size_t c = 0; c < decltype(Item::values)::size; ++c) {
      if (!row.valid.test(c)) { atomic_add(nulls + c, size_type{1}); }
    }
    store(before, row);
  }
};

// What the host reads after the placing pass, in one wait: the number of groups (-1: the table
// overflowed, the pass is rerun larger) and each output column's nulls.
template <std::size_t N>
struct sorted_group_counts {
  size_type groups;
  std::array<size_type, N> nulls;
};

// The result of a bounded, sorted group-by (group_by/aggregate.hpp), once its pass is launched: its
// rows in key order, written by one pass over the table's `slots`; none where the table
// overflowed. Its columns (for as many rows as slots: a bounded table has 64) are allocated while
// the GPU runs the pass, and the placing pass follows it with no wait between them: read() then
// learns the groups and every column's null count at once (the nulls counted into `nulls`, which
// the pass's counters clear), and the frame finishes without another wait.
template <class Schema, class Item, std::size_t NumKeys, class Fn, class Read>
std::optional<frame<Schema>> write_sorted_groups(Fn const& fn, memory_kind kind, size_type slots,
                                                 std::array<bool, Schema::size> const& masked,
                                                 std::array<data_type, Schema::size> const& types,
                                                 column_likes<Schema::size> const& likes, std::uint64_t const* ranked,
                                                 size_type* nulls, stream_ref stream, resource_ref mr, Read const& read) {
  bool overflowed = false;
  std::array<size_type, Schema::size> known_nulls{};
  auto result = write_frame<Schema>(
      slots, masked, types, likes, stream, mr,
      [&](auto const& views) {
        using store_t = store_row_fn<std::remove_cvref_t<decltype(views)>>;
        on_backend(kind, stream, [&](auto const& exec) {
          exec.for_each_n(slots, place_sorted_group_fn<Fn, Item, NumKeys, store_t>{fn, slots, store_t{views}, nulls, ranked});
        });
        sorted_group_counts<Schema::size> const counts = read();
        overflowed = counts.groups < 0;
        if (overflowed) { return size_type{0}; }
        // A column without a mask holds no nulls: any counted there are a non-nullable value's.
        [&]<std::size_t... C>(std::index_sequence<C...>) {
          ((known_nulls[C] = masked[C] && Schema::template field_at<C>::is_nullable ? counts.nulls[C] : 0), ...);
        }(std::make_index_sequence<Schema::size>{});
        return counts.groups;
      },
      &known_nulls);
  if (overflowed) { return std::nullopt; }
  return result;
}

}  // namespace colx::detail
