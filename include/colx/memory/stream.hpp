// SPDX-License-Identifier: Apache-2.0
#pragma once
// A non-owning handle to a CUDA stream that host-only code can hold too: work on host memory
// ignores it, work on device memory is ordered on it.
#include <colx/core/config.hpp>

#if COLX_HAS_CUDA
#  include <cuda/stream_ref>
#  include <cuda_runtime_api.h>
#endif

struct CUstream_st;  // the CUDA runtime's opaque stream; cudaStream_t is CUstream_st*

namespace colx {

class stream_ref {
 public:
  using value_type = CUstream_st*;

  // The legacy default stream.
  constexpr stream_ref() noexcept = default;
  constexpr stream_ref(value_type stream) noexcept : _stream(stream) {}  // NOLINT: implicit by design
  stream_ref(int) = delete;                                              // no literal 0 streams
  stream_ref(std::nullptr_t) = delete;                                   // say stream_ref{} instead

  [[nodiscard]] constexpr value_type value() const noexcept { return _stream; }

  // Blocks the calling thread until all work on the stream has finished. Host-only builds have
  // no device work to wait for.
  void synchronize() const;

  friend constexpr bool operator==(stream_ref a, stream_ref b) noexcept { return a._stream == b._stream; }

#if COLX_HAS_CUDA
  // Interchangeable with libcu++'s stream_ref, so cuda::mr resources (RMM's) accept our streams.
  stream_ref(::cuda::stream_ref stream) noexcept : _stream(stream.get()) {}  // NOLINT
  operator ::cuda::stream_ref() const noexcept { return ::cuda::stream_ref{_stream}; }  // NOLINT
  // Exact matches, so comparing with libcu++'s stream_ref is not ambiguous.
  friend bool operator==(stream_ref a, ::cuda::stream_ref b) noexcept { return a._stream == b.get(); }
  friend bool operator==(::cuda::stream_ref a, stream_ref b) noexcept { return a.get() == b._stream; }
#endif

 private:
  value_type _stream = nullptr;
};

}  // namespace colx

#if COLX_HAS_CUDA
#  include <colx/core/cuda_try.cuh>
inline void colx::stream_ref::synchronize() const { COLX_CUDA_TRY(cudaStreamSynchronize(_stream)); }
#else
inline void colx::stream_ref::synchronize() const {}
#endif
