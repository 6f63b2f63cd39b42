// SPDX-License-Identifier: Apache-2.0
// Joins and group-bys on keys the ranks already hold apart (dist/key_spans.hpp, colocated.hpp):
// each rank builds its own rows, as if it had read files written in key order, and the answer,
// gathered on rank 0, must equal the one-process answer over all the rows. The steps recorded
// show what moved: nothing for a group-by, only the other side's rows out of place for a join.
// Keys come sorted within a rank's "files" (a jump where two meet), unsorted, with nulls, and on
// ranks that hold no rows; keys that are not apart take the shuffles, with the same answers.
// Last, the order a large broadcast's right rows are sent in (dist/slot_order.hpp).
#include "support/backend.hpp"
#include "support/gathered.hpp"
#include "support/rows.hpp"
#include "support/world.hpp"

#include <colx/dist.hpp>

#include <catch2/catch.hpp>

#include <algorithm>
#include <bit>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

using namespace colx::literals;
using colx::size_type;
namespace dist = colx::dist;
using colx::test::check_gathered;

namespace {

using left_schema = colx::schema<colx::field<"k", std::int64_t>, colx::field<"v", double, colx::nullable>>;
using right_schema = colx::schema<colx::field<"rk", std::int32_t>, colx::field<"w", std::int64_t, colx::nullable>>;

// Rows with keys `keys` (nullopt: null), v or w derived from the position.
colx::frame<left_schema> left_rows(std::vector<std::optional<std::int64_t>> const& keys) {
  std::vector<std::optional<double>> v;
  for (std::size_t i = 0; i < keys.size(); ++i) {
    v.push_back(i % 7 == 3 ? std::nullopt : std::optional<double>(static_cast<double>(i) / 4));
  }
  auto const mr = colx::test::backend_resource();
  return colx::frame<left_schema>(colx::make_column<std::int64_t>(keys, {}, mr), colx::make_column<double>(v, {}, mr));
}
colx::frame<right_schema> right_rows(std::vector<std::optional<std::int32_t>> const& keys) {
  std::vector<std::optional<std::int64_t>> w;
  for (std::size_t i = 0; i < keys.size(); ++i) {
    w.push_back(i % 5 == 1 ? std::nullopt : std::optional<std::int64_t>(static_cast<std::int64_t>(i) * 3));
  }
  auto const mr = colx::test::backend_resource();
  return colx::frame<right_schema>(colx::make_column<std::int32_t>(keys, {}, mr), colx::make_column<std::int64_t>(w, {}, mr));
}

// Rank r's "files" f = r, r + ranks, ...: file f holds keys [f * width, (f + 1) * width), each
// key `repeat` times, ascending (or shuffled within the rank), a null every 97 rows if asked.
std::vector<std::optional<std::int64_t>> file_keys(int rank, int ranks, int files, std::int64_t width, int repeat,
                                                   bool shuffled, bool nulls) {
  std::vector<std::optional<std::int64_t>> out;
  for (int f = rank; f < files; f += ranks) {
    for (std::int64_t k = f * width; k < (f + 1) * width; ++k) {
      for (int c = 0; c < repeat; ++c) { out.emplace_back(k); }
    }
  }
  if (shuffled) {
    std::uint64_t x = 0x9e3779b97f4a7c15ull * static_cast<std::uint64_t>(rank + 1);
    for (std::size_t i = out.size(); i > 1; --i) {
      x ^= x << 13;
      x ^= x >> 7;
      x ^= x << 17;
      std::swap(out[i - 1], out[x % i]);
    }
  }
  if (nulls) {
    for (std::size_t i = 5; i < out.size(); i += 97) { out[i] = std::nullopt; }
  }
  return out;
}

// Ranks look at their keys through a sample first (dist/key_spans.hpp) from `rows` rows: these
// tests' frames are small, so 0 takes that path and the default does not.
struct sample_from {
  dist::strategy_limits saved = dist::limits();
  explicit sample_from(size_type rows) { dist::limits().key_sample_rows = rows; }
  sample_from(sample_from const&) = delete;
  sample_from& operator=(sample_from const&) = delete;
  ~sample_from() { dist::limits() = saved; }
};

bool recorded(colx::dist::communicator const& world, std::string const& step) {
  return std::any_of(world.traffic().begin(), world.traffic().end(), [&](auto const& r) { return r.step.find(step) != std::string::npos; });
}
bool rows_moved(colx::dist::communicator const& world) {
  return std::any_of(world.traffic().begin(), world.traffic().end(), [](auto const& r) { return r.moved_rows && r.rows_sent > 0; });
}

}  // namespace

