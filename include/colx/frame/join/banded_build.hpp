// SPDX-License-Identifier: Apache-2.0
#pragma once
// A join's hash table built a band of slots at a time. A broadcast join's right side arrives on
// every rank as one run of rows a rank, each run in the order of the bands its rows' walks start
// in (dist/slot_order.hpp). Inserted row by row, each run swept the whole table once more: on r
// ranks, r read-modify-write sweeps of a table of 32 bytes a row, the build's cost on every rank
// (a sixteenth of the probe, at most, for 3.4x on 4 GPUs). Here a GPU block takes one band of
// 2^12 slots, inserts that band's rows from every run into shared memory, and writes the band
// out once: the table is written once, in order, and never read. A walk then wraps within its
// band (join/entries.hpp), which stays correct as long as no band is full; the build is taken only
// where no band would be more than 3/4 full (a key repeated thousands of times would fill one).
// The host inserts the rows with the same walks, so both backends build the same table.
#include <colx/exec/dispatch.hpp>
#include <colx/frame/join/entries.hpp>
#include <colx/memory/copy_bytes.hpp>
#include <colx/memory/current_resource.hpp>
#include <colx/memory/uvector.hpp>

#include <cstdint>
#include <span>

#if COLX_HAS_CUDA
#  include <colx/frame/join/banded_build.cuh>
#endif

namespace colx::detail {

inline constexpr std::uint64_t band_slots = std::uint64_t{1} << band_slot_bits;
// The least table built in bands: 16 bands (smaller tables fit in L2, where rows go in fast anyway).
inline constexpr std::uint64_t least_banded_slots = band_slots * 16;

// Row r's band in a table of mask + 1 slots: the band of its walk's home slot; for a row that
// never enters the table (a null key, where nulls match nothing), the band count, after every band.
template <class Keys>
COLX_HOST_DEVICE std::uint64_t band_of(Keys const& keys, size_type r, bool nulls_equal, std::uint64_t mask) {
  if (!nulls_equal && !keys.all_valid(r)) { return (mask + 1) >> band_slot_bits; }
  return home_slot(keys, r, Keys::hashed_words(nulls_equal), mask) >> band_slot_bits;
}

// What a block building one band needs: the rows of band b of run k are
// [starts[k * (bands + 1) + b], starts[k * (bands + 1) + b + 1]).
template <class Keys>
struct band_build {
  Keys keys;
  std::uint64_t* slots;
  std::uint64_t mask;
  bool nulls_equal;
  unsigned* flags;
  size_type const* starts;
  int runs;
  size_type bands;
  size_type rows;
  size_type const* run_bounds;  // runs + 1
};

// Where each band's rows start in each run, for t = k * (bands + 1) + b: a binary search of run
// k, whose rows are in the order of their bands (rows that never enter the table last, in none).
template <class Keys>
struct band_starts_fn {
  Keys keys;
  std::uint64_t mask;
  bool nulls_equal;
  size_type const* runs;  // runs + 1 bounds
  size_type bands;
  size_type* starts;
  COLX_HOST_DEVICE void operator()(size_type t) const {
    size_type const k = t / (bands + 1);
    auto const b = static_cast<std::uint64_t>(t % (bands + 1));
    size_type lo = runs[k];
    size_type hi = runs[k + 1];
    while (lo < hi) {
      size_type const mid = lo + (hi - lo) / 2;
      if (band_of(keys, mid, nulls_equal, mask) < b) {
        lo = mid + 1;
      } else {
        hi = mid;
      }
    }
    starts[t] = lo;
  }
};
// Rows of band b over all runs.
struct band_rows_fn {
  size_type const* starts;
  int runs;
  size_type bands;
  COLX_HOST_DEVICE size_type operator()(size_type b) const {
    size_type rows = 0;
    for (int k = 0; k < runs; ++k) { rows += starts[k * (bands + 1) + b + 1] - starts[k * (bands + 1) + b]; }
    return rows;
  }
};
struct larger_fn {
  COLX_HOST_DEVICE size_type operator()(size_type a, size_type b) const { return a < b ? b : a; }
};

// Flags row i (i > 0) where its band is before the band of the row before it in its run: the
// runs are not in the order of their bands, which the GPU's build needs (it flags such rows too).
template <class Keys>
struct band_order_fn {
  band_build<Keys> b;
  COLX_HOST_DEVICE void operator()(size_type i) const {
    for (int k = 0; k <= b.runs; ++k) {
      if (b.run_bounds[k] == i) { return; }  // the first row of a run
    }
    if (band_of(b.keys, i - 1, b.nulls_equal, b.mask) > band_of(b.keys, i, b.nulls_equal, b.mask)) {
      atomic_or(b.flags, misplaced_row_flag);
    }
  }
};

// The host's banded build: every slot emptied, then the rows inserted with walks that wrap
// within their band.
template <class Keys>
void fill_bands(host::executor const& exec, band_build<Keys> const& b) {
  exec.for_each_n(static_cast<size_type>((b.mask + 1) * words_per_slot<Keys>), fill_entries_fn{b.slots});
  exec.for_each_n(b.rows, build_entries_fn<Keys>{b.keys, b.slots, b.mask, band_slots - 1, b.nulls_equal, b.flags});
}

// Builds the table `slots` (mask + 1 slots, not yet filled) of the rows of `keys`, which come in
// runs [runs[k], runs[k + 1]) each in the order of their bands, a band at a time; returns false,
// having written nothing, where the table is too small to take bands or a band would be more than
// 3/4 full. Reads the fullest band's rows back (a wait).
template <class Keys>
bool build_in_bands(Keys const& keys, std::uint64_t* slots, std::uint64_t mask, bool nulls_equal, unsigned* flags,
                    std::span<size_type const> runs, memory_kind kind, stream_ref stream) {
  if (mask + 1 < least_banded_slots || runs.size() < 2) { return false; }
  auto const bands = static_cast<size_type>((mask + 1) >> band_slot_bits);
  auto const run_count = static_cast<int>(runs.size() - 1);
  resource_ref const mr = get_current_resource(kind);
  uvector<size_type> bounds(static_cast<size_type>(runs.size()), stream, mr);
  copy_bytes(bounds.data(), kind, runs.data(), memory_kind::host, runs.size_bytes(), stream);
  uvector<size_type> starts(static_cast<size_type>(run_count) * (bands + 1), stream, mr);
  return on_backend(kind, stream, [&](auto const& exec) {
    exec.for_each_n(starts.size(), band_starts_fn<Keys>{keys, mask, nulls_equal, bounds.data(), bands, starts.data()});
    size_type const fullest = exec.transform_reduce(bands, size_type{0}, band_rows_fn{starts.data(), run_count, bands}, larger_fn{});
    if (static_cast<std::uint64_t>(fullest) * 4 > band_slots * 3) { return false; }
    band_build<Keys> const b{keys, slots, mask, nulls_equal, flags, starts.data(), run_count, bands, runs.back(), bounds.data()};
    // Runs out of band order would leave rows out of every band's range (the binary searches
    // assume the order): a row-sized check, so that such runs are refused rather than lost.
    if (b.rows > 1) { exec.for_each_n(b.rows - 1, rows_from_fn<band_order_fn<Keys>>{{b}, 1}); }
    fill_bands(exec, b);
    return true;
  });
}

}  // namespace colx::detail
