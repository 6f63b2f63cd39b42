// SPDX-License-Identifier: Apache-2.0
// Dictionary columns (issue 16), 60M rows on the device. The goal: a group-by on a dictionary
// string key as fast as on its integer codes (within 10%). Each case runs the same pipeline over
// three frames holding the same rows: the key as a dictionary<string_view, Code> column, as the
// bare codes (an integer column), and decoded (a plain strings column, the unencoded way):
// - group_by(k) | aggregate(sum(v), count()) with 100 keys (uint8 codes) and 10,000 keys (int16);
// - count_if(k == "<a key>"), the literal compared with each row's decoded value;
// - count_if(like(k, "%7x%")), matched once per dictionary entry, against the decoded strings;
// - sort_by(k, v): ranks of the codes radix-sorted, against the codes and the decoded strings;
// - join_rows on k against a dimension of the keys' names: the probe's dictionary mapped once into
//   the dimension's, then codes compared, against the bare codes and the decoded strings.
//   bench_dictionary_bench [--json bench/results/dictionary_bench.json] [--rows N]
#include "bench_common.cuh"

#include <colx/cuda.cuh>

#include <cstdio>
#include <string>
#include <vector>

using namespace colx;
using namespace colx::literals;

namespace {

using bench::bench_context;
using bench::mix;

template <class Code>
struct code_fn {
  Code* codes;
  double* values;
  std::uint64_t keys;
  __device__ void operator()(size_type i) const {
    auto const h = mix(static_cast<std::uint64_t>(i));
    codes[i] = static_cast<Code>(h % keys);
    values[i] = static_cast<double>((h >> 20) % 1000) * 0.25;
  }
};

// Key k is a city-like name of 6 to 21 bytes: "city-<k>" and (7k mod 12) x's; key 7 is "city-7x".
std::vector<std::optional<std::string>> key_names(std::uint64_t keys) {
  std::vector<std::optional<std::string>> out;
  for (std::uint64_t k = 0; k < keys; ++k) {
    out.emplace_back("city-" + std::to_string(k) + std::string(k * 7 % 12, 'x'));
  }
  return out;
}

template <class Code>
void group_by_case(bench_context& ctx, size_type n, std::uint64_t keys) {
  auto const mr = get_current_resource(memory_kind::device);
  uvector<Code> codes(n, ctx.stream, mr);
  uvector<double> values(n, ctx.stream, mr);
  gpu::executor{ctx.stream}.for_each_n(n, code_fn<Code>{codes.data(), values.data(), keys});
  column<double> const v(std::move(values));
  column<Code> const code_column(std::move(codes));
  auto dict = make_dictionary_column(copy(code_column), make_strings_column(key_names(keys), type_id::int32, ctx.stream, mr));
  auto plain = decode(dict);
  using dict_schema = schema<field<"k", dictionary<string_view, Code>, not_null>, field<"v", double, not_null>>;
  using code_schema = schema<field<"k", Code, not_null>, field<"v", double, not_null>>;
  using plain_schema = schema<field<"k", string_view, not_null>, field<"v", double, not_null>>;
  frame<dict_schema> const fd(std::move(dict), copy(v));
  frame<code_schema> const fc(copy(code_column), copy(v));
  frame<plain_schema> const fp(std::move(plain), copy(v));
  std::string const what = std::to_string(n / 1000000) + "M rows, " + std::to_string(keys) + " keys";
  double const code_bytes = static_cast<double>(n) * (sizeof(Code) + sizeof(double));
  auto const run = [](auto const& f) {
    return f | group_by("k"_c) | aggregate(sum("v"_c).template as<"total">(), count().template as<"rows">());
  };
  double const codes_ms = ctx.time([&] { (void)run(fc); }, 10);
  ctx.report("group_by(codes) sum, count: " + what, codes_ms, code_bytes, ctx.copy_gbs, "copy");
  double const dict_ms = ctx.time([&] { (void)run(fd); }, 10);
  ctx.report("group_by(dictionary key) the same", dict_ms, code_bytes, ctx.copy_gbs, "copy", codes_ms);
  double const plain_bytes = static_cast<double>(fp["k"_c].chars_size()) + 4.0 * n + 8.0 * n;
  double const plain_ms = ctx.time([&] { (void)run(fp); }, 5);
  ctx.report("group_by(decoded strings) the same", plain_ms, plain_bytes, ctx.copy_gbs, "copy", codes_ms);
  // The answers agree: the same groups, the same totals.
  auto const a = run(fd);
  auto const b = run(fc);
  std::printf("    groups: %lld dictionary, %lld codes\n", static_cast<long long>(a.num_rows()), static_cast<long long>(b.num_rows()));

  size_type dict_hits = 0, code_hits = 0, plain_hits = 0;
  double const eq_codes_ms = ctx.time([&] { code_hits = fc | count_if("k"_c == Code{7}); });
  ctx.report("count_if(codes == 7)", eq_codes_ms, static_cast<double>(n) * sizeof(Code), ctx.copy_gbs, "copy");
  double const eq_dict_ms = ctx.time([&] { dict_hits = fd | count_if("k"_c == "city-7x"); });
  ctx.report("count_if(dictionary key == \"city-7x\")", eq_dict_ms, static_cast<double>(n) * sizeof(Code), ctx.copy_gbs,
             "copy", eq_codes_ms);
  double const eq_plain_ms = ctx.time([&] { plain_hits = fp | count_if("k"_c == "city-7x"); });
  ctx.report("count_if(decoded strings == the same)", eq_plain_ms, plain_bytes - 8.0 * n, ctx.copy_gbs, "copy", eq_codes_ms);
  std::printf("    rows equal: %lld dictionary, %lld codes, %lld strings\n", static_cast<long long>(dict_hits),
              static_cast<long long>(code_hits), static_cast<long long>(plain_hits));

  // LIKE: matched once per dictionary entry, then read by code; the decoded strings searched.
  double const like_dict_ms = ctx.time([&] { dict_hits = fd | count_if(like("k"_c, "%7x%")); });
  ctx.report("count_if(like(dictionary key, \"%7x%\"))", like_dict_ms, static_cast<double>(n) * sizeof(Code), ctx.copy_gbs,
             "copy", eq_codes_ms);
  double const like_plain_ms = ctx.time([&] { plain_hits = fp | count_if(like("k"_c, "%7x%")); });
  ctx.report("count_if(like(decoded strings, the same))", like_plain_ms, plain_bytes - 8.0 * n, ctx.copy_gbs, "copy", eq_codes_ms);
  std::printf("    rows like: %lld dictionary, %lld strings\n", static_cast<long long>(dict_hits), static_cast<long long>(plain_hits));

  // Join: every row's key looked up among the `keys` names (a dimension table), the row pairs
  // written (join_rows): on the codes, on the dictionary key (the build side's dictionary sorted,
  // so the probe's codes go through a map of its dictionary, made once), on the decoded strings.
  {
    using dim_codes = schema<field<"k", Code, not_null>>;
    using dim_dict = schema<field<"k", dictionary<string_view, Code>, not_null>>;
    using dim_plain = schema<field<"k", string_view, not_null>>;
    std::vector<Code> dim(keys);
    for (std::uint64_t k = 0; k < keys; ++k) { dim[k] = static_cast<Code>(k); }
    frame<dim_codes> const dc(make_column(dim, ctx.stream, mr));
    frame<dim_dict> const dd(encode<Code>(make_strings_column(key_names(keys), type_id::int32, ctx.stream, mr), ctx.stream));
    frame<dim_plain> const dp(make_strings_column(key_names(keys), type_id::int32, ctx.stream, mr));
    double const pair_bytes = static_cast<double>(n) * (sizeof(Code) + 8.0);  // keys read, row pairs written
    size_type matched_codes = 0, matched_dict = 0, matched_plain = 0;
    double const join_codes_ms = ctx.time([&] { matched_codes = join_rows(fc, dc, on("k"_c)).first.size(); }, 5);
    ctx.report("join_rows(codes, dimension of codes)", join_codes_ms, pair_bytes, ctx.copy_gbs, "copy");
    double const join_dict_ms = ctx.time([&] { matched_dict = join_rows(fd, dd, on("k"_c)).first.size(); }, 5);
    ctx.report("join_rows(dictionary key, dimension over another dictionary)", join_dict_ms, pair_bytes, ctx.copy_gbs, "copy",
               join_codes_ms);
    double const join_plain_ms = ctx.time([&] { matched_plain = join_rows(fp, dp, on("k"_c)).first.size(); }, 3);
    ctx.report("join_rows(decoded strings, dimension of strings)", join_plain_ms, plain_bytes, ctx.copy_gbs,
               "copy", join_codes_ms);
    std::printf("    rows joined: %lld codes, %lld dictionary, %lld strings\n", static_cast<long long>(matched_codes),
                static_cast<long long>(matched_dict), static_cast<long long>(matched_plain));
  }
  // Sort: the dictionary by the ranks of its codes (a radix sort of a code-sized key), the codes
  // themselves, the decoded strings (a merge sort comparing strings); every column moves.
  double const moved = 2.0 * code_bytes;
  double const sort_codes_ms = ctx.time([&] { (void)(fc | sort_by("k"_c, "v"_c)); }, 3);
  ctx.report("sort_by(codes, v)", sort_codes_ms, moved, ctx.copy_gbs, "copy");
  double const sort_dict_ms = ctx.time([&] { (void)(fd | sort_by("k"_c, "v"_c)); }, 3);
  ctx.report("sort_by(dictionary key, v)", sort_dict_ms, moved, ctx.copy_gbs, "copy", sort_codes_ms);
  double const sort_plain_ms = ctx.time([&] { (void)(fp | sort_by("k"_c, "v"_c)); }, 1);
  ctx.report("sort_by(decoded strings, v)", sort_plain_ms, moved, ctx.copy_gbs, "copy", sort_codes_ms);
}

}  // namespace

int main(int argc, char** argv) {
  if (!bench::have_device()) { return 77; }
  bench_context ctx;
  bench::start_on_default_stream(ctx);
  size_type const n = bench::rows_option(argc, argv, 60000000);
  group_by_case<std::uint8_t>(ctx, n, 100);
  group_by_case<std::int16_t>(ctx, n, 10000);
  ctx.json.write(bench::json_path(argc, argv, "bench/results/dictionary_bench.json"), "dictionary_bench");
  return 0;
}
