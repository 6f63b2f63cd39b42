// SPDX-License-Identifier: Apache-2.0
#pragma once
// The GPU's check of SNAPPY pages before nvCOMP decompresses them (see snappy_check.hpp for what
// is checked and why): a warp per page. Each lane reads a tag as if one started at its byte of a
// 32-byte window, then the warp follows the chain of real tags through the window by shuffles, so
// the walk waits on memory once per window, not once per tag as a thread alone would.
#include <colx/core/cuda_try.cuh>
#include <colx/io/parquet/encodings.hpp>
#include <colx/memory/stream.hpp>

#include <cstddef>
#include <cstdint>

namespace colx::parquet::detail {

// One step of a SNAPPY stream read as if a tag started at `at`: the bytes it takes (tag, length
// bytes and literal data), the bytes it produces, its copy offset (0: a literal); false when it
// would run past the stream's end, or is a copy from offset 0.
__device__ inline bool snappy_step(std::uint8_t const* in, std::uint64_t size, std::uint64_t at, std::uint64_t& takes,
                                   std::uint64_t& makes, std::uint64_t& offset) {
  if (at >= size) { return false; }
  std::uint8_t const tag = in[at];
  std::uint64_t const left = size - at - 1;
  auto const byte = [&](std::uint64_t k) { return static_cast<std::uint64_t>(in[at + 1 + k]); };
  offset = 0;
  switch (tag & 3) {
    case 0: {
      std::uint64_t n = tag >> 2;
      std::uint64_t extra = 0;
      if (n >= 60) {
        extra = n - 59;
        if (left < extra) { return false; }
        n = 0;
        for (std::uint64_t k = 0; k < extra; ++k) { n |= byte(k) << (8 * k); }
      }
      makes = n + 1;
      takes = 1 + extra + makes;
      return takes <= left + 1;
    }
    case 1:
      if (left < 1) { return false; }
      makes = 4 + ((tag >> 2) & 7);
      offset = (static_cast<std::uint64_t>(tag >> 5) << 8) | byte(0);
      takes = 2;
      return offset != 0;
    case 2:
      if (left < 2) { return false; }
      makes = (tag >> 2) + 1;
      offset = byte(0) | byte(1) << 8;
      takes = 3;
      return offset != 0;
    default:
      if (left < 4) { return false; }
      makes = (tag >> 2) + 1;
      offset = byte(0) | byte(1) << 8 | byte(2) << 16 | byte(3) << 24;
      takes = 5;
      return offset != 0;
  }
}

// A warp per page: pages [0, n) at in[i], sizes[i] bytes, of sizes[n + i] bytes uncompressed. A
// page that fails is counted in *bad and replaced by `empty` (a SNAPPY stream of no bytes: one 0
// byte), so that a decompressor given the arrays after reads nothing it should not.
template <int Threads = 256>
__global__ void __launch_bounds__(Threads) check_snappy_kernel(void const** in, std::size_t* sizes, std::size_t n, int* bad,
                                                                void const* empty) {
  std::size_t const page = (blockIdx.x * static_cast<std::size_t>(Threads) + threadIdx.x) / 32;
  unsigned const lane = threadIdx.x % 32;
  if (page >= n) { return; }  // (whole warps leave together)
  auto const* const p = static_cast<std::uint8_t const*>(in[page]);
  std::uint64_t const size = sizes[page];
  std::uint64_t const out_size = sizes[n + page];
  std::uint8_t const* q = p;
  std::uint64_t length = 0;
  bool ok = read_uleb(q, p + size, length) && length == out_size;
  std::uint64_t pos = static_cast<std::uint64_t>(q - p);
  std::uint64_t produced = 0;
  while (ok && pos < size) {
    std::uint64_t takes = 0, makes = 0, offset = 0;
    bool const step = snappy_step(p, size, pos + lane, takes, makes, offset);
    for (std::uint64_t at = 0; ok && at < 32 && pos < size;) {  // (every lane holds the same at, pos, produced)
      auto const from = static_cast<int>(at);
      bool const s = __shfl_sync(0xffffffffu, step, from);
      std::uint64_t const t = __shfl_sync(0xffffffffu, takes, from);
      std::uint64_t const m = __shfl_sync(0xffffffffu, makes, from);
      std::uint64_t const o = __shfl_sync(0xffffffffu, offset, from);
      ok = s && m <= out_size - produced && o <= produced;  // (a literal's offset is 0; a copy's is not)
      produced += m;
      pos += t;
      at += t;
    }
  }
  ok = ok && produced == out_size;
  if (lane == 0 && !ok) {
    atomicAdd(bad, 1);
    in[page] = empty;
    sizes[page] = 1;
  }
}

// Checks the n pages, adding those that fail to *bad (device memory) and swapping them for
// `empty`; waits for nothing.
inline void check_snappy(void const** in, std::size_t* sizes, std::size_t n, int* bad, void const* empty, stream_ref stream) {
  if (n == 0) { return; }
  check_snappy_kernel<><<<static_cast<unsigned>((n * 32 + 255) / 256), 256, 0, stream.value()>>>(in, sizes, n, bad, empty);
  COLX_CUDA_TRY(cudaGetLastError());
}

// How many of the n pages fail the check (`scratch`: two ints of device memory; the arrays are
// changed as check_snappy changes them).
inline int count_bad_snappy(void const** in, std::size_t* sizes, std::size_t n, int* scratch, stream_ref stream) {
  COLX_CUDA_TRY(cudaMemsetAsync(scratch, 0, 2 * sizeof(int), stream.value()));
  check_snappy(in, sizes, n, scratch, scratch + 1, stream);
  int bad = 0;
  COLX_CUDA_TRY(cudaMemcpyAsync(&bad, scratch, sizeof(int), cudaMemcpyDeviceToHost, stream.value()));
  stream.synchronize();
  return bad;
}

}  // namespace colx::parquet::detail
