// SPDX-License-Identifier: Apache-2.0
#pragma once
// Page decompression on the GPU with nvCOMP's batched API: the compressed chunks are copied to the
// device once, then one call per codec decompresses every page of that codec at once, and one
// kernel copies the pages that are stored uncompressed (and v2 pages' levels). Built where CMake
// found nvCOMP (the pip wheel nvidia-libnvcomp-cu13 has its headers and libraries) and defined
// COLX_WITH_NVCOMP; elsewhere the host decompresses and copies the pages over.
//
// nvCOMP does not promise to survive corrupt input: a corrupt SNAPPY or ZSTD page made its kernels
// read out of bounds, which ends the CUDA context. So every SNAPPY page is checked first on the GPU
// (what snappy_check.hpp checks, a warp a page), and every output size after (the statuses and actual sizes
// nvCOMP reports). ZSTD has no such cheap check: files with ZSTD pages are decompressed by the
// host's libzstd, which reports corrupt input.
#if defined(COLX_WITH_NVCOMP)  // (without nvCOMP this header is empty: the host decompresses)
#include <colx/core/cuda_try.cuh>
#include <colx/gpu/launch.cuh>
#include <colx/io/parquet/page_plan.hpp>
#include <colx/io/parquet/gpu_snappy_check.cuh>

#include <nvcomp/snappy.h>

#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

