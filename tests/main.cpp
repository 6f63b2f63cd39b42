// Catch2 runner for colx_tests_host (g++) and colx_tests_cuda (nvcc, through a generated .cu).
// The CUDA binary exits with 77, which ctest reports as skipped, on a machine without a GPU.
#define CATCH_CONFIG_RUNNER
#include <catch2/catch.hpp>

#include <cstdio>

int main(int argc, char* argv[])
{
#ifdef __CUDACC__
  int devices = 0;
  if (cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0) {
    std::puts("colx: no CUDA device; CUDA tests skipped");
    return 77;
  }
#endif
  return Catch::Session().run(argc, argv);
}
