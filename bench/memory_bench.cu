// SPDX-License-Identifier: Apache-2.0
// Column copy bandwidth (host->device, device->host, device->device, and a sliced nullable copy
// that realigns its mask) beside raw cudaMemcpyAsync, the roofline of each; and the pool
// allocator's allocate+free cost beside raw cudaMallocAsync and cudaMalloc.
//   bench_memory_bench [--json bench/results/memory.json]
#include "bench_common.cuh"

#include <colx/cuda.cuh>

#include <cstdio>
#include <optional>
#include <vector>

using namespace colx;

namespace {

constexpr size_type rows = size_type{1} << 26;  // 64M float64 = 512 MiB per column

void report(bench::json_records& json, char const* name, double ms, double bytes, double roofline_ms) {
  double const gbs = bytes / ms / 1e6;
  double const pct = 100.0 * roofline_ms / ms;
  std::printf("%-44s %9.3f ms %9.1f GB/s  %6.1f%% of raw copy\n", name, ms, gbs, pct);
  json.add(name, {{"ms", ms}, {"bytes", bytes}, {"GBps", gbs}, {"pct_of_raw", pct}});
}

}  // namespace

int main(int argc, char** argv) {
  if (!bench::have_device()) { return 77; }
  bench::json_records json;
  std::printf("device: %s\n", bench::device_name().c_str());
  cudaStream_t raw_stream;
  COLX_CUDA_TRY(cudaStreamCreateWithFlags(&raw_stream, cudaStreamNonBlocking));
  stream_ref const stream{raw_stream};
  resource_ref const device = get_current_device_resource();
  resource_ref const pinned = get_current_pinned_resource();
  resource_ref const host = get_current_host_resource();
  double const bytes = static_cast<double>(rows) * sizeof(double);

  // Sources: a pageable host column, a pinned host column and a device column of the same values.
  auto host_col = sequence<double>(rows, 0.0, 1.0, stream, host);
  auto pinned_col = copy(host_col, stream, pinned);
  auto device_col = copy(host_col, stream, device);
  stream.synchronize();
  void* raw_device = device.allocate_async(rows * sizeof(double), 256, stream);
  void* raw_pinned = pinned.allocate_async(rows * sizeof(double), 256, stream);

  std::puts("-- copies of a 64M-row float64 column (512 MiB) --");
  double const raw_h2d = bench::time_ms(raw_stream, [&] {
    COLX_CUDA_TRY(cudaMemcpyAsync(raw_device, pinned_col.data(), rows * sizeof(double), cudaMemcpyHostToDevice, raw_stream));
  });
  report(json, "raw cudaMemcpyAsync pinned->device", raw_h2d, bytes, raw_h2d);
  report(json, "copy column pinned->device", bench::time_ms(raw_stream, [&] { (void)copy(pinned_col, stream, device); }),
         bytes, raw_h2d);
  double const raw_pageable = bench::time_ms(raw_stream, [&] {
    COLX_CUDA_TRY(cudaMemcpyAsync(raw_device, host_col.data(), rows * sizeof(double), cudaMemcpyHostToDevice, raw_stream));
  }, 5, 1);
  report(json, "raw cudaMemcpyAsync pageable->device", raw_pageable, bytes, raw_pageable);
  report(json, "copy column pageable->device", bench::time_ms(raw_stream, [&] { (void)copy(host_col, stream, device); }, 5, 1),
         bytes, raw_pageable);

  double const raw_d2h = bench::time_ms(raw_stream, [&] {
    COLX_CUDA_TRY(cudaMemcpyAsync(raw_pinned, device_col.data(), rows * sizeof(double), cudaMemcpyDeviceToHost, raw_stream));
  });
  report(json, "raw cudaMemcpyAsync device->pinned", raw_d2h, bytes, raw_d2h);
  report(json, "copy column device->pinned", bench::time_ms(raw_stream, [&] { (void)copy(device_col, stream, pinned); }),
         bytes, raw_d2h);

  // Device to device: bytes read + written, as a memory roofline counts them.
  double const raw_d2d = bench::time_ms(raw_stream, [&] {
    COLX_CUDA_TRY(cudaMemcpyAsync(raw_device, device_col.data(), rows * sizeof(double), cudaMemcpyDeviceToDevice, raw_stream));
  });
  report(json, "raw cudaMemcpyAsync device->device", raw_d2d, 2 * bytes, raw_d2d);
  report(json, "copy column device->device", bench::time_ms(raw_stream, [&] { (void)copy(device_col, stream, device); }),
         2 * bytes, raw_d2d);

  // A nullable column sliced at an odd row: the mask is realigned by a kernel as it is copied.
  {
    std::vector<std::optional<double>> values(static_cast<std::size_t>(rows));
    for (size_type i = 0; i < rows; ++i) { values[static_cast<std::size_t>(i)] = i % 7 == 0 ? std::nullopt : std::optional<double>(1.0 * i); }
    auto nullable = make_column(values, stream, device);
    auto const slice = nullable.view().slice(3, rows);
    double const moved = 2.0 * (static_cast<double>(slice.size()) * sizeof(double) + slice.size() / 8.0);
    report(json, "copy nullable slice at row 3 device->device",
           bench::time_ms(raw_stream, [&] { (void)copy(slice, stream, device); }), moved, raw_d2d * moved / (2 * bytes));
  }
  device.deallocate_async(raw_device, rows * sizeof(double), 256, stream);
  pinned.deallocate_async(raw_pinned, rows * sizeof(double), 256, stream);
  stream.synchronize();

  std::puts("-- allocate + free pairs (host time per pair, stream-ordered) --");
  gpu::pool_resource pool;
  gpu::async_resource raw_async;
  for (std::size_t size : {std::size_t{1} << 10, std::size_t{1} << 20, std::size_t{64} << 20}) {
    int const calls = 2000;
    double const pool_us = bench::host_time_us([&] { pool.deallocate_async(pool.allocate_async(size, 256, stream), size, 256, stream); }, calls);
    double const async_us = bench::host_time_us([&] { raw_async.deallocate_async(raw_async.allocate_async(size, 256, stream), size, 256, stream); }, calls);
    // The path users take: a buffer from the current device resource through resource_ref.
    double const buffer_us = bench::host_time_us([&] { buffer b(size, stream, device); }, calls);
    double const malloc_us = bench::host_time_us([&] {
      void* p = nullptr;
      COLX_CUDA_TRY(cudaMalloc(&p, size));
      COLX_CUDA_TRY(cudaFree(p));
    }, 200);
    stream.synchronize();
    std::printf("%8zu KiB: pool %.3f us  buffer(pool) %.3f us  cudaMallocAsync %.3f us  cudaMalloc %.3f us\n", size >> 10,
                pool_us, buffer_us, async_us, malloc_us);
    json.add("alloc+free " + std::to_string(size >> 10) + " KiB",
             {{"bytes", static_cast<double>(size)}, {"pool_us", pool_us}, {"buffer_pool_us", buffer_us},
              {"cudaMallocAsync_us", async_us}, {"cudaMalloc_us", malloc_us}});
  }
  COLX_CUDA_TRY(cudaStreamDestroy(raw_stream));
  json.write(bench::json_path(argc, argv, "bench/results/memory.json"), "memory_bench");
  return 0;
}
