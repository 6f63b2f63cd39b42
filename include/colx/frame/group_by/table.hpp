// SPDX-License-Identifier: Apache-2.0
#pragma once
// The group-by's hash table as the passes see it (group_table_fn): slots of a header (the group's
// packed keys, or its first row) and its cells; finding or inserting a row's group through the
// open-addressing core (exec/open_addressing.hpp); nunique's sets of (group, value) pairs; the
// filter, the key packing and the row's values as the row loop loads them
// (exec/aggregate_rows.hpp). Clearing a table is group_by/clear.hpp's; the sample's pass that
// estimates the groups, group_by/plan.hpp's.
#include <colx/exec/aggregate_rows.hpp>
#include <colx/exec/atomics.hpp>
#include <colx/exec/open_addressing.hpp>
#include <colx/exec/row_keys.hpp>
#include <colx/expr/packed_keys.hpp>
#include <colx/expr/reuse.hpp>
#include <colx/frame/group_by/sharing.hpp>

#include <cstddef>
#include <cstdint>
#include <type_traits>
#include <utility>

namespace colx::detail {

inline constexpr size_type empty_slot = -1;

// nunique keeps a set of (group, value) pairs beside the table (group_table_fn::first_of_pair),
// one per nunique aggregation: never shared (its cell's shares_sum is false), in the order of the
// aggregations.
template <class Agg>
inline constexpr bool keeps_pairs = false;
template <class E>
inline constexpr bool keeps_pairs<expr::aggregation<expr::kinds::distinct_count, E>> = true;
template <class... Aggs>
constexpr std::size_t pair_sets_before(std::size_t k) {
  bool const keeps[] = {keeps_pairs<Aggs>..., false};
  std::size_t n = 0;
  for (std::size_t j = 0; j < k; ++j) { n += keeps[j] ? 1 : 0; }
  return n;
}

template <class Inputs, class Pred, class Keys, class Aggs>
struct group_table_fn;

template <class Inputs, class Pred, class... Keys, class... Aggs>
struct group_table_fn<Inputs, Pred, tuple<Keys...>, tuple<Aggs...>> {
  using sharing = cell_sharing<bound_aggregation_traits<Aggs, Inputs>...>;
  using cells = typename sharing::cells;
  static constexpr std::size_t num_aggs = sizeof...(Aggs);

  Inputs in;
  Pred pred;
  tuple<Keys...> keys;
  tuple<Aggs...> aggs;
  bool drop_null_keys = false;
  bool eager_loads = false;  // see load()
  // nunique's sets of (group, value) pairs (see first_of_pair): set j is mask + 1 slots at
  // rows + j * (mask + 1), each the first row seen of a pair or empty_slot. Pairs are counted as
  // groups are, set j's in `shards` counters from counts + j * shards * counter_stride, and a set
  // too full flags overflow: the rerun grows the sets with the table. Without a nunique the
  // member is empty and sits in the bools' padding: this struct is every kernel's parameter, and
  // NVVM kept the 1M-group row loop's fields in registers at 128 bytes but not at 168 (that pass
  // took 4.07 ms instead of 3.26 on the H100).
  struct pair_sets_state {
    size_type* rows = nullptr;
    std::uint64_t mask = 0;
    size_type* counts = nullptr;
    std::uint64_t shards = 1;
    size_type most = 0;
  };
  struct no_pair_sets {};
  static constexpr std::size_t pair_sets = pair_sets_before<Aggs...>(sizeof...(Aggs));
  template <std::size_t K>
  static constexpr std::size_t pair_set_v = pair_sets_before<Aggs...>(K);
  std::conditional_t<(pair_sets > 0), pair_sets_state, no_pair_sets> pair{};
  // Slot s is entry_bytes bytes at entries + s * entry_bytes: a header of 8 bytes, then (in the
  // aggregation's table) the group's cells, so that one row's lookup and update touch one place.
  // The header is the keys' word when they pack (or empty_word), else the group's first-inserted
  // row (or empty_slot). The sample's table has the headers only.
  unsigned char* entries = nullptr;
  std::size_t entry_bytes = sizeof(size_type);
  std::uint64_t slot_mask = 0;  // slots - 1 (a power of two)
  // Groups inserted so far, counted in group_shards counters (a power of two) a cache line apart,
  // by slot: with millions of groups, one counter would take millions of atomics on one address.
  size_type* groups = nullptr;
  std::uint64_t group_shards = 1;
  size_type max_groups = 0;  // per counter: beyond this the table is too full, and the pass is rerun larger
  unsigned* overflow = nullptr;

