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
#include <colx/exec/scan_ops.hpp>
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

// Row i where its band is before the band of the row before it in its run, else `rows`: the
// runs are not in the order of their bands, which the build needs (their bands' binary searches
// would leave rows out); the least such row is reported.
template <class Keys>
struct out_of_band_order_fn {
  Keys keys;
  std::uint64_t mask;
  bool nulls_equal;
  size_type const* run_bounds;  // runs + 1, in order
  int runs;
  size_type rows;
  COLX_HOST_DEVICE size_type operator()(size_type t) const {
    size_type const i = t + 1;  // (row 0 starts a run)
    int lo = 0, hi = runs;  // the first bound not below i: is i the first row of a run?
    while (lo < hi) {
      int const mid = lo + (hi - lo) / 2;
      if (run_bounds[mid] < i) {
        lo = mid + 1;
      } else {
        hi = mid;
      }
    }
    bool const first_of_run = run_bounds[lo] == i;
    return !first_of_run && band_of(keys, i - 1, nulls_equal, mask) > band_of(keys, i, nulls_equal, mask) ? i : rows;
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
// 3/4 full, and throws where a run is not in band order. Reads both answers back (waits).
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
  size_type const rows = runs.back();
  return on_backend(kind, stream, [&](auto const& exec) {
    size_type const misplaced = rows < 2 ? rows
                                         : exec.transform_reduce(rows - 1, rows,
                                                                 out_of_band_order_fn<Keys>{keys, mask, nulls_equal, bounds.data(), run_count, rows},
                                                                 running_extremum<size_type, true>{});
    COLX_EXPECTS(misplaced == rows, "join_build: the rows of each run must be in the order of the bands of slots their keys' walks ",
                 "start in (dist/slot_order.hpp sorts them so); row ", misplaced, " is not");
    exec.for_each_n(starts.size(), band_starts_fn<Keys>{keys, mask, nulls_equal, bounds.data(), bands, starts.data()});
    size_type const fullest = exec.transform_reduce(bands, size_type{0}, band_rows_fn{starts.data(), run_count, bands}, running_extremum<size_type, false>{});
    if (static_cast<std::uint64_t>(fullest) * 4 > band_slots * 3) { return false; }
    fill_bands(exec, band_build<Keys>{keys, slots, mask, nulls_equal, flags, starts.data(), run_count, bands, rows});
    return true;
  });
}

}  // namespace colx::detail
