// SPDX-License-Identifier: Apache-2.0
#pragma once
// The GPU's banded build of a join's hash table (join/banded_build.hpp): a block per band of
// 2^band_slot_bits slots. The block empties the band in shared memory, inserts the band's rows of
// every run there (their walks wrap within the band), looks for duplicate keys along each
// entry's walk, and writes the band to the table in order. The table in global memory is
// written once and never read, where inserting row by row swept it once a run with atomics.
#include <colx/core/cuda_try.cuh>
#include <colx/frame/join/entries.hpp>
#include <colx/gpu/executor.cuh>
#include <colx/gpu/launch.cuh>

#include <cstdint>

namespace colx::detail {

inline constexpr int band_block = 512;

template <int Block, class Build>
__global__ void __launch_bounds__(Block) build_bands_kernel(Build b) {
  using keys_t = decltype(b.keys);
  constexpr std::uint64_t slots = std::uint64_t{1} << band_slot_bits;
  constexpr std::uint64_t wrap = slots - 1;
  constexpr std::uint64_t words = words_per_slot<keys_t>;
  extern __shared__ __align__(16) unsigned long long band[];  // slots * words: (keys, row) or (tag | row)
  auto const here = static_cast<std::uint64_t>(blockIdx.x);
  for (auto s = static_cast<std::uint64_t>(threadIdx.x); s < slots * words; s += Block) { band[s] = empty_entry; }
  __syncthreads();
  bool const hashed = keys_t::hashed_words(b.nulls_equal);
  unsigned raised = 0;
  for (int k = 0; k < b.runs; ++k) {
    size_type const* const run = b.starts + static_cast<size_type>(k) * (b.bands + 1);
    size_type const last = run[here + 1];
    for (size_type r = run[here] + static_cast<size_type>(threadIdx.x); r < last; r += Block) {
      if (!b.nulls_equal && !b.keys.all_valid(r)) { continue; }  // can never match
      std::uint64_t word = 0;  // the packed keys, or the keys' hash
      if constexpr (keys_t::packed) {
        word = b.keys.word(r, hashed);
      } else {
        word = b.keys.hash(r);
      }
      bool placed = false;
      std::uint64_t p = (keys_t::packed ? mix64(word) : word) & wrap;  // (its band is this block's: runs were checked)
      for (std::uint64_t step = 0; step <= wrap && !placed; ++step, p = (p + 1) & wrap) {
        if constexpr (keys_t::packed) {
          placed = atomicCAS(band + 2 * p + 1, empty_entry, static_cast<unsigned long long>(r)) == empty_entry;
          if (placed) { band[2 * p] = word; }
        } else {
          placed = atomicCAS(band + p, empty_entry, (word & tag_bits) | static_cast<std::uint64_t>(r)) == empty_entry;
        }
      }
      if (!placed) { raised |= table_full_flag; }
    }
  }
  __syncthreads();
  // Two rows with equal keys walk from one home, so the later one's walk passes the earlier's slot.
  for (auto s = static_cast<std::uint64_t>(threadIdx.x); s < slots && (raised & duplicate_keys_flag) == 0u; s += Block) {
    std::uint64_t const entry = band[s * words + words - 1];
    if (entry == empty_entry) { continue; }
    if constexpr (keys_t::packed) {
      std::uint64_t const word = band[2 * s];
      auto const row = static_cast<size_type>(entry);
      for (std::uint64_t q = mix64(word) & wrap; q != s; q = (q + 1) & wrap) {
        if (band[2 * q] == word && (!hashed || b.keys.equal(row, b.keys, static_cast<size_type>(band[2 * q + 1])))) {
          raised |= duplicate_keys_flag;
          break;
        }
      }
    } else {
      auto const row = static_cast<size_type>(entry & ~tag_bits);
      for (std::uint64_t q = b.keys.hash(row) & wrap; q != s; q = (q + 1) & wrap) {
        std::uint64_t const other = band[q];
        if ((other & tag_bits) == (entry & tag_bits) && b.keys.equal(row, b.keys, static_cast<size_type>(other & ~tag_bits))) {
          raised |= duplicate_keys_flag;
          break;
        }
      }
    }
  }
  if (raised != 0u) { atomicOr(b.flags, raised); }
  std::uint64_t* const out = b.slots + here * slots * words;
  for (auto s = static_cast<std::uint64_t>(threadIdx.x); s < slots * words; s += Block) { out[s] = band[s]; }
}

// Every band of the table, a block each.
template <class Build>
void fill_bands(gpu::executor const& exec, Build const& b) {
  using keys_t = decltype(b.keys);
  std::size_t const shared = (std::size_t{1} << band_slot_bits) * words_per_slot<keys_t> * sizeof(std::uint64_t);
  auto const kernel = build_bands_kernel<band_block, Build>;
  (void)gpu::detail::resident_blocks(kernel, band_block, shared);  // (asks for more than 48 KiB once)
  kernel<<<static_cast<unsigned>(b.bands), band_block, shared, exec.stream.value()>>>(b);
  COLX_CUDA_TRY(cudaGetLastError());
}

}  // namespace colx::detail