  COLX_HOST_DEVICE bool keep(size_type i) const {
    auto const p = pred(in, i);
    if (!(p.valid && static_cast<bool>(p.value))) { return false; }
    if (drop_null_keys) {
      bool all_valid = true;
      [&]<std::size_t... K>(std::index_sequence<K...>) {
        ((all_valid = all_valid && static_cast<bool>(get<K>(keys)(in, i).valid)), ...);
      }(std::index_sequence_for<Keys...>{});
      return all_valid;
    }
    return true;
  }
  COLX_HOST_DEVICE std::uint64_t hash(size_type i) const {
    std::uint64_t h = 0x2545f4914f6cdd1dull;
    [&]<std::size_t... K>(std::index_sequence<K...>) {
      ((h = hash_combine(h, hash_key(get<K>(keys)(in, i)))), ...);
    }(std::index_sequence_for<Keys...>{});
    return h;
  }
  COLX_HOST_DEVICE bool same_keys(size_type a, size_type b) const {
    bool same = true;
    [&]<std::size_t... K>(std::index_sequence<K...>) {
      (void)((same = keys_equal(get<K>(keys)(in, a), get<K>(keys)(in, b))) && ...);
    }(std::index_sequence_for<Keys...>{});
    return same;
  }
  // Keys that fit one 64-bit word together (fixed-width keys, 8 bytes in all at most, plus a bit
  // per nullable key) are compared as that word, which the slot keeps: no input row is read
  // again to compare keys (nor to write the result's keys: they are decoded from the word), and
  // the caches and block tables know a group by its word without looking it up in the global
  // table. Keys with strings may pack row by row when the strings are short (short_packed): the
  // caches and block tables then know such a group by its tagged word, and only their flushes
  // look it up in the global table, which compares keys at rows.
  static constexpr bool packed = keys_pack_v<Inputs, Keys...>;
  static constexpr bool short_packed = keys_pack_short_v<Inputs, Keys...>;
  static constexpr std::uint64_t empty_word = ~std::uint64_t{0};
  static_assert(sizeof(size_type) == sizeof(std::uint64_t) && alignof(cells) <= sizeof(std::uint64_t),
                "a slot's header is one 8-byte word, and its cells follow it");

  COLX_HOST_DEVICE size_type* rep_at(std::uint64_t s) const {
    return reinterpret_cast<size_type*>(entries + s * entry_bytes);
  }
  COLX_HOST_DEVICE std::uint64_t* word_at(std::uint64_t s) const {
    return reinterpret_cast<std::uint64_t*>(entries + s * entry_bytes);
  }
  COLX_HOST_DEVICE cells* cells_at(size_type s) const {
    return reinterpret_cast<cells*>(entries + static_cast<std::uint64_t>(s) * entry_bytes + sizeof(std::uint64_t));
  }
  // With packed keys one slot more than slot_mask + 1 holds the group whose word is empty_word
  // itself; its header is 0 while unused and 1 once used.
  static constexpr std::size_t table_entry_bytes = sizeof(std::uint64_t) + sizeof(cells);
  static constexpr std::size_t sample_entry_bytes = sizeof(std::uint64_t);
  [[nodiscard]] static constexpr size_type table_slots(size_type capacity) { return capacity + (packed ? 1 : 0); }
  COLX_HOST_DEVICE bool occupied(std::uint64_t s) const {
    if constexpr (packed) { return occupied_word(s, *word_at(s)); }
    return *rep_at(s) != empty_slot;
  }
  COLX_HOST_DEVICE bool occupied_word(std::uint64_t s, std::uint64_t word) const {  // slot s's header is word (packed)
    return s > slot_mask ? word != 0 : word != empty_word;
  }
  COLX_HOST_DEVICE void clear(std::uint64_t s) const {
    if constexpr (packed) {
      *word_at(s) = s > slot_mask ? 0 : empty_word;
    } else {
      *rep_at(s) = empty_slot;
    }
  }

