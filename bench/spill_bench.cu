// SPDX-License-Identifier: Apache-2.0
// Spilling under memory pressure: live frames totalling twice a device memory limit, each then
// read by a fused pipeline (with_columns, filter, reduce). Run with spilling on (soft limit and
// on-demand spilling), with the limit and spilling off (must fail with out_of_memory, inputs
// intact), and with no limit (the reference: same results, no spills). Reports spill throughput
// each way beside raw cudaMemcpyAsync between device and pinned memory.
//   bench_spill_bench [--json bench/results/spill_bench.json]
#include "bench_common.cuh"

#include <colx/cuda.cuh>

#include <chrono>
#include <cstdio>
#include <vector>

using namespace colx;
using namespace colx::literals;

namespace {

using lineitems = schema<field<"k", std::int64_t, not_null>, field<"v", double, not_null>>;
constexpr size_type rows = size_type{1} << 25;  // 32M rows x 16 bytes = 512 MiB per frame
constexpr int frames = 16;                       // 8 GiB live
constexpr std::size_t frame_bytes = static_cast<std::size_t>(rows) * 16;
constexpr std::size_t limit = frames * frame_bytes / 2;  // 4 GiB: half the live frames fit

struct outcome {
  std::vector<double> sums;
  double seconds = 0;
  bool out_of_memory = false;
  std::size_t made = 0;
};

outcome workload() {
  outcome out;
  std::vector<frame<lineitems>> live;
  auto const start = std::chrono::steady_clock::now();
  try {
    for (int f = 0; f < frames; ++f) {
      live.emplace_back(sequence<std::int64_t>(rows, f, 1), sequence<double>(rows, 0.5 * f, 0.25));
      ++out.made;
    }
    for (auto const& f : live) {
      auto const doubled = f | with_columns(("v"_c * 2.0).as<"w">());
      auto const s = doubled | filter("k"_c < std::int64_t{rows / 2}) | reduce(sum("w"_c));
      out.sums.push_back(s.value());
    }
  } catch (colx::out_of_memory const& e) {
    out.out_of_memory = true;
    std::printf("  out_of_memory after %zu frames: %s\n", out.made, e.what());
    // Inputs intact: the frames made before the failure still answer.
    if (!live.empty()) {  // no allocation here: memory is exhausted
      std::int64_t first = -1;
      COLX_CUDA_TRY(cudaMemcpy(&first, live.front()["k"_c].data(), sizeof first, cudaMemcpyDefault));
      std::printf("  first frame still has %lld rows, first key %lld\n", static_cast<long long>(live.front().num_rows()),
                  static_cast<long long>(first));
    }
  }
  COLX_CUDA_TRY(cudaDeviceSynchronize());
  out.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return out;
}

}  // namespace

