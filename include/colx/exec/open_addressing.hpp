// SPDX-License-Identifier: Apache-2.0
#pragma once
// The open-addressing walks behind colx's hash tables: a table is a power of two of slots, each an
// atomic word (or a word of a wider entry); probing is linear from a home slot; an empty slot is
// claimed by compare-and-swap; and every walk is bounded by one sweep of the table, so a full
// table is reported (-1, or false) instead of looping. Callers count what they insert (fullness)
// and answer a full table by building a larger one: the walks here never allocate.
//
// nunique's pair sets (a set) and the join's probe (a multimap) call these. Group-by's group
// inserts (a map) and the join's build (a multimap) write the same walks out by hand, bounded the
// same way: the GPU's row loop built on find_or_insert ran 3x slower (group_by/table.hpp).
//
//   find_or_insert(at, mask, home, empty, desired, same, inserted)  a map or set: the slot whose
//       word is `same`, or the empty slot claimed with `desired` (then inserted(slot)); -1 when full
//   for_each_entry(mask, home, load, is_empty, visit, wrap)    a multimap's lookup: visit(entry)
//       for each entry from home up to the first empty slot; false when no empty slot was met
//   next_slot(p, wrap)    the slot after p in a walk that wraps within aligned bands of wrap + 1
//       slots: the whole table where wrap is its mask (a join's banded table: join/banded_build.hpp)
//
// at(p) gives slot p's word (slots may be words of wider entries), load(p) reads an entry whole.
#include <colx/core/config.hpp>
#include <colx/exec/atomics.hpp>

#include <cstdint>

namespace colx::detail {

template <class Word, class At, class Same, class Inserted>
COLX_HOST_DEVICE std::int64_t find_or_insert(At const& at, std::uint64_t mask, std::uint64_t home, Word empty, Word desired,
                                             Same const& same, Inserted const& inserted) {
  std::uint64_t p = home & mask;
  for (std::uint64_t probe = 0; probe <= mask; ++probe, p = (p + 1) & mask) {
    Word* const word = at(p);
    // A slot's word never changes once set, so a plain (cached) read is safe: a stale read can
    // only see it empty, and the compare-and-swap then returns what is there.
    Word held = *word;
    if (held == empty) {
      held = atomic_cas(word, empty, desired);
      if (held == empty) {
        inserted(p);
        return static_cast<std::int64_t>(p);
      }
    }
    if (same(held)) { return static_cast<std::int64_t>(p); }
  }
  return -1;
}

COLX_HOST_DEVICE inline std::uint64_t next_slot(std::uint64_t p, std::uint64_t wrap) {
  return (p & ~wrap) | ((p + 1) & wrap);
}

template <class Load, class IsEmpty, class Visit>
COLX_HOST_DEVICE bool for_each_entry(std::uint64_t mask, std::uint64_t home, Load const& load, IsEmpty const& is_empty,
                                     Visit const& visit, std::uint64_t wrap) {
  std::uint64_t p = home & mask;
  for (std::uint64_t probe = 0; probe <= wrap; ++probe, p = next_slot(p, wrap)) {
    auto const entry = load(p);
    if (is_empty(entry)) { return true; }
    visit(entry);
  }
  return false;
}

}  // namespace colx::detail
