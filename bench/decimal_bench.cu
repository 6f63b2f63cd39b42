// SPDX-License-Identifier: Apache-2.0
// Decimal arithmetic fused (issue 16): sum(price * (1 - discount) * (1 + tax)) over 60M rows of
// DECIMAL(15, 2) (colx::dec<15, 2>: 64-bit values; the products DEC(18, 4) and DEC(18, 6), 64-bit
// and checked, as DuckDB's; the sum DEC(38, 6) in 128 bits),
// against the same expression on float64 columns (the goal: within 15%), against the copy
// roofline, and against the unfused way (the product materialised, then summed). Also a group-by
// sum of a DEC(15, 2) over 4 groups (TPC-H Q1's shape) beside the same on float64.
//   bench_decimal_bench [--json bench/results/decimal_bench.json] [--rows N]
#include "bench_common.cuh"

#include <colx/cuda.cuh>

#include <cstdio>
#include <string>

using namespace colx;
using namespace colx::literals;

namespace {

using bench::bench_context;
using money = dec<15, 2>;

using bench::mix;

// Unscaled values in [lo, hi) as both a DEC(15, 2) and a float64 column holding the same values.
struct money_fn {
  money* as_dec;
  double* as_double;
  std::uint64_t seed;
  std::int64_t lo, span;
  __device__ void operator()(size_type i) const {
    auto const u = lo + static_cast<std::int64_t>(mix(seed * 0x100000001B3ull + static_cast<std::uint64_t>(i)) % span);
    as_dec[i] = money::from_unscaled(u);
    as_double[i] = static_cast<double>(u) / 100.0;
  }
};
struct key_fn {
  std::int32_t* out;
  __device__ void operator()(size_type i) const { out[i] = static_cast<std::int32_t>(mix(99 + static_cast<std::uint64_t>(i)) % 4); }
};

struct pair_of_columns {
  column<money> d;
  column<double> f;
};
pair_of_columns money_columns(size_type n, std::uint64_t seed, std::int64_t lo, std::int64_t hi, stream_ref s) {
  uvector<money> d(n, s);
  uvector<double> f(n, s);
  gpu::executor{s}.for_each_n(n, money_fn{d.data(), f.data(), seed, lo, hi - lo});
  return {column<money>(std::move(d)), column<double>(std::move(f))};
}

void sums(bench_context& ctx, size_type n) {
  auto price = money_columns(n, 1, 90000, 10500000, ctx.stream);  // 900.00 .. 105000.00
  auto discount = money_columns(n, 2, 0, 11, ctx.stream);         // 0.00 .. 0.10
  auto tax = money_columns(n, 3, 0, 9, ctx.stream);               // 0.00 .. 0.08
  using D = schema<field<"price", money, not_null>, field<"discount", money, not_null>, field<"tax", money, not_null>>;
  using F = schema<field<"price", double, not_null>, field<"discount", double, not_null>, field<"tax", double, not_null>>;
  frame<D> const fd(std::move(price.d), std::move(discount.d), std::move(tax.d));
  frame<F> const ff(std::move(price.f), std::move(discount.f), std::move(tax.f));
  double const bytes = 3.0 * 8 * static_cast<double>(n);
  std::string const rows = std::to_string(n / 1000000) + "M rows";

  auto const dec_sum = reduce(sum("price"_c * (1 - "discount"_c) * (1 + "tax"_c)));
  auto const double_sum = reduce(sum("price"_c * (1.0 - "discount"_c) * (1.0 + "tax"_c)));
  scalar<double> fr;
  double const float_ms = ctx.time([&] { fr = ff | double_sum; });
  ctx.report("sum(price*(1-discount)*(1+tax)), float64, " + rows, float_ms, bytes, ctx.copy_gbs / 2, "read roofline");
  scalar<dec<38, 6>> dr;  // sum of DEC(18, 6)
  double const dec_ms = ctx.time([&] { dr = fd | dec_sum; });
  ctx.report("the same on DECIMAL(15,2), fused, " + rows, dec_ms, bytes, ctx.copy_gbs / 2, "read roofline", float_ms);
  std::printf("    sum: decimal %.6f, float64 %.6f (relative difference %.2e)\n", dr.value().to_double(), fr.value(),
              (dr.value().to_double() - fr.value()) / fr.value());
  double const unfused_ms = ctx.time([&] {
    auto const g = fd | with_columns(("price"_c * (1 - "discount"_c) * (1 + "tax"_c)).as<"charge">());
    (void)(g | reduce(sum("charge"_c)));
  }, 5);
  ctx.report("the same on DECIMAL(15,2), unfused (DEC(38,6) product written)", unfused_ms, bytes + 2.0 * 16 * n,
             ctx.copy_gbs, "copy", dec_ms);

  // Group-by: Q1's four groups, sum of a DECIMAL(15, 2) against the same on float64.
  uvector<std::int32_t> keys(n, ctx.stream);
  gpu::executor{ctx.stream}.for_each_n(n, key_fn{keys.data()});
  column<std::int32_t> k(std::move(keys));
  using GD = schema<field<"k", std::int32_t, not_null>, field<"price", money, not_null>>;
  using GF = schema<field<"k", std::int32_t, not_null>, field<"price", double, not_null>>;
  frame<GD> const gd(k, fd["price"_c]);
  frame<GF> const gf(k, ff["price"_c]);
  double const gbytes = 12.0 * static_cast<double>(n);
  double const gf_ms = ctx.time([&] { (void)(gf | group_by("k"_c) | aggregate(sum("price"_c).as<"s">())); });
  ctx.report("group-by 4 keys, sum of float64, " + rows, gf_ms, gbytes, ctx.copy_gbs / 2, "read roofline");
  double const gd_ms = ctx.time([&] { (void)(gd | group_by("k"_c) | aggregate(sum("price"_c).as<"s">())); });
  ctx.report("group-by 4 keys, sum of DECIMAL(15,2) to DEC(38,2), " + rows, gd_ms, gbytes, ctx.copy_gbs / 2, "read roofline",
             gf_ms);
}

}  // namespace

int main(int argc, char** argv) {
  if (!bench::have_device()) { return 77; }
  bench_context ctx;
  bench::start_on_default_stream(ctx);
  sums(ctx, bench::rows_option(argc, argv, 60000000));
  ctx.json.write(bench::json_path(argc, argv, "bench/results/decimal_bench.json"), "decimal_bench");
  return 0;
}