TEST_CASE("a group-by on keys the ranks hold apart moves no row", "[dist]") {
  auto& world = colx::test::world();
  sample_from const sampled(GENERATE(as<size_type>{}, size_type{1} << 20, size_type{0}));
  auto const aggs = colx::aggregate(colx::sum("v"_c).as<"s">(), colx::count().as<"n">());
  for (bool shuffled : {false, true}) {
    // 0: no rank holds rows; 1: one rank does. Width 300 and 3 rows a key: a rank's files meet
    // inside its chunks of 256 rows. Shuffled, a rank's keys are apart from the others' only
    // when they come from one file (one span, whatever their order).
    for (int files : shuffled ? std::vector<int>{1, world.size()} : std::vector<int>{0, 1, 2 * world.size() + 1, 40}) {
      INFO("files " << files << (shuffled ? ", shuffled" : ", ascending"));
      dist::dist_frame<left_schema> const d(world, left_rows(file_keys(world.rank(), world.size(), files, 300, 3, shuffled, false)));
      auto const everything = dist::gather(d);
      world.clear_traffic();
      auto const g = d | colx::group_by("k"_c) | aggs;
      CHECK_FALSE(rows_moved(world));
      check_gathered(g, everything | colx::group_by("k"_c) | aggs);
      // A mean needs its division after the merge, still without moving rows.
      auto const means = colx::aggregate(colx::mean("v"_c).as<"m">());
      world.clear_traffic();
      auto const m = d | colx::group_by("k"_c) | means;
      CHECK_FALSE(rows_moved(world));
      check_gathered(m, everything | colx::group_by("k"_c) | means);
      // Two keys: the first, apart, is enough.
      world.clear_traffic();
      auto const two = d | colx::group_by("k"_c, "v"_c) | aggs;
      CHECK_FALSE(rows_moved(world));
      check_gathered(two, everything | colx::group_by("k"_c, "v"_c) | aggs);
    }
  }
}

TEST_CASE("a group-by's null keys on several ranks take the shuffle, one null group", "[dist]") {
  auto& world = colx::test::world();
  sample_from const sampled(GENERATE(as<size_type>{}, size_type{1} << 20, size_type{0}));
  auto const aggs = colx::aggregate(colx::sum("v"_c).as<"s">(), colx::count().as<"n">());
  dist::dist_frame<left_schema> const d(world, left_rows(file_keys(world.rank(), world.size(), 12, 50, 2, false, true)));
  auto const everything = dist::gather(d);
  auto const g = d | colx::group_by("k"_c) | aggs;
  check_gathered(g, everything | colx::group_by("k"_c) | aggs);
  // Behind a filter (the spans are the unfiltered rows', nulls included): the same answer.
  auto const kept = colx::filter(colx::is_valid("k"_c));
  check_gathered(d | kept | colx::group_by("k"_c, "v"_c) | aggs, everything | kept | colx::group_by("k"_c, "v"_c) | aggs);
}

