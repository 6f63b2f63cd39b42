// Catch2 runner of colx_tests_host and colx_tests_cuda, compiled by the host compiler for both.
// colx_tests_cuda defines COLX_TESTS_NEED_GPU: on a machine without a CUDA device it exits with 77,
// which ctest reports as skipped.
#define CATCH_CONFIG_RUNNER
#include <catch2/catch.hpp>

#include <cstdio>

#ifdef COLX_TESTS_NEED_GPU
#include <cuda_runtime_api.h>
#endif

int main(int argc, char* argv[])
{
#ifdef COLX_TESTS_NEED_GPU
  int devices = 0;
  if (cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0) {
    std::puts("colx: no CUDA device; CUDA tests skipped");
    return 77;
  }
#endif
  return Catch::Session().run(argc, argv);
}