namespace colx::parquet::detail {

struct copy_job {
  std::size_t in_offset, out_offset, size;
};

// One block per job, its threads copying 16 bytes at a time where both ends are aligned.
template <int Threads = 256>
__global__ void __launch_bounds__(Threads) copy_jobs_kernel(std::uint8_t const* in, std::uint8_t* out, copy_job const* jobs) {
  copy_job const j = jobs[blockIdx.x];
  std::uint8_t const* src = in + j.in_offset;
  std::uint8_t* dst = out + j.out_offset;
  if (((reinterpret_cast<std::uintptr_t>(src) | reinterpret_cast<std::uintptr_t>(dst)) & 15) == 0) {
    std::size_t const words = j.size / 16;
    for (std::size_t i = threadIdx.x; i < words; i += blockDim.x) {
      reinterpret_cast<uint4*>(dst)[i] = reinterpret_cast<uint4 const*>(src)[i];
    }
    for (std::size_t i = words * 16 + threadIdx.x; i < j.size; i += blockDim.x) { dst[i] = src[i]; }
  } else {
    for (std::size_t i = threadIdx.x; i < j.size; i += blockDim.x) { dst[i] = src[i]; }
  }
}

// Whether nvCOMP can take every page of these chunks, known before they are read: their codecs,
// and nvCOMP asking no alignment of its inputs (pages lie where their chunks put them).
[[nodiscard]] inline bool gpu_can_decompress(file_metadata const& md, std::vector<std::size_t> const& leaves,
                                             std::vector<std::size_t> const& groups) {
  nvcompAlignmentRequirements_t need{};
  if (nvcompBatchedSnappyDecompressGetRequiredAlignments(nvcompBatchedSnappyDecompressDefaultOpts, &need) != nvcompSuccess ||
      need.input != 1 || page_alignment % need.output != 0) {
    return false;
  }
  for (std::size_t g : groups) {
    for (std::size_t leaf : leaves) {
      codec const c = md.row_groups[g].columns[leaf].compression;
      if (c != codec::uncompressed && c != codec::snappy) { return false; }
    }
  }
  return true;
}

// The SNAPPY pages, checked, then decompressed in one nvCOMP call.
inline void snappy_on_device(page_plan const& plan, std::uint8_t const* in, std::uint8_t* out, stream_ref stream,
                             std::string const& path) {
  std::vector<void const*> in_ptrs;
  std::vector<void*> out_ptrs;
  std::vector<std::size_t> in_sizes, out_sizes;
  std::size_t largest = 0, total = 0;
  for (auto const& j : plan.jobs) {
    if (j.how != codec::snappy) { continue; }
    in_ptrs.push_back(in + j.in_offset);
    out_ptrs.push_back(out + j.out_offset);
    in_sizes.push_back(j.in_size);
    out_sizes.push_back(j.out_size);
    largest = std::max(largest, j.out_size);
    total += j.out_size;
  }
  std::size_t const n = in_ptrs.size();
  if (n == 0) { return; }
  // One device allocation for the call's arrays: in and out pointers; in, out and actual sizes
  // (the checks read in and out sizes as one array); statuses.
  gpu::detail::temporary_storage arrays(n * (2 * sizeof(void*) + 3 * sizeof(std::size_t) + sizeof(nvcompStatus_t)), stream);
  auto* const d_in_ptrs = static_cast<void const**>(arrays.data());
  auto* const d_out_ptrs = static_cast<void**>(arrays.data()) + n;
  auto* const d_sizes = reinterpret_cast<std::size_t*>(d_out_ptrs + n);
  auto* const d_status = reinterpret_cast<nvcompStatus_t*>(d_sizes + 3 * n);
  auto const to_device = [&](void* dst, void const* src, std::size_t bytes) {
    COLX_CUDA_TRY(cudaMemcpyAsync(dst, src, bytes, cudaMemcpyHostToDevice, stream.value()));
  };
  to_device(d_in_ptrs, in_ptrs.data(), n * sizeof(void*));
  to_device(d_out_ptrs, out_ptrs.data(), n * sizeof(void*));
  to_device(d_sizes, in_sizes.data(), n * sizeof(std::size_t));
  to_device(d_sizes + n, out_sizes.data(), n * sizeof(std::size_t));

  int const bad_pages = count_bad_snappy(d_in_ptrs, d_sizes, n, reinterpret_cast<int*>(d_status), stream);
  COLX_EXPECTS_AS(parquet_error, bad_pages == 0, path, ": ", bad_pages,
                  " SNAPPY page(s) do not decompress to the sizes their headers give: the file is corrupt");

  std::size_t temp_bytes = 0;
  nvcompStatus_t rc =
      nvcompBatchedSnappyDecompressGetTempSize(n, largest, nvcompBatchedSnappyDecompressDefaultOpts, &temp_bytes, total, stream.value());
  if (rc != nvcompSuccess) { throw cuda_error("colx: nvCOMP could not size its temporary memory", static_cast<int>(rc)); }
  gpu::detail::temporary_storage temp(temp_bytes, stream);
  rc = nvcompBatchedSnappyDecompressAsync(d_in_ptrs, d_sizes, d_sizes + n, d_sizes + 2 * n, n, temp.data(), temp_bytes, d_out_ptrs,
                                          nvcompBatchedSnappyDecompressDefaultOpts, d_status, stream.value());
  if (rc != nvcompSuccess) { throw cuda_error("colx: nvCOMP could not start decompressing", static_cast<int>(rc)); }
  std::vector<std::size_t> actual(n);
  std::vector<nvcompStatus_t> status(n);
  COLX_CUDA_TRY(cudaMemcpyAsync(actual.data(), d_sizes + 2 * n, n * sizeof(std::size_t), cudaMemcpyDeviceToHost, stream.value()));
  COLX_CUDA_TRY(cudaMemcpyAsync(status.data(), d_status, n * sizeof(nvcompStatus_t), cudaMemcpyDeviceToHost, stream.value()));
  stream.synchronize();
  for (std::size_t i = 0; i < n; ++i) {
    COLX_EXPECTS_AS(parquet_error, status[i] == nvcompSuccess && actual[i] == out_sizes[i], path,
                    ": a SNAPPY page does not decompress to the size its header gives (nvCOMP status ", static_cast<int>(status[i]), ", ",
                    actual[i], " of ", out_sizes[i], " bytes): the file is corrupt");
  }
}

// Every page's bytes into `out` (device memory of plan.bytes), from `in` (the chunks, copied to
// the device): SNAPPY pages by nvCOMP, stored pages (and v2 pages' levels) by a copy kernel.
inline void decompress_on_device(page_plan const& plan, std::uint8_t const* in, std::uint8_t* out, stream_ref stream,
                                 std::string const& path) {
  snappy_on_device(plan, in, out, stream, path);
  std::vector<copy_job> copies;
  for (auto const& j : plan.jobs) {
    if (j.how == codec::uncompressed && j.out_size > 0) { copies.push_back({j.in_offset, j.out_offset, j.out_size}); }
  }
  if (copies.empty()) { return; }
  gpu::detail::temporary_storage jobs(copies.size() * sizeof(copy_job), stream);
  COLX_CUDA_TRY(cudaMemcpyAsync(jobs.data(), copies.data(), copies.size() * sizeof(copy_job), cudaMemcpyHostToDevice, stream.value()));
  copy_jobs_kernel<><<<static_cast<unsigned>(copies.size()), 256, 0, stream.value()>>>(in, out, static_cast<copy_job const*>(jobs.data()));
  COLX_CUDA_TRY(cudaGetLastError());
  stream.synchronize();  // (the host's vector of jobs goes out of scope)
}

}  // namespace colx::parquet::detail
#endif  // COLX_WITH_NVCOMP