  COLX_HOST_DEVICE std::uint64_t pack(size_type i) const {
    return [&]<std::size_t... K>(std::index_sequence<K...>) { return pack_keys(in, i, get<K>(keys)...); }(
        std::index_sequence_for<Keys...>{});
  }
  template <std::size_t K>
  COLX_HOST_DEVICE auto unpack(std::uint64_t word) const {
    return unpack_key<K, Inputs, Keys...>(word);
  }
  COLX_HOST_DEVICE std::uint64_t pack_short(size_type i) const {
    return [&]<std::size_t... K>(std::index_sequence<K...>) { return pack_short_keys(in, i, get<K>(keys)...); }(
        std::index_sequence_for<Keys...>{});
  }

  static constexpr std::uint64_t counter_stride = 128 / sizeof(size_type);
  // A new entry took a slot of a table counted in `shards` counters from `counts`: count it, and
  // flag the pass for a rerun when the table is too full.
  COLX_HOST_DEVICE void count_entry(size_type* counts, std::uint64_t shards, size_type most, std::uint64_t slot) const {
    size_type const before = atomic_fetch_add(counts + (slot & (shards - 1)) * counter_stride, size_type{1});
    if (before >= most) { atomic_or(overflow, 1u); }
  }
  COLX_HOST_DEVICE void count_group(std::uint64_t slot) const { count_entry(groups, group_shards, max_groups, slot); }

  // The slot of row i's group, inserting the group if it is new; -1 when the table is full. A
  // slot's row (word) never changes once set, so a plain (cached) read is safe: a stale read can
  // only see it empty, and the compare-and-swap then returns what is there. The walks are those of
  // exec/open_addressing.hpp's find_or_insert, written out: the row loop built on the generic
  // walk ran 3x slower on the H100 (1M groups: 9.7 ms, not 3.3) with the same PTX to a few
  // instructions and the same registers, and the cause is not yet found.
  COLX_HOST_DEVICE size_type locate(size_type i) const {
    if constexpr (packed) {
      return locate_word(pack(i));
    } else {
      std::uint64_t p = hash(i) & slot_mask;
      for (std::uint64_t probe = 0; probe <= slot_mask; ++probe) {
        size_type* const rep = rep_at(p);
        size_type held = *rep;
        if (held == empty_slot) {
          held = atomic_cas(rep, empty_slot, i);
          if (held == empty_slot) {
            count_group(p);
            return static_cast<size_type>(p);
          }
        }
        if (held == i || same_keys(held, i)) { return static_cast<size_type>(p); }
        p = (p + 1) & slot_mask;
      }
      atomic_or(overflow, 1u);
      return -1;
    }
  }
  // The slot of the group whose keys pack to w.
  COLX_HOST_DEVICE size_type locate_word(std::uint64_t w) const {
    if (w == empty_word) {  // the extra slot
      std::uint64_t* const used = word_at(slot_mask + 1);
      if (*used == 0 && atomic_cas(used, std::uint64_t{0}, std::uint64_t{1}) == 0) { count_group(slot_mask + 1); }
      return static_cast<size_type>(slot_mask + 1);
    }
    std::uint64_t p = mix64(w) & slot_mask;
    for (std::uint64_t probe = 0; probe <= slot_mask; ++probe) {
      std::uint64_t* const word = word_at(p);
      std::uint64_t held = *word;
      if (held == empty_word) {
        held = atomic_cas(word, empty_word, w);
        if (held == empty_word) {
          count_group(p);
          return static_cast<size_type>(p);
        }
      }
      if (held == w) { return static_cast<size_type>(p); }
      p = (p + 1) & slot_mask;
    }
    atomic_or(overflow, 1u);
    return -1;
  }

  // Whether row i, whose value of nunique aggregation K is v (valid), is the first row of its
  // (group, value) pair to get here: inserted into K's set by compare-and-swap as locate inserts
  // groups compared at rows, so that of all the rows of a pair, added by any thread, cache or
  // block table and in any order, exactly one finds it new. Pairs are equal when their keys are
  // (same_keys) and their values are as keys are (values_equal: NaN to NaN, -0.0 to 0.0).
  template <std::size_t K, class T>
  COLX_HOST_DEVICE bool first_of_pair(T const& v, size_type i) const {
    constexpr std::size_t j = pair_set_v<K>;
    size_type* const set = pair.rows + j * (pair.mask + 1);
    auto const at = [&](std::uint64_t p) { return set + p; };
    auto const same = [&](size_type held) { return values_equal(get<K>(aggs).expr(in, held).value, v) && same_keys(held, i); };
    bool first = false;
    auto const inserted = [&](std::uint64_t p) {
      count_entry(pair.counts + j * pair.shards * counter_stride, pair.shards, pair.most, p);
      first = true;
    };
    if (find_or_insert(at, pair.mask, hash_combine(hash(i), hash_value(v)), empty_slot, i, same, inserted) < 0) {
      atomic_or(overflow, 1u);  // full: the pass is rerun, whatever this returns
    }
    return first;
  }

