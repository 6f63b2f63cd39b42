// SPDX-License-Identifier: Apache-2.0
#pragma once
// The one place that looks at the compiler: everything else asks COLX_HAS_CUDA.
#include <cstddef>
#include <cstdint>

#if defined(__CUDACC__)
// libcu++ (CCCL 3.0) keeps the cuda::mr resource concepts colx's resources are shaped on behind
// this switch; set it here so that a plain `nvcc -std=c++20 -I include` works. It must come
// before libcu++'s <cuda/memory_resource>: include colx before other CUDA headers, or define it
// on the command line (the CMake target colx::colx does).
#  ifndef LIBCUDACXX_ENABLE_EXPERIMENTAL_MEMORY_RESOURCE
#    define LIBCUDACXX_ENABLE_EXPERIMENTAL_MEMORY_RESOURCE
#  endif
#  define COLX_HAS_CUDA 1
#  define COLX_HOST_DEVICE __host__ __device__
#  define COLX_DEVICE __device__
#else
#  define COLX_HAS_CUDA 0
#  define COLX_HOST_DEVICE
#  define COLX_DEVICE
#endif

// Asks the compiler to unroll the next loop (fixed trip count): per-thread arrays indexed by
// the loop variable then live in registers.
#if defined(__CUDACC__)
#  define COLX_UNROLL _Pragma("unroll")
#else
#  define COLX_UNROLL _Pragma("GCC unroll 16")
#endif
#if defined(__CUDA_ARCH__)
#  define COLX_IN_DEVICE_CODE 1
#else
#  define COLX_IN_DEVICE_CODE 0
#endif

namespace colx {

// Row counts and indices. 64 bits, as Arrow's lengths: a column of more than 2^31 rows, or the
// offsets of a large strings column, must not overflow in index arithmetic.
using size_type = std::int64_t;

// One word of a validity bitmask (bit i set = row i valid), as Arrow's little-endian bit order.
using bitmask_type = std::uint32_t;

inline constexpr bool has_cuda = COLX_HAS_CUDA != 0;

}  // namespace colx
