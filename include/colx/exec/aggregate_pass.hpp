// SPDX-License-Identifier: Apache-2.0
#pragma once
// The hash aggregation's pass over the rows on both backends, as an overload on the executor:
//   aggregate_rows(exec, n, fn, aggregate_pass_options)
// (the row loop: exec/aggregate_rows.hpp; the GPU's choice of kernels: gpu/aggregate_pass.cuh).
#include <colx/host/aggregate_pass.hpp>

#if COLX_HAS_CUDA
#  include <colx/gpu/aggregate_pass.cuh>
#endif
