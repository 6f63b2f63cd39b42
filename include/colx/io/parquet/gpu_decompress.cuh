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
#include <cstdlib>
#include <cstring>
#include <deque>
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
// slab_sink): the slab's chunks are copied to the device and its stored pages copied by a kernel
// at once; its SNAPPY pages are checked and given to nvCOMP in one call with those of the slabs
// before it, once they add up to a `calls`-th of the file's bytes. Nothing waits for the device
// until finish(), so the host reads and plans the next slabs meanwhile. A page that fails the
// check is swapped for an empty stream before nvCOMP sees it, and reported by finish().
//
// Why batches: nvCOMP gives a page to a warp, which decodes it serially (milliseconds for a page
// of 100 KB), so a call takes at least its slowest page's time, and calls of a few hundred pages
// leave the GPU mostly idle even side by side. Each batch runs on a side stream of its own;
// buffers are allocated (and, after the side streams' work, freed) in the order of the caller's
// stream, with events between the two.
// How many nvCOMP calls a read's SNAPPY pages are cut into (COLX_PARQUET_NVCOMP_CALLS overrides).
// Measured on an H100 over TPC-H lineitem at SF 10 (whole read of 16 columns, of Q1's 7): 1 call
// 243/84 ms, 2: 232/76, 4: 204/71, 8: 198/66, 32: 244/132.
inline int nvcomp_calls() {
  char const* const e = std::getenv("COLX_PARQUET_NVCOMP_CALLS");
  return e != nullptr && std::atoi(e) > 0 ? std::atoi(e) : 8;
}

class gpu_unpacker {
 public:
  gpu_unpacker(stream_ref stream, resource_ref mr, int calls) : _stream(stream), _mr(mr), _calls(std::max(calls, 1)), _bad(sizeof(int), stream, mr) {
    COLX_CUDA_TRY(cudaMemsetAsync(_bad.data(), 0, sizeof(int), stream.value()));
  }
  gpu_unpacker(gpu_unpacker const&) = delete;
  gpu_unpacker& operator=(gpu_unpacker const&) = delete;
  ~gpu_unpacker() {  // (after an error: the buffers are freed on the caller's stream once the side streams' work is done)
    release_side_streams();
    for (cudaEvent_t e : _events) { (void)cudaEventDestroy(e); }
  }

  // The slab's pages, unpacked into a buffer of its own: returns its address.
  std::uint8_t* unpack(page_plan const& plan, slab_span const& s) {
    if (_batches.empty() || _batches.back().launched) { open_batch(); }
    batch& b = _batches.back();
    slab& out = _slabs.emplace_back();
    out.pages = buffer(s.out_end - s.out_begin, _stream, _mr);
    auto* const dst = static_cast<std::uint8_t*>(out.pages.data());
    out.in = buffer(s.in_end - s.in_begin, _stream, _mr);
    auto* const src = static_cast<std::uint8_t*>(out.in.data());
    std::vector<copy_job> copies;
    for (std::size_t i = s.job_begin; i < s.job_end; ++i) {
      decompress_job const& j = plan.jobs[i];
      if (j.how == codec::snappy) {
        b.in.push_back(src + (j.in_offset - s.in_begin));
        b.out.push_back(dst + (j.out_offset - s.out_begin));
        b.in_sizes.push_back(j.in_size);
        b.out_sizes.push_back(j.out_size);
        b.largest = std::max(b.largest, j.out_size);
        b.total += j.out_size;
      } else if (j.out_size > 0) {
        copies.push_back({j.in_offset - s.in_begin, j.out_offset - s.out_begin, j.out_size});
      }
    }
    if (!copies.empty()) { out.copies = buffer(copies.data(), memory_kind::host, copies.size() * sizeof(copy_job), _stream, _mr); }
    start_side(b);
    COLX_CUDA_TRY(cudaMemcpyAsync(src, static_cast<std::uint8_t const*>(plan.chunks.data()) + s.in_begin, s.in_end - s.in_begin,
                                  cudaMemcpyHostToDevice, b.side));
    if (!copies.empty()) {
      copy_jobs_kernel<><<<static_cast<unsigned>(copies.size()), 256, 0, b.side>>>(src, dst, static_cast<copy_job const*>(out.copies.data()));
      COLX_CUDA_TRY(cudaGetLastError());
    }
    b.bytes += s.in_end - s.in_begin;
    if (b.bytes * static_cast<std::size_t>(_calls) >= plan.chunks.size()) { launch(b); }
    return dst;
  }

