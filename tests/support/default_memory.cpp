// SPDX-License-Identifier: Apache-2.0
// COLX_TEST_MEMORY=host makes host memory the default memory kind before any test runs, so that
// the CUDA test binary, run a second time so (ctest's cuda_host.* tests), processes host frames
// with the nvcc build: the host backend as a CUDA program reaches it. Compiled into both test
// binaries (in the host binary host memory is the default already); any other value is an error.
#include <colx/memory/current_resource.hpp>

#include <cstdio>
#include <cstdlib>
#include <string_view>

namespace {

bool const default_memory_chosen = [] {
  char const* const env = std::getenv("COLX_TEST_MEMORY");
  if (env == nullptr) { return true; }
  std::string_view const kind(env);
  if (kind == "host") {
    colx::set_default_memory_kind(colx::memory_kind::host);
  } else if (kind != "device") {
    std::fprintf(stderr, "colx tests: COLX_TEST_MEMORY is '%s'; it is 'host' or 'device'\n", env);
    std::exit(2);
  }
  return true;
}();

}  // namespace
