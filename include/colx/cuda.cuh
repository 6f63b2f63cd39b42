// SPDX-License-Identifier: Apache-2.0
#pragma once
// colx with its CUDA backend: everything in colx.hpp plus the device resources and executor.
#if !defined(__CUDACC__)
#  error "colx/cuda.cuh is for translation units compiled by nvcc; include colx/colx.hpp elsewhere"
#endif
#include <colx/colx.hpp>
#include <colx/core/cuda_try.cuh>
#include <colx/gpu/executor.cuh>
#include <colx/memory/pinned_pool_resource.cuh>
#include <colx/memory/pinned_resource.cuh>
#include <colx/memory/pool_resource.cuh>
