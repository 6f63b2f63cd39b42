// SPDX-License-Identifier: Apache-2.0
// A large right side sent whole to an inner or left join: every rank builds the hash table of
// every rank's rows, a band of slots at a time (join/banded_build.hpp), or, to compare, row by
// row (its own rows while the others' arrive, or all after). Each against the one-process join
// of the same rows: keys unique with nulls, keys repeated (a multimap), one key repeated more
// often than a band holds (the row-by-row build then), and nulls that match each other. Then
// join_build's banded constructor alone (build_from_runs): the table it takes (walks wrapping in
// bands of 2^12 slots) and the same inner, left, semi and anti answers as the ordinary build, for
// an int64 key (packed), an int32 key whose null bit is packed too, and two keys (a hash and a
// tag an entry); and runs out of band order refused.
#include "support/backend.hpp"
#include "support/gathered.hpp"
#include "support/rows.hpp"
#include "support/world.hpp"

#include <colx/dist.hpp>

#include <catch2/catch.hpp>

#include <cstdint>
#include <optional>
#include <span>
#include <utility>
#include <vector>

using namespace colx::literals;
using colx::size_type;
namespace dist = colx::dist;
using colx::test::check_gathered;

namespace {

using left_schema = colx::schema<colx::field<"k", std::int64_t, colx::nullable>, colx::field<"v", std::int64_t>>;
using right_schema = colx::schema<colx::field<"rk", std::int64_t, colx::nullable>, colx::field<"w", std::int32_t, colx::nullable>>;
using right_rows = std::vector<std::optional<std::int64_t>>;

enum class key_form { unique, repeated, one_key_crowds_a_band };

// n right keys: a permutation of [-n/3, 2n/3), each value three times, or unique but for 4,000
// rows of one key; null where i % 61 == 5 (few: where nulls match, each left null meets every one).
right_rows right_keys(size_type n, key_form form) {
  right_rows k(static_cast<std::size_t>(n));
  for (std::size_t i = 0; i < k.size(); ++i) {
    if (i % 61 == 5) { continue; }
    auto const u = static_cast<std::int64_t>((i * 7919) % k.size()) - n / 3;
    k[i] = form == key_form::repeated ? u / 3 : form == key_form::one_key_crowds_a_band && i < 4000 ? 42 : u;
  }
  return k;
}
colx::frame<right_schema> right_frame(right_rows const& k) {
  std::vector<std::optional<std::int32_t>> w(k.size());
  for (std::size_t i = 0; i < k.size(); ++i) {
    if (i % 97 != 0) { w[i] = static_cast<std::int32_t>(i); }  // (few nulls: where they match, one key)
  }
  auto const mr = colx::test::backend_resource();
  return colx::frame<right_schema>(colx::make_column<std::int64_t>(k, {}, mr), colx::make_column<std::int32_t>(w, {}, mr));
}
// n left rows whose keys fall about two thirds on the right's (and a few on 42), nulls where i % 1009 == 0.
colx::frame<left_schema> left_frame(size_type n, size_type right_n) {
  std::vector<std::optional<std::int64_t>> k(static_cast<std::size_t>(n));
  std::vector<std::int64_t> v(k.size());
  for (std::size_t i = 0; i < k.size(); ++i) {
    if (i % 1009 != 0) { k[i] = static_cast<std::int64_t>(colx::detail::mix64(i) % static_cast<std::uint64_t>(right_n + right_n / 2)) - right_n / 3; }
    if (i % 10007 == 3) { k[i] = 42; }  // a few: each meets every right row of 42
    v[i] = static_cast<std::int64_t>(i);
  }
  auto const mr = colx::test::backend_resource();
  return colx::frame<left_schema>(colx::make_column<std::int64_t>(k, {}, mr), colx::make_column<std::int64_t>(v, {}, mr));
}

// Sends any right side of at least one row whole, in slot order, and restores the limits after.
struct large_broadcast {
  dist::strategy_limits saved = dist::limits();
  explicit large_broadcast(dist::strategy_limits::broadcast_table how) {
    dist::limits().broadcast_rows = 0;
    dist::limits().broadcast_share = 1e9;
    dist::limits().slot_order_rows = 0;
    dist::limits().broadcast_build = how;
  }
  ~large_broadcast() { dist::limits() = saved; }
};

}  // namespace

