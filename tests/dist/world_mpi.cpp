// SPDX-License-Identifier: Apache-2.0
#include "support/world.hpp"

#include <colx/dist/mpi_communicator.hpp>

namespace colx::test {
dist::communicator& world() {
  static dist::mpi_communicator comm;  // made on first use, after MPI_Init
  return comm;
}
}  // namespace colx::test
