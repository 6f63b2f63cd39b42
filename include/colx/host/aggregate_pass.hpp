// SPDX-License-Identifier: Apache-2.0
#pragma once
// The host's hash-aggregation pass: the shared row loop (exec/aggregate_rows.hpp) over fixed
// chunks in parallel. The host has no shared-memory tables nor partitions: the options are the GPU's.
#include <colx/exec/aggregate_rows.hpp>
#include <colx/host/executor.hpp>

namespace colx::host {

template <class Fn>
void aggregate_rows(executor const& exec, size_type n, Fn const& fn, colx::detail::aggregate_pass_options) {
  exec.for_each_strided(n, colx::detail::aggregate_chunk_fn<Fn>{fn});
}

}  // namespace colx::host