  // Waits for every slab and throws for the first page that did not decompress as its header says.
  void finish(std::string const& path) {
    if (!_batches.empty() && !_batches.back().launched) { launch(_batches.back()); }
    for (batch& b : _batches) {
      cudaEvent_t const done = event();
      COLX_CUDA_TRY(cudaEventRecord(done, b.side));
      COLX_CUDA_TRY(cudaStreamWaitEvent(_stream.value(), done, 0));
    }
    int bad = 0;
    COLX_CUDA_TRY(cudaMemcpyAsync(&bad, _bad.data(), sizeof(int), cudaMemcpyDeviceToHost, _stream.value()));
    for (batch& b : _batches) {
      std::size_t const n = b.in.size();
      if (n == 0) { continue; }
      b.status.resize(n);
      auto const* const d_sizes = reinterpret_cast<std::size_t const*>(static_cast<void* const*>(b.arrays.data()) + 2 * n);
      COLX_CUDA_TRY(cudaMemcpyAsync(b.in_sizes.data(), d_sizes + 2 * n, n * sizeof(std::size_t), cudaMemcpyDeviceToHost, _stream.value()));
      COLX_CUDA_TRY(cudaMemcpyAsync(b.status.data(), d_sizes + 3 * n, n * sizeof(nvcompStatus_t), cudaMemcpyDeviceToHost, _stream.value()));
    }
    _stream.synchronize();
    COLX_EXPECTS_AS(parquet_error, bad == 0, path, ": ", bad, " SNAPPY page(s) do not decompress to the sizes their headers give: the file is corrupt");
    for (batch const& b : _batches) {
      for (std::size_t i = 0; i < b.in.size(); ++i) {  // (in_sizes now holds the actual sizes)
        COLX_EXPECTS_AS(parquet_error, b.status[i] == nvcompSuccess && b.in_sizes[i] == b.out_sizes[i], path,
                        ": a SNAPPY page does not decompress to the size its header gives (nvCOMP status ", static_cast<int>(b.status[i]),
                        ", ", b.in_sizes[i], " of ", b.out_sizes[i], " bytes): the file is corrupt");
      }
    }
    for (slab& s : _slabs) { s.in = buffer{}, s.copies = buffer{}; }
    release_side_streams();
  }

 private:
  struct slab {
    buffer pages;  // the slab's uncompressed pages (what the decode reads)
    buffer in, copies;
  };
  struct batch {  // slabs whose SNAPPY pages go to nvCOMP in one call
    cudaStream_t side = nullptr;
    std::vector<void const*> in;
    std::vector<void*> out;
    std::vector<std::size_t> in_sizes, out_sizes;
    std::vector<nvcompStatus_t> status;
    std::size_t largest = 0, total = 0, bytes = 0;
    bool launched = false;
    buffer host, arrays, temp;
  };

