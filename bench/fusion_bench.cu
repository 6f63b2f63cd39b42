// SPDX-License-Identifier: Apache-2.0
// Fused expressions against the memory roofline and against the unfused way (one pass per
// operator, intermediates materialised), all in one run:
//   - chain where(a > 0.5, a*b + c, 0) over 2^27 float64 rows, without and with 10% nulls
//   - sum of one plain column beside CUB DeviceReduce::Sum; sum(where(...)) fused
//   - TPC-H Q6 shape at 60M and 600M rows beside a hand-written CUB reduction
//   - filter keeping 1%, 50% and 99% of 3 float64 columns
//   bench_fusion_bench [--json bench/results/fusion.json] [--q6-rows N]
#include "bench_common.cuh"

#include <colx/cuda.cuh>

#include <cub/device/device_reduce.cuh>
#include <thrust/iterator/counting_iterator.h>
#include <thrust/iterator/transform_iterator.h>

#include <cstdio>
#include <string>

using namespace colx;
using namespace colx::literals;

namespace {

using bench::mix;
__host__ __device__ inline double unit(std::uint64_t seed, size_type i) {
  return static_cast<double>(mix(seed * 0x100000001B3ull + static_cast<std::uint64_t>(i)) >> 11) * 0x1.0p-53;
}

struct uniform_fn {
  double* out;
  std::uint64_t seed;
  double lo, hi;
  __device__ void operator()(size_type i) const { out[i] = lo + (hi - lo) * unit(seed, i); }
};
struct date_fn {  // l_shipdate: 1992-01-02 .. 1998-12-01
  date32* out;
  std::uint64_t seed;
  __device__ void operator()(size_type i) const {
    out[i] = date32(8036 + static_cast<std::int32_t>(unit(seed, i) * 2526));
  }
};
struct mask_fn {  // each row null with probability `nulls`
  bitmask_type* out;
  std::uint64_t seed;
  double nulls;
  size_type rows;
  __device__ void operator()(size_type w) const {
    bitmask_type bits = 0;
    for (int b = 0; b < 32; ++b) {
      size_type const i = w * 32 + b;
      if (i < rows && unit(seed ^ 0xABCDEF, i) >= nulls) { bits |= 1u << b; }
    }
    out[w] = bits;
  }
};

gpu::executor exec_on(stream_ref s) { return gpu::executor{s}; }

column<double> uniform_column(size_type n, std::uint64_t seed, double lo, double hi, double nulls, stream_ref s) {
  uvector<double> data(n, s);
  exec_on(s).for_each_n(n, uniform_fn{data.data(), seed, lo, hi});
  if (nulls <= 0) { return column<double>(std::move(data)); }
  buffer mask = create_bitmask(n, false, s);
  exec_on(s).for_each_n(bitmask_words(n), mask_fn{static_cast<bitmask_type*>(mask.data()), seed, nulls, n});
  size_type const null_count = count_unset_bits(static_cast<bitmask_type const*>(mask.data()), 0, n, memory_kind::device, s);
  return column<double>(std::move(data), std::move(mask), null_count);
}

using bench::bench_context;

// ---- element-wise chain ---------------------------------------------------------------------------

template <nullability N>
void chain(bench_context& ctx, size_type n, double nulls) {
  using S = schema<field<"a", double, N>, field<"b", double, N>, field<"c", double, N>>;
  frame<S> const f(uniform_column(n, 1, 0, 1, nulls, ctx.stream), uniform_column(n, 2, 0, 1, nulls, ctx.stream),
                   uniform_column(n, 3, 0, 1, nulls, ctx.stream));
  auto const stage = with_columns(where("a"_c > 0.5, "a"_c * "b"_c + "c"_c, 0.0).as<"out">());
  auto const cost = plan(f, stage);
  std::string const tag = nulls > 0 ? " (10% nulls, masks counted)" : "";
  double const fused = ctx.time([&] { (void)(f | stage); });
  ctx.report("chain where(a>0.5, a*b+c, 0), fused" + tag, fused, static_cast<double>(cost.bytes_read + cost.bytes_written),
             ctx.copy_gbs, "copy");
  // Unfused: one pass per operator, each intermediate written and read back.
  double const unfused = ctx.time([&] {
    auto const g1 = f | with_columns(("a"_c > 0.5).as<"t1">());
    auto const g2 = g1 | with_columns(("a"_c * "b"_c).as<"t2">());
    auto const g3 = g2 | with_columns(("t2"_c + "c"_c).as<"t3">());
    (void)(g3 | with_columns(where("t1"_c, "t3"_c, 0.0).as<"out">()));
  }, 10);
  ctx.report("chain, unfused (4 passes)" + tag, unfused, static_cast<double>(cost.bytes_read + cost.bytes_written),
             ctx.copy_gbs, "copy", fused);
  if (nulls == 0) {
    // The same chain reduced: nothing written.
    auto const sum_stage = reduce(sum(where("a"_c > 0.5, "a"_c * "b"_c + "c"_c, 0.0)));
    double const r = ctx.time([&] { (void)(f | sum_stage); });
    ctx.report("sum(where(a>0.5, a*b+c, 0)), fused", r, 3.0 * 8 * n, ctx.copy_gbs, "copy");
    // Plain column sum beside CUB's.
    using S1 = schema<field<"a", double, not_null>>;
    frame<S1> const one(copy(f["a"_c], ctx.stream));
    std::size_t temp_bytes = 0;
    double* out = nullptr;
    COLX_CUDA_TRY(cudaMalloc(&out, sizeof(double)));
    double const* a = one["a"_c].data();
    COLX_CUDA_TRY(cub::DeviceReduce::Sum(nullptr, temp_bytes, a, out, n, ctx.raw));
    void* temp = nullptr;
    COLX_CUDA_TRY(cudaMalloc(&temp, temp_bytes));
    double const cub_ms = ctx.time([&] { COLX_CUDA_TRY(cub::DeviceReduce::Sum(temp, temp_bytes, a, out, n, ctx.raw)); });
    double const cub_gbs = 8.0 * n / cub_ms / 1e6;
    ctx.report("cub::DeviceReduce::Sum, one float64 column", cub_ms, 8.0 * n, cub_gbs, "CUB Sum");
    double const ours = ctx.time([&] { (void)(one | reduce(sum("a"_c))); });
    ctx.report("colx reduce(sum(a)), one float64 column", ours, 8.0 * n, cub_gbs, "CUB Sum", cub_ms);
    COLX_CUDA_TRY(cudaFree(temp));
    COLX_CUDA_TRY(cudaFree(out));
  }
}

// ---- TPC-H Q6 shape -----------------------------------------------------------------------------

struct q6_row {
  date32 const* shipdate;
  double const* discount;
  double const* quantity;
  double const* price;
  __host__ __device__ double operator()(size_type i) const {
    date32 const d = shipdate[i];
    double const disc = discount[i];
    bool const keep = d >= date(1994, 1, 1) && d < date(1995, 1, 1) && disc >= 0.05 && disc <= 0.07 && quantity[i] < 24;
    return keep ? price[i] * disc : 0.0;
  }
};

void q6(bench_context& ctx, size_type n) {
  using lineitem = schema<field<"l_shipdate", date32, not_null>, field<"l_discount", double, not_null>,
                          field<"l_quantity", double, not_null>, field<"l_extendedprice", double, not_null>>;
  uvector<date32> ship(n, ctx.stream);
  exec_on(ctx.stream).for_each_n(n, date_fn{ship.data(), 7});
  frame<lineitem> const li(column<date32>(std::move(ship)), uniform_column(n, 8, 0.0, 0.10001, 0, ctx.stream),
                           uniform_column(n, 9, 1, 50, 0, ctx.stream), uniform_column(n, 10, 900, 105000, 0, ctx.stream));
  auto const pred = filter("l_shipdate"_c >= date(1994, 1, 1) && "l_shipdate"_c < date(1995, 1, 1) &&
                           between("l_discount"_c, 0.05, 0.07) && "l_quantity"_c < 24.0);
  auto const agg = reduce(sum("l_extendedprice"_c * "l_discount"_c));
  auto const cost = plan(li | pred, agg);
  double const bytes = static_cast<double>(cost.bytes_read);

  q6_row const row{li["l_shipdate"_c].data(), li["l_discount"_c].data(), li["l_quantity"_c].data(),
                   li["l_extendedprice"_c].data()};
  auto const in = thrust::make_transform_iterator(thrust::counting_iterator<size_type>(0), row);
  double* out = nullptr;
  COLX_CUDA_TRY(cudaMalloc(&out, sizeof(double)));
  std::size_t temp_bytes = 0;
  COLX_CUDA_TRY(cub::DeviceReduce::Sum(nullptr, temp_bytes, in, out, n, ctx.raw));
  void* temp = nullptr;
  COLX_CUDA_TRY(cudaMalloc(&temp, temp_bytes));
  double const cub_ms = ctx.time([&] { COLX_CUDA_TRY(cub::DeviceReduce::Sum(temp, temp_bytes, in, out, n, ctx.raw)); });
  double cub_result = 0;
  COLX_CUDA_TRY(cudaMemcpy(&cub_result, out, sizeof(double), cudaMemcpyDeviceToHost));
  std::string const rows = std::to_string(n / 1000000) + "M rows";
  ctx.report("Q6 hand-written CUB (transform + DeviceReduce::Sum), " + rows, cub_ms, bytes, ctx.copy_gbs, "copy");
  // Both read the date and discount of every row, the other columns only where earlier
  // conditions pass, so "bytes" (every referenced column) overstates what either reads.
  scalar<double> result;
  double const fused = ctx.time([&] { result = li | pred | agg; });
  ctx.report("Q6 colx filter | reduce, fused, " + rows, fused, bytes, ctx.copy_gbs, "copy", cub_ms);
  std::printf("    revenue: colx %.6f, CUB %.6f (relative difference %.2e)\n", result.value(), cub_result,
              (result.value() - cub_result) / cub_result);
  // Unfused: materialise the predicate and the product, then a masked sum.
  double const unfused = ctx.time([&] {
    auto const g = li | with_columns(("l_shipdate"_c >= date(1994, 1, 1) && "l_shipdate"_c < date(1995, 1, 1) &&
                                      between("l_discount"_c, 0.05, 0.07) && "l_quantity"_c < 24.0).as<"keep">(),
                                     ("l_extendedprice"_c * "l_discount"_c).as<"rev">());
    (void)(g | filter("keep"_c) | reduce(sum("rev"_c)));
  }, 5);
  ctx.report("Q6 unfused (predicate and product materialised), " + rows, unfused, bytes, ctx.copy_gbs / 2,
             "read roofline", fused);
  COLX_CUDA_TRY(cudaFree(temp));
  COLX_CUDA_TRY(cudaFree(out));
}

// ---- filter ---------------------------------------------------------------------------------------

void filters(bench_context& ctx, size_type n) {
  using S = schema<field<"a", double, not_null>, field<"b", double, not_null>, field<"c", double, not_null>>;
  frame<S> const f(uniform_column(n, 11, 0, 1, 0, ctx.stream), uniform_column(n, 12, 0, 1, 0, ctx.stream),
                   uniform_column(n, 13, 0, 1, 0, ctx.stream));
  for (double const keep : {0.01, 0.5, 0.99}) {
    auto const filtered = f | filter("a"_c < keep);
    size_type kept = 0;
    double const ms = ctx.time([&] { kept = filtered.collect(ctx.stream).num_rows(); }, 10);
    double const bytes = 3.0 * 8 * n + 3.0 * 8 * static_cast<double>(kept);
    char name[96];
    std::snprintf(name, sizeof(name), "filter keeping %.0f%% of 3 float64 columns, collect", keep * 100);
    ctx.report(name, ms, bytes, ctx.copy_gbs, "copy");
    // Unfused: a boolean column first, then the compaction reads it back.
    double const unfused = ctx.time([&] {
      auto const g = f | with_columns(("a"_c < keep).as<"keep">());
      (void)(g | filter("keep"_c)).collect(ctx.stream);
    }, 5);
    std::snprintf(name, sizeof(name), "filter keeping %.0f%%, unfused (predicate materialised)", keep * 100);
    ctx.report(name, unfused, bytes, ctx.copy_gbs, "copy", ms);
  }
}

}  // namespace

int main(int argc, char** argv) {
  if (!bench::have_device()) { return 77; }
  bench_context ctx;
  // The legacy default stream: pipelines written with `|` run there (they take no stream yet).
  ctx.raw = nullptr;
  ctx.stream = stream_ref{};
  std::printf("device: %s\n", bench::device_name().c_str());
  size_type const n = size_type{1} << 27;
  ctx.measure_copy();
  chain<not_null>(ctx, n, 0);
  chain<nullable>(ctx, n, 0.1);
  size_type q6_big = 600000000;
  for (int i = 1; i + 1 < argc; ++i) {
    if (std::string(argv[i]) == "--q6-rows") { q6_big = std::stoll(argv[i + 1]); }
  }
  q6(ctx, 60000000);
  q6(ctx, q6_big);
  filters(ctx, n);
  ctx.json.write(bench::json_path(argc, argv, "bench/results/fusion_bench.json"), "fusion_bench");
  return 0;
}