TEST_CASE("a join moves only the other side's rows whose keys another rank holds", "[dist]") {
  auto& world = colx::test::world();
  sample_from const sampled(GENERATE(as<size_type>{}, size_type{1} << 20, size_type{0}));
  int const me = world.rank();
  int const ranks = world.size();
  // Left: files of 200 keys, two rows a key, nulls. Right: keys shifted by half a file, so half
  // of a rank's right rows belong to the next rank's left file, and the last ones to no file.
  dist::dist_frame<left_schema> const l(world, left_rows(file_keys(me, ranks, 3 * ranks, 200, 2, false, true)));
  std::vector<std::optional<std::int32_t>> rk;
  for (auto const& k : file_keys(me, ranks, 3 * ranks, 200, 1, true, false)) { rk.emplace_back(static_cast<std::int32_t>(*k + 100)); }
  rk.emplace_back(std::nullopt);
  dist::dist_frame<right_schema> const r(world, right_rows(rk));
  auto const all_left = dist::gather(l);
  auto const all_right = dist::gather(r);
  auto const on_l = colx::on("k"_c);
  auto const on_r = colx::on("rk"_c);
  auto const run = [&](auto const& joined, auto const& reference) {
    if (ranks > 1) {
      CHECK(recorded(world, "join (right rows to their key's rank)"));
      CHECK_FALSE(recorded(world, "hash shuffle"));
      CHECK_FALSE(recorded(world, "replicate"));
    }
    check_gathered(joined, reference);
  };
  dist::strategy_limits const saved = dist::limits();
  dist::limits().broadcast_rows = 0;  // small as they are, these sides would be broadcast
  world.clear_traffic();
  run(l | colx::join(r, on_l, on_r), all_left | colx::join(all_right, on_l, on_r));
  world.clear_traffic();
  run(l | colx::join<colx::join_kind::left>(r, on_l, on_r), all_left | colx::join<colx::join_kind::left>(all_right, on_l, on_r));
  world.clear_traffic();
  run(l | colx::join<colx::join_kind::right>(r, on_l, on_r), all_left | colx::join<colx::join_kind::right>(all_right, on_l, on_r));
  world.clear_traffic();
  run(l | colx::join<colx::join_kind::full>(r, on_l, on_r), all_left | colx::join<colx::join_kind::full>(all_right, on_l, on_r));
  world.clear_traffic();
  run(l | colx::join<colx::join_kind::semi>(r, on_l, on_r), all_left | colx::join<colx::join_kind::semi>(all_right, on_l, on_r));
  world.clear_traffic();
  run(l | colx::join<colx::join_kind::anti>(r, on_l, on_r), all_left | colx::join<colx::join_kind::anti>(all_right, on_l, on_r));
  // Every right row on rank 0: the others, with none, do not look at their keys at first, and the
  // right rows still go to the rank that holds their keys.
  std::vector<std::optional<std::int32_t>> all_keys;
  if (me == 0) {
    for (auto const& k : file_keys(0, 1, 3 * ranks, 200, 1, true, false)) { all_keys.emplace_back(static_cast<std::int32_t>(*k)); }
  }
  dist::dist_frame<right_schema> const on_one(world, right_rows(all_keys));
  auto const all_on_one = dist::gather(on_one);
  world.clear_traffic();
  run(l | colx::join(on_one, on_l, on_r), all_left | colx::join(all_on_one, on_l, on_r));
  // The right side apart and the left not (every rank holds keys of every file): the left rows move.
  dist::dist_frame<left_schema> const scattered(world, left_rows(file_keys(0, 1, 3, 200 * ranks, 1, true, false)));
  dist::dist_frame<right_schema> const apart(world, right_rows([&] {
    std::vector<std::optional<std::int32_t>> keys;
    for (auto const& k : file_keys(me, ranks, 3 * ranks, 200, 1, false, false)) { keys.emplace_back(static_cast<std::int32_t>(*k)); }
    return keys;
  }()));
  auto const all_scattered = dist::gather(scattered);
  auto const all_apart = dist::gather(apart);
  world.clear_traffic();
  auto const moved_left = scattered | colx::join(apart, on_l, on_r);
  if (ranks > 1) { CHECK(recorded(world, "join (left rows to their key's rank)")); }
  check_gathered(moved_left, all_scattered | colx::join(all_apart, on_l, on_r));
  // Neither side apart, or the spans not looked for: the hash shuffles, the same answer.
  dist::limits().key_spans = false;
  world.clear_traffic();
  auto const shuffled = l | colx::join(r, on_l, on_r);
  if (ranks > 1) { CHECK(recorded(world, "hash shuffle")); }
  check_gathered(shuffled, all_left | colx::join(all_right, on_l, on_r));
  dist::limits().key_spans = true;
  world.clear_traffic();
  auto const both_scattered = scattered | colx::join(r, on_l, on_r);
  if (ranks > 1) { CHECK(recorded(world, "hash shuffle")); }
  check_gathered(both_scattered, all_scattered | colx::join(all_right, on_l, on_r));
  // One rank holding every left row: its keys are apart, but the right side would all follow
  // them there; a broadcast or the hash shuffles spread the work instead.
  dist::dist_frame<left_schema> const lopsided(world, left_rows(file_keys(me, ranks, 1, 5000, 1, false, false)));
  auto const all_lopsided = dist::gather(lopsided);
  world.clear_traffic();
  auto const spread = lopsided | colx::join(r, on_l, on_r);
  if (ranks > 1) {
    CHECK_FALSE(recorded(world, "join (right rows to their key's rank)"));
    CHECK((recorded(world, "hash shuffle") || recorded(world, "replicate")));
  }
  check_gathered(spread, all_lopsided | colx::join(all_right, on_l, on_r));
  dist::limits() = saved;
}

