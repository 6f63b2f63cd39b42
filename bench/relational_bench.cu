// SPDX-License-Identifier: Apache-2.0
// Relational operations against CUB and the memory roofline, in one run: sort (keys alone, and
// a frame with payloads), group-by sum with 1,000 / 1M / 10M groups, a hash join, and TPC-H Q1,
// Q3 and Q6 at scale factor 10. Prints ms, GB/s and rows/s; writes JSON (--json PATH).
#include "bench_common.cuh"

#include <colx/colx.hpp>
#include <colx/cuda.cuh>
#include <colx/tpch/generator.hpp>
#include <colx/tpch/queries.hpp>

#include <cub/device/device_radix_sort.cuh>
#include <cub/device/device_reduce.cuh>
#include <cuda/std/functional>
#include <thrust/equal.h>
#include <thrust/execution_policy.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <optional>
#include <string>
#include <vector>

using namespace colx;
using namespace colx::literals;

namespace {

struct random_keys_fn {
  std::int64_t* out;
  std::uint64_t seed;
  std::uint64_t range;  // 0: any 64-bit value
  COLX_HOST_DEVICE void operator()(size_type i) const {
    std::uint64_t const h = detail::mix64(seed ^ detail::mix64(static_cast<std::uint64_t>(i)));
    out[i] = static_cast<std::int64_t>(range == 0 ? h : h % range);
  }
};
struct random_doubles_fn {
  double* out;
  std::uint64_t seed;
  COLX_HOST_DEVICE void operator()(size_type i) const {
    out[i] = static_cast<double>(detail::mix64(seed + static_cast<std::uint64_t>(i)) >> 11) * 0x1.0p-53;
  }
};
struct iota_fn {
  std::int32_t* out;
  COLX_HOST_DEVICE void operator()(size_type i) const { out[i] = static_cast<std::int32_t>(i); }
};
template <class T>
struct gather_fn {
  T const* in;
  std::int32_t const* map;
  T* out;
  COLX_HOST_DEVICE void operator()(size_type i) const { out[i] = in[map[i]]; }
};

gpu::executor exec() { return gpu::executor{stream_ref{}}; }

column<std::int64_t> keys(size_type n, std::uint64_t seed, std::uint64_t range) {
  uvector<std::int64_t> k(n, stream_ref{});
  exec().for_each_n(n, random_keys_fn{k.data(), seed, range});
  return column<std::int64_t>(std::move(k));
}
column<double> doubles(size_type n, std::uint64_t seed) {
  uvector<double> v(n, stream_ref{});
  exec().for_each_n(n, random_doubles_fn{v.data(), seed});
  return column<double>(std::move(v));
}

struct context {
  bench::json_records json;
  double copy_gbs = 0;
  void report(std::string const& name, double ms, double bytes, double rows, double reference_ms = 0,
              char const* reference = "") {
    double const gbs = bytes / ms / 1e6;
    double const pct = 100.0 * gbs / copy_gbs;
    std::printf("%-62s %9.3f ms %8.1f GB/s %6.1f%% of copy %8.2f Grows/s", name.c_str(), ms, gbs, pct, rows / ms / 1e6);
    if (reference_ms > 0) { std::printf("  (%.2fx %s)", ms / reference_ms, reference); }
    std::printf("\n");
    json.add(name, {{"ms", ms}, {"bytes", bytes}, {"GBps", gbs}, {"pct_of_roofline", pct}, {"rows_per_s", rows / ms * 1e3}});
  }
  template <class F>
  double time(F&& f, int reps = 10) {
    return bench::time_ms(nullptr, std::forward<F>(f), reps, 2);
  }
};

void sorts(context& ctx, size_type n) {
  using one = schema<field<"k", std::int64_t, not_null>>;
  frame<one> const f(keys(n, 7, 0));
  uvector<std::int64_t> out(n, stream_ref{});
  std::size_t temp_bytes = 0;
  COLX_CUDA_TRY(cub::DeviceRadixSort::SortKeys(nullptr, temp_bytes, f["k"_c].data(), out.data(), n));
  uvector<char> temp(static_cast<size_type>(temp_bytes), stream_ref{});
  double const cub_ms = ctx.time([&] {
    COLX_CUDA_TRY(cub::DeviceRadixSort::SortKeys(temp.data(), temp_bytes, f["k"_c].data(), out.data(), n));
  });
  std::string const rows = std::to_string(n / 1000000) + "M";
  ctx.report("CUB DeviceRadixSort::SortKeys, " + rows + " int64", cub_ms, 16.0 * n, n);
  double const colx_ms = ctx.time([&] { (void)(f | sort_by("k"_c)); });
  ctx.report("colx f | sort_by(k), " + rows + " int64", colx_ms, 16.0 * n, n, cub_ms, "CUB SortKeys");

  // A key and three payload columns: colx against CUB SortPairs(key, row) + three gathers.
  using four = schema<field<"k", std::int64_t, not_null>, field<"a", double, not_null>, field<"b", double, not_null>,
                      field<"c", std::int64_t, not_null>>;
  frame<four> const g(keys(n, 7, 0), doubles(n, 1), doubles(n, 2), keys(n, 3, 0));
  uvector<std::int32_t> rows_in(n, stream_ref{}), rows_out(n, stream_ref{});
  uvector<double> a(n, stream_ref{}), b(n, stream_ref{});
  uvector<std::int64_t> c(n, stream_ref{});
  std::size_t pair_bytes = 0;
  COLX_CUDA_TRY(cub::DeviceRadixSort::SortPairs(nullptr, pair_bytes, g["k"_c].data(), out.data(), rows_in.data(),
                                                rows_out.data(), n));
  uvector<char> pair_temp(static_cast<size_type>(pair_bytes), stream_ref{});
  double const pairs_ms = ctx.time([&] {
    exec().for_each_n(n, iota_fn{rows_in.data()});
    COLX_CUDA_TRY(cub::DeviceRadixSort::SortPairs(pair_temp.data(), pair_bytes, g["k"_c].data(), out.data(), rows_in.data(),
                                                  rows_out.data(), n));
    exec().for_each_n(n, gather_fn<double>{g["a"_c].data(), rows_out.data(), a.data()});
    exec().for_each_n(n, gather_fn<double>{g["b"_c].data(), rows_out.data(), b.data()});
    exec().for_each_n(n, gather_fn<std::int64_t>{g["c"_c].data(), rows_out.data(), c.data()});
  });
  double const frame_bytes = 2.0 * 32 * n;
  ctx.report("CUB SortPairs(key, row) + 3 gathers, " + rows + " rows x 4 cols", pairs_ms, frame_bytes, n);
  double const frame_ms = ctx.time([&] { (void)(g | sort_by("k"_c)); });
  ctx.report("colx g | sort_by(k), 4 columns", frame_ms, frame_bytes, n, pairs_ms, "SortPairs + gathers");
  // Both sorts are stable: colx's frame must hold CUB's sorted keys and the same payload rows.
  auto const sorted = g | sort_by("k"_c);
  bool const same = thrust::equal(thrust::device, sorted["k"_c].data(), sorted["k"_c].data() + n, out.data()) &&
                    thrust::equal(thrust::device, sorted["a"_c].data(), sorted["a"_c].data() + n, a.data()) &&
                    thrust::equal(thrust::device, sorted["b"_c].data(), sorted["b"_c].data() + n, b.data()) &&
                    thrust::equal(thrust::device, sorted["c"_c].data(), sorted["c"_c].data() + n, c.data());
  std::printf("colx's sorted frame %s CUB's sorted keys and gathered payloads\n", same ? "equals" : "DIFFERS FROM");
  if (!same) { std::exit(1); }

  // A key no radix sort takes, strings (the stable merge sort with a row comparator), and a
  // nullable float64 (65 bits with its null flag: a 128-bit radix key). 4M rows (built on the host).
  size_type const m = size_type{1} << 22;
  std::vector<std::optional<std::string>> names(static_cast<std::size_t>(m));
  std::vector<std::optional<double>> values(static_cast<std::size_t>(m));
  for (size_type i = 0; i < m; ++i) {
    std::uint64_t const h = detail::mix64(static_cast<std::uint64_t>(i) + 11);
    names[static_cast<std::size_t>(i)] = "name " + std::to_string(h % 1000003);
    if (h % 10 != 0) { values[static_cast<std::size_t>(i)] = static_cast<double>(h >> 11) * 0x1.0p-53; }
  }
  using keyed = schema<field<"s", string_view>, field<"x", double>>;
  frame<keyed> const h(make_strings_column(names, type_id::int32), make_column<double>(values));
  double const string_bytes = static_cast<double>(h["s"_c].chars_size() + 4 * m) + 4.0 * m;
  double const strings_ms = ctx.time([&] { (void)(h | sort_by("s"_c)); }, 5);
  ctx.report("colx h | sort_by(s), 4M strings (merge sort)", strings_ms, string_bytes, m);
  double const nullable_ms = ctx.time([&] { (void)(h | select("x"_c) | sort_by("x"_c)); }, 5);
  ctx.report("colx | sort_by(x), 4M nullable float64 (128-bit radix)", nullable_ms, 2.0 * 9 * m, m);
}

void group_bys(context& ctx, size_type n) {
  using S = schema<field<"k", std::int64_t, not_null>, field<"v", double, not_null>>;
  // The unfused way, for comparison: CUB sorts (key, value) pairs, then reduces runs of equal keys.
  uvector<std::int64_t> sorted_keys(n, stream_ref{}), unique_keys(n, stream_ref{});
  uvector<double> sorted_values(n, stream_ref{}), sums(n, stream_ref{});
  uvector<int> runs(1, stream_ref{});
  for (std::uint64_t groups : {std::uint64_t{1000}, std::uint64_t{1000000}, std::uint64_t{10000000}}) {
    frame<S> const f(keys(n, 11, groups), doubles(n, 5));
    std::size_t sort_bytes = 0;
    std::size_t reduce_bytes = 0;
    COLX_CUDA_TRY(cub::DeviceRadixSort::SortPairs(nullptr, sort_bytes, f["k"_c].data(), sorted_keys.data(), f["v"_c].data(),
                                                  sorted_values.data(), n));
    COLX_CUDA_TRY(cub::DeviceReduce::ReduceByKey(nullptr, reduce_bytes, sorted_keys.data(), unique_keys.data(),
                                                 sorted_values.data(), sums.data(), runs.data(), ::cuda::std::plus<>{}, n));
    uvector<char> temp(static_cast<size_type>(std::max(sort_bytes, reduce_bytes)), stream_ref{});
    double const unfused_ms = ctx.time([&] {
      COLX_CUDA_TRY(cub::DeviceRadixSort::SortPairs(temp.data(), sort_bytes, f["k"_c].data(), sorted_keys.data(),
                                                    f["v"_c].data(), sorted_values.data(), n));
      COLX_CUDA_TRY(cub::DeviceReduce::ReduceByKey(temp.data(), reduce_bytes, sorted_keys.data(), unique_keys.data(),
                                                   sorted_values.data(), sums.data(), runs.data(), ::cuda::std::plus<>{}, n));
    });
    std::string const shape = std::to_string(n / 1000000) + "M rows, " + std::to_string(groups) + " keys";
    ctx.report("CUB SortPairs + ReduceByKey (unfused), " + shape, unfused_ms, 16.0 * n, n);
    size_type found = 0;
    double const ms = ctx.time([&] {
      auto const r = f | group_by("k"_c) | aggregate(sum("v"_c).as<"s">());
      found = r.num_rows();
    });
    ctx.report("group_by(k) sum(v), " + std::to_string(n / 1000000) + "M rows, " + std::to_string(found) + " groups", ms,
               16.0 * n, n, unfused_ms, "sort + reduce");
  }
}

void joins(context& ctx, size_type build_rows, size_type probe_rows) {
  using B = schema<field<"bk", std::int64_t, not_null>, field<"bv", double, not_null>>;
  using P = schema<field<"pk", std::int64_t, not_null>, field<"pv", double, not_null>>;
  // Build keys: the even numbers below 2 * build_rows, shuffled; probe keys uniform below it, so
  // about half the probe rows find exactly one partner.
  uvector<std::int64_t> bk(build_rows, stream_ref{});
  {
    using K = schema<field<"r", std::int64_t, not_null>, field<"i", std::int64_t, not_null>>;
    frame<K> const tmp(keys(build_rows, 3, 0), sequence<std::int64_t>(build_rows, 0, 2));
    auto const shuffled = tmp | sort_by("r"_c);
    COLX_CUDA_TRY(cudaMemcpy(bk.data(), shuffled["i"_c].data(), build_rows * 8, cudaMemcpyDeviceToDevice));
  }
  frame<B> const build_side(column<std::int64_t>(std::move(bk)), doubles(build_rows, 9));
  frame<P> const probe(keys(probe_rows, 13, static_cast<std::uint64_t>(2 * build_rows)), doubles(probe_rows, 17));
  std::string const shape = std::to_string(build_rows / 1000000) + "M build, " + std::to_string(probe_rows / 1000000) + "M probe";
  size_type pairs = 0;
  double const rows_ms = ctx.time([&] {
    auto const r = join_rows(probe, build_side, on("pk"_c), on("bk"_c));
    pairs = r.first.size();
  });
  double const bytes = 8.0 * (build_rows + 2.0 * probe_rows) + 16.0 * pairs;
  ctx.report("join_rows inner, " + shape + " (" + std::to_string(pairs) + " pairs)", rows_ms, bytes, probe_rows);
  auto const built = build(build_side, on("bk"_c));
  double const probe_ms = ctx.time([&] { (void)join_rows(probe, built, on("pk"_c), on("bk"_c)); });
  ctx.report("join_rows inner, prebuilt, " + shape, probe_ms, bytes - 8.0 * build_rows, probe_rows);
  double const gather_ms = ctx.time([&] { (void)(probe | join(built, on("pk"_c), on("bk"_c))); });
  ctx.report("probe | join(prebuilt), 2 payloads gathered in the probe", gather_ms, 16.0 * probe_rows + 32.0 * pairs,
             probe_rows, probe_ms, "index pairs alone");
  // The same keys declared nullable, none null, as Parquet files declare most columns: 64 value
  // bits and no room for a null bit, which a join's table leaves out (join/table.hpp).
  using NB = schema<field<"bk", std::int64_t>, field<"bv", double, not_null>>;
  using NP = schema<field<"pk", std::int64_t>, field<"pv", double, not_null>>;
  frame<NB> const nullable_build(build_side.shared_column_at<0>(), build_side.shared_column_at<1>());
  frame<NP> const nullable_probe(probe.shared_column_at<0>(), probe.shared_column_at<1>());
  double const build_ms = ctx.time([&] { (void)build(build_side, on("bk"_c)); });
  ctx.report("build(bk), " + shape, build_ms, 8.0 * build_rows, build_rows);
  double const nullable_build_ms = ctx.time([&] { (void)build(nullable_build, on("bk"_c)); });
  ctx.report("build(bk), nullable key type", nullable_build_ms, 8.0 * build_rows, build_rows, build_ms, "not-null keys");
  auto const nullable_built = build(nullable_build, on("bk"_c));
  double const nullable_probe_ms = ctx.time([&] { (void)join_rows(nullable_probe, nullable_built, on("pk"_c), on("bk"_c)); });
  ctx.report("join_rows inner, prebuilt, nullable key types", nullable_probe_ms, bytes - 8.0 * build_rows, probe_rows, probe_ms,
             "not-null keys");
}

void tpch_queries(context& ctx, double scale_factor) {
  tpch::tables t = [&] {
    auto const t0 = std::chrono::steady_clock::now();
    auto r = tpch::generate(scale_factor);
    cudaDeviceSynchronize();
    std::printf("generated SF %g (%lld lineitems) in %.1f ms\n", scale_factor, static_cast<long long>(r.lineitem.num_rows()),
                std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count());
    return r;
  }();
  double const rows = static_cast<double>(t.lineitem.num_rows());
  // Q1 reads quantity, price, discount, tax (8 bytes each), shipdate (4) and the two one-letter
  // flags (fixed-width strings: a byte each, their offsets unread).
  double const q1_bytes = rows * (4 * 8 + 4 + 2 * 1);
  double const q1_ms = ctx.time([&] { (void)tpch::q1(t.lineitem); });
  ctx.report("TPC-H Q1, SF " + std::to_string(static_cast<int>(scale_factor)), q1_ms, q1_bytes, rows);
  double const q6_ms = ctx.time([&] { (void)tpch::q6(t.lineitem); });
  ctx.report("TPC-H Q6, SF " + std::to_string(static_cast<int>(scale_factor)), q6_ms, rows * (3 * 8 + 4), rows);
  double const q3_ms = ctx.time([&] { (void)tpch::q3(t.customer, t.orders, t.lineitem); }, 5);
  double const q3_bytes = rows * (8 + 8 + 8 + 4) + static_cast<double>(t.orders.num_rows()) * (8 + 8 + 4 + 4);
  ctx.report("TPC-H Q3, SF " + std::to_string(static_cast<int>(scale_factor)), q3_ms, q3_bytes, rows);
}

}  // namespace

