// SPDX-License-Identifier: Apache-2.0
// Every distributed operation against the same operation on one process, over the same rows:
// each rank builds the whole frame alike (same seed), rank 0's copy is scattered, and the
// distributed answer, gathered on rank 0 (or, for reduce, on every rank), must equal the answer
// of the plain frame. Run in one process (a world of one), under mpirun -n 2 (MPI, host memory)
// and on several GPUs (NCCL). Keys include nulls, one key holding half the rows, and worlds where
// a rank holds no rows.
#include "support/backend.hpp"
#include "support/gathered.hpp"
#include "support/rows.hpp"
#include "support/world.hpp"

#include <colx/dist.hpp>

#include <catch2/catch.hpp>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

using namespace colx::literals;
using colx::size_type;
namespace dist = colx::dist;
using colx::test::check_gathered;

namespace {

using rows_schema = colx::schema<colx::field<"k", std::int64_t>, colx::field<"g", std::int32_t, colx::nullable>,
                                 colx::field<"v", double, colx::nullable>, colx::field<"s", colx::string_view, colx::nullable>>;
using right_schema = colx::schema<colx::field<"rk", std::int64_t>, colx::field<"w", std::int32_t, colx::nullable>>;

// n rows over `keys` distinct k (the first half of the rows all k = 7 when skewed), g in [0, 9]
// with nulls, v with nulls, s with nulls and strings of several lengths.
colx::frame<rows_schema> make_rows(size_type n, std::int64_t keys, bool skewed, std::uint64_t seed = 1) {
  std::vector<std::int64_t> k(static_cast<std::size_t>(n));
  std::vector<std::optional<std::int32_t>> g(k.size());
  std::vector<std::optional<double>> v(k.size());
  std::vector<std::optional<std::string>> s(k.size());
  std::uint64_t x = seed * 0x9e3779b97f4a7c15ull + 1;
  auto next = [&] {
    x ^= x << 13;
    x ^= x >> 7;
    x ^= x << 17;
    return x;
  };
  for (std::size_t i = 0; i < k.size(); ++i) {
    k[i] = skewed && i < k.size() / 2 ? 7 : static_cast<std::int64_t>(next() % static_cast<std::uint64_t>(keys)) - keys / 3;
    auto const r = next();
    if (r % 11 != 0) { g[i] = static_cast<std::int32_t>(r % 10); }
    if (r % 7 != 0) { v[i] = static_cast<double>(static_cast<std::int64_t>(r % 2001) - 1000) / 4.0; }
    if (r % 5 != 0) { s[i] = std::string(r % 13, static_cast<char>('a' + r % 26)); }
  }
  auto const mr = colx::test::backend_resource();
  return colx::frame<rows_schema>(colx::make_column<std::int64_t>(k, {}, mr), colx::make_column<std::int32_t>(g, {}, mr),
                                  colx::make_column<double>(v, {}, mr),
                                  colx::make_strings_column(s, colx::type_id::int32, {}, mr));
}

colx::frame<right_schema> make_right(size_type n, std::int64_t keys) {
  std::vector<std::int64_t> k(static_cast<std::size_t>(n));
  std::vector<std::optional<std::int32_t>> w(k.size());
  for (std::size_t i = 0; i < k.size(); ++i) {
    k[i] = static_cast<std::int64_t>((i * 7919) % static_cast<std::size_t>(keys)) - keys / 3;
    if (i % 9 != 0) { w[i] = static_cast<std::int32_t>(i); }
  }
  auto const mr = colx::test::backend_resource();
  return colx::frame<right_schema>(colx::make_column<std::int64_t>(k, {}, mr), colx::make_column<std::int32_t>(w, {}, mr));
}

struct lowered_limits {
  dist::strategy_limits saved = dist::limits();
  lowered_limits(size_type broadcast, size_type few) { dist::limits() = {broadcast, broadcast > 0 ? 0.5 : 0.0, few}; }
  ~lowered_limits() { dist::limits() = saved; }
};

}  // namespace

