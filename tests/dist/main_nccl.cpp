// SPDX-License-Identifier: Apache-2.0
// Runner of colx_dist_tests_nccl: forks one process per GPU (`--ranks N`, default 2; fewer GPUs
// than ranks: skipped, 77), each joins the NCCL world on its own GPU and runs the test cases on
// device memory. The run passes when every rank passed; a rank that dies takes the others down.
#define CATCH_CONFIG_RUNNER
#include <catch2/catch.hpp>

#include "support/world.hpp"

#include <colx/dist/local_ranks.hpp>
#include <colx/dist/nccl_communicator.hpp>

#include <cuda_runtime_api.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

namespace {
std::unique_ptr<colx::dist::nccl_communicator> the_world;
}

namespace colx::test {
dist::communicator& world() { return *the_world; }
}  // namespace colx::test

int main(int argc, char* argv[]) {
  int ranks = 2;
  std::vector<char*> args{argv[0]};
  for (int i = 1; i < argc; ++i) {
    if (std::strcmp(argv[i], "--ranks") == 0 && i + 1 < argc) {
      ranks = std::atoi(argv[++i]);
    } else {
      args.push_back(argv[i]);
    }
  }
  auto const dir = colx::dist::make_rendezvous_dir();
  int const rc = colx::dist::run_local_ranks(ranks, [&](int rank, int size) {
    int devices = 0;
    if (cudaGetDeviceCount(&devices) != cudaSuccess || devices < size) {
      if (rank == 0) { std::printf("colx: %d CUDA devices for %d ranks; distributed CUDA tests skipped\n", devices, size); }
      return 77;
    }
    cudaSetDevice(rank);
    the_world = std::make_unique<colx::dist::nccl_communicator>(colx::dist::nccl_communicator::from_file(dir / "nccl-id", rank, size));
    int const failed = Catch::Session().run(static_cast<int>(args.size()), args.data());
    int const worst = the_world->all_max(failed);
    the_world.reset();
    return worst;
  });
  std::filesystem::remove_all(dir);
  return rc;
}
