// SPDX-License-Identifier: Apache-2.0
#pragma once
// What the scale-out benchmarks share: a rank's world on its GPU, and the slowest rank's time.
#include <colx/core/cuda_try.cuh>
#include <colx/dist/communicator.hpp>
#include <colx/dist/nccl_communicator.hpp>
#include <colx/dist/self_communicator.hpp>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

namespace colx::bench {

// Rank `rank` of `ranks` on GPU `rank`: NCCL's world (the id through a file in `rendezvous`), or a
// world of one for one rank (the same code, no transfers: the one-GPU baseline).
inline std::unique_ptr<dist::communicator> join_world(int rank, int ranks, std::filesystem::path const& rendezvous) {
  COLX_CUDA_TRY(cudaSetDevice(rank));
  if (ranks == 1) { return std::make_unique<dist::self_communicator>(memory_kind::device); }
  return std::make_unique<dist::nccl_communicator>(
      dist::nccl_communicator::from_file(rendezvous / ("nccl-id-" + std::to_string(ranks)), rank, ranks));
}

// The slowest rank's wall time of f() in ms (barrier, f, device sync, barrier): the median of
// `repeat` runs after one that warms up.
template <class F>
double slowest_rank_ms(dist::communicator& comm, F&& f, int repeat) {
  std::vector<double> times;
  for (int i = 0; i <= repeat; ++i) {
    comm.barrier();
    auto const t0 = std::chrono::steady_clock::now();
    f();
    COLX_CUDA_TRY(cudaDeviceSynchronize());
    comm.barrier();
    if (i > 0) { times.push_back(std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count()); }
  }
  std::sort(times.begin(), times.end());
  return times[times.size() / 2];
}

}  // namespace colx::bench
