// SPDX-License-Identifier: Apache-2.0
#pragma once
// Page decompression on the GPU with nvCOMP's batched API, a slab of chunks at a time as the host
// reads them: each slab's compressed chunks are copied to the device, one nvCOMP call decompresses
// its SNAPPY pages, and one kernel copies its pages that are stored uncompressed (and v2 pages'
// levels). Built where CMake
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
#include <array>
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

// Decompresses a plan's pages on the GPU slab by slab, as plan_pages hands each slab on (its
// slab_sink): the slab's chunks are copied to the device, its SNAPPY pages checked and given to
// nvCOMP in one call, its stored pages copied by a kernel; nothing waits for the device until
// finish(), so the host reads and plans the next slabs meanwhile. A page that fails the check is
// swapped for an empty stream before nvCOMP sees it, and reported by finish().
//
// Each slab's work runs on one of a few side streams: nvCOMP gives a page to a warp, which
// decodes it serially (some milliseconds for a page of 100 KB), so one call's time is its slowest
// page's, and only calls running side by side fill the GPU. Buffers are allocated (and, after the
// side streams' work, freed) in the order of the caller's stream, with events between the two.
class gpu_unpacker {
 public:
  gpu_unpacker(stream_ref stream, resource_ref mr) : _stream(stream), _mr(mr), _bad(sizeof(int), stream, mr) {
    COLX_CUDA_TRY(cudaMemsetAsync(_bad.data(), 0, sizeof(int), stream.value()));
    for (auto& s : _side) { COLX_CUDA_TRY(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking)); }
  }
  gpu_unpacker(gpu_unpacker const&) = delete;
  gpu_unpacker& operator=(gpu_unpacker const&) = delete;
  ~gpu_unpacker() {
    for (cudaEvent_t e : _events) {  // (the buffers are freed on the caller's stream after the side streams' work)
      (void)cudaStreamWaitEvent(_stream.value(), e, 0);
      (void)cudaEventDestroy(e);
    }
    for (auto s : _side) { (void)cudaStreamDestroy(s); }
  }

  // The slab's pages, unpacked into a buffer of its own: returns its address.
  std::uint8_t* unpack(page_plan const& plan, slab_span const& s) {
    slab& out = _slabs.emplace_back();
    out.pages = buffer(s.out_end - s.out_begin, _stream, _mr);
    auto* const dst = static_cast<std::uint8_t*>(out.pages.data());
    out.in = buffer(s.in_end - s.in_begin, _stream, _mr);
    auto* const src = static_cast<std::uint8_t*>(out.in.data());
    std::vector<copy_job> copies;
    std::size_t largest = 0, total = 0;
    for (std::size_t i = s.job_begin; i < s.job_end; ++i) {
      decompress_job const& j = plan.jobs[i];
      if (j.how == codec::snappy) {
        ++out.n;
        largest = std::max(largest, j.out_size);
        total += j.out_size;
      } else if (j.out_size > 0) {
        copies.push_back({j.in_offset - s.in_begin, j.out_offset - s.out_begin, j.out_size});
      }
    }
    std::size_t const n = out.n;
    // The call's arrays, built in pinned memory and copied over: in and out pointers; in, out and
    // actual sizes (the check reads in and out sizes as one array); statuses; and an empty SNAPPY
    // stream for the pages that fail the check.
    std::size_t const array_bytes = n * (2 * sizeof(void*) + 3 * sizeof(std::size_t) + sizeof(nvcompStatus_t));
    std::size_t temp_bytes = 0;
    if (n > 0) {
      out.host = buffer(array_bytes, _stream, get_current_pinned_resource());
      out.arrays = buffer(array_bytes + 16, _stream, _mr);
      auto* const h_ptrs = static_cast<void const**>(out.host.data());
      auto* const h_sizes = reinterpret_cast<std::size_t*>(static_cast<void**>(out.host.data()) + 2 * n);
      std::size_t k = 0;
      for (std::size_t i = s.job_begin; i < s.job_end; ++i) {
        decompress_job const& j = plan.jobs[i];
        if (j.how != codec::snappy) { continue; }
        h_ptrs[k] = src + (j.in_offset - s.in_begin);
        h_ptrs[n + k] = dst + (j.out_offset - s.out_begin);
        h_sizes[k] = j.in_size;
        h_sizes[n + k] = j.out_size;
        ++k;
      }
      nvcompStatus_t const rc = nvcompBatchedSnappyDecompressGetTempSize(n, largest, nvcompBatchedSnappyDecompressDefaultOpts, &temp_bytes,
                                                                         total, _stream.value());
      if (rc != nvcompSuccess) { throw cuda_error("colx: nvCOMP could not size its temporary memory", static_cast<int>(rc)); }
      out.temp = buffer(temp_bytes, _stream, _mr);
    }
    if (!copies.empty()) { out.copies = buffer(copies.data(), memory_kind::host, copies.size() * sizeof(copy_job), _stream, _mr); }
    // The side stream starts once the buffers exist; the caller's stream waits for it in finish().
    cudaStream_t const side = _side[_slabs.size() % _side.size()];
    cudaEvent_t const allocated = event(), done = event();
    COLX_CUDA_TRY(cudaEventRecord(allocated, _stream.value()));
    COLX_CUDA_TRY(cudaStreamWaitEvent(side, allocated, 0));
    COLX_CUDA_TRY(cudaMemcpyAsync(src, static_cast<std::uint8_t const*>(plan.chunks.data()) + s.in_begin, s.in_end - s.in_begin,
                                  cudaMemcpyHostToDevice, side));
    if (n > 0) {
      auto* const d_in = static_cast<void const**>(out.arrays.data());
      auto* const d_out = static_cast<void**>(out.arrays.data()) + n;
      auto* const d_sizes = reinterpret_cast<std::size_t*>(d_out + n);
      auto* const d_status = reinterpret_cast<nvcompStatus_t*>(d_sizes + 3 * n);
      auto* const empty = reinterpret_cast<std::uint8_t*>(d_status + n);
      COLX_CUDA_TRY(cudaMemcpyAsync(d_in, out.host.data(), 2 * n * sizeof(void*) + 2 * n * sizeof(std::size_t), cudaMemcpyHostToDevice, side));
      COLX_CUDA_TRY(cudaMemsetAsync(empty, 0, 1, side));
      check_snappy(d_in, d_sizes, n, static_cast<int*>(_bad.data()), empty, side);
      nvcompStatus_t const rc = nvcompBatchedSnappyDecompressAsync(d_in, d_sizes, d_sizes + n, d_sizes + 2 * n, n, out.temp.data(), temp_bytes,
                                                                   d_out, nvcompBatchedSnappyDecompressDefaultOpts, d_status, side);
      if (rc != nvcompSuccess) { throw cuda_error("colx: nvCOMP could not start decompressing", static_cast<int>(rc)); }
    }
    if (!copies.empty()) {
      copy_jobs_kernel<><<<static_cast<unsigned>(copies.size()), 256, 0, side>>>(src, dst, static_cast<copy_job const*>(out.copies.data()));
      COLX_CUDA_TRY(cudaGetLastError());
    }
    COLX_CUDA_TRY(cudaEventRecord(done, side));
    _done.push_back(done);
    return dst;
  }

  // Waits for every slab and throws for the first page that did not decompress as its header says.
  void finish(std::string const& path) {
    for (cudaEvent_t e : _done) { COLX_CUDA_TRY(cudaStreamWaitEvent(_stream.value(), e, 0)); }
    int bad = 0;
    COLX_CUDA_TRY(cudaMemcpyAsync(&bad, _bad.data(), sizeof(int), cudaMemcpyDeviceToHost, _stream.value()));
    for (slab& s : _slabs) {
      if (s.n == 0) { continue; }
      auto* const sizes = reinterpret_cast<std::size_t*>(static_cast<void**>(s.arrays.data()) + 2 * s.n);
      // (back over the pinned arrays: actual sizes over in sizes, statuses over in pointers)
      COLX_CUDA_TRY(cudaMemcpyAsync(static_cast<void**>(s.host.data()) + 2 * s.n, sizes + 2 * s.n, s.n * sizeof(std::size_t),
                                    cudaMemcpyDeviceToHost, _stream.value()));
      COLX_CUDA_TRY(cudaMemcpyAsync(s.host.data(), sizes + 3 * s.n, s.n * sizeof(nvcompStatus_t), cudaMemcpyDeviceToHost, _stream.value()));
    }
    _stream.synchronize();
    COLX_EXPECTS_AS(parquet_error, bad == 0, path, ": ", bad, " SNAPPY page(s) do not decompress to the sizes their headers give: the file is corrupt");
    for (slab& s : _slabs) {
      auto const* const status = static_cast<nvcompStatus_t const*>(s.host.data());
      auto const* const sizes = reinterpret_cast<std::size_t const*>(static_cast<void**>(s.host.data()) + 2 * s.n);
      for (std::size_t i = 0; i < s.n; ++i) {
        COLX_EXPECTS_AS(parquet_error, status[i] == nvcompSuccess && sizes[i] == sizes[s.n + i], path,
                        ": a SNAPPY page does not decompress to the size its header gives (nvCOMP status ", static_cast<int>(status[i]), ", ",
                        sizes[i], " of ", sizes[s.n + i], " bytes): the file is corrupt");
      }
      s.in = buffer{}, s.arrays = buffer{}, s.temp = buffer{}, s.copies = buffer{}, s.host = buffer{};
    }
  }

 private:
  cudaEvent_t event() {
    cudaEvent_t e = nullptr;
    COLX_CUDA_TRY(cudaEventCreateWithFlags(&e, cudaEventDisableTiming));
    _events.push_back(e);
    return e;
  }
  struct slab {
    buffer pages;       // the slab's uncompressed pages (what the decode reads)
    std::size_t n = 0;  // its SNAPPY pages
    buffer in, host, arrays, temp, copies;
  };
  stream_ref _stream;
  resource_ref _mr;
  buffer _bad;  // pages that failed the check, over all slabs
  std::array<cudaStream_t, 8> _side{};
  std::vector<cudaEvent_t> _events, _done;
  std::vector<slab> _slabs;
};

}  // namespace colx::parquet::detail
#endif  // COLX_WITH_NVCOMP