TEST_CASE("scatter and gather return every row in order", "[dist]") {
  auto& world = colx::test::world();
  for (size_type n : {size_type{0}, size_type{1}, size_type{257}, size_type{4097}}) {
    auto const f = make_rows(n, 50, false);
    auto const d = dist::scatter(world, f);
    CHECK(d.num_rows() == n);
    auto const back = dist::gather(d);
    if (world.rank() == 0) {
      REQUIRE(back.num_rows() == n);
      CHECK(colx::test::read(back["k"_c]) == colx::test::read(f["k"_c]));
      CHECK(colx::test::read(back["g"_c]) == colx::test::read(f["g"_c]));
      CHECK(colx::test::read(back["s"_c]) == colx::test::read(f["s"_c]));
    }
  }
}

TEST_CASE("a hash shuffle puts equal keys on one rank and loses nothing", "[dist]") {
  auto& world = colx::test::world();
  for (bool skewed : {false, true}) {
    auto const f = make_rows(10007, 300, skewed);
    auto const shuffled = dist::hash_shuffle(dist::scatter(world, f), "k"_c);
    check_gathered(shuffled, f);
    if (!skewed && world.size() > 1) { CHECK(shuffled.local().num_rows() > f.num_rows() / world.size() / 2); }
    // Each key on exactly one rank: the ranks' distinct keys add up to the keys overall.
    auto const mine = shuffled.local() | colx::group_by("k"_c) | colx::aggregate(colx::count().as<"n">());
    auto const overall = f | colx::group_by("k"_c) | colx::aggregate(colx::count().as<"n">());
    CHECK(world.all_sum(mine.num_rows()) == overall.num_rows());
  }
}

