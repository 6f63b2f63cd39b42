// SPDX-License-Identifier: Apache-2.0
// Reading Parquet into device memory (issue 17): TPC-H lineitem from tpchgen-cli (SNAPPY, its
// default 7 MiB row groups), a file in the page cache. All 16 columns, and Q1's 7. Each read is
// reported as GB/s of file bytes and of decoded bytes (the columns' buffers), with the split
// between reading the file, decompressing (nvCOMP on the GPU where found), copying and decoding;
// the rooflines are the host-to-device copy (pinned memory) and the device's copy bandwidth. The
// host backend's read (decode on the CPU, then one copy to the device) is the comparison.
//   tpchgen-cli parquet -s 10 --tables lineitem --output-dir DIR
//   bench_parquet_bench --data DIR [--json bench/results/parquet_bench.json] [--reps 5] [--host no] [--pushdown no]
#include "bench_common.cuh"

#include <colx/cuda.cuh>
#include <colx/io/parquet.hpp>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <string>
#include <vector>

using namespace colx;

namespace {



void read_case(bench::bench_context& ctx, std::string const& file, std::vector<std::string> const& columns, std::string const& what,
               int reps, double h2d_gbs, bool host_too) {
  std::vector<parquet_read_stats> runs;
  parquet_read_stats first{};
  for (int r = 0; r <= reps; ++r) {
    parquet_read_stats s{};
    parquet_read_options options;
    options.columns = columns;
    options.stats = &s;
    auto const t = read_parquet(file, options, ctx.stream, get_current_resource(memory_kind::device));
    ctx.stream.synchronize();
    if (r == 0) {
      first = s;  // the warm-up pins the staging memory
    } else {
      runs.push_back(s);
    }
  }
  std::sort(runs.begin(), runs.end(), [](auto const& a, auto const& b) { return a.ms_total < b.ms_total; });
  parquet_read_stats const& m = runs[runs.size() / 2];
  std::printf("%s: %lld row groups, %lld pages (+%lld dictionary pages), %.1f MB of file, %.1f MB decompressed, %.1f MB decoded, "
              "decompressed on the %s; first read %.1f ms\n",
              what.c_str(), static_cast<long long>(m.row_groups), static_cast<long long>(m.pages), static_cast<long long>(m.dictionary_pages),
              m.file_bytes_read / 1e6, m.decompressed_bytes / 1e6, m.output_bytes / 1e6, m.decompressed_on_device ? "GPU (nvCOMP)" : "host",
              first.ms_total);
  ctx.report(what + ": whole read, file bytes", m.ms_total, static_cast<double>(m.file_bytes_read), h2d_gbs, "H2D");
  ctx.report(what + ": whole read, decoded bytes", m.ms_total, static_cast<double>(m.output_bytes), ctx.copy_gbs, "copy");
  ctx.report(what + (m.decompressed_on_device ? ":   read the file (to pinned memory and the GPU)" : ":   read the file (to pinned memory)"), m.ms_read, static_cast<double>(m.file_bytes_read), h2d_gbs, "H2D");
  ctx.report(what + ":   decompress", m.ms_decompress, static_cast<double>(m.decompressed_bytes), ctx.copy_gbs, "copy");
  if (m.ms_transfer > 0) {
    ctx.report(what + ":   copy pages to the GPU", m.ms_transfer, static_cast<double>(m.decompressed_bytes), h2d_gbs, "H2D");
  }
  ctx.report(what + ":   decode", m.ms_decode, static_cast<double>(m.output_bytes), ctx.copy_gbs, "copy");
  std::printf("    decode: %.1f ms set-up, %.1f ms dictionaries and string lengths, %.1f ms offsets, %.1f ms values\n", m.ms_setup,
              m.ms_measure, m.ms_offsets, m.ms_decode - m.ms_setup - m.ms_measure - m.ms_offsets);

  if (!host_too) { return; }
  // The CPU's way: decode into host memory, then copy the columns over.
  parquet_read_stats s{};
  parquet_read_options options;
  options.columns = columns;
  options.stats = &s;
  auto const started = std::chrono::steady_clock::now();
  auto const host = read_parquet(file, options, ctx.stream, get_current_host_resource());
  std::vector<any_column> moved;
  for (auto const& c : host.columns()) { moved.push_back(copy(c.view(), ctx.stream, get_current_resource(memory_kind::device))); }
  ctx.stream.synchronize();
  double const ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - started).count();
  ctx.report(what + ": host backend read + copy to the GPU", ms, static_cast<double>(m.file_bytes_read), h2d_gbs, "H2D", m.ms_total);
}

