// SPDX-License-Identifier: Apache-2.0
// Strings (issue 16), 60M rows on the device:
// - `count_if(like(s, "%green%"))` over short strings (TPC-H p_name-like colour pairs, 9 to 20
//   bytes; the goal: at least half the copy bandwidth, counting the chars and offsets read),
//   beside the unfused way (the LIKE result stored as a bool column, then counted);
// - `with_columns(upper(s))` of a 20-byte column (the goal: at least 40% of the copy bandwidth,
//   counting chars and offsets read and written), beside a plain copy of the same column through
//   filter(true).collect() (staging lengths and sources, scanning, then copying the bytes).
//   bench_strings_bench [--json bench/results/strings_bench.json] [--rows N]
#include "bench_common.cuh"

#include <colx/cuda.cuh>

#include <cstdio>
#include <string>

using namespace colx;
using namespace colx::literals;

namespace {

using bench::bench_context;

using bench::mix;

// 16 words; a row is two of them and a space. 2 of the 16 hold "green" (about 23% of rows match).
struct words {
  char text[16][9] = {"almond", "blush", "green", "lime", "navy", "coral", "ivory", "khaki",
                      "linen", "olive", "peach", "plum", "sienna", "tan", "wheat", "seagreen"};
  size_type size[16] = {6, 5, 5, 4, 4, 5, 5, 5, 5, 5, 5, 4, 6, 3, 5, 8};
};
struct pair_length_fn {
  words w;
  __device__ std::int64_t operator()(size_type i) const {
    auto const h = mix(static_cast<std::uint64_t>(i));
    return w.size[h % 16] + 1 + w.size[(h >> 8) % 16];
  }
};
struct pair_chars_fn {
  words w;
  std::int32_t const* offsets;
  char* chars;
  __device__ void operator()(size_type i) const {
    auto const h = mix(static_cast<std::uint64_t>(i));
    char* out = chars + offsets[i];
    auto const a = h % 16, b = (h >> 8) % 16;
    for (size_type k = 0; k < w.size[a]; ++k) { *out++ = w.text[a][k]; }
    *out++ = ' ';
    for (size_type k = 0; k < w.size[b]; ++k) { *out++ = w.text[b][k]; }
  }
};
struct fixed_offsets_fn {
  std::int32_t* offsets;
  size_type width;
  __device__ void operator()(size_type i) const { offsets[i] = i * width; }
};
struct letters_fn {
  char* chars;
  __device__ void operator()(size_type i) const {
    auto const h = mix(static_cast<std::uint64_t>(i) * 7919);
    chars[i] = static_cast<char>((h % 4 == 0 ? 'A' : 'a') + static_cast<int>((h >> 8) % 26));
  }
};

strings_column make_strings(size_type n, buffer offsets, buffer chars) {
  std::vector<any_column> children;
  children.emplace_back(data_type{type_id::int32}, n + 1, std::move(offsets));
  return strings_column(any_column(data_type{type_id::string}, n, std::move(chars), buffer(0, {}, get_current_resource(memory_kind::device)),
                                   0, std::move(children)));
}

void like_green(bench_context& ctx, size_type n) {
  gpu::executor const exec{ctx.stream};
  auto const mr = get_current_resource(memory_kind::device);
  uvector<std::int32_t> offsets(n + 1, ctx.stream, mr);
  std::int32_t const total = exec.exclusive_scan(n, std::int32_t{0}, pair_length_fn{}, offsets.data());
  buffer chars(static_cast<std::size_t>(total), ctx.stream, mr);
  exec.for_each_n(n, pair_chars_fn{{}, offsets.data(), static_cast<char*>(chars.data())});
  using S = schema<field<"s", string_view, not_null>>;
  frame<S> const f(make_strings(n, std::move(offsets).release(), std::move(chars)));
  double const bytes = static_cast<double>(total) + 4.0 * n;
  std::string const rows = std::to_string(n / 1000000) + "M rows, " + std::to_string(total / n) + " bytes a row";
  size_type matched = 0;
  double const ms = ctx.time([&] { matched = f | count_if(like("s"_c, "%green%")); });
  ctx.report("count_if(like(s, \"%green%\")), " + rows, ms, bytes, ctx.copy_gbs, "copy");
  std::printf("    %lld rows match (%.1f%%)\n", static_cast<long long>(matched), 100.0 * matched / n);
  double const unfused_ms = ctx.time([&] {
    auto const g = f | with_columns(like("s"_c, "%green%").as<"m">());
    (void)(g | count_if("m"_c));
  }, 5);
  ctx.report("the same unfused (a bool column written, then counted)", unfused_ms, bytes + 2.0 * n, ctx.copy_gbs, "copy", ms);
  double const contains_ms = ctx.time([&] { matched = f | count_if(contains("s"_c, "green")); });
  ctx.report("count_if(contains(s, \"green\")), the same rows", contains_ms, bytes, ctx.copy_gbs, "copy", ms);
}

void upper_20(bench_context& ctx, size_type n) {
  gpu::executor const exec{ctx.stream};
  auto const mr = get_current_resource(memory_kind::device);
  size_type const width = 20;
  uvector<std::int32_t> offsets(n + 1, ctx.stream, mr);
  exec.for_each_n(n + 1, fixed_offsets_fn{offsets.data(), width});
  buffer chars(static_cast<std::size_t>(n) * width, ctx.stream, mr);
  exec.for_each_n(n * width, letters_fn{static_cast<char*>(chars.data())});
  using S = schema<field<"s", string_view, not_null>>;
  frame<S> const f(make_strings(n, std::move(offsets).release(), std::move(chars)));
  double const bytes = 2.0 * (width + 4.0) * n;  // chars and offsets, read and written
  std::string const rows = std::to_string(n / 1000000) + "M rows";
  double const ms = ctx.time([&] { (void)(f | with_columns(upper("s"_c).as<"u">())); }, 10);
  ctx.report("with_columns(upper(s)), 20-byte strings, " + rows, ms, bytes, ctx.copy_gbs, "copy");
  double const copy_ms = ctx.time([&] { (void)(f | filter(true)).collect(); }, 10);
  ctx.report("the same column copied: filter(true).collect()", copy_ms, bytes, ctx.copy_gbs, "copy", ms);
  auto const u = f | with_columns(upper("s"_c).as<"u">());
  auto const head = to_strings(strings_column_view(u["u"_c].view()).slice(0, 2));
  std::printf("    first rows: %s, %s\n", head[0]->c_str(), head[1]->c_str());
}

}  // namespace

int main(int argc, char** argv) {
  if (!bench::have_device()) { return 77; }
  bench_context ctx;
  bench::start_on_default_stream(ctx);
  size_type const n = bench::rows_option(argc, argv, 60000000);
  like_green(ctx, n);
  upper_20(ctx, n);
  ctx.json.write(bench::json_path(argc, argv, "bench/results/strings_bench.json"), "strings_bench");
  return 0;
}
