// SPDX-License-Identifier: Apache-2.0
#pragma once
// The host backend's generic primitives (the contract: exec/executor.hpp), run with OpenMP on
// host memory. Synchronous, so the stream it carries orders nothing. Sorting (host/sort.hpp) and
// the hash aggregation's pass (host/aggregate_pass.hpp) are overloads on this executor.
#include <colx/core/config.hpp>
#include <colx/exec/executor.hpp>
#include <colx/exec/select_verdict.hpp>
#include <colx/memory/stream.hpp>

#include <cstdint>
#include <algorithm>
#include <atomic>
#include <vector>

namespace colx::host {

struct executor {
  stream_ref stream{};

  // Below this many rows a parallel region costs more than it saves.
  static constexpr size_type parallel_threshold = size_type{1} << 15;
  // Reductions combine fixed chunks in a fixed order, so a floating-point result does not depend
  // on the number of threads.
  static constexpr size_type reduce_chunk = size_type{1} << 14;

  // Calls f(i) for every i in [0, n).
  template <class F>
  void for_each_n(size_type n, F f) const {
#pragma omp parallel for schedule(static) if (n >= parallel_threshold)
    for (size_type i = 0; i < n; ++i) { f(i); }
  }

  // f(first, last, step) over chunks covering [0, n) once, in parallel (step 1 here): for work
  // that keeps per-thread state across rows.
  template <class F>
  void for_each_strided(size_type n, F f) const {
    size_type const chunks = (n + reduce_chunk - 1) / reduce_chunk;
#pragma omp parallel for schedule(static) if (n >= parallel_threshold)
    for (size_type c = 0; c < chunks; ++c) { f(c * reduce_chunk, std::min(n, (c + 1) * reduce_chunk), size_type{1}); }
  }

  // op(...op(op(init, f(0)), f(1))..., f(n-1)) up to associativity, in a fixed order.
  template <class T, class F, class Op>
  [[nodiscard]] T transform_reduce(size_type n, T init, F f, Op op) const {
    size_type const chunks = (n + reduce_chunk - 1) / reduce_chunk;
    if (chunks <= 1) {
      for (size_type i = 0; i < n; ++i) { init = op(init, f(i)); }
      return init;
    }
    std::vector<T> partial(static_cast<std::size_t>(chunks));
#pragma omp parallel for schedule(static)
    for (size_type c = 0; c < chunks; ++c) {
      size_type const begin = c * reduce_chunk;
      size_type const end = std::min(n, begin + reduce_chunk);
      T acc = f(begin);
      for (size_type i = begin + 1; i < end; ++i) { acc = op(acc, f(i)); }
      partial[static_cast<std::size_t>(c)] = acc;
    }
    for (auto const& p : partial) { init = op(init, p); }
    return init;
  }

  // Folds rows into a state: acc(state&, i) for each row of a chunk in order, then
  // merge(earlier, later) over the chunks in order. Chunks are fixed, so the result does not
  // depend on the number of threads.
  template <class State, class Acc, class Merge>
  [[nodiscard]] State reduce_rows(size_type n, State init, Acc acc, Merge merge) const {
    size_type const chunks = (n + reduce_chunk - 1) / reduce_chunk;
    std::vector<State> partial(static_cast<std::size_t>(chunks), init);
#pragma omp parallel for schedule(static) if (n >= parallel_threshold)
    for (size_type c = 0; c < chunks; ++c) {
      State s = init;
      size_type const end = std::min(n, (c + 1) * reduce_chunk);
      for (size_type i = c * reduce_chunk; i < end; ++i) { acc(s, i); }
      partial[static_cast<std::size_t>(c)] = s;
    }
    State out = init;
    for (auto const& p : partial) { out = merge(out, p); }
    return out;
  }