int main(int argc, char** argv) {
  if (!bench::have_device()) { return 77; }
  context ctx;
  std::printf("device: %s\n", bench::device_name().c_str());
  size_type const n = size_type{1} << 27;
  {
    uvector<double> src(n, stream_ref{}), dst(n, stream_ref{});
    double const ms = ctx.time([&] {
      COLX_CUDA_TRY(cudaMemcpyAsync(dst.data(), src.data(), n * sizeof(double), cudaMemcpyDeviceToDevice, nullptr));
    });
    ctx.copy_gbs = 2.0 * 8 * n / ms / 1e6;
    ctx.report("device-to-device copy, 2^27 float64 (read + write)", ms, 2.0 * 8 * n, n);
  }
  std::string only = argc > 1 && std::string(argv[1]) != "--json" ? argv[1] : "";
  if (only.empty() || only == "sort") { sorts(ctx, 100000000); }
  if (only.empty() || only == "groupby") { group_bys(ctx, 100000000); }
  if (only.empty() || only == "join") { joins(ctx, 10000000, 100000000); }
  if (only.empty() || only == "tpch") { tpch_queries(ctx, 10); }
  ctx.json.write(bench::json_path(argc, argv, "bench/results/relational_bench.json"), "relational_bench");
  return 0;
}
