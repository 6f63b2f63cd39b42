// SPDX-License-Identifier: Apache-2.0
// Catch2 runner of colx_dist_tests_mpi: every rank of `mpirun -n N` runs the same test cases on
// host memory; the run passes when every rank passed.
#define CATCH_CONFIG_RUNNER
#include <catch2/catch.hpp>

#include <colx/dist/mpi_communicator.hpp>

int main(int argc, char* argv[]) {
  colx::dist::mpi_session const mpi(&argc, &argv);
  int const failed = Catch::Session().run(argc, argv);
  int worst = 0;
  MPI_Allreduce(&failed, &worst, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
  return worst;
}