TEST_CASE("a large right side sent whole is built a band of slots at a time, the same answers", "[dist]") {
  auto& world = colx::test::world();
  // 20,011 right rows: a table of 2^16 slots, 16 bands (the fewest built so) of about 1,250 rows.
  size_type const n = 20011;
  auto const l = left_frame(30011, n);
  auto const dl = dist::scatter(world, l);
  using table = dist::strategy_limits::broadcast_table;
  // (In one process the join is the local one whatever the mode.)
  auto const modes = world.size() > 1 ? std::vector<table>{table::in_bands, table::while_receiving, table::after}
                                      : std::vector<table>{table::in_bands};
  for (key_form const form : {key_form::unique, key_form::repeated, key_form::one_key_crowds_a_band}) {
    CAPTURE(static_cast<int>(form));
    auto const r = right_frame(right_keys(n, form));
    auto const dr = dist::scatter(world, r);
    for (table const how : modes) {
      CAPTURE(static_cast<int>(how));
      large_broadcast const broadcast(how);
      check_gathered(dl | colx::join(dr, colx::on("k"_c), colx::on("rk"_c)), l | colx::join(r, colx::on("k"_c), colx::on("rk"_c)));
      check_gathered(dl | colx::join<colx::join_kind::left>(dr, colx::on("k"_c), colx::on("rk"_c)),
                     l | colx::join<colx::join_kind::left>(r, colx::on("k"_c), colx::on("rk"_c)));
    }
    // Null keys that match each other: the table's words are the keys' hashes (no room for a
    // null bit beside an int64), and rows whose hashes agree are compared.
    large_broadcast const broadcast(table::in_bands);
    colx::join_options const nulls_equal{.nulls_equal = true};
    check_gathered(dl | colx::join(dr, colx::on("k"_c), colx::on("rk"_c), nulls_equal),
                   l | colx::join(r, colx::on("k"_c), colx::on("rk"_c), nulls_equal));
  }
}

namespace {

// The rows of `k` in runs of the given sizes, each put in the order of its rows' bands for the
// keys `on` by the broadcast's own sort (its order is checked in colocated_test.cpp).
struct right_columns {
  right_rows keys;
  std::vector<std::optional<std::int32_t>> w;
  [[nodiscard]] colx::frame<right_schema> frame() const {
    auto const mr = colx::test::backend_resource();
    return colx::frame<right_schema>(colx::make_column<std::int64_t>(keys, {}, mr), colx::make_column<std::int32_t>(w, {}, mr));
  }
};
template <class On>
right_columns in_band_runs(right_rows const& k, std::vector<size_type> const& sizes, On on, colx::join_options options) {
  right_columns out;
  size_type first = 0;
  for (size_type const size : sizes) {
    right_rows const piece(k.begin() + first, k.begin() + first + size);
    auto const ordered = dist::detail::in_slot_order(right_frame(piece), on, static_cast<size_type>(k.size()), options, {});
    auto const rk = colx::test::read(ordered["rk"_c]);
    auto const rw = colx::test::read(ordered["w"_c]);
    out.keys.insert(out.keys.end(), rk.begin(), rk.end());
    out.w.insert(out.w.end(), rw.begin(), rw.end());
    first += size;
  }
  return out;
}
// Left rows whose (k, v) are the right rows' (rk, w) at every third row, spread, with v = -1
// where w is null, and misses between: for keys of two columns, whose entries hold a tag.
colx::frame<left_schema> left_pairs(right_columns const& r) {
  std::size_t const n = r.keys.size();
  std::vector<std::optional<std::int64_t>> k(n);
  std::vector<std::int64_t> v(n);
  for (std::size_t j = 0; j < n; ++j) {
    std::size_t const from = (j * 7919) % n;
    k[j] = j % 3 == 0 ? r.keys[from] : std::optional<std::int64_t>(static_cast<std::int64_t>(j) + 3 * static_cast<std::int64_t>(n));
    v[j] = r.w[from] ? *r.w[from] : -1;
  }
  auto const mr = colx::test::backend_resource();
  return colx::frame<left_schema>(colx::make_column<std::int64_t>(k, {}, mr), colx::make_column<std::int64_t>(v, {}, mr));
}

// The banded table of `r` against the ordinary one: the same inner, left, semi and anti answers.
template <class LeftOn, class RightOn>
void check_against_plain(colx::frame<left_schema> const& l, right_columns const& columns, std::vector<size_type> const& runs,
                         LeftOn lon, RightOn ron, colx::join_options options, bool banded) {
  auto const r = columns.frame();
  auto const built = colx::build_from_runs(r, ron, std::span<size_type const>(runs), options);
  CHECK(built.mask() == (std::uint64_t{1} << 16) - 1);
  CHECK(built.wrap() == (banded ? (std::uint64_t{1} << 12) - 1 : built.mask()));
  using colx::join_kind;
  using colx::test::sorted_rows_of;
  CHECK(sorted_rows_of(l | colx::join(built, lon, ron, options)) == sorted_rows_of(l | colx::join(r, lon, ron, options)));
  CHECK(sorted_rows_of(l | colx::join<join_kind::left>(built, lon, ron, options)) ==
        sorted_rows_of(l | colx::join<join_kind::left>(r, lon, ron, options)));
  CHECK(sorted_rows_of(l | colx::join<join_kind::semi>(built, lon, ron, options)) ==
        sorted_rows_of(l | colx::join<join_kind::semi>(r, lon, ron, options)));
  CHECK(sorted_rows_of(l | colx::join<join_kind::anti>(built, lon, ron, options)) ==
        sorted_rows_of(l | colx::join<join_kind::anti>(r, lon, ron, options)));
}

}  // namespace

