// SPDX-License-Identifier: Apache-2.0
#pragma once
// How a join's build rows enter its hash table (join/table.hpp): the keys' hash and equality, the
// slots' words, and the insertion's walk. An entry is one word a slot (the keys' 32-bit tag and
// the row) or two (keys packed into a word, and the row). A walk steps linearly from its home
// slot and wraps within its band of slots (exec/open_addressing.hpp's next_slot): the whole table,
// or the aligned bands of 2^band_slot_bits slots of a table built a band at a time
// (join/banded_build.hpp).
#include <colx/exec/atomics.hpp>
#include <colx/exec/open_addressing.hpp>
#include <colx/exec/row_keys.hpp>
#include <colx/expr/packed_keys.hpp>
#include <colx/frame/frame.hpp>

#include <cstdint>
#include <tuple>
#include <utility>

namespace colx {
namespace detail {

inline constexpr std::uint64_t empty_entry = ~std::uint64_t{0};
// Keys that do not pack: an entry is the top 32 bits of the keys' hash (the tag), then the row.
inline constexpr std::uint64_t tag_bits = 0xffffffff00000000ull;

template <class Schema, class... Cols>
using bound_keys_t = tuple<decltype(expr::bind<Schema>(Cols{}))...>;

// Hash and equality of a side's key columns.
template <class Inputs, class Keys>
struct key_columns;
template <class Inputs, class... Keys>
struct key_columns<Inputs, tuple<Keys...>> {
  // Keys whose values fit one word are kept in the table beside the row and compared there: with
  // a null bit each where there is room for them, else as values alone.
  static constexpr bool packed = key_values_pack_v<Inputs, Keys...>;
  static constexpr bool null_bits = keys_pack_v<Inputs, Keys...>;
  // Whether a packed table's words are the keys' hashes (rows then compared): null keys that
  // match each other, and no room for their null bits.
  static COLX_HOST_DEVICE bool hashed_words(bool nulls_equal) { return nulls_equal && !null_bits; }
  using inputs_type = Inputs;
  Inputs in;
  // Row i's word in a packed table.
  COLX_HOST_DEVICE std::uint64_t word(size_type i, bool hashed) const {
    if constexpr (!null_bits) {
      if (hashed) { return hash(i); }
    }
    return pack_keys<null_bits>(in, i, Keys{}...);
  }
  // Row i's keys packed as `Layout` (the build side's keys) packs its own; ok becomes false for a
  // null key that the build side cannot match.
  template <class Layout>
  COLX_HOST_DEVICE std::uint64_t pack_as(size_type i, bool& ok) const {
    return pack_as<Layout>(i, ok, std::index_sequence_for<Keys...>{});
  }
  template <class Layout, std::size_t... K>
  COLX_HOST_DEVICE std::uint64_t pack_as(size_type i, bool& ok, std::index_sequence<K...>) const {
    std::uint64_t w = 0;
    ((w = append_packed_key_as<std::tuple_element_t<K, typename Layout::key_list>, typename Layout::inputs_type, Layout::null_bits>(
          w, std::tuple_element_t<K, std::tuple<Keys...>>{}, in, i, ok)),
     ...);
    return w;
  }
  COLX_HOST_DEVICE std::uint64_t hash(size_type i) const {
    std::uint64_t h = 0x2545f4914f6cdd1dull;
    ((h = hash_combine(h, hash_key(Keys{}(in, i)))), ...);
    return h;
  }
  COLX_HOST_DEVICE bool all_valid(size_type i) const { return (static_cast<bool>(Keys{}(in, i).valid) && ...); }
  template <class Other>
  COLX_HOST_DEVICE bool equal(size_type i, Other const& other, size_type j) const {
    return equal(i, other, j, std::index_sequence_for<Keys...>{});
  }
  template <class Other, std::size_t... K>
  COLX_HOST_DEVICE bool equal(size_type i, Other const& other, size_type j, std::index_sequence<K...>) const {
    return (keys_equal(std::tuple_element_t<K, std::tuple<Keys...>>{}(in, i),
                       std::tuple_element_t<K, typename Other::key_list>{}(other.in, j)) &&
            ...);
  }
  using key_list = std::tuple<Keys...>;
};

// Slot p of a packed table: words 2p (the keys) and 2p + 1 (the row), read together.
struct alignas(16) packed_slot {
  std::uint64_t keys;
  std::uint64_t row;
};
COLX_HOST_DEVICE inline packed_slot read_slot(std::uint64_t const* slots, std::uint64_t p) {
#if COLX_IN_DEVICE_CODE
  return *reinterpret_cast<packed_slot const*>(slots + 2 * p);  // one 16-byte load
#else
  return {slots[2 * p], slots[2 * p + 1]};
#endif
}

// Flags the build pass raises, in one word.
inline constexpr unsigned duplicate_keys_flag = 1u;  // two build rows share their keys
inline constexpr unsigned table_full_flag = 2u;      // a row found no empty slot (never, at half full)

// A band of a banded table (join/banded_build.hpp): 2^12 slots, 64 KiB of packed entries, which
// one block fills in shared memory.
inline constexpr int band_slot_bits = 12;

// The slot where row r's walk starts (as build_entries_fn walks).
template <class Keys>
COLX_HOST_DEVICE std::uint64_t home_slot(Keys const& keys, size_type r, bool hashed, std::uint64_t mask) {
  if constexpr (Keys::packed) {
    return mix64(keys.word(r, hashed)) & mask;
  } else {
    return keys.hash(r) & mask;
  }
}

// Inserts build row r, one entry a row (a multimap: duplicates take entries of their own). A slot
// taken by another row with the same keys flags duplicate keys: two rows with equal keys walk the
// same slots, so the later to claim passes the earlier one's slot, and the row its failed claim
// returns names the keys to compare. No second pass looks for them. A walk wraps within its band
// of `wrap + 1` slots (the whole table where wrap is the mask) and gives up after one sweep of it.
template <class Keys>
struct build_entries_fn {
  Keys keys;
  std::uint64_t* slots;
  std::uint64_t mask;
  std::uint64_t wrap;
  bool nulls_equal;
  unsigned* flags;
  // The walk of exec/open_addressing.hpp's insert_entry, written out as group-by's inserts are
  // (see group_by/table.hpp: the generic walk ran slower there).
  COLX_HOST_DEVICE void operator()(size_type r) const {
    if (!nulls_equal && !keys.all_valid(r)) { return; }  // can never match
    bool seen = false;  // a duplicate of row r's keys: flagged once, then not looked for
    if constexpr (Keys::packed) {
      bool const hashed = Keys::hashed_words(nulls_equal);
      std::uint64_t const w = keys.word(r, hashed);
      std::uint64_t p = mix64(w) & mask;
      for (std::uint64_t step = 0; step <= wrap; ++step, p = next_slot(p, wrap)) {
        std::uint64_t const held = atomic_cas(slots + 2 * p + 1, empty_entry, static_cast<std::uint64_t>(r));
        if (held == empty_entry) {
          slots[2 * p] = w;  // read only by probes, after this pass
          return;
        }
        auto const other = static_cast<size_type>(held);
        if (!seen && keys.word(other, hashed) == w && (!hashed || keys.equal(r, keys, other))) {
          seen = flag(duplicate_keys_flag);
        }
      }
    } else {
      std::uint64_t const h = keys.hash(r);
      std::uint64_t const tag = h & tag_bits;
      std::uint64_t const entry = tag | static_cast<std::uint64_t>(r);
      std::uint64_t p = h & mask;
      for (std::uint64_t step = 0; step <= wrap; ++step, p = next_slot(p, wrap)) {
        std::uint64_t const held = atomic_cas(slots + p, empty_entry, entry);
        if (held == empty_entry) { return; }
        if (!seen && (held & tag_bits) == tag && keys.equal(r, keys, static_cast<size_type>(held & ~tag_bits))) {
          seen = flag(duplicate_keys_flag);
        }
      }
    }
    (void)flag(table_full_flag);  // no empty slot: never, at half full (a band: at most 3/4 full)
  }
  COLX_HOST_DEVICE bool flag(unsigned bit) const {
    atomic_or(flags, bit);
    return true;
  }
};

// f for rows first, first + 1, ...
template <class F>
struct rows_from_fn {
  F f;
  size_type first;
  COLX_HOST_DEVICE void operator()(size_type i) const { f(first + i); }
};

// Twice the rows, a power of two: probes stay short at a load factor of at most one half.
inline size_type next_table_size(size_type rows) {
  size_type p = 64;
  while (p < 2 * rows) { p <<= 1; }
  return p;
}

// Words of the table: one per slot (tag and row), two with packed keys (keys, row).
template <class Keys>
inline constexpr std::size_t words_per_slot = Keys::packed ? 2 : 1;

struct fill_entries_fn {
  std::uint64_t* slots;
  COLX_HOST_DEVICE void operator()(size_type s) const { slots[s] = empty_entry; }
};

}  // namespace detail

}  // namespace colx
