// SPDX-License-Identifier: Apache-2.0
#pragma once
// The one open-addressing core behind every hash table colx builds: group-by's groups, nunique's
// (group, value) pairs, distinct's rows and the join's build side, as one implementation serves a
// map, a set and a multimap. A table is a power of two of slots, each an atomic word (or a word
// of a wider entry); probing is linear from a home slot; an empty slot is claimed by
// compare-and-swap; and every walk is bounded by one sweep of the table, so a full table is
// reported (-1, or false) instead of looping. Callers count what they insert (fullness) and
// answer a full table by building a larger one: the walks here never allocate.
//
//   find_or_insert(at, mask, home, empty, desired, same)  a map or set: the slot whose word is
//       `same`, or the empty slot claimed with `desired`; {-1, false} when full
//   insert_entry(at, mask, home, empty, desired, passed)  a multimap: claims the first empty slot,
//       calling passed(held) for each occupied one on the way; -1 when full
//   for_each_entry(mask, home, load, is_empty, visit)    a multimap's lookup: visit(entry) for
//       each entry from home up to the first empty slot; false when no empty slot was met
//
// at(p) gives slot p's word (slots may be words of wider entries), load(p) reads an entry whole.
#include <colx/core/config.hpp>
#include <colx/exec/atomics.hpp>

#include <cstdint>

namespace colx::detail {

struct slot_claim {
  std::int64_t slot;  // -1: the table is full
  bool inserted;      // the slot was empty and is now `desired`'s
};

template <class Word, class At, class Same>
COLX_HOST_DEVICE slot_claim find_or_insert(At const& at, std::uint64_t mask, std::uint64_t home, Word empty, Word desired,
                                           Same const& same) {
  std::uint64_t p = home & mask;
  for (std::uint64_t probe = 0; probe <= mask; ++probe, p = (p + 1) & mask) {
    Word* const word = at(p);
    // A slot's word never changes once set, so a plain (cached) read is safe: a stale read can
    // only see it empty, and the compare-and-swap then returns what is there.
    Word held = *word;
    if (held == empty) {
      held = atomic_cas(word, empty, desired);
      if (held == empty) { return {static_cast<std::int64_t>(p), true}; }
    }
    if (same(held)) { return {static_cast<std::int64_t>(p), false}; }
  }
  return {-1, false};
}

template <class Word, class At, class Passed>
COLX_HOST_DEVICE std::int64_t insert_entry(At const& at, std::uint64_t mask, std::uint64_t home, Word empty, Word desired,
                                           Passed const& passed) {
  std::uint64_t p = home & mask;
  for (std::uint64_t probe = 0; probe <= mask; ++probe, p = (p + 1) & mask) {
    Word const held = atomic_cas(at(p), empty, desired);
    if (held == empty) { return static_cast<std::int64_t>(p); }
    passed(held);
  }
  return -1;
}

template <class Load, class IsEmpty, class Visit>
COLX_HOST_DEVICE bool for_each_entry(std::uint64_t mask, std::uint64_t home, Load const& load, IsEmpty const& is_empty,
                                     Visit const& visit) {
  std::uint64_t p = home & mask;
  for (std::uint64_t probe = 0; probe <= mask; ++probe, p = (p + 1) & mask) {
    auto const entry = load(p);
    if (is_empty(entry)) { return true; }
    visit(entry);
  }
  return false;
}

}  // namespace colx::detail