// Predicate pushdown on one year of l_shipdate, over Q1's columns: in tpchgen-cli's file every row
// group spans all the dates (rows come in order of l_orderkey), so statistics can skip nothing;
// the same columns clustered by year and written by colx (write_parquet, timed here too) let the
// reader skip all but that year's groups.
void pushdown_case(bench::bench_context& ctx, std::string const& file, std::string const& sorted_file, int reps, double h2d_gbs) {
  using namespace colx::literals;
  using money = dec<15, 2>;
  using q1 = schema<field<"l_quantity", money>, field<"l_extendedprice", money>, field<"l_discount", money>, field<"l_tax", money>,
                    field<"l_returnflag", string_view>, field<"l_linestatus", string_view>, field<"l_shipdate", date32>>;
  {  // the rows clustered by year of l_shipdate (a filter a year, then concat: no sort to compile)
    std::vector<frame<q1>> years;
    for (std::int32_t y = 0; y < 7; ++y) {  // 1992 .. 1998
      date32 const from{8035 + (y * 1461 + 3) / 4}, to{8035 + ((y + 1) * 1461 + 3) / 4};
      years.push_back(read_parquet<q1>(file, "l_shipdate"_c >= from && "l_shipdate"_c < to, {}, ctx.stream,
                                       get_current_resource(memory_kind::device)).collect());
    }
    auto const clustered = concat(std::span<frame<q1> const>(years), ctx.stream);
    parquet_write_options w;
    w.row_group_rows = 114'688;  // (about tpchgen-cli's groups)
    auto const started = std::chrono::steady_clock::now();
    write_parquet(clustered, sorted_file, w, ctx.stream);
    double const ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - started).count();
    double const bytes = static_cast<double>(file_source(sorted_file).size());
    ctx.report("write_parquet: Q1's 7 columns clustered by year, file bytes (host encoding, from device memory)", ms, bytes, h2d_gbs, "H2D");
  }
  auto const year = "l_shipdate"_c >= date32{9131} && "l_shipdate"_c < date32{9496};  // 1995
  for (std::string const& f : {file, sorted_file}) {
    parquet_scan_plan const plan = explain_read_parquet<q1>(f, year);
    std::printf("%s", plan.to_string().c_str());
    std::vector<double> times;
    size_type rows = 0;
    for (int r = 0; r <= reps; ++r) {
      auto const started = std::chrono::steady_clock::now();
      auto const t = read_parquet<q1>(f, year, {}, ctx.stream, get_current_resource(memory_kind::device)).collect();
      ctx.stream.synchronize();
      rows = t.num_rows();
      if (r > 0) { times.push_back(std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - started).count()); }
    }
    std::sort(times.begin(), times.end());
    std::string const what = std::string("Q1's 7 columns where l_shipdate in 1995, ") + (f == file ? "tpchgen-cli's file" : "clustered by year") +
                             ": " + std::to_string(plan.row_groups_skipped.size()) + " of " +
                             std::to_string(plan.row_groups_skipped.size() + plan.row_groups_read.size()) + " row groups skipped, " +
                             std::to_string(rows) + " rows";
    ctx.report(what + ", file bytes read", times[times.size() / 2], static_cast<double>(plan.file_bytes), h2d_gbs, "H2D");
  }
}

}  // namespace

int main(int argc, char** argv) {
  if (!bench::have_device()) { return 77; }
  std::string const dir = bench::option(argc, argv, "--data", "");
  std::string const file = dir + "/lineitem.parquet";
  if (dir.empty()) {
    std::printf("usage: bench_parquet_bench --data DIR (DIR/lineitem.parquet from `tpchgen-cli parquet -s 10 --tables lineitem`)\n");
    return 2;
  }
  int const reps = std::stoi(bench::option(argc, argv, "--reps", "5"));
  bench::bench_context ctx;
  bench::start_on_default_stream(ctx);
  double const h2d = bench::measure_h2d(ctx);
  if (bench::option(argc, argv, "--per-column", "no") == "yes") {  // where the decode time goes, column by column
    std::string const only = bench::option(argc, argv, "--only", "");
    for (auto const& c : read_parquet_metadata(file).columns) {
      if (!only.empty() && c.name != only) { continue; }
      parquet_read_stats s{};
      parquet_read_options options;
      options.columns = {c.name};
      options.stats = &s;
      for (int r = 0; r < 2; ++r) {
        s = parquet_read_stats{};
        (void)read_parquet(file, options, ctx.stream, get_current_resource(memory_kind::device));
      }
      std::printf("  %-16s %8.1f MB decoded: decompress %7.1f ms, measure %7.1f ms, values %7.1f ms\n", c.name.c_str(), s.output_bytes / 1e6,
                  s.ms_decompress, s.ms_measure, s.ms_decode - s.ms_setup - s.ms_measure - s.ms_offsets);
    }
  }
  if (!bench::option(argc, argv, "--only", "").empty()) { return 0; }
  bool const host_too = bench::option(argc, argv, "--host", "yes") == "yes";
  read_case(ctx, file, {}, "lineitem, all 16 columns", reps, h2d, host_too);
  read_case(ctx, file, {"l_quantity", "l_extendedprice", "l_discount", "l_tax", "l_returnflag", "l_linestatus", "l_shipdate"},
            "lineitem, Q1's 7 columns", reps, h2d, host_too);
  if (bench::option(argc, argv, "--pushdown", "yes") == "yes") { pushdown_case(ctx, file, dir + "/lineitem_by_year.parquet", reps, h2d); }
  ctx.json.write(bench::json_path(argc, argv, "bench/results/parquet_bench.json"), "parquet_bench");
  return 0;
}
