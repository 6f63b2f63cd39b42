// SPDX-License-Identifier: Apache-2.0
#pragma once
// The host backend: the same primitives as the CUDA executor, run with OpenMP on host memory.
// Synchronous, so the stream it carries orders nothing.
#include <colx/core/config.hpp>
#include <colx/memory/stream.hpp>

#include <algorithm>
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
};

}  // namespace colx::host
