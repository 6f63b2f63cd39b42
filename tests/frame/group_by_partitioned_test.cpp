// SPDX-License-Identifier: Apache-2.0
// Group-by with millions of groups, against std::unordered_map on the same rows. On the GPU a
// table this large (more than the H100's 50 MB of L2) takes the partitioned many-groups pass:
// rows are first written, by partition of their group's slot, as records with their values (and
// their row where first, last, argmin or argmax read it), then added partition by partition.
// (The host backend checks the same at a tenth of the size.) Checked here: every group present once, sums exact over integers, counts, means, min, first
// and argmax (which read rows), with a filter in front and a nullable value, at a size that is
// no multiple of a block.
#include "support/backend.hpp"

#include <catch2/catch.hpp>

#include <cstdint>
#include <optional>
#include <random>
#include <string>
#include <unordered_map>
#include <vector>

using namespace colx::literals;

namespace {
using colx::size_type;

using S = colx::schema<colx::field<"k", std::int64_t, colx::not_null>, colx::field<"v", std::int64_t>,
                       colx::field<"w", std::int32_t, colx::not_null>>;

struct group_ref {
  std::int64_t sum = 0;
  std::int64_t valid = 0;
  std::int64_t rows = 0;
  std::int64_t min = 0;
  std::int64_t max = 0;
  size_type first_row = -1;
  size_type argmax = -1;
};
}  // namespace

TEST_CASE("group_by: millions of groups, the GPU's partitioned pass", "[frame]") {
  // The GPU needs millions of rows for a table larger than its L2; the host backend takes its one
  // path at a tenth of that (the sanitizer build runs it too).
  std::size_t const n = colx::has_cuda ? 4'000'037 : 400'009;
  std::uint64_t const keys = n * 5 / 8;
  std::mt19937_64 rng(42);
  std::vector<std::int64_t> k(n);
  std::vector<std::optional<std::int64_t>> v(n);
  std::vector<std::int32_t> w(n);
  for (std::size_t i = 0; i < n; ++i) {
    k[i] = static_cast<std::int64_t>(rng() % keys) * 7919 - 1'000'000'000;  // spread, some negative
    if (rng() % 10 != 0) { v[i] = static_cast<std::int64_t>(rng() % 2'000'001) - 1'000'000; }
    w[i] = static_cast<std::int32_t>(i % 5);
  }
  std::unordered_map<std::int64_t, group_ref> want;
  want.reserve(keys);
  for (std::size_t i = 0; i < n; ++i) {
    if (w[i] == 0) { continue; }  // the filter below
    group_ref& g = want[k[i]];
    auto const row = static_cast<size_type>(i);
    ++g.rows;
    if (g.first_row < 0) { g.first_row = row; }
    if (!v[i]) { continue; }
    g.sum += *v[i];
    if (g.valid == 0 || *v[i] < g.min) { g.min = *v[i]; }
    if (g.valid == 0 || *v[i] > g.max) {
      g.max = *v[i];
      g.argmax = row;
    }
    ++g.valid;
  }

  auto const mr = colx::test::backend_resource();
  colx::frame<S> const f(colx::make_column<std::int64_t>(k, {}, mr), colx::make_column<std::int64_t>(v, {}, mr),
                         colx::make_column<std::int32_t>(w, {}, mr));
  auto const kept = f | colx::filter("w"_c != 0);

  SECTION("sums, counts and means: records without rows") {
    auto const out = kept | colx::group_by("k"_c) |
                     colx::aggregate(colx::sum("v"_c).as<"sum">(), colx::count().as<"rows">(),
                                     colx::count_valid("v"_c).as<"valid">(), colx::mean("v"_c).as<"mean">(),
                                     colx::min("v"_c).as<"min">());
    REQUIRE(out.num_rows() == static_cast<size_type>(want.size()));
    auto const key = colx::to_vector(out["k"_c].view());
    auto const sum = colx::to_optional_vector(out["sum"_c].view());
    auto const rows = colx::to_vector(out["rows"_c].view());
    auto const valid = colx::to_vector(out["valid"_c].view());
    auto const mean = colx::to_optional_vector(out["mean"_c].view());
    auto const min = colx::to_optional_vector(out["min"_c].view());
    std::size_t bad = 0;
    std::unordered_map<std::int64_t, int> seen;
    for (std::size_t g = 0; g < key.size(); ++g) {
      auto const found = want.find(key[g]);
      if (found == want.end() || ++seen[key[g]] != 1) {
        ++bad;
        continue;
      }
      group_ref const& r = found->second;
      bool const ok = rows[g] == r.rows && valid[g] == r.valid && sum[g].has_value() == (r.valid > 0) &&
                      (r.valid == 0 || (*sum[g] == r.sum && *min[g] == r.min &&
                                        *mean[g] == static_cast<double>(r.sum) / static_cast<double>(r.valid)));
      bad += ok ? 0 : 1;
    }
    CHECK(bad == 0);
  }
  SECTION("explain names the pass") {
    auto const text = colx::explain(kept | colx::group_by("k"_c), colx::aggregate(colx::sum("v"_c).as<"sum">()));
    CAPTURE(text);
    CHECK(text.find("many-groups path") != std::string::npos);
    CHECK(text.find("rows go first into partitions by slot when the table is larger than L2") != std::string::npos);
  }
  SECTION("first and argmax: records with their rows") {
    auto const out = kept | colx::group_by("k"_c) |
                     colx::aggregate(colx::first("w"_c).as<"first_w">(), colx::argmax("v"_c).as<"argmax">(),
                                     colx::sum("v"_c).as<"sum">());
    REQUIRE(out.num_rows() == static_cast<size_type>(want.size()));
    auto const key = colx::to_vector(out["k"_c].view());
    auto const first_w = colx::to_optional_vector(out["first_w"_c].view());
    auto const argmax = colx::to_optional_vector(out["argmax"_c].view());
    auto const sum = colx::to_optional_vector(out["sum"_c].view());
    std::size_t bad = 0;
    for (std::size_t g = 0; g < key.size(); ++g) {
      auto const found = want.find(key[g]);
      if (found == want.end()) {
        ++bad;
        continue;
      }
      group_ref const& r = found->second;
      auto const first = static_cast<std::size_t>(r.first_row);
      bool const ok = first_w[g] == w[first] && argmax[g].has_value() == (r.valid > 0) &&
                      (r.valid == 0 || (*argmax[g] == r.argmax && *sum[g] == r.sum));
      bad += ok ? 0 : 1;
    }
    CHECK(bad == 0);
  }
}
