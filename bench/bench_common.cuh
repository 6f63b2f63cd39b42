// SPDX-License-Identifier: Apache-2.0
#pragma once
// Shared by the benchmarks: event timing (median of repetitions), the device name, and a tiny
// JSON record writer. No fmt: it does not compile under nvcc in C++20 mode.
#include <colx/core/cuda_try.cuh>
#include <colx/memory/buffer.hpp>
#include <colx/memory/current_resource.hpp>
#include <colx/memory/stream.hpp>
#include <colx/memory/uvector.hpp>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <fstream>
#include <string>
#include <vector>

namespace colx::bench {

// Median milliseconds of `reps` runs of f(), each timed with CUDA events on `stream`, after `warmup`.
template <class F>
double time_ms(cudaStream_t stream, F&& f, int reps = 20, int warmup = 3) {
  for (int i = 0; i < warmup; ++i) { f(); }
  COLX_CUDA_TRY(cudaStreamSynchronize(stream));
  cudaEvent_t start, stop;
  COLX_CUDA_TRY(cudaEventCreate(&start));
  COLX_CUDA_TRY(cudaEventCreate(&stop));
  std::vector<double> times;
  for (int i = 0; i < reps; ++i) {
    COLX_CUDA_TRY(cudaEventRecord(start, stream));
    f();
    COLX_CUDA_TRY(cudaEventRecord(stop, stream));
    COLX_CUDA_TRY(cudaEventSynchronize(stop));
    float ms = 0;
    COLX_CUDA_TRY(cudaEventElapsedTime(&ms, start, stop));
    times.push_back(ms);
  }
  COLX_CUDA_TRY(cudaEventDestroy(start));
  COLX_CUDA_TRY(cudaEventDestroy(stop));
  std::sort(times.begin(), times.end());
  return times[times.size() / 2];
}

// Median host wall-clock microseconds per call of f(), for host-side costs (allocation).
template <class F>
double host_time_us(F&& f, int calls, int reps = 5) {
  std::vector<double> times;
  for (int r = 0; r < reps; ++r) {
    auto const t0 = std::chrono::steady_clock::now();
    for (int i = 0; i < calls; ++i) { f(); }
    auto const t1 = std::chrono::steady_clock::now();
    times.push_back(std::chrono::duration<double, std::micro>(t1 - t0).count() / calls);
  }
  std::sort(times.begin(), times.end());
  return times[times.size() / 2];
}

// Whether a CUDA device is there; prints why not. Every benchmark's main begins with
// `if (!bench::have_device()) { return 77; }` (77: ctest's "skipped").
inline bool have_device() {
  int devices = 0;
  if (cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0) {
    std::puts("no CUDA device: benchmark skipped");
    return false;
  }
  return true;
}

inline std::string device_name() {
  int device = 0;
  COLX_CUDA_TRY(cudaGetDevice(&device));
  cudaDeviceProp prop{};
  COLX_CUDA_TRY(cudaGetDeviceProperties(&prop, device));
  return prop.name;
}

// Collects flat records {"name": ..., "key": number, ...} and writes them as a JSON array.
class json_records {
 public:
  void add(std::string const& name, std::vector<std::pair<std::string, double>> const& fields) {
    std::string r = "  {\"name\": \"" + escaped(name) + "\"";
    for (auto const& [k, v] : fields) {
      char buf[64];
      std::snprintf(buf, sizeof(buf), "%.6g", v);
      r += ", \"" + k + "\": " + buf;
    }
    _records.push_back(r + "}");
  }
  void write(std::string const& path, std::string const& benchmark) const {
    std::ofstream out(path);
    out << "{\"benchmark\": \"" << benchmark << "\", \"device\": \"" << device_name() << "\", \"records\": [\n";
    for (std::size_t i = 0; i < _records.size(); ++i) { out << _records[i] << (i + 1 < _records.size() ? ",\n" : "\n"); }
    out << "]}\n";
    std::printf("wrote %s\n", path.c_str());
  }