TEST_CASE("a hash shuffle of fixed-width columns without nulls moves them by scatter", "[dist]") {
  auto& world = colx::test::world();
  using fixed = colx::schema<colx::field<"k", std::int64_t>, colx::field<"c", std::int8_t>, colx::field<"h", std::int16_t>,
                             colx::field<"d", colx::date32>, colx::field<"m", colx::dec<30, 2>>>;
  for (size_type n : {size_type{0}, size_type{1}, size_type{4097}, size_type{30011}}) {
    std::vector<std::int64_t> k;
    std::vector<std::int8_t> c;
    std::vector<std::int16_t> h;
    std::vector<colx::date32> d;
    std::vector<colx::dec<30, 2>> m;
    for (size_type i = 0; i < n; ++i) {
      k.push_back(i * 7 % 1009);
      c.push_back(static_cast<std::int8_t>(i % 100));
      h.push_back(static_cast<std::int16_t>(i % 30000));
      d.push_back(colx::date32{static_cast<std::int32_t>(i % 5000)});
      m.push_back(colx::dec<30, 2>{static_cast<colx::int128_t>(i) * 1'000'000'007 - 5});
    }
    auto const mr = colx::test::backend_resource();
    colx::frame<fixed> const f(colx::make_column<std::int64_t>(k, {}, mr), colx::make_column<std::int8_t>(c, {}, mr),
                               colx::make_column<std::int16_t>(h, {}, mr), colx::make_column<colx::date32>(d, {}, mr),
                               colx::make_column<colx::dec<30, 2>>(m, {}, mr));
    auto const shuffled = dist::hash_shuffle(dist::scatter(world, f), "k"_c);
    check_gathered(shuffled, f);
  }
}

TEST_CASE("distributed group-by equals the one-process group-by", "[dist]") {
  auto& world = colx::test::world();
  auto const aggs = colx::aggregate(colx::sum("v"_c).as<"sum">(), colx::count().as<"n">(), colx::count("v"_c).as<"nv">(),
                                    colx::min("s"_c).as<"lo">(), colx::max("v"_c).as<"hi">());
  for (size_type n : {size_type{0}, size_type{1}, size_type{33}, size_type{20011}}) {
    for (bool few : {true, false}) {
      lowered_limits const limits(dist::limits().broadcast_rows, few ? dist::limits().few_groups_rows : 0);
      auto const f = make_rows(n, 1000, n > 100);
      auto const d = dist::scatter(world, f);
      check_gathered(d | colx::group_by("k"_c) | aggs, f | colx::group_by("k"_c) | aggs);
      check_gathered(d | colx::group_by("g"_c, "k"_c) | aggs, f | colx::group_by("g"_c, "k"_c) | aggs);
    }
  }
}

TEST_CASE("distributed group-by on named expression keys, shuffled or merged on rank 0", "[dist]") {
  auto& world = colx::test::world();
  auto const aggs = colx::aggregate(colx::sum("v"_c).as<"sum">(), colx::count().as<"n">(), colx::max("k"_c).as<"hi">());
  auto const by = colx::group_by(("k"_c % 7).as<"m">(), "g"_c.as<"group">());
  for (size_type n : {size_type{0}, size_type{1}, size_type{20011}}) {
    for (bool few : {true, false}) {
      lowered_limits const limits(dist::limits().broadcast_rows, few ? dist::limits().few_groups_rows : 0);
      auto const f = make_rows(n, 1000, n > 100);
      auto const d = dist::scatter(world, f);
      check_gathered(d | by | aggs, f | by | aggs);
      check_gathered(d | colx::filter("v"_c > 0) | by | aggs, f | colx::filter("v"_c > 0) | by | aggs);
    }
  }
}

TEST_CASE("a filter stays fused into the distributed group-by and reduce after it", "[dist]") {
  auto& world = colx::test::world();
  auto const f = make_rows(20011, 700, true);
  auto const d = dist::scatter(world, f);
  auto const keep = colx::filter("v"_c > 0.0 && "g"_c != 3);
  auto const aggs = colx::aggregate(colx::sum("v"_c).as<"sum">(), colx::count().as<"n">(), colx::max("s"_c).as<"hi">());
  check_gathered(d | keep | colx::group_by("k"_c) | aggs, f | keep | colx::group_by("k"_c) | aggs);
  auto const [n, hi] = d | keep | colx::reduce(colx::count(), colx::max("k"_c));
  auto const [en, ehi] = f | keep | colx::reduce(colx::count(), colx::max("k"_c));
  CHECK(*n == *en);
  CHECK(*hi == *ehi);
  // Any other stage takes the filtered rows collected.
  auto const sorted = dist::gather(d | keep | colx::sort_by("k"_c, "v"_c));
  if (world.rank() == 0) {
    CHECK(colx::test::read(sorted["k"_c]) == colx::test::read((f | keep | colx::sort_by("k"_c, "v"_c))["k"_c]));
  }
}

TEST_CASE("distributed group-by merges means from sums and counts", "[dist]") {
  auto& world = colx::test::world();
  using money = colx::schema<colx::field<"k", std::int64_t>, colx::field<"q", colx::dec<15, 2>, colx::nullable>,
                             colx::field<"i", std::int32_t>>;
  for (size_type n : {size_type{0}, size_type{1}, size_type{20011}}) {
    for (bool few : {true, false}) {
      lowered_limits const limits(dist::limits().broadcast_rows, few ? dist::limits().few_groups_rows : 0);
      std::vector<std::int64_t> k;
      std::vector<std::optional<colx::dec<15, 2>>> q;
      std::vector<std::int32_t> i;
      for (size_type r = 0; r < n; ++r) {
        k.push_back(r * 31 % 997);
        q.push_back(r % 9 == 0 ? std::nullopt : std::optional(colx::dec<15, 2>{static_cast<std::int64_t>(r * 7919 % 100003) - 20000}));
        i.push_back(static_cast<std::int32_t>(r % 1000) - 500);
      }
      auto const mr = colx::test::backend_resource();
      colx::frame<money> const f(colx::make_column<std::int64_t>(k, {}, mr), colx::make_column<colx::dec<15, 2>>(q, {}, mr),
                                 colx::make_column<std::int32_t>(i, {}, mr));
      auto const aggs = colx::aggregate(colx::mean("q"_c).as<"mq">(), colx::sum("q"_c).as<"sq">(), colx::mean("i"_c).as<"mi">(),
                                        colx::count().as<"n">());
      auto const got = dist::gather(dist::scatter(world, f) | colx::group_by("k"_c) | aggs);
      if (world.rank() != 0) { continue; }
      auto const expected = f | colx::group_by("k"_c) | aggs;
      auto const g = colx::test::sorted_rows_of(got);
      auto const e = colx::test::sorted_rows_of(expected);
      REQUIRE(g.size() == e.size());
      for (std::size_t r = 0; r < g.size(); ++r) {
        CHECK(std::get<0>(g[r]) == std::get<0>(e[r]));
        CHECK(std::get<1>(g[r]).has_value() == std::get<1>(e[r]).has_value());
        if (std::get<1>(g[r])) { CHECK(*std::get<1>(g[r]) == *std::get<1>(e[r])); }  // a decimal's mean: exact
        CHECK(std::get<2>(g[r]) == std::get<2>(e[r]));
        CHECK(*std::get<3>(g[r]) == Approx(*std::get<3>(e[r])).epsilon(1e-12));
        CHECK(std::get<4>(g[r]) == std::get<4>(e[r]));
      }
    }
  }
}

TEST_CASE("a distributed mean of large integers does not wrap", "[dist]") {
  auto& world = colx::test::world();
  using big = colx::schema<colx::field<"k", std::int32_t>, colx::field<"x", std::int64_t>>;
  std::vector<std::int32_t> k;
  std::vector<std::int64_t> x;
  for (int i = 0; i < 12; ++i) {
    k.push_back(i % 2);
    x.push_back(std::int64_t{4'000'000'000'000'000'000} + i);  // three of these already pass 2^63
  }
  auto const mr = colx::test::backend_resource();
  colx::frame<big> const f(colx::make_column<std::int32_t>(k, {}, mr), colx::make_column<std::int64_t>(x, {}, mr));
  auto const d = dist::scatter(world, f);
  auto const mean = d | colx::reduce(colx::mean("x"_c));
  CHECK(*mean == Approx(4e18).epsilon(1e-12));
  auto const per_key = dist::gather(d | colx::group_by("k"_c) | colx::aggregate(colx::mean("x"_c).as<"m">()));
  if (world.rank() == 0) {
    for (auto const& m : colx::test::read(per_key["m"_c])) { CHECK(*m == Approx(4e18).epsilon(1e-12)); }
  }
}

TEST_CASE("distributed group-by of aggregations that do not merge shuffles the rows", "[dist]") {
  auto& world = colx::test::world();
  auto const f = make_rows(5003, 200, true);
  auto const d = dist::scatter(world, f);
  auto const aggs = colx::aggregate(colx::mean("v"_c).as<"m">(), colx::nunique("s"_c).as<"u">(), colx::count().as<"n">());
  check_gathered(d | colx::group_by("k"_c) | aggs, f | colx::group_by("k"_c) | aggs);
}

TEST_CASE("distributed joins equal the one-process join", "[dist]") {
  auto& world = colx::test::world();
  auto const l = make_rows(6007, 500, true);
  auto const r = make_right(1201, 700);
  auto const dl = dist::scatter(world, l);
  auto const dr = dist::scatter(world, r);
  // Shuffle both sides; broadcast the right (small); broadcast it as a large one (in the order of
  // its table slots, each rank's own rows hashed while the others' arrive); shuffle both after a
  // sample of each rank's keys.
  for (int const path : {0, 1, 2, 3}) {
    CAPTURE(path);
    lowered_limits const limits(path == 1 ? size_type{1} << 20 : 0, dist::limits().few_groups_rows);
    if (path == 2) {
      dist::limits().broadcast_share = 1e9;
      dist::limits().slot_order_rows = 0;
      // The right side's keys alone, which have no nulls: they arrive in place, the case where a
      // rank's own rows go into its table first.
      auto const keys = colx::select("rk"_c);
      check_gathered(dl | colx::join(dr | keys, colx::on("k"_c), colx::on("rk"_c)), l | colx::join(r | keys, colx::on("k"_c), colx::on("rk"_c)));
      check_gathered(dl | colx::join<colx::join_kind::left>(dr | keys, colx::on("k"_c), colx::on("rk"_c)),
                     l | colx::join<colx::join_kind::left>(r | keys, colx::on("k"_c), colx::on("rk"_c)));
    }
    if (path == 3) { dist::limits().key_sample_rows = 0; }
    check_gathered(dl | colx::join(dr, colx::on("k"_c), colx::on("rk"_c)), l | colx::join(r, colx::on("k"_c), colx::on("rk"_c)));
    check_gathered(dl | colx::join<colx::join_kind::left>(dr, colx::on("k"_c), colx::on("rk"_c)),
                   l | colx::join<colx::join_kind::left>(r, colx::on("k"_c), colx::on("rk"_c)));
    check_gathered(dl | colx::join<colx::join_kind::full>(dr, colx::on("k"_c), colx::on("rk"_c)),
                   l | colx::join<colx::join_kind::full>(r, colx::on("k"_c), colx::on("rk"_c)));
    check_gathered(dl | colx::join<colx::join_kind::anti>(dr, colx::on("k"_c), colx::on("rk"_c)),
                   l | colx::join<colx::join_kind::anti>(r, colx::on("k"_c), colx::on("rk"_c)));
    // A filtered right side (a dist_lazy) is collected first, on both paths.
    auto const kept = colx::filter("w"_c > 100);
    check_gathered(dl | colx::join(dr | kept, colx::on("k"_c), colx::on("rk"_c)), l | colx::join(r | kept, colx::on("k"_c), colx::on("rk"_c)));
    check_gathered(dl | colx::join<colx::join_kind::semi>(dr | kept, colx::on("k"_c), colx::on("rk"_c)),
                   l | colx::join<colx::join_kind::semi>(r | kept, colx::on("k"_c), colx::on("rk"_c)));
  }
}

TEST_CASE("semi and anti joins move only the right side's keys, a key named twice too", "[dist]") {
  auto& world = colx::test::world();
  auto const l = make_rows(3001, 400, true);
  auto const r = make_right(911, 500);
  auto const dl = dist::scatter(world, l);
  auto const dr = dist::scatter(world, r);
  auto const kept = colx::filter("w"_c > 100);
  for (int const path : {0, 1, 2}) {  // as above
    CAPTURE(path);
    lowered_limits const limits(path == 1 ? size_type{1} << 20 : 0, dist::limits().few_groups_rows);
    if (path == 2) { dist::limits().broadcast_share = 1e9; }
    check_gathered(dl | colx::join<colx::join_kind::anti>(dr | kept, colx::on("k"_c), colx::on("rk"_c)),
                   l | colx::join<colx::join_kind::anti>(r | kept, colx::on("k"_c), colx::on("rk"_c)));
    check_gathered(dl | colx::join<colx::join_kind::semi>(dr, colx::on("k"_c), colx::on("rk"_c)),
                   l | colx::join<colx::join_kind::semi>(r, colx::on("k"_c), colx::on("rk"_c)));
    // The right key named twice: no frame of the keys alone (two fields of one name), so the
    // right side moves whole.
    check_gathered(dl | colx::join<colx::join_kind::semi>(dr, colx::on("k"_c, "k"_c), colx::on("rk"_c, "rk"_c)),
                   l | colx::join<colx::join_kind::semi>(r, colx::on("k"_c, "k"_c), colx::on("rk"_c, "rk"_c)));
    check_gathered(dl | colx::join<colx::join_kind::anti>(dr | kept, colx::on("k"_c, "k"_c), colx::on("rk"_c, "rk"_c)),
                   l | colx::join<colx::join_kind::anti>(r | kept, colx::on("k"_c, "k"_c), colx::on("rk"_c, "rk"_c)));
  }
}

TEST_CASE("replicate gives every rank every row, strings and nulls included, in three collectives", "[dist]") {
  auto& world = colx::test::world();
  for (size_type n : {size_type{0}, size_type{1}, size_type{2}, size_type{1031}}) {  // some ranks hold none
    auto const f = make_rows(n, 50, false);
    auto const d = dist::scatter(world, f);
    world.clear_traffic();
    auto const all = dist::replicate(d);
    CHECK(world.collectives().calls == (world.size() > 1 ? 3 : 0));
    REQUIRE(all.num_rows() == n);
    CHECK(colx::test::read(all["k"_c]) == colx::test::read(f["k"_c]));
    CHECK(colx::test::read(all["g"_c]) == colx::test::read(f["g"_c]));
    CHECK(colx::test::read(all["v"_c]) == colx::test::read(f["v"_c]));
    CHECK(colx::test::read(all["s"_c]) == colx::test::read(f["s"_c]));
    world.clear_traffic();
    (void)dist::gather(d);
    CHECK(world.collectives().calls == 3);
  }
}

TEST_CASE("a distributed sort gathers to the one-process sort", "[dist]") {
  auto& world = colx::test::world();
  auto const check_sorted = [&](auto const& d, auto const& f, auto const& by) {
    auto const sorted = dist::gather(d | by);
    if (world.rank() == 0) {
      auto const expected = f | by;
      CHECK(colx::test::read(sorted["g"_c]) == colx::test::read(expected["g"_c]));
      CHECK(colx::test::read(sorted["k"_c]) == colx::test::read(expected["k"_c]));
      CHECK(colx::test::read(sorted["s"_c]) == colx::test::read(expected["s"_c]));
    }
  };
  for (size_type n : {size_type{0}, size_type{1}, size_type{300}, size_type{20011}}) {
    auto const f = make_rows(n, 5000, n > 1000);
    auto const d = dist::scatter(world, f);
    // Ranges split by sampled keys, and (few rows in all) every row sorted on rank 0.
    for (bool range : {true, false}) {
      lowered_limits const limits(dist::limits().broadcast_rows, range ? 0 : dist::limits().few_groups_rows);
      check_sorted(d, f, colx::sort_by(colx::asc("g"_c), "k"_c, "v"_c));
      check_sorted(d, f, colx::sort_by(colx::desc("g"_c), "k"_c, "v"_c));
    }
    // A strings first key cannot be split into ranges: rank 0 sorts every row.
    check_sorted(d, f, colx::sort_by(colx::desc("s"_c), "k"_c, "v"_c));
  }
}

TEST_CASE("a distributed top_k gathers to the one-process top_k", "[dist]") {
  auto& world = colx::test::world();
  for (size_type n : {size_type{0}, size_type{1}, size_type{300}, size_type{20011}}) {
    auto const f = make_rows(n, 5000, n > 1000);
    auto const d = dist::scatter(world, f);
    for (size_type k : {size_type{0}, size_type{1}, size_type{10}, n + 5}) {
      CAPTURE(n, k);
      auto const top = dist::top_k(d, k, colx::desc("g"_c).nulls_first(), "s"_c);
      auto const all = dist::gather(top);
      if (world.rank() == 0) {
        auto const expected = colx::top_k(f, k, colx::desc("g"_c).nulls_first(), "s"_c);
        CHECK(colx::test::read(all["g"_c]) == colx::test::read(expected["g"_c]));
        CHECK(colx::test::read(all["s"_c]) == colx::test::read(expected["s"_c]));
        CHECK(colx::test::read(all["k"_c]) == colx::test::read(expected["k"_c]));
      } else {
        CHECK(top.local().num_rows() == 0);
      }
    }
  }
  CHECK_THROWS_AS(dist::top_k(dist::scatter(world, make_rows(3, 5, false)), -1, "k"_c), colx::logic_error);
}

TEST_CASE("a distributed reduce gives every rank the one-process answer", "[dist]") {
  auto& world = colx::test::world();
  for (size_type n : {size_type{0}, size_type{1}, size_type{10007}}) {
    auto const f = make_rows(n, 100, false);
    auto const d = dist::scatter(world, f);
    auto const [sum, count, lo, hi, mean] =
        d | colx::reduce(colx::sum("k"_c), colx::count("v"_c), colx::min("v"_c), colx::max("k"_c), colx::mean("v"_c));
    auto const [esum, ecount, elo, ehi, emean] =
        f | colx::reduce(colx::sum("k"_c), colx::count("v"_c), colx::min("v"_c), colx::max("k"_c), colx::mean("v"_c));
    CHECK(sum.has_value() == esum.has_value());
    if (sum.has_value()) { CHECK(*sum == *esum); }
    CHECK(*count == *ecount);
    CHECK(lo.has_value() == elo.has_value());
    if (lo.has_value()) { CHECK(*lo == *elo); }
    if (hi.has_value()) { CHECK(*hi == *ehi); }
    CHECK(mean.has_value() == emean.has_value());
    if (mean.has_value()) { CHECK(*mean == Approx(*emean).epsilon(1e-12)); }
  }
}

TEST_CASE("a rank that fails ends the step with an error on every rank", "[dist]") {
  auto& world = colx::test::world();
  if (world.size() == 1) {
    CHECK_THROWS_AS(dist::agreed(world, "test step", [] { throw colx::logic_error("boom"); }), colx::logic_error);
    return;
  }
  // The last rank fails; the others learn it in the same step instead of waiting for it.
  bool const fails = world.rank() == world.size() - 1;
  auto const step = [&] {
    if (fails) { throw colx::logic_error("boom on the last rank"); }
    return 1;
  };
  if (fails) {
    CHECK_THROWS_AS(dist::agreed(world, "test step", step), colx::logic_error);
  } else {
    CHECK_THROWS_WITH(dist::agreed(world, "test step", step), Catch::Contains("boom on the last rank"));
  }
  // Bad arguments on one rank only (bounds that do not cover its rows): every rank throws.
  auto const f = make_rows(100, 10, false);
  std::vector<size_type> bounds(static_cast<std::size_t>(world.size()) + 1, 0);
  bounds.back() = fails ? 50 : f.num_rows();
  CHECK_THROWS(dist::exchange_rows(world, f, std::span<size_type const>(bounds), "bad bounds"));
  // The world still works afterwards.
  CHECK(world.all_sum(1) == world.size());
}

TEST_CASE("ranks whose rows have other column types refuse to exchange them", "[dist]") {
  auto& world = colx::test::world();
  if (world.size() == 1) { return; }
  using wide = colx::schema<colx::field<"rk", std::int64_t>, colx::field<"w", std::int64_t, colx::nullable>>;
  std::vector<size_type> bounds(static_cast<std::size_t>(world.size()) + 1, 0);
  if (world.rank() == 0) {
    auto const r = make_right(10, 5);
    std::fill(bounds.begin() + 1, bounds.end(), r.num_rows());
    CHECK_THROWS_AS(dist::exchange_rows(world, r, std::span<size_type const>(bounds), "mismatch"), colx::dist_error);
  } else {
    auto const mr = colx::test::backend_resource();
    colx::frame<wide> const r(colx::make_column<std::int64_t>(std::vector<std::int64_t>{1, 2}, {}, mr),
                              colx::make_column<std::int64_t>(std::vector<std::int64_t>{3, 4}, {}, mr));
    std::fill(bounds.begin() + 1, bounds.end(), r.num_rows());
    CHECK_THROWS_AS(dist::exchange_rows(world, r, std::span<size_type const>(bounds), "mismatch"), colx::dist_error);
  }
}

TEST_CASE("explain lists what each distributed step moved", "[dist]") {
  auto& world = colx::test::world();
  world.clear_traffic();
  auto const d = dist::scatter(world, make_rows(1000, 10, false));
  (void)dist::hash_shuffle(d, "k"_c);
  auto const text = dist::explain(world);
  CHECK_THAT(text, Catch::Contains("scatter"));
  CHECK_THAT(text, Catch::Contains("host-value collectives"));
  if (world.size() > 1) { CHECK_THAT(text, Catch::Contains("hash shuffle")); }
  // A shuffle takes four collectives: the partition's agreement, the sizes (which carry every
  // rank's readiness and column types), the receive buffers' agreement and the assembly's.
  world.clear_traffic();
  (void)dist::hash_shuffle(d, "k"_c);
  CHECK(world.collectives().calls == (world.size() > 1 ? 4 : 0));
  CHECK_THAT(dist::explain_summary(world), Catch::Contains("collectives"));
}
