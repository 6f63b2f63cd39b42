// SPDX-License-Identifier: Apache-2.0
#pragma once
// Sorting on both backends, as overloads on the executor (found by argument-dependent lookup):
//   sort_pairs(exec, n, keys_in, keys_out, values_in, values_out, begin_bit, end_bit)   ascending:
//     callers encode a descending key into its bits, so one radix sort kernel set serves both
//     directions; the keys agree outside [begin_bit, end_bit) (exec/varying_bits.hpp)
//   sort_keys(exec, n, keys_in, keys_out, descending)
//   sort_by_comparator(exec, first, n, less)
// Included only by the operators that sort: the CUDA sorts are the heaviest headers colx has.
#include <colx/host/sort.hpp>

#if COLX_HAS_CUDA
#  include <colx/gpu/sort.cuh>
#endif
