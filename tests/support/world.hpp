// SPDX-License-Identifier: Apache-2.0
#pragma once
// The world the distributed tests run in: a self_communicator (one rank) in the unit-test
// binaries, MPI's world in colx_dist_tests (mpirun -n 2), NCCL's in colx_dist_tests_cuda (one
// process per GPU). Each binary links the one definition it needs (world_*.cpp).
#include <colx/dist/communicator.hpp>

namespace colx::test {
[[nodiscard]] dist::communicator& world();
}  // namespace colx::test
