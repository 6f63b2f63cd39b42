// SPDX-License-Identifier: Apache-2.0
#pragma once
// Sorting on the device (the contract: exec/sort.hpp): CUB's radix sort for keys that encode as
// unsigned integers, and for the rest (strings, keys wider than 128 bits) a stable sort by a
// comparator: every pair compared at once for a few rows, CUB's merge sort beyond. A few rows of
// integer keys are placed by counting in one launch (a sorted group-by result: TPC-H's queries
// end so).
#include <colx/core/error.hpp>
#include <colx/exec/atomics.hpp>
#include <colx/core/cuda_try.cuh>
#include <colx/gpu/executor.cuh>
#include <colx/gpu/launch.cuh>

#include <cub/device/device_merge_sort.cuh>
#include <cub/device/device_radix_sort.cuh>

#include <cstddef>
#include <cstdint>
#include <limits>
#include <type_traits>

namespace colx::gpu {
namespace detail {

// Few rows (a group-by's sorted result, a top-k's candidates): each row's place is the number of
// rows that go before it, found by comparing every pair at once, and ties go by position. A merge
// sort's passes are chains of dependent comparisons, each a few loads of keys from memory: it
// took 219 us on the H100 to sort TPC-H Q1's four result rows by two string keys, and 722 us on
// the H200 to sort Q21's 4,000 suppliers by a count and a name in CUB's one block. Comparing every
// pair is n^2 work, but all of it at once: up to 1,024 rows where a comparison is cheap (keys
// inlined), 8,192 where it is costly (a string key: Less::costly_compare).
inline constexpr size_type pairwise_sort_limit = 1024;
inline constexpr size_type pairwise_sort_limit_costly = 8192;

// Thread k compares row i = k / stride with row j = k % stride. The stride is n rounded up to a
// warp, so a warp's threads share their row i and add their votes with one atomic.
template <class V, class Less>
__global__ void rank_by_pairs_kernel(V const* values, size_type n, size_type stride, Less less, size_type* ranks) {
  std::int64_t const k = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  auto const i = static_cast<size_type>(k / stride);
  auto const j = static_cast<size_type>(k % stride);
  bool before = false;
  if (i < n && j < n && i != j) {
    V const a = values[i];
    V const b = values[j];
    before = less(b, a) || (j < i && !less(a, b));
  }
  unsigned const votes = __ballot_sync(0xffffffffu, before);
  if ((threadIdx.x & 31u) == 0 && votes != 0u) { colx::detail::atomic_add(ranks + i, static_cast<size_type>(__popc(votes))); }
}
// sort_pairs for few rows, in one launch (CUB's radix sort takes several, and a call that sizes
// its temporary storage): each thread counts the keys that go before its own, ties by position.
template <class K, class V>
__global__ void place_pairs_kernel(K const* keys_in, K* keys_out, V const* values_in, V* values_out, size_type n) {
  size_type const i = static_cast<size_type>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i >= n) { return; }
  K const key = keys_in[i];
  size_type before = 0;
  for (size_type j = 0; j < n; ++j) {
    K const other = keys_in[j];
    before += (other < key || (other == key && j < i)) ? 1 : 0;
  }
  keys_out[before] = key;
  values_out[before] = values_in[i];
}
__extension__ using unsigned_128 = unsigned __int128;
template <class K>
inline constexpr bool counts_places = std::is_integral_v<K> || std::is_same_v<K, unsigned_128>;
// Fewer rows still (at most sort_in_block_limit, as a top-k's candidates or a few groups): one
// block compares every pair, each row's threads adding into its rank in shared memory, then places
// the rows in place, where the pairwise path took a clearing, two launches and a copy.
inline constexpr size_type sort_in_block_limit = 256;
inline constexpr int sort_in_block_threads = 1024;
template <class V, class Less>
__global__ void __launch_bounds__(sort_in_block_threads) sort_in_block_kernel(V* first, size_type n, Less less) {
  __shared__ size_type ranks[sort_in_block_limit];
  size_type const per_row = sort_in_block_threads / n;  // threads that share a row's comparisons
  size_type const i = static_cast<size_type>(threadIdx.x) / per_row;
  size_type const part = static_cast<size_type>(threadIdx.x) % per_row;
  if (threadIdx.x < static_cast<unsigned>(n)) { ranks[threadIdx.x] = 0; }
  __syncthreads();
  V mine{};
  if (i < n) {
    mine = first[i];
    size_type before = 0;
    for (size_type j = part; j < n; j += per_row) {
      V const other = first[j];
      before += (less(other, mine) || (j < i && !less(mine, other))) ? 1 : 0;
    }
    if (before != 0) { colx::detail::atomic_add(&ranks[i], before); }
  }
  __syncthreads();  // every read of `first` is done
  if (i < n && part == 0) { first[ranks[i]] = mine; }
}
template <class V>
__global__ void place_by_rank_kernel(V const* values, size_type n, size_type const* ranks, V* out) {
  size_type const i = static_cast<size_type>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i < n) { out[ranks[i]] = values[i]; }
}

// The merge sort's comparator, called rather than inlined where a comparison is costly (a string
// key: Less::costly_compare): CUB's block sort unrolls a few hundred comparisons, and a comparator
// of two string keys inlined at each made TPC-H Q1's sort kernels 87,000 lines of PTX (most of the
// example's compile time) for a sort of four rows. Called, 4M rows sort by a string key in 17.0
// ms on the H100 instead of 23.5; but by a nullable float64, 3.2 ms instead of 2.85, so cheap
// comparisons stay inlined.
template <class Less>
inline constexpr bool outline_comparator = requires { requires Less::costly_compare; };