  COLX_HOST_DEVICE bool found(std::uint64_t id) const { return packed || id != no_group_id; }
  COLX_HOST_DEVICE size_type slot_of(std::uint64_t id, size_type row) const {
    if constexpr (packed) {
      (void)row;
      return locate_word(id);
    } else if constexpr (short_packed) {
      return (id & short_pack_tag) != 0 ? locate(row) : static_cast<size_type>(id);
    } else {
      return static_cast<size_type>(id);
    }
  }

  static COLX_HOST_DEVICE cells identity() { return sharing::identity(std::make_index_sequence<sharing::kept>{}); }
  // A thread's private cells (group_by/partials.hpp), and their widening into cells.
  using partial_cells = typename sharing::partials;
  static COLX_HOST_DEVICE partial_cells partial_identity() {
    return sharing::partial_identity(std::make_index_sequence<sharing::kept>{});
  }
  static COLX_HOST_DEVICE cells widen(partial_cells const& p) { return sharing::widen(p, std::make_index_sequence<sharing::kept>{}); }

  // For the GPU's partitioned many-groups pass (gpu/aggregate_rows.cuh), which first sorts rows
  // into partitions by their group's home slot: packed keys only (other keys find their slot
  // while a row is loaded); rows are kept beside the values only where a cell reads them.
  static constexpr bool partitionable = packed;
  static constexpr bool reads_rows = (requires { bound_aggregation_traits<Aggs, Inputs>::cell::reads_rows; } || ...);
  COLX_HOST_DEVICE std::uint64_t home_slot(std::uint64_t id) const { return mix64(id) & slot_mask; }
  [[nodiscard]] std::size_t table_bytes() const { return static_cast<std::size_t>(table_slots(static_cast<size_type>(slot_mask + 1))) * entry_bytes; }

