// SPDX-License-Identifier: Apache-2.0
#pragma once
// COLX_CUDA_TRY(call): turns a CUDA runtime error into colx::out_of_memory or colx::cuda_error.
#include <colx/core/error.hpp>

#include <cuda_runtime_api.h>

namespace colx::gpu::detail {

[[noreturn]] inline void throw_cuda_error(cudaError_t status, char const* call, char const* file, int line) {
  (void)cudaGetLastError();  // clear a sticky-free error so the next call does not see it again
  std::ostringstream message;
  message << "colx: " << call << " failed: " << cudaGetErrorName(status) << " (" << cudaGetErrorString(status)
          << ") (" << file << ':' << line << ')';
  if (status == cudaErrorMemoryAllocation) { throw out_of_memory(message.str()); }
  throw cuda_error(message.str(), static_cast<int>(status));
}

}  // namespace colx::gpu::detail

#define COLX_CUDA_TRY(call)                                                              \
  do {                                                                                   \
    cudaError_t const colx_status_ = (call);                                             \
    if (colx_status_ != cudaSuccess) [[unlikely]] {                                      \
      ::colx::gpu::detail::throw_cuda_error(colx_status_, #call, __FILE__, __LINE__);    \
    }                                                                                    \
  } while (0)
