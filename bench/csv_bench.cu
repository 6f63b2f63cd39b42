// SPDX-License-Identifier: Apache-2.0
// Reading CSV into device memory (issue 18): TPC-H lineitem from tpchgen-cli's csv format (a
// header, commas, types detected), a file in the page cache. Reported as GB/s of file bytes, with
// the split between reading the file (to pinned memory, the sniffer's samples, the copy to the GPU),
// finding the records and parsing the fields; then the table written back with write_csv
// (formatted on the GPU), split into formatting and writing the file. The roofline is the
// host-to-device copy.
//   tpchgen-cli csv -s 10 --tables lineitem --output-dir DIR
//   bench_csv_bench --data DIR [--json bench/results/csv_bench.json] [--reps 5] [--host no]
#include "bench_common.cuh"

#include <colx/cuda.cuh>
#include <colx/io/csv.hpp>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <string>
#include <utility>
#include <vector>

using namespace colx;

namespace {



void read_case(bench::bench_context& ctx, std::string const& file, std::string const& what, int reps, double h2d_gbs, resource_ref mr) {
  std::vector<csv_read_stats> runs;
  std::string types;
  for (int r = 0; r <= reps; ++r) {
    csv_read_stats s{};
    csv_read_options options;
    options.stats = &s;
    any_table const t = read_csv(file, options, ctx.stream, mr);
    ctx.stream.synchronize();
    if (r == 0) {
      for (std::size_t c = 0; c < t.num_columns(); ++c) { types += " " + t.labels()[c][0] + ":" + t.column(c).type().to_string(); }
      continue;  // (the warm-up pins the staging memory)
    }
    runs.push_back(s);
  }
  std::sort(runs.begin(), runs.end(), [](auto const& a, auto const& b) { return a.ms_total < b.ms_total; });
  csv_read_stats const& m = runs[runs.size() / 2];
  std::printf("%s: %lld records, %.1f MB of file, %d pass(es); types:%s\n", what.c_str(), static_cast<long long>(m.records),
              m.file_bytes / 1e6, m.passes, types.c_str());
  ctx.report(what + ": whole read, file bytes", m.ms_total, static_cast<double>(m.file_bytes), h2d_gbs, "H2D");
  ctx.report(what + ":   read the file, sniff, copy", m.ms_read, static_cast<double>(m.file_bytes), h2d_gbs, "H2D");
  ctx.report(what + ":   find the records", m.ms_records, static_cast<double>(m.file_bytes), h2d_gbs, "H2D");
  ctx.report(what + ":   parse the fields", m.ms_parse, static_cast<double>(m.file_bytes), h2d_gbs, "H2D");
}

}  // namespace

int main(int argc, char** argv) {
  if (!bench::have_device()) { return 77; }
  std::string const dir = bench::option(argc, argv, "--data", "");
  if (dir.empty()) {
    std::printf("usage: bench_csv_bench --data DIR (DIR/lineitem.csv from `tpchgen-cli csv -s 10 --tables lineitem`)\n");
    return 2;
  }
  int const reps = std::stoi(bench::option(argc, argv, "--reps", "5"));
  bench::bench_context ctx;
  bench::start_on_default_stream(ctx);
  double const h2d = bench::measure_h2d(ctx);
  read_case(ctx, dir + "/lineitem.csv", "lineitem CSV into device memory", reps, h2d, get_current_resource(memory_kind::device));
  {  // writing the table back, formatted on the GPU (the median of `reps` writes)
    any_table const t = read_csv(dir + "/lineitem.csv", {}, ctx.stream, get_current_resource(memory_kind::device));
    std::string const out = dir + "/lineitem_written.csv";
    std::vector<std::pair<double, csv_write_stats>> runs;
    for (int r = 0; r <= std::min(reps, 3); ++r) {
      csv_write_stats s{};
      csv_write_options options;
      options.stats = &s;
      std::remove(out.c_str());  // (replacing the last run's file would time the file system's delete too)
      auto const started = std::chrono::steady_clock::now();
      write_csv(t, out, options, ctx.stream);
      double const ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - started).count();
      if (r > 0) { runs.emplace_back(ms, s); }  // (the warm-up pins the staging memory)
    }
    std::sort(runs.begin(), runs.end(), [](auto const& a, auto const& b) { return a.first < b.first; });
    auto const& [ms, s] = runs[runs.size() / 2];
    double const bytes = static_cast<double>(s.bytes);
    ctx.report("write_csv of lineitem from device memory, file bytes", ms, bytes, h2d, "H2D");
    ctx.report("write_csv:   format on the GPU, copy to pinned memory", s.format_seconds * 1e3, bytes, h2d, "H2D");
    ctx.report("write_csv:   write the file (a second thread, overlapped)", s.write_seconds * 1e3, bytes, h2d, "H2D");
    std::remove(out.c_str());
  }
  if (bench::option(argc, argv, "--host", "yes") == "yes") {
    read_case(ctx, dir + "/lineitem.csv", "lineitem CSV, host backend", 1, h2d, get_current_host_resource());
  }
  ctx.json.write(bench::json_path(argc, argv, "bench/results/csv_bench.json"), "csv_bench");
  return 0;
}
