// SPDX-License-Identifier: Apache-2.0
#pragma once
// The row fold's kernel (gpu::executor::reduce_rows): a grid of threads folds rows into states,
// one a thread, merged a block at a time. A filtered fold tests several rows at once, stage by
// stage of its filter, and adds the rows it keeps a warp's 32 at a time.
#include <colx/core/config.hpp>

#include <cub/block/block_reduce.cuh>

#include <type_traits>
#include <utility>

namespace colx::gpu::detail {

// The stages of a fold's filter (frame/kernels.hpp's accumulate_fn, which also says how many rows
// it tests at once, rows_ahead, and whether adding a kept row computes a value, adds_computed);
// 0 for other folds.
template <class Acc>
inline constexpr int filter_stages_v = [] {
  if constexpr (requires { Acc::filter_stages; }) {
    return Acc::filter_stages;
  } else {
    return 0;
  }
}();
// Whether the fold's first stage may search several rows' bytes at once (accumulate_fn::searches_spans).
template <class Acc>
inline constexpr bool searches_spans_v = [] {
  if constexpr (requires { Acc::searches_spans; }) {
    return Acc::searches_spans;
  } else {
    return false;
  }
}();

// The rows a warp kept, queued in shared memory until there are 32 to add, one a lane. Added
// where each lane kept them, a kept row cost the whole warp its add whenever any lane kept one
// (at TPC-H Q6's 2% a lane, nearly every other row), and each add's loads waited on the branch
// before it. Every lane of the warp calls push and drain together. A thread adds other lanes'
// rows, so no aggregation may depend on the order its rows are added in (argmin's ties go to the
// lower row, whatever came first).
struct kept_rows {
  static constexpr unsigned capacity = 64;  // at most 31 waiting, plus a push's 32
  size_type* slots;                         // this warp's `capacity`
  unsigned head = 0;                        // rows taken (both counters are the same in every lane)
  unsigned tail = 0;                        // rows queued

