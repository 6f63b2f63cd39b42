// SPDX-License-Identifier: Apache-2.0
#pragma once
// Memory decides where work runs: on_backend(kind, stream, f) calls f with the executor of the
// backend that owns memory of that kind. Both executors offer the same primitives, so an
// algorithm is written once as a generic lambda over `auto const& exec`.
#include <colx/core/error.hpp>
#include <colx/host/executor.hpp>
#include <colx/memory/resource.hpp>

#if COLX_HAS_CUDA
#  include <colx/gpu/executor.cuh>
#endif

namespace colx {

template <class F>
decltype(auto) on_backend(memory_kind kind, stream_ref stream, F&& f) {
  if (kind == memory_kind::device) {
#if COLX_HAS_CUDA
    return f(gpu::executor{stream});
#else
    COLX_FAIL("device memory needs the CUDA backend: compile this translation unit with nvcc");
#endif
  }
  return f(host::executor{stream});
}

}  // namespace colx