template <class V, class Less>
struct outlined_less {
  Less less;
  COLX_HOST_DEVICE __noinline__ bool operator()(V const& a, V const& b) const { return less(a, b); }
};

template <class V, class Less>
void sort_by_pairwise_ranks(executor const& exec, V* first, size_type n, Less const& less) {
  std::size_t const rank_bytes = round_up(static_cast<std::size_t>(n) * sizeof(size_type));
  temporary_storage temp(rank_bytes + static_cast<std::size_t>(n) * sizeof(V), exec.stream);
  auto* const ranks = static_cast<size_type*>(temp.data());
  auto* const sorted = reinterpret_cast<V*>(static_cast<char*>(temp.data()) + rank_bytes);
  constexpr int block = 256;
  size_type const stride = (n + 31) / 32 * 32;
  std::int64_t const pairs = static_cast<std::int64_t>(n) * stride;
  COLX_CUDA_TRY(cudaMemsetAsync(ranks, 0, static_cast<std::size_t>(n) * sizeof(size_type), exec.stream.value()));
  rank_by_pairs_kernel<<<static_cast<unsigned>((pairs + block - 1) / block), block, 0, exec.stream.value()>>>(first, n, stride,
                                                                                                            less, ranks);
  COLX_CUDA_TRY(cudaGetLastError());
  place_by_rank_kernel<<<static_cast<unsigned>((n + block - 1) / block), block, 0, exec.stream.value()>>>(first, n, ranks, sorted);
  COLX_CUDA_TRY(cudaGetLastError());
  COLX_CUDA_TRY(cudaMemcpyAsync(first, sorted, static_cast<std::size_t>(n) * sizeof(V), cudaMemcpyDeviceToDevice, exec.stream.value()));
}

// Runs a CUB device-wide call twice: once to size its temporary storage, once to do the work.
template <class Call>
void with_temporary_storage(executor const& exec, Call const& call) {
  std::size_t bytes = 0;
  COLX_CUDA_TRY(call(nullptr, bytes));
  temporary_storage temp(bytes, exec.stream);
  COLX_CUDA_TRY(call(temp.data(), bytes));
}

}  // namespace detail

// CUB's radix sort of (key, value) pairs, stable, keys ascending over bits [begin_bit, end_bit)
// (the callers' keys agree outside them). Keys of a signed or floating type are ordered by value
// (CUB flips their bits). Ascending only: a descending direction costs a second set of kernels in
// every program that sorts, and the callers' packed keys carry it in their bits.
template <class K, class V>
void sort_pairs(executor const& exec, size_type n, K const* keys_in, K* keys_out, V const* values_in, V* values_out,
                int begin_bit, int end_bit) {
  if (n <= 0) { return; }
  if constexpr (detail::counts_places<K>) {  // integer keys: their order is their values' (as CUB's)
    if (n <= detail::pairwise_sort_limit) {
      constexpr int block = 256;
      detail::place_pairs_kernel<<<static_cast<unsigned>((n + block - 1) / block), block, 0, exec.stream.value()>>>(
          keys_in, keys_out, values_in, values_out, n);
      COLX_CUDA_TRY(cudaGetLastError());
      return;
    }
  }
  detail::with_temporary_storage(exec, [&](void* temp, std::size_t& bytes) {
    return cub::DeviceRadixSort::SortPairs(temp, bytes, keys_in, keys_out, values_in, values_out, n, begin_bit, end_bit,
                                           exec.stream.value());
  });
}

template <class K>
void sort_keys(executor const& exec, size_type n, K const* keys_in, K* keys_out, bool descending) {
  if (n <= 0) { return; }
  constexpr int bits = static_cast<int>(sizeof(K) * 8);
  detail::with_temporary_storage(exec, [&](void* temp, std::size_t& bytes) {
    return descending ? cub::DeviceRadixSort::SortKeysDescending(temp, bytes, keys_in, keys_out, n, 0, bits, exec.stream.value())
                      : cub::DeviceRadixSort::SortKeys(temp, bytes, keys_in, keys_out, n, 0, bits, exec.stream.value());
  });
}

// Sorts [first, first + n) in place by less(a, b), stably. One offset type (32 bits) for CUB's
// merge sort: Thrust's stable_sort compiled every sort twice, for 32- and 64-bit sizes.
template <class V, class Less>
void sort_by_comparator(executor const& exec, V* first, size_type n, Less less) {
  if (n <= 1) { return; }
  if (n <= detail::sort_in_block_limit) {
    detail::sort_in_block_kernel<<<1, detail::sort_in_block_threads, 0, exec.stream.value()>>>(first, n, less);
    COLX_CUDA_TRY(cudaGetLastError());
    return;
  }
  if (n <= (detail::outline_comparator<Less> ? detail::pairwise_sort_limit_costly : detail::pairwise_sort_limit)) {
    detail::sort_by_pairwise_ranks(exec, first, n, less);
    return;
  }
  COLX_EXPECTS(n <= std::numeric_limits<std::int32_t>::max(), "sort: ", n, " rows; at most 2^31 - 1 rows can be sorted");
  auto const count = static_cast<std::uint32_t>(n);
  auto const sort = [&](auto const& compare) {
    detail::with_temporary_storage(exec, [&](void* temp, std::size_t& bytes) {
      return cub::DeviceMergeSort::StableSortKeys(temp, bytes, first, count, compare, exec.stream.value());
    });
  };
  if constexpr (detail::outline_comparator<Less>) {
    sort(detail::outlined_less<V, Less>{less});
  } else {
    sort(less);
  }
}

}  // namespace colx::gpu