  template <class Add>
  __device__ void push(bool kept, size_type row, Add const& add) {
    unsigned const lane = threadIdx.x % 32;
    unsigned const ballot = __ballot_sync(~0u, kept);
    if (ballot == 0) { return; }
    if (kept) { slots[(tail + static_cast<unsigned>(__popc(ballot & ((1u << lane) - 1)))) % capacity] = row; }
    tail += static_cast<unsigned>(__popc(ballot));
    if (tail - head >= 32) {
      __syncwarp();
      add(slots[(head + lane) % capacity]);
      head += 32;
      __syncwarp();  // (before the next push writes over the slots just read)
    }
  }
  template <class Add>
  __device__ void drain(Add const& add) {
    unsigned const lane = threadIdx.x % 32;
    __syncwarp();
    if (lane < tail - head) { add(slots[(head + lane) % capacity]); }
    head = tail;
  }
};

// Stage K of a filtered fold's rows i, i + stride, ...: pass[u] stays true where row u passes it
// too. A stage over one fixed-width column loads every row's value first (a row that failed
// loads row 0, which every warp shares), then tests them.
template <int K, int Ahead, class Acc>
__device__ void test_stage(Acc const& acc, bool (&pass)[Ahead], size_type i, size_type stride) {
  if constexpr (Acc::template stage_takes_values<K>) {
    using value = decltype(acc.template load<K>(i));
    value v[Ahead];
    COLX_UNROLL
    for (int u = 0; u < Ahead; ++u) { v[u] = acc.template load<K>(pass[u] ? i + u * stride : 0); }
    COLX_UNROLL
    for (int u = 0; u < Ahead; ++u) { pass[u] = pass[u] & acc.template test<K>(pass[u] ? i + u * stride : 0, v[u]); }
  } else {
    COLX_UNROLL
    for (int u = 0; u < Ahead; ++u) {
      if (pass[u]) { pass[u] = acc.template passes<K>(i + u * stride); }
    }
  }
}

// Stages 1, 2, ... (all but the first) of rows i, i + stride, ..., in order.
template <int Ahead, class Acc>
__device__ void test_later_stages(Acc const& acc, bool (&pass)[Ahead], size_type i, size_type stride) {
  [&]<int... K>(std::integer_sequence<int, K...>) {
    (test_stage<K + 1>(acc, pass, i, stride), ...);
  }(std::make_integer_sequence<int, filter_stages_v<Acc> - 1>{});
}

// A filtered fold whose first stage searches strings for a constant literal (searches_spans_v,
// a LIKE '%literal%' over a stored strings column): each thread takes R = 4 consecutive rows at a
// time and searches their bytes as one span (detail::occurs_in_rows), then tests the rows that
// passed through the later stages and adds them. A warp's rows are consecutive, 128 a step. A
// row a thread, each search paid its loop's fixed cost for about 10 bytes of TPC-H-like names:
// the fold of LIKE '%green%' over 60M of them issued 164 instructions a row. The rows after the
// last whole step of a warp are folded one at a time.
template <int Block, class State, class Acc>
__device__ void fold_searching_spans(Acc const& acc, State& s, size_type n) {
  constexpr int rows = 4;
  constexpr bool queued = Acc::adds_computed;
  __shared__ size_type queue_slots[queued ? Block / 32 : 1][kept_rows::capacity];
  kept_rows queue{queue_slots[queued ? threadIdx.x / 32 : 0]};
  auto const add = [&](size_type row) { acc.add_kept(s, row); };
  size_type const stride = static_cast<size_type>(gridDim.x) * Block;  // in groups of `rows` rows
  size_type g = static_cast<size_type>(blockIdx.x) * Block + threadIdx.x;
  size_type const to_last_lane = 31 - static_cast<size_type>(threadIdx.x % 32);
  for (; (g + to_last_lane + 1) * rows <= n; g += stride) {  // the same in every lane of a warp
    size_type const first = g * rows;
    std::uint32_t const found = acc.template passes_rows<rows>(first);
    bool pass[rows];
    COLX_UNROLL
    for (int u = 0; u < rows; ++u) { pass[u] = ((found >> u) & 1u) != 0; }
    test_later_stages(acc, pass, first, 1);
    COLX_UNROLL
    for (int u = 0; u < rows; ++u) {
      if constexpr (queued) {
        queue.push(pass[u], first + u, add);
      } else if (pass[u]) {
        add(first + u);
      }
    }
  }
  if constexpr (queued) { queue.drain(add); }
  for (; g * rows < n; g += stride) {
    for (size_type row = g * rows; row < n && row < (g + 1) * rows; ++row) { acc(s, row); }
  }
}

// Folds a block's rows into one state: each thread takes rows i, i + stride, ... in order (four
// at a time, so their loads are in flight together), then cub::BlockReduce merges the threads'
// states in a fixed tree. With a grid fixed per device, results repeat exactly run to run.
//
// A filtered fold takes eight rows at a time (one where it searches strings: rows_ahead)
// through its filter's stages (expr/filter_stages.hpp), each stage for all eight before the
// next, then adds those that passed: each stage's loads are in flight together, where the
// filter's short circuit made each row's loads wait on the branches of the row before. A stage
// over one fixed-width column loads all eight values without a predicate, then tests them:
// loaded under predicates, each row's load waited on the test of the row before (ptxas has seven
// predicates for eight rows). Kept rows whose add computes a value are queued (kept_rows) and
// added 32 at a time. TPC-H Q6's kernel on an H200, Nsight Compute: 0.368 ms
// tested as loaded, 0.345 ms loaded first, 0.280 ms with the queue too. A warp that queues takes
// eight rows a lane while its last lane's are all in range (so its lanes queue together); the
// rows after, one at a time.
//
// The fold reads its functor in place (__grid_constant__): a copy would sit in local memory
// wherever a node's bytes are addressed, as a LIKE pattern's are.
template <int Block, class State, class Acc, class Merge>
__global__ void __launch_bounds__(Block)
    reduce_rows_kernel(size_type n, State init, __grid_constant__ Acc const acc, Merge merge, State* partials) {
  static_assert(Block % 32 == 0, "a block of whole warps: the kept-row queues are a warp's");
  State s = init;
  size_type const stride = static_cast<size_type>(gridDim.x) * Block;
  size_type i = static_cast<size_type>(blockIdx.x) * Block + threadIdx.x;
  bool spans = false;  // the same in every thread
  if constexpr (searches_spans_v<Acc>) {
    spans = acc.spans_searchable();
    if (spans) { fold_searching_spans<Block>(acc, s, n); }
  }
  if (spans) {
    i = n;
  } else if constexpr (filter_stages_v<Acc> > 0) {
    constexpr int ahead = Acc::rows_ahead;
    // Kept rows are queued where adding one computes a value. Queued, TPC-H Q6's fold (a checked
    // decimal product and a 128-bit sum) took 0.280 ms instead of 0.345; sum(x) of int64 behind a
    // two-stage filter over 60M rows took longer queued, as its add is a load and an add: 0.342
    // ms instead of 0.290 keeping every row, 0.158 instead of 0.136 keeping 2% (H200).
    constexpr bool queued = Acc::adds_computed && ahead > 1;
    __shared__ size_type queue_slots[queued ? Block / 32 : 1][kept_rows::capacity];
    kept_rows queue{queue_slots[queued ? threadIdx.x / 32 : 0]};
    auto const add = [&](size_type row) { acc.add_kept(s, row); };
    size_type const last_lane = queued ? 31 - static_cast<size_type>(threadIdx.x % 32) : 0;
    for (; i + last_lane + (ahead - 1) * stride < n; i += ahead * stride) {
      bool pass[ahead];
      COLX_UNROLL
      for (int u = 0; u < ahead; ++u) { pass[u] = acc.template passes<0>(i + u * stride); }
      test_later_stages(acc, pass, i, stride);
      COLX_UNROLL
      for (int u = 0; u < ahead; ++u) {
        if constexpr (queued) {
          queue.push(pass[u], i + u * stride, add);
        } else if (pass[u]) {
          add(i + u * stride);
        }
      }
    }
    if constexpr (queued) { queue.drain(add); }
  } else {
    for (; i + 3 * stride < n; i += 4 * stride) {
      acc(s, i);
      acc(s, i + stride);
      acc(s, i + 2 * stride);
      acc(s, i + 3 * stride);
    }
  }
  for (; i < n; i += stride) { acc(s, i); }
  using block_reduce = cub::BlockReduce<State, Block>;
  __shared__ typename block_reduce::TempStorage temp;
  State const r = block_reduce(temp).Reduce(s, merge);
  if (threadIdx.x == 0) { partials[blockIdx.x] = r; }
}

template <class State, class Merge>
struct merge_partials {
  State const* partials;
  Merge merge;
  COLX_HOST_DEVICE void operator()(State& s, size_type i) const { s = merge(s, partials[i]); }
};

}  // namespace colx::gpu::detail