  // A row as the row loop takes it (exec/aggregate_rows.hpp): whether it counts (it passes the
  // filter and its group has a slot), its group id (what the caches know a group by: the packed
  // keys' word, else the group's slot in the table), and each aggregation's value.
  using values = tuple<std::remove_cvref_t<decltype(std::declval<Aggs const&>().expr(std::declval<Inputs const&>(), size_type{}))>...>;
  struct loaded {
    bool counts = false;
    std::uint64_t id = 0;
    values v{};
  };
  // With eager_loads (most rows pass the filter, by the sample), a row's values and packed keys
  // are read without waiting for the filter's verdict, so that their loads are in flight with the
  // filter's own (expressions are total: evaluating one at a dropped row is harmless). The test is
  // of the flag alone, which is uniform: a test of `kept || eager_loads` made every load wait for
  // the filter's. A lookup that inserts a group waits for the verdict in any case.
  COLX_HOST_DEVICE loaded load(size_type i) const {
    loaded r;
    bool kept = false;
    if (eager_loads) {
      kept = keep(i);
      read_values(r, i);
    } else {
      kept = keep(i);
      if (kept) { read_values(r, i); }
    }
    if (kept) {
      if constexpr (!packed) {
        if (!short_packed || r.id == 0) {
          size_type const slot = locate(i);
          r.id = slot < 0 ? no_group_id : static_cast<std::uint64_t>(slot);
        }
      }
      r.counts = found(r.id);
    }
    return r;
  }
  // Row i's aggregated values, each after those whose values it reads for a part it shares with
  // them (expr/reuse.hpp), and where the keys pack, its packed keys.
  COLX_HOST_DEVICE void read_values(loaded& r, size_type i) const {
    expr::evaluate(aggs, in, i, r.v);
    if constexpr (packed) {
      r.id = pack(i);
    } else if constexpr (short_packed) {
      r.id = pack_short(i);  // 0: the strings are too long, the group is looked up in load()
    }
  }
  COLX_HOST_DEVICE void add(cells& c, loaded const& r, size_type i) const {
    if constexpr (sharing::group_rows) { ++get<0>(c).n; }
    [&]<std::size_t... K>(std::index_sequence<K...>) { (add_one<K>(c, get<K>(r.v), i), ...); }(std::index_sequence_for<Aggs...>{});
  }
  // Adds row r to private cells p; false, p unchanged, where p cannot take it (a narrow sum would
  // overflow): the caller then flushes p and starts afresh. Whether it fits is asked of every
  // cell before any adds: an add may act beyond p (nunique claims the row's pair), and a row
  // added twice would then count its value as seen. (The GPU holds p in registers here.)
  COLX_HOST_DEVICE bool add_partial(partial_cells& p, loaded const& r, size_type i) const {
    bool fits = true;
    if constexpr (sharing::group_rows) { fits = get<0>(p).n != most_narrow_count; }
    [&]<std::size_t... K>(std::index_sequence<K...>) { ((fits = fits & partial_step<K>(p, get<K>(r.v), i, false)), ...); }(
        std::index_sequence_for<Aggs...>{});
    if (!fits) { return false; }
    if constexpr (sharing::group_rows) { ++get<0>(p).n; }
    [&]<std::size_t... K>(std::index_sequence<K...>) { (partial_step<K>(p, get<K>(r.v), i, true), ...); }(
        std::index_sequence_for<Aggs...>{});
    return true;
  }
  // Aggregation K's part of add_partial: whether its cell takes v, or (add) the adding.
  template <std::size_t K, class V>
  COLX_HOST_DEVICE bool partial_step(partial_cells& p, V const& v, size_type i, bool add) const {
    if constexpr (keeps<K>) {
      if (traits<K>::counts_nulls || v.valid) {
        using partial = typename sharing::template partial_for<K>;
        auto& cell = get<sharing::template place_v<K>>(p);
        if (!add) { return partial::fits(cell, v.value); }
        partial::add(cell, v.value, i, aggregation_context<group_table_fn, K>{this});
      }
    }
    return true;
  }
  // Merges c into *dst: the table's cells or a block's.
  COLX_HOST_DEVICE void merge(cells* dst, cells const& c) const {
    if constexpr (sharing::group_rows) { atomic_add(&get<0>(*dst).n, get<0>(c).n); }
    [&]<std::size_t... K>(std::index_sequence<K...>) { (merge_one<K>(dst, c), ...); }(std::index_sequence_for<Aggs...>{});
  }

  template <std::size_t K>
  using traits = bound_aggregation_traits<std::remove_cvref_t<decltype(get<K>(std::declval<tuple<Aggs...> const&>()))>, Inputs>;

  // Aggregation K's part of a row, merge and result; only an aggregation that keeps its cell
  // adds to it and merges it (see cell_sharing).
  template <std::size_t K>
  static constexpr bool keeps = sharing::template owner_v<K> == static_cast<int>(K);
  template <std::size_t K, class V>
  COLX_HOST_DEVICE void add_one(cells& c, V const& v, size_type i) const {
    if constexpr (keeps<K>) {
      if (traits<K>::counts_nulls || v.valid) {
        traits<K>::cell::add(get<sharing::template place_v<K>>(c), v.value, i, aggregation_context<group_table_fn, K>{this});
      }
    }
  }
  template <std::size_t K>
  COLX_HOST_DEVICE void merge_one(cells* dst, cells const& c) const {
    if constexpr (keeps<K>) {
      constexpr auto p = static_cast<std::size_t>(sharing::template place_v<K>);
      traits<K>::cell::merge(&get<p>(*dst), get<p>(c), sharing::rows(c), aggregation_context<group_table_fn, K>{this});
    }
  }
  template <std::size_t K>
  COLX_HOST_DEVICE auto finish(cells const& c) const {
    aggregation_context<group_table_fn, K> const ctx{this};
    if constexpr (sharing::template place_v<K> < 0) {
      return traits<K>::cell::finish(no_storage{}, sharing::rows(c), ctx);
    } else {
      return traits<K>::cell::finish(get<static_cast<std::size_t>(sharing::template place_v<K>)>(c), sharing::rows(c), ctx);
    }
  }
};

}  // namespace colx::detail