TEST_CASE("join_build's banded constructor: bands where they fit, the ordinary table where not", "[dist]") {
  size_type const n = 20011;  // a table of 2^16 slots, 16 bands
  std::vector<size_type> const sizes{8000, 0, 12010, 1};
  std::vector<size_type> const runs{0, 8000, 8000, 20010, 20011};
  auto const l = left_frame(15013, n);
  for (bool const nulls_equal : {false, true}) {
    CAPTURE(nulls_equal);
    colx::join_options const options{.nulls_equal = nulls_equal};
    for (key_form const form : {key_form::unique, key_form::repeated, key_form::one_key_crowds_a_band}) {
      CAPTURE(static_cast<int>(form));
      // An int64 key: packed in the entry (its hash where nulls match). 4,000 rows of one key
      // would take all but 96 of their band's 4,096 slots: the ordinary table.
      auto const columns = in_band_runs(right_keys(n, form), sizes, colx::on("rk"_c), options);
      check_against_plain(l, columns, runs, colx::on("k"_c), colx::on("rk"_c), options, form != key_form::one_key_crowds_a_band);
      auto const built = colx::build_from_runs(columns.frame(), colx::on("rk"_c), std::span<size_type const>(runs), options);
      CHECK(built.unique_keys() == (form == key_form::unique && !nulls_equal));
    }
    // An int32 key with its null bit packed beside it (where nulls match: its 207 nulls are then
    // one key of one band); and two keys, whose entries hold a tag of their hash.
    auto const by_w = in_band_runs(right_keys(n, key_form::unique), sizes, colx::on("w"_c), options);
    check_against_plain(l, by_w, runs, colx::on("v"_c), colx::on("w"_c), options, true);
    auto const by_both = in_band_runs(right_keys(n, key_form::repeated), sizes, colx::on("rk"_c, "w"_c), options);
    check_against_plain(left_pairs(by_both), by_both, runs, colx::on("k"_c, "v"_c), colx::on("rk"_c, "w"_c), options, true);
  }
  // 16,384 rows or fewer: a table of fewer than 16 bands (it fits in L2), built row by row.
  auto const small = in_band_runs(right_keys(1000, key_form::unique), {1000}, colx::on("rk"_c), {}).frame();
  std::vector<size_type> const one_run{0, 1000};
  CHECK(colx::build_from_runs(small, colx::on("rk"_c), std::span<size_type const>(one_run)).wrap() == (std::uint64_t{1} << 11) - 1);
}

TEST_CASE("join_build's banded constructor refuses runs out of band order and bounds that are not the rows'", "[dist]") {
  size_type const n = 20011;
  std::vector<size_type> const runs{0, 10000, n};
  // The first run's first row (of its first band) and its last row with a key (of a later band)
  // swapped: the run is no longer in band order, which would lose rows.
  auto columns = in_band_runs(right_keys(n, key_form::unique), {10000, n - 10000}, colx::on("rk"_c), {});
  std::size_t last = 9999;
  while (!columns.keys[last]) { --last; }
  std::swap(columns.keys[0], columns.keys[last]);
  std::swap(columns.w[0], columns.w[last]);
  auto const unordered = columns.frame();
  CHECK_THROWS_WITH(colx::build_from_runs(unordered, colx::on("rk"_c), std::span<size_type const>(runs)),
                    Catch::Contains("in the order of the bands") && Catch::Contains("row 1 is not"));
  std::vector<size_type> const short_runs{0, 10000};
  std::vector<size_type> const backwards{0, 15000, 10000, n};
  CHECK_THROWS_WITH(colx::build_from_runs(unordered, colx::on("rk"_c), std::span<size_type const>(short_runs)), Catch::Contains("runs of rows"));
  CHECK_THROWS_WITH(colx::build_from_runs(unordered, colx::on("rk"_c), std::span<size_type const>(backwards)), Catch::Contains("runs of rows"));
}