  // The caller's stream waits for every side stream's work, and the side streams go.
  void release_side_streams() noexcept {
    for (batch& b : _batches) {
      cudaEvent_t done = nullptr;
      if (cudaEventCreateWithFlags(&done, cudaEventDisableTiming) == cudaSuccess) {
        (void)cudaEventRecord(done, b.side);
        (void)cudaStreamWaitEvent(_stream.value(), done, 0);
        (void)cudaEventDestroy(done);
      }
      (void)cudaStreamDestroy(b.side);
    }
    _batches.clear();
  }
  cudaEvent_t event() {
    cudaEvent_t e = nullptr;
    COLX_CUDA_TRY(cudaEventCreateWithFlags(&e, cudaEventDisableTiming));
    _events.push_back(e);
    return e;
  }
  void open_batch() {
    batch& b = _batches.emplace_back();
    COLX_CUDA_TRY(cudaStreamCreateWithFlags(&b.side, cudaStreamNonBlocking));
  }
  // The side stream goes on once what was allocated so far exists.
  void start_side(batch const& b) {
    cudaEvent_t const allocated = event();
    COLX_CUDA_TRY(cudaEventRecord(allocated, _stream.value()));
    COLX_CUDA_TRY(cudaStreamWaitEvent(b.side, allocated, 0));
  }
  // The batch's SNAPPY pages, checked then decompressed, after its slabs' copies.
  void launch(batch& b) {
    b.launched = true;
    std::size_t const n = b.in.size();
    if (n == 0) { return; }
    // The call's arrays: in and out pointers; in, out and actual sizes (the check reads in and out
    // sizes as one array); statuses; an empty SNAPPY stream for the pages that fail the check.
    b.arrays = buffer(n * (2 * sizeof(void*) + 3 * sizeof(std::size_t) + sizeof(nvcompStatus_t)) + 16, _stream, _mr);
    auto* const d_in = static_cast<void const**>(b.arrays.data());
    auto* const d_out = static_cast<void**>(b.arrays.data()) + n;
    auto* const d_sizes = reinterpret_cast<std::size_t*>(d_out + n);
    auto* const d_status = reinterpret_cast<nvcompStatus_t*>(d_sizes + 3 * n);
    auto* const empty = reinterpret_cast<std::uint8_t*>(d_status + n);
    std::size_t temp_bytes = 0;
    nvcompStatus_t rc = nvcompBatchedSnappyDecompressGetTempSize(n, b.largest, nvcompBatchedSnappyDecompressDefaultOpts, &temp_bytes, b.total,
                                                                 _stream.value());
    if (rc != nvcompSuccess) { throw cuda_error("colx: nvCOMP could not size its temporary memory", static_cast<int>(rc)); }
    b.temp = buffer(temp_bytes, _stream, _mr);
    start_side(b);
    // (staged in pinned memory: a copy from pageable memory may wait for the side stream's copies)
    b.host = buffer(n * (2 * sizeof(void*) + 2 * sizeof(std::size_t)), _stream, get_current_pinned_resource());
    auto* const staged = static_cast<std::uint8_t*>(b.host.data());
    std::memcpy(staged, b.in.data(), n * sizeof(void*));
    std::memcpy(staged + n * sizeof(void*), b.out.data(), n * sizeof(void*));
    std::memcpy(staged + 2 * n * sizeof(void*), b.in_sizes.data(), n * sizeof(std::size_t));
    std::memcpy(staged + 2 * n * sizeof(void*) + n * sizeof(std::size_t), b.out_sizes.data(), n * sizeof(std::size_t));
    COLX_CUDA_TRY(cudaMemcpyAsync(d_in, staged, b.host.size(), cudaMemcpyHostToDevice, b.side));
    COLX_CUDA_TRY(cudaMemsetAsync(empty, 0, 1, b.side));
    check_snappy(d_in, d_sizes, n, static_cast<int*>(_bad.data()), empty, b.side);
    rc = nvcompBatchedSnappyDecompressAsync(d_in, d_sizes, d_sizes + n, d_sizes + 2 * n, n, b.temp.data(), temp_bytes, d_out,
                                            nvcompBatchedSnappyDecompressDefaultOpts, d_status, b.side);
    if (rc != nvcompSuccess) { throw cuda_error("colx: nvCOMP could not start decompressing", static_cast<int>(rc)); }
  }

  stream_ref _stream;
  resource_ref _mr;
  int _calls;
  buffer _bad;  // pages that failed the check, over all slabs
  std::vector<cudaEvent_t> _events;
  std::vector<slab> _slabs;
  std::deque<batch> _batches;  // (a deque: a batch's vectors stay where they are while others are added)
};

}  // namespace colx::parquet::detail
#endif  // COLX_WITH_NVCOMP
