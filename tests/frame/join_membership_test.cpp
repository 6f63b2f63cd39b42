// SPDX-License-Identifier: Apache-2.0
// Semi and anti joins on one integer key whose build values are dense keep the build keys as bits
// (join/table.hpp's membership) instead of a hash table, on the backend under test: the same rows,
// in probe order, as a loop over both sides; null keys on either side; probe keys below, inside
// and above the build keys' span; negative keys; an int32 probe key against an int64 build key; a
// filtered probe side; and the build sides that stay hashed (a span too sparse or past 2^64, every
// key null, no rows).
#include "support/backend.hpp"
#include "support/columns.hpp"

#include <colx/frame/join.hpp>

#include <catch2/catch.hpp>

#include <algorithm>
#include <cstdint>
#include <limits>
#include <optional>
#include <random>
#include <vector>

using namespace colx::literals;

namespace {

using colx::join_kind;
using colx::test::optionals;

using Probe = colx::schema<colx::field<"k", std::int32_t>, colx::field<"id", std::int32_t, colx::not_null>>;
using Build = colx::schema<colx::field<"k", std::int64_t>>;

colx::frame<Probe> probe_frame(optionals<std::int32_t> const& keys) {
  std::vector<std::int32_t> ids(keys.size());
  for (std::size_t i = 0; i < ids.size(); ++i) { ids[i] = static_cast<std::int32_t>(i); }
  return colx::frame<Probe>(colx::test::column_of(keys), colx::test::column_of(ids));
}
colx::frame<Build> build_frame(optionals<std::int64_t> const& keys) { return colx::frame<Build>(colx::test::column_of(keys)); }

// The probe rows a semi (anti) join keeps, as a loop: those with a valid key some valid build key
// equals (the others), among the rows `kept` passes.
template <class Kept>
std::vector<std::int32_t> expected(join_kind how, optionals<std::int32_t> const& probe, optionals<std::int64_t> const& build,
                                   Kept const& kept) {
  std::vector<std::int32_t> ids;
  for (std::size_t i = 0; i < probe.size(); ++i) {
    if (!kept(i)) { continue; }
    bool found = false;
    for (auto const& b : build) { found = found || (probe[i] && b && static_cast<std::int64_t>(*probe[i]) == *b); }
    if (found == (how == join_kind::semi)) { ids.push_back(static_cast<std::int32_t>(i)); }
  }
  return ids;
}

template <class Frame>
std::vector<std::int32_t> ids_of(Frame const& f) {
  std::vector<std::int32_t> ids;
  for (auto const& id : colx::to_optional_vector(f["id"_c].view())) { ids.push_back(*id); }
  return ids;
}

// Both joins of `probe` against `build`, unfiltered and filtered, against the loop; `bits`: whether
// the build side is expected to become a membership.
void check(optionals<std::int32_t> const& probe, optionals<std::int64_t> const& build, bool bits) {
  auto const pf = probe_frame(probe);
  auto const bf = build_frame(build);
  auto const built = colx::detail::build_of(bf, colx::on("k"_c), colx::join_options{}, colx::stream_ref{}, true);
  CHECK((built.members().bits != nullptr) == bits);
  CHECK((built.slots() == nullptr) == bits);
  auto const all = [](std::size_t) { return true; };
  auto const later = [](std::size_t i) { return i >= 500; };
  CHECK(ids_of(pf | colx::join<join_kind::semi>(bf, colx::on("k"_c))) == expected(join_kind::semi, probe, build, all));
  CHECK(ids_of(pf | colx::join<join_kind::anti>(bf, colx::on("k"_c))) == expected(join_kind::anti, probe, build, all));
  auto const filtered = pf | colx::filter("id"_c >= 500);
  CHECK(ids_of(filtered | colx::join<join_kind::semi>(bf, colx::on("k"_c))) == expected(join_kind::semi, probe, build, later));
  CHECK(ids_of(filtered | colx::join<join_kind::anti>(bf, colx::on("k"_c))) == expected(join_kind::anti, probe, build, later));
}

}  // namespace

TEST_CASE("join membership: dense build keys become bits, with the rows a loop keeps", "[frame]") {
  // Build keys in [-60, 60] (nulls among them), probe keys in [-90, 90]: below, inside and above the
  // span; spans of 1 to 121 values over 1 to 300 build rows, the probe past one warp and one block.
  for (int const build_rows : {1, 2, 40, 300}) {
    for (int const span : {1, 33, 121}) {
      CAPTURE(build_rows, span);
      std::mt19937_64 rng(static_cast<std::uint64_t>(build_rows * 1000 + span));
      optionals<std::int64_t> build;
      for (int j = 0; j < build_rows; ++j) {
        build.push_back(j > 0 && rng() % 7 == 0 ? std::nullopt : std::optional<std::int64_t>(-60 + static_cast<std::int64_t>(rng() % span)));
      }
      optionals<std::int32_t> probe;
      for (int i = 0; i < 1000; ++i) {
        probe.push_back(rng() % 9 == 0 ? std::nullopt : std::optional<std::int32_t>(-90 + static_cast<std::int32_t>(rng() % 181)));
      }
      // Bits when the valid keys' span is at most 64 values a build row.
      std::int64_t low = 1000;
      std::int64_t high = -1000;
      for (auto const& b : build) {
        if (b) {
          low = std::min(low, *b);
          high = std::max(high, *b);
        }
      }
      check(probe, build, high - low + 1 <= 64 * build_rows);
    }
  }
}

