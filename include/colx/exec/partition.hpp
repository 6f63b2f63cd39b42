// SPDX-License-Identifier: Apache-2.0
#pragma once
// Stable partitioning by destination on both backends, as an overload on the executor:
//   partition_positions(exec, n, destination, parts, positions) -> bounds
// positions[i] is row i's place in an order grouped by destination, rows keeping their order
// within a destination; bounds[p] .. bounds[p + 1] are destination p's places.
#include <colx/host/partition.hpp>

#if COLX_HAS_CUDA
#  include <colx/gpu/partition.cuh>
#endif
