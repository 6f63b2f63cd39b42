// SPDX-License-Identifier: Apache-2.0
#pragma once
// Byte copies and fills between any two kinds of memory, ordered on a stream.
#include <colx/core/error.hpp>
#include <colx/memory/resource.hpp>

#include <cstring>

#if COLX_HAS_CUDA
#  include <colx/core/cuda_try.cuh>
#endif

namespace colx::detail {

// Copies `bytes` bytes. A copy into pageable host memory is complete on return; any other copy
// is complete when the stream reaches it.
inline void copy_bytes(void* dst, memory_kind dst_kind, void const* src, memory_kind src_kind, std::size_t bytes,
                       stream_ref stream) {
  if (bytes == 0) { return; }
  bool const host_only = is_host_accessible(dst_kind) && is_host_accessible(src_kind);
#if COLX_HAS_CUDA
  if (!host_only) {
    COLX_CUDA_TRY(cudaMemcpyAsync(dst, src, bytes, cudaMemcpyDefault, stream.value()));
    if (dst_kind == memory_kind::host) { stream.synchronize(); }
    return;
  }
  // Host memory written by earlier device work on this stream must be complete before we read it.
  if (src_kind == memory_kind::pinned || dst_kind == memory_kind::pinned) { stream.synchronize(); }
#else
  (void)stream;
  COLX_EXPECTS(host_only, "copying ", to_string(src_kind), " to ", to_string(dst_kind),
               " memory needs the CUDA backend: compile this translation unit with nvcc");
#endif
  std::memcpy(dst, src, bytes);
}

// Sets `bytes` bytes to `value`.
inline void fill_bytes(void* dst, memory_kind kind, unsigned char value, std::size_t bytes, stream_ref stream) {
  if (bytes == 0) { return; }
#if COLX_HAS_CUDA
  if (kind == memory_kind::device) {
    COLX_CUDA_TRY(cudaMemsetAsync(dst, value, bytes, stream.value()));
    return;
  }
  if (kind == memory_kind::pinned) { stream.synchronize(); }
#else
  (void)stream;
  COLX_EXPECTS(kind != memory_kind::device, "device memory needs the CUDA backend: compile this translation unit with nvcc");
#endif
  std::memset(dst, value, bytes);
}

}  // namespace colx::detail