  // Evaluates rows in tiles of 32, so each validity word is assembled by one thread:
  // f.row(i) computes every output of row i, f.store(i, r) writes the values, and for each
  // nullable output K, f.template store_mask<K>(word, bits) writes a mask word. F::masked is the
  // number of nullable outputs and F::template valid<K>(r) reads one's validity.
  template <class F>
  void evaluate_rows(size_type n, F const& f) const {
    size_type const tiles = (n + 31) / 32;
#pragma omp parallel for schedule(static) if (n >= parallel_threshold)
    for (size_type t = 0; t < tiles; ++t) {
      bitmask_type bits[F::masked > 0 ? F::masked : 1] = {};
      size_type const end = std::min(n, (t + 1) * 32);
      for (size_type i = t * 32; i < end; ++i) {
        auto const r = f.row(i);
        f.store(i, r);
        [&]<std::size_t... K>(std::index_sequence<K...>) {
          ((bits[K] |= static_cast<bitmask_type>(F::template valid<K>(r)) << (i % 32)), ...);
        }(std::make_index_sequence<F::masked>{});
      }
      [&]<std::size_t... K>(std::index_sequence<K...>) {
        (f.template store_mask<K>(t, bits[K]), ...);
      }(std::make_index_sequence<F::masked>{});
    }
  }

  // Compaction: for the k-th row i (in order) where keep(i) is true, store(k, load(i)); returns
  // how many were kept. Two passes over fixed chunks: count, then write at the chunk's offset.
  // A keep that returns a verdict hands it to load(i, verdict) (exec/select_verdict.hpp).
  template <class Keep, class Load, class Store>
  size_type select_rows(size_type n, Keep keep, Load load, Store store, size_type /*known_kept*/ = -1) const {
    size_type const chunks = (n + reduce_chunk - 1) / reduce_chunk;
    std::vector<size_type> offsets(static_cast<std::size_t>(chunks) + 1, 0);
#pragma omp parallel for schedule(static) if (n >= parallel_threshold)
    for (size_type c = 0; c < chunks; ++c) {
      size_type kept = 0;
      size_type const end = std::min(n, (c + 1) * reduce_chunk);
      for (size_type i = c * reduce_chunk; i < end; ++i) { kept += keep(i) ? 1 : 0; }
      offsets[static_cast<std::size_t>(c) + 1] = kept;
    }
    for (std::size_t c = 0; c < static_cast<std::size_t>(chunks); ++c) { offsets[c + 1] += offsets[c]; }
#pragma omp parallel for schedule(static) if (n >= parallel_threshold)
    for (size_type c = 0; c < chunks; ++c) {
      size_type k = offsets[static_cast<std::size_t>(c)];
      size_type const end = std::min(n, (c + 1) * reduce_chunk);
      for (size_type i = c * reduce_chunk; i < end; ++i) {
        if (auto const v = keep(i)) { store(k++, detail::load_kept(load, i, v)); }
      }
    }
    return offsets.back();
  }

  // out[i] = f(0) op ... op f(i); with `keys`, restarting wherever keys[i] != keys[i - 1].
  template <class T, class F, class Op, class Key = std::uint32_t>
  void inclusive_scan(size_type n, F f, T* out, Op op, Key const* keys = nullptr) const {
    for (size_type i = 0; i < n; ++i) {
      bool const restart = i == 0 || (keys != nullptr && !(keys[i] == keys[i - 1]));
      out[i] = restart ? static_cast<T>(f(i)) : op(out[i - 1], static_cast<T>(f(i)));
    }
  }

  // out[i] = init + f(0) + ... + f(i-1) for i in [0, n]: n + 1 outputs, the last one the total,
  // which is returned. Sequential: a host scan is bound by memory bandwidth anyway.
  template <class T, class F, class Out>
  T exclusive_scan(size_type n, T init, F f, Out out) const {
    for (size_type i = 0; i < n; ++i) {
      out[i] = init;
      init = init + static_cast<T>(f(i));
    }
    out[n] = init;
    return init;
  }
  template <class T, class F, class Out>
  void exclusive_scan_async(size_type n, T init, F f, Out out) const {
    (void)exclusive_scan(n, init, f, out);
  }
};

static_assert(colx::executor<executor>, "host::executor must offer every primitive of exec/executor.hpp");

}  // namespace colx::host