 private:
  // A name as a JSON string's contents: quotes and backslashes escaped (names quote patterns).
  static std::string escaped(std::string const& text) {
    std::string out;
    for (char c : text) {
      if (c == '"' || c == '\\') { out += '\\'; }
      out += c;
    }
    return out;
  }
  std::vector<std::string> _records;
};

// A benchmark's stream, its copy roofline and its records: report() prints one line (milliseconds,
// GB/s, percent of a roofline, and optionally the time against a reference) and records it.
struct bench_context {
  json_records json;
  cudaStream_t raw;
  stream_ref stream;
  double copy_gbs = 0;  // device-to-device copy, bytes read + written

  void report(std::string const& name, double ms, double bytes, double roofline_gbs, std::string const& against,
              double ratio_base_ms = 0) {
    double const gbs = bytes / ms / 1e6;
    double const pct = 100.0 * gbs / roofline_gbs;
    std::printf("%-58s %9.3f ms %8.1f GB/s %6.1f%% of %s", name.c_str(), ms, gbs, pct, against.c_str());
    if (ratio_base_ms > 0) { std::printf("  (%.2fx the time of the reference)", ms / ratio_base_ms); }
    std::printf("\n");
    json.add(name, {{"ms", ms}, {"bytes", bytes}, {"GBps", gbs}, {"pct_of_roofline", pct}});
  }
  template <class F>
  double time(F&& f, int reps = 20) {
    return time_ms(raw, std::forward<F>(f), reps);
  }
  // The copy roofline: a device-to-device copy of 2^27 float64 (bytes read and written), reported
  // and kept in copy_gbs for the rows that compare with it.
  void measure_copy() {
    size_type const m = size_type{1} << 27;
    uvector<double> src(m, stream), dst(m, stream);
    double const ms = time([&] {
      COLX_CUDA_TRY(cudaMemcpyAsync(dst.data(), src.data(), m * sizeof(double), cudaMemcpyDeviceToDevice, raw));
    });
    copy_gbs = 2.0 * 8 * m / ms / 1e6;
    report("device-to-device copy, 2^27 float64 (read + write)", ms, 2.0 * 8 * m, copy_gbs, "copy");
  }
};

// splitmix64: the benchmarks' data generators hash row numbers with it, on host and device.
__host__ __device__ inline std::uint64_t mix(std::uint64_t x) {
  x += 0x9E3779B97F4A7C15ull;
  x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
  x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
  return x ^ (x >> 31);
}

// `--rows N`, or the default.
inline size_type rows_option(int argc, char** argv, size_type fallback) {
  for (int i = 1; i + 1 < argc; ++i) {
    if (std::string(argv[i]) == "--rows") { return static_cast<size_type>(std::stoll(argv[i + 1])); }
  }
  return fallback;
}

// A context on the legacy default stream, where pipelines written with `|` run, with the device
// named and the copy roofline measured: what a benchmark of whole pipelines starts with.
inline void start_on_default_stream(bench_context& ctx) {
  ctx.raw = nullptr;
  ctx.stream = stream_ref{};
  std::printf("device: %s\n", device_name().c_str());
  ctx.measure_copy();
}

// The JSON path from `--json PATH`, or the default.
inline std::string json_path(int argc, char** argv, std::string fallback) {
  for (int i = 1; i + 1 < argc; ++i) {
    if (std::string(argv[i]) == "--json") { return argv[i + 1]; }
  }
  return fallback;
}

// The value after `name` on the command line, or the fallback.
inline std::string option(int argc, char** argv, std::string const& name, std::string fallback) {
  for (int i = 1; i + 1 < argc; ++i) {
    if (argv[i] == name) { return argv[i + 1]; }
  }
  return fallback;
}

// Host-to-device copy bandwidth from pinned memory (1 GiB): the bound on moving file bytes to the GPU.
inline double measure_h2d(bench_context& ctx) {
  std::size_t const bytes = std::size_t{1} << 30;
  buffer const src(bytes, ctx.stream, get_current_pinned_resource());
  buffer dst(bytes, ctx.stream, get_current_resource(memory_kind::device));
  double const ms = ctx.time([&] { COLX_CUDA_TRY(cudaMemcpyAsync(dst.data(), src.data(), bytes, cudaMemcpyHostToDevice, ctx.raw)); }, 5);
  double const gbs = static_cast<double>(bytes) / ms / 1e6;
  ctx.report("host-to-device copy, 1 GiB from pinned memory", ms, static_cast<double>(bytes), gbs, "H2D");
  return gbs;
}

}  // namespace colx::bench