int main(int argc, char** argv) {
  if (!bench::have_device()) { return 77; }
  bench::json_records json;
  std::printf("device: %s\n", bench::device_name().c_str());
  auto& spill = spill_manager::get();
  spill.set_statistics_level(1);

  // The roofline of a spill: raw copies of one frame's bytes between device and pinned memory.
  resource_ref const device = get_current_device_resource();
  resource_ref const pinned = get_current_pinned_resource();
  void* d = device.allocate_async(frame_bytes, 256, {});
  void* h = pinned.allocate_async(frame_bytes, 256, {});
  double const d2h_ms = bench::time_ms(nullptr, [&] { COLX_CUDA_TRY(cudaMemcpyAsync(h, d, frame_bytes, cudaMemcpyDefault)); }, 5, 1);
  double const h2d_ms = bench::time_ms(nullptr, [&] { COLX_CUDA_TRY(cudaMemcpyAsync(d, h, frame_bytes, cudaMemcpyDefault)); }, 5, 1);
  device.deallocate_async(d, frame_bytes, 256, {});
  pinned.deallocate_async(h, frame_bytes, 256, {});
  double const raw_d2h = frame_bytes / d2h_ms / 1e6;
  double const raw_h2d = frame_bytes / h2d_ms / 1e6;
  std::printf("raw cudaMemcpyAsync device->pinned %.1f GB/s, pinned->device %.1f GB/s\n", raw_d2h, raw_h2d);

  std::printf("-- %d frames of %lld rows (%.1f GiB live), device limit %.1f GiB --\n", frames,
              static_cast<long long>(rows), frames * frame_bytes / double(1 << 30), limit / double(1 << 30));
  std::puts("no limit (reference):");
  outcome const reference = workload();
  std::printf("  %.3f s\n", reference.seconds);

  limiting_adaptor small(device, limit);
  set_current_device_resource(small);

  std::puts("limit, spilling off:");
  outcome const off = workload();
  std::printf("  %s\n", off.out_of_memory ? "failed with out_of_memory, as it must" : "DID NOT FAIL (unexpected)");

  std::puts("limit, spilling on (on demand):");
  spill.set_on_demand(true);
  spill.set_enabled(true);
  spill.reset_statistics();
  outcome const on = workload();
  spill.set_enabled(false);
  auto const stats = spill.statistics();
  bool same = on.sums.size() == reference.sums.size();
  for (std::size_t i = 0; same && i < on.sums.size(); ++i) { same = on.sums[i] == reference.sums[i]; }
  std::printf("  %.3f s, results %s the reference\n", on.seconds, same ? "identical to" : "DIFFERENT FROM");
  std::printf("%s", stats.to_string().c_str());
  double const spill_pct = 100.0 * stats.to_host.gb_per_second() / raw_d2h;
  double const back_pct = 100.0 * stats.to_device.gb_per_second() / raw_h2d;
  std::printf("spill throughput: to host %.1f GB/s (%.0f%% of raw), back %.1f GB/s (%.0f%% of raw)\n",
              stats.to_host.gb_per_second(), spill_pct, stats.to_device.gb_per_second(), back_pct);

  // Again with the pinned memory a spill needs reserved up front (what does not fit the limit,
  // plus two frames), from nothing: the first run's cached pinned blocks are unpinned first.
  std::puts("limit, spilling on, pinned arena reserved first:");
  gpu::pinned_pool_resource& pool = gpu::default_pinned_pool();
  pool.release();
  std::size_t const reserve_bytes = frames * frame_bytes - limit + 2 * frame_bytes;
  auto const reserve_start = std::chrono::steady_clock::now();
  pool.reserve(reserve_bytes);
  double const reserve_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - reserve_start).count();
  std::printf("  reserve(%.1f GiB): %.3f s\n", reserve_bytes / double(1 << 30), reserve_s);
  spill.set_enabled(true);
  spill.reset_statistics();
  outcome const reserved = workload();
  spill.set_enabled(false);
  auto const reserved_stats = spill.statistics();
  bool same_reserved = reserved.sums.size() == reference.sums.size();
  for (std::size_t i = 0; same_reserved && i < reserved.sums.size(); ++i) { same_reserved = reserved.sums[i] == reference.sums[i]; }
  double const reserved_spill_pct = 100.0 * reserved_stats.to_host.gb_per_second() / raw_d2h;
  double const reserved_back_pct = 100.0 * reserved_stats.to_device.gb_per_second() / raw_h2d;
  std::printf("  %.3f s, results %s the reference\n", reserved.seconds, same_reserved ? "identical to" : "DIFFERENT FROM");
  std::printf("spill throughput: to host %.1f GB/s (%.0f%% of raw), back %.1f GB/s (%.0f%% of raw)\n",
              reserved_stats.to_host.gb_per_second(), reserved_spill_pct, reserved_stats.to_device.gb_per_second(),
              reserved_back_pct);

  json.add("raw device->pinned", {{"GBps", raw_d2h}});
  json.add("raw pinned->device", {{"GBps", raw_h2d}});
  json.add("workload, no limit", {{"seconds", reference.seconds}});
  json.add("workload, limit, spilling off", {{"out_of_memory", off.out_of_memory ? 1.0 : 0.0}, {"frames_made", double(off.made)}});
  json.add("workload, limit, spilling on",
           {{"seconds", on.seconds}, {"identical", same ? 1.0 : 0.0}, {"spilled_bytes", double(stats.to_host.bytes)},
            {"spill_GBps", stats.to_host.gb_per_second()}, {"unspilled_bytes", double(stats.to_device.bytes)},
            {"unspill_GBps", stats.to_device.gb_per_second()}, {"spill_pct_of_raw", spill_pct},
            {"unspill_pct_of_raw", back_pct}});
  json.add("workload, limit, spilling on, pinned arena reserved",
           {{"reserve_seconds", reserve_s}, {"reserved_bytes", double(reserve_bytes)}, {"seconds", reserved.seconds},
            {"identical", same_reserved ? 1.0 : 0.0}, {"spilled_bytes", double(reserved_stats.to_host.bytes)},
            {"spill_GBps", reserved_stats.to_host.gb_per_second()}, {"unspilled_bytes", double(reserved_stats.to_device.bytes)},
            {"unspill_GBps", reserved_stats.to_device.gb_per_second()}, {"spill_pct_of_raw", reserved_spill_pct},
            {"unspill_pct_of_raw", reserved_back_pct}});
  json.write(bench::json_path(argc, argv, "bench/results/spill_bench.json"), "spill_bench");
  set_current_device_resource(device);
  return same && same_reserved && off.out_of_memory ? 0 : 1;
}