TEST_CASE("join membership: sparse, unbounded or null build keys stay hashed", "[frame]") {
  optionals<std::int32_t> const probe{0, 1, -1, std::nullopt, 2147483647, -2147483647 - 1, 64, 65};
  constexpr std::int64_t most = std::numeric_limits<std::int64_t>::max();
  constexpr std::int64_t least = std::numeric_limits<std::int64_t>::min();
  check(probe, {0, 65}, true);                       // 66 values over 2 rows: dense enough
  check(probe, {0, 129}, false);                     // 130 values over 2 rows: not
  check(probe, {least, 0, most}, false);             // a span of 2^64: past any word
  check(probe, {least + 1, -1, 1}, false);           // 2^63 values
  check(probe, {std::nullopt, std::nullopt}, false);  // no valid key
  check(probe, {}, false);                           // no rows
  check({}, {1, 2, 3}, true);                        // nothing to probe
}

// Unsigned keys: a uint64 probe key joins a narrower unsigned build key (its values past 2^63 are
// no build value); a filtered build side (its rows collected first); a build the caller made with
// build() stays hashed, for any join.
TEST_CASE("join membership: unsigned keys, a filtered build side, and a caller's build", "[frame]") {
  using P64 = colx::schema<colx::field<"k", std::uint64_t>, colx::field<"id", std::int32_t, colx::not_null>>;
  using B32 = colx::schema<colx::field<"k", std::uint32_t>, colx::field<"w", std::int32_t>>;
  optionals<std::uint64_t> const probe{0, 1, 2, 3, std::nullopt, 4294967295u, std::uint64_t{1} << 63, ~std::uint64_t{0}, 7, 3};
  optionals<std::uint32_t> const build{1, 3, std::nullopt, 7, 4294967295u, 3};
  std::vector<std::int32_t> ids(probe.size());
  for (std::size_t i = 0; i < ids.size(); ++i) { ids[i] = static_cast<std::int32_t>(i); }
  colx::frame<P64> const pf(colx::test::column_of(probe), colx::test::column_of(ids));
  optionals<std::int32_t> const weights{5, 50, 5, 50, 5, 50};
  colx::frame<B32> const bf(colx::test::column_of(build), colx::test::column_of(weights));
  // The valid build keys span 1 to 4294967295: too sparse for 6 rows; the first four are dense.
  auto const sparse = colx::detail::build_of(bf, colx::on("k"_c), colx::join_options{}, colx::stream_ref{}, true);
  CHECK(sparse.members().bits == nullptr);
  optionals<std::uint32_t> const dense_keys{1, 3, std::nullopt, 7};
  colx::frame<B32> const dense(colx::test::column_of(dense_keys), colx::test::column_of(optionals<std::int32_t>{5, 50, 5, 50}));
  CHECK(colx::detail::build_of(dense, colx::on("k"_c), colx::join_options{}, colx::stream_ref{}, true).members().bits != nullptr);
  CHECK(ids_of(pf | colx::join<join_kind::semi>(dense, colx::on("k"_c))) == std::vector<std::int32_t>{1, 3, 8, 9});
  CHECK(ids_of(pf | colx::join<join_kind::anti>(dense, colx::on("k"_c))) == std::vector<std::int32_t>{0, 2, 4, 5, 6, 7});
  CHECK(ids_of(pf | colx::join<join_kind::semi>(bf, colx::on("k"_c))) == std::vector<std::int32_t>{1, 3, 5, 8, 9});
  // Filtered build side: only the rows of weight 50 (keys 3 and 7).
  CHECK(ids_of(pf | colx::join<join_kind::semi>(dense | colx::filter("w"_c == 50), colx::on("k"_c))) ==
        std::vector<std::int32_t>{3, 8, 9});
  CHECK(ids_of(pf | colx::join<join_kind::anti>(dense | colx::filter("w"_c == 50), colx::on("k"_c))) ==
        std::vector<std::int32_t>{0, 1, 2, 4, 5, 6, 7});
  // A caller's build keeps its table, and serves a semi join and an inner join alike.
  auto const built = colx::build(dense, colx::on("k"_c));
  CHECK(built.members().bits == nullptr);
  CHECK(built.slots() != nullptr);
  CHECK(ids_of(pf | colx::join<join_kind::semi>(built, colx::on("k"_c))) == std::vector<std::int32_t>{1, 3, 8, 9});
  CHECK((pf | colx::join(built, colx::on("k"_c))).num_rows() == 4);
}