// A broadcast's right rows sorted by the band of the hash-table slot each will start its walk at
// (dist/slot_order.hpp): the same rows, the bands never decreasing. The band is worked out here
// from the table's rules (a packed nullable int64 key: its value's order-preserving encoding,
// mixed; twice the rows' slots, a power of two; bands of 2^12 slots; a null key, which never
// enters the table, after every band).
TEST_CASE("a broadcast's right rows in slot order are the same rows, in order of their home slots", "[dist]") {
  using S = colx::schema<colx::field<"k", std::int64_t>, colx::field<"w", std::int64_t, colx::nullable>>;
  auto const mr = colx::test::backend_resource();
  for (size_type const n : {size_type{0}, size_type{1}, size_type{2}, size_type{5003}}) {
    CAPTURE(n);
    std::vector<std::optional<std::int64_t>> k(static_cast<std::size_t>(n)), w(k.size());
    for (std::size_t i = 0; i < k.size(); ++i) {
      if (i % 11 != 3) { k[i] = static_cast<std::int64_t>(colx::detail::mix64(i) % 100000) - 50000; }
      if (i % 7 != 0) { w[i] = static_cast<std::int64_t>(i); }
    }
    colx::frame<S> const f(colx::make_column<std::int64_t>(k, {}, mr), colx::make_column<std::int64_t>(w, {}, mr));
    size_type const all_rows = 3 * n + 1;  // the right rows of every rank
    auto const ordered = dist::detail::in_slot_order(f, colx::on("k"_c), all_rows, {}, {});
    CHECK(colx::test::sorted_rows_of(ordered) == colx::test::sorted_rows_of(f));
    auto const slots = static_cast<std::uint64_t>(colx::detail::next_table_size(all_rows));
    std::uint64_t last = 0;
    bool ascending = true;
    for (auto const& v : colx::test::read(ordered["k"_c])) {
      if (slots <= 4096) { break; }  // a table of one band: the rows as they are
      std::uint64_t const word = static_cast<std::uint64_t>(v.value_or(0)) ^ (std::uint64_t{1} << 63);
      std::uint64_t const band = v ? (colx::detail::mix64(word) & (slots - 1)) >> 12 : slots >> 12;
      ascending = ascending && band >= last;
      last = band;
    }
    CHECK(ascending);
    // Keys the table hashes (nulls equal, no room for their null bits) or tags (strings): the same rows.
    colx::join_options const nulls_equal{.nulls_equal = true};
    CHECK(colx::test::sorted_rows_of(dist::detail::in_slot_order(f, colx::on("k"_c), all_rows, nulls_equal, {})) ==
          colx::test::sorted_rows_of(f));
  }
  std::vector<std::optional<std::string>> names{"b", std::nullopt, "a", "c", "a"};
  using T = colx::schema<colx::field<"s", colx::string_view>>;
  colx::frame<T> const t(colx::make_strings_column(names, colx::type_id::int32, {}, mr));
  auto const ordered = dist::detail::in_slot_order(t, colx::on("s"_c), 5, {}, {});
  CHECK(colx::test::sorted_rows_of(ordered) == colx::test::sorted_rows_of(t));
}

