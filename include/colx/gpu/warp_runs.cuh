// SPDX-License-Identifier: Apache-2.0
#pragma once
// Runs of one group among a warp's consecutive rows, folded into the run's first lane before any
// of them reaches a table. Files are often ordered by a key that groups are formed by (lineitem by
// order: four rows an order on average), and then the lanes of a warp that hold one group's rows
// would merge into the same cells at the same moment, each an atomic waiting on the one before
// (TPC-H Q21's group-bys by order spent 12 ms so). Folded, one lane merges a run's cells.
#include <colx/core/config.hpp>

#include <cstdint>
#include <cstring>
#include <type_traits>

namespace colx::gpu::detail {

inline constexpr unsigned full_warp = 0xFFFFFFFFu;

// v of the lane d above this one (this lane's own v where there is none), word by word.
template <class T>
COLX_DEVICE T shuffle_down(T const& v, unsigned d) {
  static_assert(std::is_trivially_copyable_v<T>, "shuffle_down copies bytes");
  constexpr int words = static_cast<int>((sizeof(T) + 3) / 4);
  unsigned in[words] = {};
  std::memcpy(in, &v, sizeof(T));
  unsigned out[words];
  COLX_UNROLL
  for (int w = 0; w < words; ++w) { out[w] = __shfl_down_sync(full_warp, in[w], d); }
  T r;
  std::memcpy(&r, out, sizeof(T));
  return r;
}

// The largest of the warp's values (all 32 lanes call it).
COLX_DEVICE inline int warp_max(int v) {
#if __CUDA_ARCH__ >= 800
  return __reduce_max_sync(full_warp, v);
#else
  for (int d = 16; d > 0; d /= 2) {
    int const other = __shfl_xor_sync(full_warp, v, d);
    v = other > v ? other : v;
  }
  return v;
#endif
}

// Row `row` (input row i) of each lane: a lane that counts and whose lane below holds a counted
// row of the same group joins that lane's run; the run's first lane adds its own row and the
// later rows of its run to its cells c (empty on entry), in lane order, and is the one that
// returns true (it holds cells to merge). No other lane adds its row anywhere: an add may have
// effects beyond the cells (nunique inserts the row's pair into a set, and only the row that
// inserts it counts it). All 32 lanes of the warp call this together. Fn is a hash aggregation
// (exec/aggregate_rows.hpp): Fn::loaded has counts, id and the values v, Fn::add adds a
// row, and Fn::reads_rows says whether an add reads its row index.
template <class Fn>
COLX_DEVICE bool fold_warp_run(Fn const& fn, typename Fn::loaded const& row, size_type i, typename Fn::cells& c) {
  unsigned const lane = threadIdx.x % 32;
  std::uint64_t const below = __shfl_up_sync(full_warp, row.id, 1);
  unsigned const counted = __ballot_sync(full_warp, row.counts);
  bool const joins = lane > 0 && row.counts && ((counted >> (lane - 1)) & 1u) != 0 && below == row.id;
  unsigned const firsts = ~__ballot_sync(full_warp, joins);  // lanes that start a run, or do not count
  bool const leads = row.counts && !joins;
  unsigned const above = lane == 31 ? 0u : firsts >> (lane + 1);
  int const rest = !leads ? 0 : above == 0 ? static_cast<int>(31 - lane) : __ffs(static_cast<int>(above)) - 1;
  int const longest = warp_max(rest);  // the same bound on every lane: the shuffles below are collective
  if (leads) { fn.add(c, row, i); }
  // Only the aggregated values travel (and the row where a cell reads it): a run's rows share
  // their group and all count. TPC-H Q18's records shuffled 24 bytes and a row a step, where its
  // one sum needs 8 bytes: the fold was most of add_records' 430 instructions a record.
  typename Fn::loaded other = row;
  for (int d = 1; d <= longest; ++d) {
    other.v = shuffle_down(row.v, static_cast<unsigned>(d));
    size_type at = i;
    if constexpr (Fn::reads_rows) {
      at = static_cast<size_type>(__shfl_down_sync(full_warp, static_cast<long long>(i), static_cast<unsigned>(d)));
    }
    if (d <= rest) { fn.add(c, other, at); }
  }
  return leads;
}

}  // namespace colx::gpu::detail
