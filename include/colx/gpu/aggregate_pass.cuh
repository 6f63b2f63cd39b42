// SPDX-License-Identifier: Apache-2.0
#pragma once
// How the GPU runs a hash aggregation's pass over the rows (the kernels: gpu/aggregate_rows.cuh):
// the many-groups pass through L2-sized partitions when the table of packed keys is larger than
// L2, else one launch of as many blocks as can be resident, with private caches of several groups
// when a sample showed very few, and block tables in shared memory when it showed a few thousand.
// The host's pass is host/aggregate_pass.hpp; group-by calls aggregate_rows(exec, ...) on either.
#include <colx/core/error.hpp>
#include <colx/gpu/aggregate_rows.cuh>
#include <colx/gpu/executor.cuh>
#include <colx/gpu/launch.cuh>

#include <algorithm>
#include <cstdint>
#include <optional>
#include <utility>
#include <vector>

namespace colx::gpu {
namespace detail {

inline constexpr int pass_block = executor::block_size;

// The many-groups pass through partitions (gpu/aggregate_rows.cuh) when the table is larger than
// L2, with slices of at most half of it; false (nothing done) when the table fits, the rows are
// few, or the records find no memory. `always` (tests) partitions any table, as if L2 were a
// quarter of it.
template <class Fn>
bool aggregate_partitioned(executor const& exec, size_type n, Fn const& fn, bool always) {
  constexpr int items = scatter_items_v<Fn, pass_block>;
  if constexpr (items == 0) {  // records too wide to stage
    (void)n;
    (void)fn;
    (void)always;
    return false;
  } else {
    std::size_t const table = fn.table_bytes();
    std::uint64_t const slots = fn.slot_mask + 1;
    auto const l2 = always ? std::max<std::size_t>(table / 4, 1) : static_cast<std::size_t>(device_attribute<cudaDevAttrL2CacheSize>());
    if (!always && (n < (size_type{1} << 20) || l2 == 0 || table <= l2)) { return false; }
    int parts = 2;
    while (parts < most_partitions && table / static_cast<std::size_t>(parts) > l2 / 2) { parts *= 2; }
    if (static_cast<std::uint64_t>(parts) > slots) { return false; }
    int shift = 0;
    while ((std::uint64_t{1} << shift) * static_cast<std::uint64_t>(parts) < slots) { ++shift; }

    using record = partition_record<Fn>;
    temporary_storage counts(static_cast<std::size_t>(parts) * sizeof(size_type), exec.stream);
    auto* const cursors = static_cast<size_type*>(counts.data());
    COLX_CUDA_TRY(cudaMemsetAsync(cursors, 0, static_cast<std::size_t>(parts) * sizeof(size_type), exec.stream.value()));
    size_type const blocks = std::min<size_type>((n + pass_block - 1) / pass_block, size_type{8} * multiprocessors());
    count_partitions_kernel<pass_block><<<static_cast<unsigned>(blocks), pass_block, 0, exec.stream.value()>>>(n, fn, shift, parts, cursors);
    COLX_CUDA_TRY(cudaGetLastError());
    std::vector<size_type> offsets(static_cast<std::size_t>(parts));
    COLX_CUDA_TRY(cudaMemcpyAsync(offsets.data(), cursors, offsets.size() * sizeof(size_type), cudaMemcpyDeviceToHost, exec.stream.value()));
    exec.stream.synchronize();
    size_type total = 0;
    for (auto& o : offsets) { total += std::exchange(o, total); }  // exclusive prefix: each partition's first record
    if (total == 0) { return true; }
    std::optional<temporary_storage> records;
    try {
      records.emplace(static_cast<std::size_t>(total) * sizeof(record), exec.stream);
    } catch (out_of_memory const&) {
      return false;
    }
    // From pageable memory: the call returns once it has taken `offsets`.
    COLX_CUDA_TRY(cudaMemcpyAsync(cursors, offsets.data(), offsets.size() * sizeof(size_type), cudaMemcpyHostToDevice, exec.stream.value()));
    auto* const out = static_cast<record*>(records->data());
    scatter_partitions_kernel<pass_block, items>
        <<<static_cast<unsigned>(blocks), pass_block, 0, exec.stream.value()>>>(n, fn, shift, parts, cursors, out);
    COLX_CUDA_TRY(cudaGetLastError());
    auto const add = add_records_kernel<pass_block, 4, Fn>;
    int const resident = resident_blocks(add, pass_block, 0);
    size_type const add_blocks = std::max<size_type>(
        1, std::min<size_type>((total + pass_block - 1) / pass_block, size_type{std::max(resident, 1)} * multiprocessors()));
    add<<<static_cast<unsigned>(add_blocks), pass_block, 0, exec.stream.value()>>>(total, fn, out);
    COLX_CUDA_TRY(cudaGetLastError());
    return true;
  }
}

// As many blocks as can be resident at once (at most one per pass_block rows): each thread
// then sees many rows, and its private cells pay.
template <int CacheSize, class Fn>
void launch_aggregate(executor const& exec, size_type n, Fn const& fn, int shared_slots) {
  auto const kernel = aggregate_rows_kernel<pass_block, CacheSize, Fn>;
  std::size_t const shared_bytes = aggregate_shared_bytes<pass_block, CacheSize, Fn>(shared_slots);
  if constexpr (CacheSize > 1) {
    // Private cells too wide for shared memory (a dozen aggregations at once): one per thread,
    // in registers, as with many groups.
    if (shared_bytes > static_cast<std::size_t>(device_attribute<cudaDevAttrMaxSharedMemoryPerBlockOptin>())) {
      launch_aggregate<1>(exec, n, fn, shared_slots);
      return;
    }
  }
  int const resident = resident_blocks(kernel, pass_block, shared_bytes);
  size_type const blocks = std::max<size_type>(
      1, std::min<size_type>((n + pass_block - 1) / pass_block, size_type{std::max(resident, 1)} * multiprocessors()));
  kernel<<<static_cast<unsigned>(blocks), pass_block, shared_bytes, exec.stream.value()>>>(n, fn, shared_slots);
  COLX_CUDA_TRY(cudaGetLastError());
}

}  // namespace detail

// The hash aggregation's pass over n rows (exec/aggregate_rows.hpp), with a shared-memory table
// of `shared_slots` slots per block when that is not 0 (gpu/aggregate_rows.cuh). Private caches
// of several groups pay only when a thread's rows fall into very few groups: otherwise every
// row misses, and the threads of a warp take different paths through the cache.
template <class Fn>
void aggregate_rows(executor const& exec, size_type n, Fn const& fn, colx::detail::aggregate_pass_options options) {
  if (n <= 0) { return; }
  if constexpr (requires { Fn::partitionable; }) {
    if constexpr (Fn::partitionable) {
      if (!options.private_caches && options.shared_slots == 0 &&
          detail::aggregate_partitioned(exec, n, fn, options.always_partition)) {
        return;
      }
    }
  }
  if (options.private_caches) {
    detail::launch_aggregate<colx::detail::group_cache_size>(exec, n, fn, options.shared_slots);
  } else {
    detail::launch_aggregate<1>(exec, n, fn, options.shared_slots);
  }
}

}  // namespace colx::gpu