// A sample (dist/key_spans.hpp) never proves apart spans to overlap: over data split by key in
// many ways, on 2, 3 and 5 simulated ranks, wherever every rank's spans are apart its samples
// leave them so. Keys dealt out by a hash are proved to overlap. The sample is the keys of evenly
// spaced rows, nulls left out.
TEST_CASE("a sample of each rank's keys proves only overlaps that the spans would find", "[dist]") {
  int apart = 0;
  for (int const ranks : {2, 3, 5}) {
    for (int const files : {1, ranks, 2 * ranks + 1, 40}) {
      for (std::int64_t const width : {std::int64_t{3}, std::int64_t{300}, std::int64_t{5000}}) {
        for (int flags = 0; flags < 8; ++flags) {
          bool const shuffled = (flags & 1) != 0, nulls = (flags & 2) != 0;
          int const repeat = (flags & 4) != 0 ? 3 : 1;
          CAPTURE(ranks, files, width, shuffled, nulls, repeat);
          std::vector<dist::detail::key_spans> spans;
          std::vector<dist::detail::spans_sample> samples;
          for (int r = 0; r < ranks; ++r) {
            auto const f = left_rows(file_keys(r, ranks, files, width, repeat, shuffled, nulls));
            spans.push_back(dist::detail::spans_of(f, "k"_c, {}));
            samples.push_back(dist::detail::sample_of(f, "k"_c, {}));
          }
          if (dist::detail::spans_apart(spans, false)) {
            ++apart;
            CHECK(dist::detail::samples_may_be_apart(samples));
          }
        }
      }
    }
    // Keys dealt out by their hash: the samples interleave (or share keys).
    std::vector<dist::detail::spans_sample> samples;
    for (int r = 0; r < ranks; ++r) {
      std::vector<std::optional<std::int64_t>> keys;
      for (std::int64_t v = 0; v < 20000; ++v) {
        if (colx::detail::mix64(static_cast<std::uint64_t>(v)) % static_cast<std::uint64_t>(ranks) == static_cast<std::uint64_t>(r)) {
          keys.emplace_back(v);
        }
      }
      samples.push_back(dist::detail::sample_of(left_rows(keys), "k"_c, {}));
    }
    CHECK_FALSE(dist::detail::samples_may_be_apart(samples));
  }
  CHECK(apart > 50);  // the property was put to the test
  // Two ranks sharing a key, and a rank whose keys fall in more runs than it may have spans.
  dist::detail::spans_sample a, b;
  a.count = b.count = 2;
  a.keys[0] = 1, a.keys[1] = 7, b.keys[0] = 7, b.keys[1] = 9;
  CHECK_FALSE(dist::detail::samples_may_be_apart(std::vector{a, b}));
  b.keys[0] = 8;
  CHECK(dist::detail::samples_may_be_apart(std::vector{a, b}));
  a.count = b.count = dist::detail::max_key_spans + 1;
  for (int i = 0; i < a.count; ++i) {
    a.keys[i] = 2 * i;
    b.keys[i] = 2 * i + 1;
  }
  CHECK_FALSE(dist::detail::samples_may_be_apart(std::vector{a, b}));  // 129 runs each
  b.count = dist::detail::max_key_spans - 1;  // a: 128 runs, then one of its keys past b's last
  CHECK(dist::detail::samples_may_be_apart(std::vector{a, b}));
  // What a sample holds: the keys of rows s * n / count, nulls left out.
  for (size_type const n : {size_type{0}, size_type{1}, size_type{5}, size_type{512}, size_type{513}, size_type{10007}}) {
    CAPTURE(n);
    std::vector<std::optional<std::int64_t>> keys(static_cast<std::size_t>(n));
    for (std::size_t i = 0; i < keys.size(); ++i) {
      if (i % 13 != 4) { keys[i] = static_cast<std::int64_t>(colx::detail::mix64(i) % 1000) - 500; }
    }
    auto const sample = dist::detail::sample_of(left_rows(keys), "k"_c, {});
    std::vector<std::int64_t> expected;
    size_type const count = std::min<size_type>(n, dist::detail::spans_sample_size);
    for (size_type s = 0; s < count; ++s) {
      if (auto const& v = keys[static_cast<std::size_t>(s * n / count)]) { expected.push_back(*v); }
    }
    CHECK(std::vector<std::int64_t>(sample.keys, sample.keys + sample.count) == expected);
  }
}

// Keys every rank holds among every other's: the samples show it, and the spans are not gathered
// (no collective more than where the spans themselves come in the first one).
TEST_CASE("keys scattered over the ranks show in their samples, and no spans are gathered", "[dist]") {
  auto& world = colx::test::world();
  auto const me = static_cast<std::uint64_t>(world.rank());
  auto const ranks = static_cast<std::uint64_t>(world.size());
  std::vector<std::optional<std::int64_t>> lk;
  std::vector<std::optional<std::int32_t>> rk;
  for (std::int64_t v = 0; v < 6000; ++v) {
    if (colx::detail::mix64(static_cast<std::uint64_t>(v)) % ranks == me) { lk.emplace_back(v); }
    if (v % 3 == 0 && colx::detail::mix64(static_cast<std::uint64_t>(v) + 1) % ranks == me) { rk.emplace_back(static_cast<std::int32_t>(v)); }
  }
  dist::dist_frame<left_schema> const l(world, left_rows(lk));
  dist::dist_frame<right_schema> const r(world, right_rows(rk));
  auto const all_left = dist::gather(l);
  auto const all_right = dist::gather(r);
  auto const aggs = colx::aggregate(colx::sum("v"_c).as<"s">());
  dist::strategy_limits const saved = dist::limits();
  dist::limits().broadcast_rows = 0;  // neither side sent whole: both shuffled
  dist::limits().broadcast_share = 0;
  std::int64_t calls[2] = {};
  for (int const sampled : {0, 1}) {
    dist::limits().key_sample_rows = sampled == 1 ? 0 : size_type{1} << 20;
    world.clear_traffic();
    check_gathered(l | colx::group_by("k"_c) | aggs, all_left | colx::group_by("k"_c) | aggs);
    check_gathered(l | colx::join(r, colx::on("k"_c), colx::on("rk"_c)), all_left | colx::join(all_right, colx::on("k"_c), colx::on("rk"_c)));
    calls[sampled] = world.collectives().calls;
  }
  dist::limits() = saved;
  CHECK(calls[1] == calls[0]);
}
