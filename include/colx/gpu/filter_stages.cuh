// SPDX-License-Identifier: Apache-2.0
#pragma once
// A filter's stages tested over several rows at once (expr/filter_stages.hpp's staged_filter): each
// stage for all the rows before the next stage for any, so that a stage's loads are in flight
// together. The row fold (gpu/reduce_rows.cuh) and the compaction (gpu/select_rows.cuh) use it.
#include <colx/core/config.hpp>

#include <utility>

namespace colx::gpu::detail {

// Stage K of rows i, i + stride, ...: pass[u] stays true where row u passes it too. A stage over
// one fixed-width column loads every row's value first (a row that failed loads row 0, which
// every warp shares), then tests them.
template <int K, int Ahead, class Filter>
__device__ void test_stage(Filter const& f, bool (&pass)[Ahead], size_type i, size_type stride) {
  if constexpr (Filter::template stage_takes_values<K>) {
    using value = decltype(f.template load<K>(i));
    value v[Ahead];
    COLX_UNROLL
    for (int u = 0; u < Ahead; ++u) { v[u] = f.template load<K>(pass[u] ? i + u * stride : 0); }
    COLX_UNROLL
    for (int u = 0; u < Ahead; ++u) { pass[u] = pass[u] & f.template test<K>(pass[u] ? i + u * stride : 0, v[u]); }
  } else {
    COLX_UNROLL
    for (int u = 0; u < Ahead; ++u) {
      if (pass[u]) { pass[u] = f.template passes<K>(i + u * stride); }
    }
  }
}

// Stages First, First + 1, ... of the filter f over rows i, i + stride, ..., in order.
template <int First, int Ahead, class Filter>
__device__ void test_stages(Filter const& f, bool (&pass)[Ahead], size_type i, size_type stride) {
  [&]<int... K>(std::integer_sequence<int, K...>) {
    (test_stage<First + K>(f, pass, i, stride), ...);
  }(std::make_integer_sequence<int, Filter::stages - First>{});
}

}  // namespace colx::gpu::detail
