// SPDX-License-Identifier: Apache-2.0
// Hash joins on the backend under test, against a nested loop over both sides: inner, left,
// right, full, semi and anti; duplicate keys on both sides; null keys, which match nothing unless
// join_options::nulls_equal; two key columns named differently on each side; string and nullable
// payloads; a filtered probe side (and a filtered build side); a build side hashed once and probed
// twice; join_rows' index pairs; empty sides. A probe row's matches come in an unspecified order,
// so results are compared as sorted multisets of rows; what is specified is checked too: probe
// rows in probe order, then (right and full joins) the unmatched build rows.
#include "support/backend.hpp"
#include "support/rows.hpp"

#include <colx/frame/join.hpp>

#include <catch2/catch.hpp>

#include <algorithm>
#include <cstdint>
#include <optional>
#include <random>
#include <string>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

using namespace colx::literals;

namespace {

using colx::join_kind;
using colx::size_type;
using colx::test::backend_resource;

template <class T>
using optionals = std::vector<std::optional<T>>;

using L = colx::schema<colx::field<"k", std::int32_t>, colx::field<"id", std::int32_t, colx::not_null>, colx::field<"a", std::int64_t>,
                       colx::field<"ls", colx::string_view>>;
using R = colx::schema<colx::field<"k", std::int32_t>, colx::field<"rid", std::int32_t, colx::not_null>, colx::field<"b", double>,
                       colx::field<"rs", colx::string_view>>;

struct left_rows {
  optionals<std::int32_t> k;
  std::vector<std::int32_t> id;
  optionals<std::int64_t> a;
  optionals<std::string> ls;
  [[nodiscard]] auto row(std::size_t i) const { return std::tuple(k[i], std::optional<std::int32_t>(id[i]), a[i], ls[i]); }
};
struct right_rows {
  optionals<std::int32_t> k;
  std::vector<std::int32_t> rid;
  optionals<double> b;
  optionals<std::string> rs;
  // Without the key, which no join on a same-named key repeats.
  [[nodiscard]] auto payload(std::size_t j) const { return std::tuple(std::optional<std::int32_t>(rid[j]), b[j], rs[j]); }
};

// Keys in [0, key_range), 10% null: duplicates on both sides.
left_rows random_left(std::size_t n, int key_range, std::uint64_t seed) {
  std::mt19937_64 gen(seed);
  left_rows l;
  for (std::size_t i = 0; i < n; ++i) {
    l.k.push_back(gen() % 10 == 0 ? std::nullopt : std::optional<std::int32_t>(static_cast<std::int32_t>(gen() % key_range)));
    l.id.push_back(static_cast<std::int32_t>(i));
    l.a.push_back(gen() % 5 == 0 ? std::nullopt : std::optional<std::int64_t>(static_cast<std::int64_t>(gen() % 1000) - 500));
    // Strings are built with append, not "literal" + std::string: at -O3, g++ 12 inlines that operator+
    // (an insert at position 0) and warns falsely (-Wrestrict, -Wstringop-overflow) of copies of 2^63
    // bytes; the literal is never longer than its buffer.
    l.ls.push_back(gen() % 6 == 0 ? std::nullopt : std::optional<std::string>(std::string("left ").append(std::to_string(gen() % 50))));
  }
  return l;
}
right_rows random_right(std::size_t n, int key_range, std::uint64_t seed) {
  std::mt19937_64 gen(seed);
  right_rows r;
  for (std::size_t j = 0; j < n; ++j) {
    r.k.push_back(gen() % 10 == 0 ? std::nullopt : std::optional<std::int32_t>(static_cast<std::int32_t>(gen() % key_range)));
    r.rid.push_back(static_cast<std::int32_t>(j));
    r.b.push_back(gen() % 5 == 0 ? std::nullopt : std::optional<double>(static_cast<double>(gen() % 1000) / 8.0));
    r.rs.push_back(gen() % 6 == 0 ? std::nullopt : std::optional<std::string>(std::string(gen() % 30, 'r') + "ight"));
  }
  return r;
}

colx::frame<L> make_left(left_rows const& l) {
  auto const mr = backend_resource();
  return colx::frame<L>(colx::make_column<std::int32_t>(l.k, {}, mr), colx::make_column<std::int32_t>(l.id, {}, mr),
                        colx::make_column<std::int64_t>(l.a, {}, mr), colx::make_strings_column(l.ls, colx::type_id::int32, {}, mr));
}
colx::frame<R> make_right(right_rows const& r) {
  auto const mr = backend_resource();
  return colx::frame<R>(colx::make_column<std::int32_t>(r.k, {}, mr), colx::make_column<std::int32_t>(r.rid, {}, mr),
                        colx::make_column<double>(r.b, {}, mr), colx::make_strings_column(r.rs, colx::type_id::int32, {}, mr));
}

// ---- reading results ------------------------------------------------------------------------------

using colx::test::read;

using colx::test::sorted_rows_of;

using colx::test::sorted_pairs_of;

// Probe rows come in probe order (id never decreases), then the build rows no probe row matched
// (right and full joins: id null).
template <class Frame>
void check_probe_order(Frame const& out) {
  auto const id = read(out["id"_c]);
  bool in_unmatched = false;
  std::int32_t last = -1;
  bool ordered = true;
  for (auto const& v : id) {
    if (!v) {
      in_unmatched = true;
    } else {
      ordered = ordered && !in_unmatched && *v >= last;
      last = *v;
    }
  }
  CHECK(ordered);
}

// ---- the reference ---------------------------------------------------------------------------------

// (left row, right row) of each output row, -1 for none, as a nested loop finds them.
template <class Keep, class Match>
std::vector<std::pair<size_type, size_type>> reference_pairs(join_kind how, std::size_t nl, std::size_t nr, Keep keep, Match match) {
  std::vector<std::pair<size_type, size_type>> out;
  std::vector<bool> matched(nr, false);
  for (std::size_t i = 0; i < nl; ++i) {
    if (!keep(i)) { continue; }
    std::size_t found = 0;
    for (std::size_t j = 0; j < nr; ++j) {
      if (!match(i, j)) { continue; }
      ++found;
      matched[j] = true;
      if (how == join_kind::inner || how == join_kind::left || how == join_kind::right || how == join_kind::full) {
        out.emplace_back(static_cast<size_type>(i), static_cast<size_type>(j));
      }
    }
    bool const keeps_unmatched = how == join_kind::left || how == join_kind::full || how == join_kind::anti;
    if ((found == 0 && keeps_unmatched) || (found > 0 && how == join_kind::semi)) { out.emplace_back(static_cast<size_type>(i), -1); }
  }
  if (how == join_kind::right || how == join_kind::full) {
    for (std::size_t j = 0; j < nr; ++j) {
      if (!matched[j]) { out.emplace_back(-1, static_cast<size_type>(j)); }
    }
  }
  std::sort(out.begin(), out.end());
  return out;
}

// The output rows of those pairs: left part (or nulls), then right part (or nulls).
template <class LeftRow, class RightRow>
auto rows_from_pairs(std::vector<std::pair<size_type, size_type>> const& pairs, LeftRow left_row, RightRow right_row) {
  using left_t = decltype(left_row(std::size_t{0}));
  using right_t = decltype(right_row(std::size_t{0}));
  using row = decltype(std::tuple_cat(std::declval<left_t>(), std::declval<right_t>()));
  std::vector<row> out;
  for (auto const& [i, j] : pairs) {
    out.push_back(std::tuple_cat(i >= 0 ? left_row(static_cast<std::size_t>(i)) : left_t{},
                                 j >= 0 ? right_row(static_cast<std::size_t>(j)) : right_t{}));
  }
  std::sort(out.begin(), out.end());
  return out;
}
template <class LeftRow>
auto left_rows_from_pairs(std::vector<std::pair<size_type, size_type>> const& pairs, LeftRow left_row) {
  std::vector<decltype(left_row(std::size_t{0}))> out;
  for (auto const& [i, j] : pairs) { out.push_back(left_row(static_cast<std::size_t>(i))); }
  std::sort(out.begin(), out.end());
  return out;
}

template <class T>
bool keys_match(std::optional<T> const& a, std::optional<T> const& b, bool nulls_equal) {
  if (!a || !b) { return nulls_equal && !a && !b; }
  return *a == *b;
}

// One join kind of l and r on "k", against the reference, and its join_rows when `with_rows`.
template <join_kind How>
void check_kind(colx::frame<L> const& lf, colx::frame<R> const& rf, left_rows const& l, right_rows const& r, bool nulls_equal) {
  CAPTURE(static_cast<int>(How), nulls_equal);
  auto const match = [&](std::size_t i, std::size_t j) { return keys_match(l.k[i], r.k[j], nulls_equal); };
  auto const pairs = reference_pairs(How, l.id.size(), r.rid.size(), [](std::size_t) { return true; }, match);
  auto const out = lf | colx::join<How>(rf, colx::on("k"_c), colx::join_options{.nulls_equal = nulls_equal});
  auto const got = sorted_rows_of(out);
  auto const left_row = [&](std::size_t i) { return l.row(i); };
  if constexpr (How == join_kind::semi || How == join_kind::anti) {
    STATIC_REQUIRE(std::is_same_v<typename decltype(out)::schema_type, L>);
    CHECK(got == left_rows_from_pairs(pairs, left_row));
  } else if constexpr (How == join_kind::inner || How == join_kind::left) {
    constexpr auto right_nulls = How == join_kind::left ? colx::nullable : colx::not_null;
    using want_schema = colx::schema<colx::field<"k", std::int32_t>, colx::field<"id", std::int32_t, colx::not_null>,
                                     colx::field<"a", std::int64_t>, colx::field<"ls", colx::string_view>,
                                     colx::field<"rid", std::int32_t, right_nulls>, colx::field<"b", double>,
                                     colx::field<"rs", colx::string_view>>;
    STATIC_REQUIRE(std::is_same_v<typename decltype(out)::schema_type, want_schema>);
    CHECK(got == rows_from_pairs(pairs, left_row, [&](std::size_t j) { return r.payload(j); }));
  } else {
    // Right and full: every left column nullable; one "k", the right row's key where there is
    // no left row (as in pandas).
    constexpr auto right_nulls = How == join_kind::full ? colx::nullable : colx::not_null;
    using want_schema = colx::schema<colx::field<"k", std::int32_t>, colx::field<"id", std::int32_t>, colx::field<"a", std::int64_t>,
                                     colx::field<"ls", colx::string_view>, colx::field<"rid", std::int32_t, right_nulls>,
                                     colx::field<"b", double>, colx::field<"rs", colx::string_view>>;
    STATIC_REQUIRE(std::is_same_v<typename decltype(out)::schema_type, want_schema>);
    auto want = rows_from_pairs(pairs, left_row, [&](std::size_t j) { return r.payload(j); });
    for (auto& row : want) {
      if (!std::get<1>(row)) { std::get<0>(row) = r.k[static_cast<std::size_t>(*std::get<4>(row))]; }  // no left row: rid's key
    }
    std::sort(want.begin(), want.end());
    CHECK(got == want);
  }
  check_probe_order(out);

  if constexpr (How == join_kind::inner || How == join_kind::left || How == join_kind::full) {
    CHECK(sorted_pairs_of(colx::join_rows<How>(lf, rf, colx::on("k"_c), colx::on("k"_c), colx::join_options{.nulls_equal = nulls_equal})) ==
          pairs);
  }
}

}  // namespace

// ---------------------------------------------------------------------------------------------------

TEST_CASE("join: every kind against a nested loop, with duplicate and null keys", "[frame]") {
  struct sizes {
    std::size_t left, right;
    int key_range;
  };
  // Empty sides; one row each; few keys (many duplicates); sparse keys; a probe side large
  // enough to run in parallel on the host; a large build side.
  for (auto const s : {sizes{0, 0, 4}, sizes{0, 7, 4}, sizes{9, 0, 4}, sizes{1, 1, 1}, sizes{50, 40, 8}, sizes{1000, 700, 100},
                       sizes{1500, 1000, 1000}, sizes{33000, 16, 400}, sizes{100, 5000, 100}}) {
    CAPTURE(s.left, s.right, s.key_range);
    auto const l = random_left(s.left, s.key_range, 1 + s.left);
    auto const r = random_right(s.right, s.key_range, 2 + s.right);
    auto const lf = make_left(l);
    auto const rf = make_right(r);
    // The large probe side only where the output is small (a sanitizer build pays for every row).
    bool const every_kind = s.left < 10000;
    for (bool const nulls_equal : {false, true}) {
      check_kind<join_kind::inner>(lf, rf, l, r, nulls_equal);
      check_kind<join_kind::right>(lf, rf, l, r, nulls_equal);
      check_kind<join_kind::semi>(lf, rf, l, r, nulls_equal);
      if (every_kind) {
        check_kind<join_kind::left>(lf, rf, l, r, nulls_equal);
        check_kind<join_kind::full>(lf, rf, l, r, nulls_equal);
        check_kind<join_kind::anti>(lf, rf, l, r, nulls_equal);
      }
    }
  }
}

// Forces every probe through the counting and writing passes while it lives (a test hook).
struct two_pass_probes {
  explicit two_pass_probes(bool on) { colx::detail::forced_two_pass_probe().store(on); }
  two_pass_probes(two_pass_probes const&) = delete;
  two_pass_probes& operator=(two_pass_probes const&) = delete;
  ~two_pass_probes() { colx::detail::forced_two_pass_probe().store(false); }
};

TEST_CASE("join: a build side with unique keys takes the one-pass probe", "[frame]") {
  // Build keys: a shuffled permutation of [0, m) with one null (unique even when nulls match);
  // then the same with one key repeated (the two-pass probe). Probe keys in [0, 2m), 10% null.
  // Each also forced through the two passes, which must agree with the one.
  for (std::size_t const m : {std::size_t{1}, std::size_t{2}, std::size_t{257}, std::size_t{5000}}) {
    for (bool const repeat : {false, true}) {
      if (repeat && m < 2) { continue; }
      CAPTURE(m, repeat);
      auto r = random_right(m, 1, 3 + m);
      std::vector<std::int32_t> keys(m);
      for (std::size_t j = 0; j < m; ++j) { keys[j] = static_cast<std::int32_t>(j); }
      std::shuffle(keys.begin(), keys.end(), std::mt19937_64(m));
      for (std::size_t j = 0; j < m; ++j) { r.k[j] = keys[j]; }
      r.k[m / 2] = std::nullopt;
      if (repeat) { r.k[m - 1] = r.k[0] ? r.k[0] : r.k[1]; }
      auto const l = random_left(3001, static_cast<int>(2 * m), 7 + m);
      auto const lf = make_left(l);
      auto const rf = make_right(r);
      CHECK(colx::build(rf, colx::on("k"_c)).unique_keys() == !repeat);
      for (bool const forced : {false, true}) {
        CAPTURE(forced);
        two_pass_probes const two_pass(forced);
        for (bool const nulls_equal : {false, true}) {
          check_kind<join_kind::inner>(lf, rf, l, r, nulls_equal);
          check_kind<join_kind::left>(lf, rf, l, r, nulls_equal);
          check_kind<join_kind::semi>(lf, rf, l, r, nulls_equal);
          check_kind<join_kind::anti>(lf, rf, l, r, nulls_equal);
        }
      }
    }
  }
}

// Two sides joined on two key columns named differently: (a, s) on the left, (x, y) on the right.
using L2 = colx::schema<colx::field<"a", std::int32_t>, colx::field<"s", colx::string_view>, colx::field<"p", std::int32_t, colx::not_null>>;
using R2 = colx::schema<colx::field<"x", std::int32_t>, colx::field<"y", colx::string_view>, colx::field<"q", double, colx::not_null>>;
struct two_key_sides {
  optionals<std::int32_t> a, x;
  optionals<std::string> s, y;
  std::vector<std::int32_t> p;
  std::vector<double> q;
  [[nodiscard]] colx::frame<L2> left() const {
    auto const mr = backend_resource();
    return colx::frame<L2>(colx::make_column<std::int32_t>(a, {}, mr), colx::make_strings_column(s, colx::type_id::int32, {}, mr),
                           colx::make_column<std::int32_t>(p, {}, mr));
  }
  [[nodiscard]] colx::frame<R2> right() const {
    auto const mr = backend_resource();
    return colx::frame<R2>(colx::make_column<std::int32_t>(x, {}, mr), colx::make_strings_column(y, colx::type_id::int32, {}, mr),
                           colx::make_column<double>(q, {}, mr));
  }
  [[nodiscard]] auto left_row(std::size_t i) const { return std::tuple(a[i], s[i], std::optional<std::int32_t>(p[i])); }
  [[nodiscard]] auto right_row(std::size_t j) const { return std::tuple(x[j], y[j], std::optional<double>(q[j])); }
  // The output rows of (left row, right row) pairs, sorted.
  [[nodiscard]] auto rows_of(std::vector<std::pair<size_type, size_type>> const& pairs) const {
    return rows_from_pairs(pairs, [this](std::size_t i) { return left_row(i); }, [this](std::size_t j) { return right_row(j); });
  }
  [[nodiscard]] bool match(std::size_t i, std::size_t j, bool nulls_equal) const {
    return keys_match(a[i], x[j], nulls_equal) && keys_match(s[i], y[j], nulls_equal);
  }
};

TEST_CASE("join: two key columns named differently on each side", "[frame]") {
  for (std::size_t const n : {std::size_t{0}, std::size_t{1}, std::size_t{60}, std::size_t{1000}}) {
    CAPTURE(n);
    std::mt19937_64 gen(n + 5);
    char const* words[] = {"x", "y", "h\xc3\xa9llo"};
    auto const random_int = [&] { return gen() % 8 == 0 ? std::nullopt : std::optional<std::int32_t>(static_cast<std::int32_t>(gen() % 16)); };
    auto const random_word = [&] { return gen() % 8 == 0 ? std::nullopt : std::optional<std::string>(words[gen() % 3]); };
    two_key_sides t;
    std::size_t const nr = n / 2 + 3;
    for (std::size_t i = 0; i < n; ++i) {
      t.a.push_back(random_int());
      t.s.push_back(random_word());
      t.p.push_back(static_cast<std::int32_t>(i));
    }
    for (std::size_t j = 0; j < nr; ++j) {
      t.x.push_back(random_int());
      t.y.push_back(random_word());
      t.q.push_back(static_cast<double>(j) + 0.5);
    }
    auto const lf = t.left();
    auto const rf = t.right();
    for (bool const nulls_equal : {false, true}) {
      CAPTURE(nulls_equal);
      auto const match = [&](std::size_t i, std::size_t j) { return t.match(i, j, nulls_equal); };
      auto const all = [](std::size_t) { return true; };
      colx::join_options const o{.nulls_equal = nulls_equal};

      auto const inner = lf | colx::join(rf, colx::on("a"_c, "s"_c), colx::on("x"_c, "y"_c), o);
      STATIC_REQUIRE(std::is_same_v<typename decltype(inner)::schema_type,
                                    colx::schema<colx::field<"a", std::int32_t>, colx::field<"s", colx::string_view>,
                                                 colx::field<"p", std::int32_t, colx::not_null>, colx::field<"x", std::int32_t>,
                                                 colx::field<"y", colx::string_view>, colx::field<"q", double, colx::not_null>>>);
      CHECK(sorted_rows_of(inner) == t.rows_of(reference_pairs(join_kind::inner, n, nr, all, match)));

      // Full: no key is named alike on both sides, so nothing is renamed.
      auto const full = lf | colx::join<join_kind::full>(rf, colx::on("a"_c, "s"_c), colx::on("x"_c, "y"_c), o);
      STATIC_REQUIRE(std::is_same_v<typename decltype(full)::schema_type,
                                    colx::schema<colx::field<"a", std::int32_t>, colx::field<"s", colx::string_view>,
                                                 colx::field<"p", std::int32_t>, colx::field<"x", std::int32_t>,
                                                 colx::field<"y", colx::string_view>, colx::field<"q", double>>>);
      CHECK(sorted_rows_of(full) == t.rows_of(reference_pairs(join_kind::full, n, nr, all, match)));
    }
  }
}

// Keys that do not pack: duplicates are noticed while inserting by comparing the keys of the row
// holding a slot, and unique keys send inner and left joins through the one-pass probe.
TEST_CASE("join: unique build keys that do not pack (an int and a string)", "[frame]") {
  enum class build_keys { unique, repeated, two_null_keys };
  for (std::size_t const nr : {std::size_t{3}, std::size_t{5}, std::size_t{1000}, std::size_t{4099}}) {
    for (build_keys const variant : {build_keys::unique, build_keys::repeated, build_keys::two_null_keys}) {
      CAPTURE(nr, static_cast<int>(variant));
      two_key_sides t;
      for (std::size_t j = 0; j < nr; ++j) {
        t.x.emplace_back(static_cast<std::int32_t>(j / 3));
        t.y.emplace_back(std::string("w").append(std::to_string(j % 3)));
        t.q.push_back(static_cast<double>(j) + 0.25);
      }
      t.x[nr / 2] = std::nullopt;  // a null key: matches only with nulls_equal
      if (variant == build_keys::repeated) {
        t.x[nr - 1] = t.x[0];
        t.y[nr - 1] = t.y[0];
      }
      if (variant == build_keys::two_null_keys) {
        t.x[nr - 1] = std::nullopt;
        t.y[nr - 1] = t.y[nr / 2];
      }
      std::mt19937_64 gen(nr);
      std::size_t const nl = 3001;
      for (std::size_t i = 0; i < nl; ++i) {
        t.a.push_back(gen() % 20 == 0 ? std::nullopt : std::optional<std::int32_t>(static_cast<std::int32_t>(gen() % (nr / 3 + 2))));
        t.s.push_back(gen() % 20 == 0 ? std::nullopt : std::optional<std::string>(std::string("w").append(std::to_string(gen() % 4))));
        t.p.push_back(static_cast<std::int32_t>(i));
      }
      auto const lf = t.left();
      auto const rf = t.right();
      for (bool const nulls_equal : {false, true}) {
        CAPTURE(nulls_equal);
        auto const built = colx::build(rf, colx::on("x"_c, "y"_c), colx::join_options{.nulls_equal = nulls_equal});
        bool const unique = variant == build_keys::unique || (variant == build_keys::two_null_keys && !nulls_equal);
        CHECK(built.unique_keys() == unique);
        auto const match = [&](std::size_t i, std::size_t j) { return t.match(i, j, nulls_equal); };
        auto const all = [](std::size_t) { return true; };
        auto const inner = lf | colx::join(built, colx::on("a"_c, "s"_c), colx::on("x"_c, "y"_c));
        CHECK(sorted_rows_of(inner) == t.rows_of(reference_pairs(join_kind::inner, nl, nr, all, match)));
        auto const left = lf | colx::join<join_kind::left>(built, colx::on("a"_c, "s"_c), colx::on("x"_c, "y"_c));
        CHECK(sorted_rows_of(left) == t.rows_of(reference_pairs(join_kind::left, nl, nr, all, match)));
        CHECK(sorted_pairs_of(colx::join_rows(lf, built, colx::on("a"_c, "s"_c), colx::on("x"_c, "y"_c))) ==
              reference_pairs(join_kind::inner, nl, nr, all, match));
      }
    }
  }
}

TEST_CASE("join: a filtered probe side, and a filtered build side", "[frame]") {
  for (std::size_t const n : {std::size_t{0}, std::size_t{33}, std::size_t{3000}}) {
    CAPTURE(n);
    auto const l = random_left(n, 100, 10 + n);
    auto const r = random_right(n / 10 + 1, 100, 20 + n);
    auto const lf = make_left(l);
    auto const rf = make_right(r);
    auto const nl = l.id.size();
    auto const nr = r.rid.size();
    // Kleene: a null a makes the predicate null, and the row goes.
    auto const kept = [&](std::size_t i) { return l.a[i].has_value() && *l.a[i] > -100; };
    auto const all = [](std::size_t) { return true; };
    auto const match = [&](std::size_t i, std::size_t j) { return keys_match(l.k[i], r.k[j], false); };
    auto const left_row = [&](std::size_t i) { return l.row(i); };
    auto const probe = lf | colx::filter("a"_c > -100);

    auto const inner = probe | colx::join(rf, colx::on("k"_c));
    CHECK(sorted_rows_of(inner) == rows_from_pairs(reference_pairs(join_kind::inner, nl, nr, kept, match), left_row,
                                                   [&](std::size_t j) { return r.payload(j); }));
    check_probe_order(inner);
    // Right: build rows matched only by filtered-out probe rows count as unmatched.
    auto const right = probe | colx::join<join_kind::right>(rf, colx::on("k"_c));
    auto want_right = rows_from_pairs(reference_pairs(join_kind::right, nl, nr, kept, match), left_row,
                                      [&](std::size_t j) { return r.payload(j); });
    for (auto& row : want_right) {
      if (!std::get<1>(row)) { std::get<0>(row) = r.k[static_cast<std::size_t>(*std::get<4>(row))]; }
    }
    std::sort(want_right.begin(), want_right.end());
    CHECK(sorted_rows_of(right) == want_right);
    check_probe_order(right);
    auto const anti = probe | colx::join<join_kind::anti>(rf, colx::on("k"_c));
    CHECK(sorted_rows_of(anti) == left_rows_from_pairs(reference_pairs(join_kind::anti, nl, nr, kept, match), left_row));
    // join_rows of a filtered frame: row numbers in the unfiltered frame.
    CHECK(sorted_pairs_of(colx::join_rows<join_kind::left>(probe, rf, colx::on("k"_c), colx::on("k"_c))) ==
          reference_pairs(join_kind::left, nl, nr, kept, match));

    // A filtered build side.
    auto const build_kept = [&](std::size_t j) { return r.b[j].has_value() && *r.b[j] < 60.0; };
    auto const filtered_match = [&](std::size_t i, std::size_t j) { return build_kept(j) && match(i, j); };
    auto const inner_filtered_build = lf | colx::join(rf | colx::filter("b"_c < 60.0), colx::on("k"_c));
    CHECK(sorted_rows_of(inner_filtered_build) == rows_from_pairs(reference_pairs(join_kind::inner, nl, nr, all, filtered_match),
                                                                  left_row, [&](std::size_t j) { return r.payload(j); }));
  }
}

// A semi or anti join whose right side has more rows hashes the left side and marks the left rows
// the right's rows match (join/semi_by_left.hpp): the same rows, in probe order, as the probe of a
// prepared build of the right side (which keeps its role), with filters on either side.
TEST_CASE("join: semi and anti joins whose right side is the larger hash the left", "[frame]") {
  for (std::size_t const n : {std::size_t{0}, std::size_t{1}, std::size_t{37}, std::size_t{2500}}) {
    CAPTURE(n);
    auto const l = random_left(n, 60, 40 + n);
    auto const r = random_right(3 * n + 5, 60, 50 + n);
    auto const lf = make_left(l);
    auto const rf = make_right(r);
    auto const nl = l.id.size();
    auto const nr = r.rid.size();
    auto const left_row = [&](std::size_t i) { return l.row(i); };
    auto const kept = [&](std::size_t i) { return l.a[i].has_value() && *l.a[i] > -100; };
    auto const all = [](std::size_t) { return true; };
    for (bool const nulls_equal : {false, true}) {
      CAPTURE(nulls_equal);
      colx::join_options const options{.nulls_equal = nulls_equal};
      auto const match = [&](std::size_t i, std::size_t j) { return keys_match(l.k[i], r.k[j], nulls_equal); };
      auto const build_kept = [&](std::size_t j) { return r.b[j].has_value() && *r.b[j] < 60.0; };
      auto const filtered_match = [&](std::size_t i, std::size_t j) { return build_kept(j) && match(i, j); };
      auto const probe = lf | colx::filter("a"_c > -100);
      auto const build_side = rf | colx::filter("b"_c < 60.0);

      auto const semi = probe | colx::join<join_kind::semi>(build_side, colx::on("k"_c), options);
      CHECK(sorted_rows_of(semi) == left_rows_from_pairs(reference_pairs(join_kind::semi, nl, nr, kept, filtered_match), left_row));
      check_probe_order(semi);
      auto const anti = probe | colx::join<join_kind::anti>(build_side, colx::on("k"_c), options);
      CHECK(sorted_rows_of(anti) == left_rows_from_pairs(reference_pairs(join_kind::anti, nl, nr, kept, filtered_match), left_row));
      check_probe_order(anti);
      auto const unfiltered = lf | colx::join<join_kind::anti>(rf, colx::on("k"_c), options);
      CHECK(sorted_rows_of(unfiltered) == left_rows_from_pairs(reference_pairs(join_kind::anti, nl, nr, all, match), left_row));

      // The right side prepared as a build side is probed as always: the same answer.
      auto const built = colx::build(rf, colx::on("k"_c), options);
      CHECK(sorted_rows_of(probe | colx::join<join_kind::semi>(built, colx::on("k"_c))) ==
            sorted_rows_of(probe | colx::join<join_kind::semi>(rf, colx::on("k"_c), options)));
    }
  }
}

TEST_CASE("join: a build side hashed once and probed by two joins", "[frame]") {
  auto const l1 = random_left(500, 30, 31);
  auto const l2 = random_left(80, 30, 32);
  auto const r = random_right(300, 30, 33);
  auto const rf = make_right(r);
  auto const lf1 = make_left(l1);
  auto const lf2 = make_left(l2);
  for (bool const nulls_equal : {false, true}) {
    CAPTURE(nulls_equal);
    auto const built = colx::build(rf, colx::on("k"_c), colx::join_options{.nulls_equal = nulls_equal});
    auto const all = [](std::size_t) { return true; };
    auto const inner = lf1 | colx::join(built, colx::on("k"_c));
    auto const left = lf2 | colx::join<join_kind::left>(built, colx::on("k"_c));
    auto const inner_again = lf2 | colx::join(built, colx::on("k"_c));
    auto const match1 = [&](std::size_t i, std::size_t j) { return keys_match(l1.k[i], r.k[j], nulls_equal); };
    auto const match2 = [&](std::size_t i, std::size_t j) { return keys_match(l2.k[i], r.k[j], nulls_equal); };
    auto const payload = [&](std::size_t j) { return r.payload(j); };
    CHECK(sorted_rows_of(inner) == rows_from_pairs(reference_pairs(join_kind::inner, 500, 300, all, match1),
                                                   [&](std::size_t i) { return l1.row(i); }, payload));
    CHECK(sorted_rows_of(left) == rows_from_pairs(reference_pairs(join_kind::left, 80, 300, all, match2),
                                                  [&](std::size_t i) { return l2.row(i); }, payload));
    CHECK(sorted_rows_of(inner_again) == rows_from_pairs(reference_pairs(join_kind::inner, 80, 300, all, match2),
                                                         [&](std::size_t i) { return l2.row(i); }, payload));
    // The build side's index pairs, too.
    CHECK(sorted_pairs_of(colx::join_rows<join_kind::inner>(lf1, built, colx::on("k"_c), colx::on("k"_c))) ==
          reference_pairs(join_kind::inner, 500, 300, all, match1));
  }
}

namespace {
// A build side whose rows [first, first + count) go in first (a distributed broadcast's own rows,
// while the other ranks' arrive), the rest by insert_rest().
template <class Schema, class... Keys>
colx::join_build<colx::frame<Schema>, Keys...> staged_build(colx::frame<Schema> const& f, colx::join_keys<Keys...>,
                                                            colx::join_options options, size_type first, size_type count) {
  return {f, options, {}, first, count};
}
}  // namespace

TEST_CASE("join: a build side staged, some rows first and the rest after", "[frame]") {
  auto const l = random_left(400, 30, 41);
  auto const r = random_right(300, 30, 42);
  auto const lf = make_left(l);
  auto const rf = make_right(r);
  auto const all = [](std::size_t) { return true; };
  auto const payload = [&](std::size_t j) { return r.payload(j); };
  auto const left_row = [&](std::size_t i) { return l.row(i); };
  for (bool const nulls_equal : {false, true}) {
    colx::join_options const options{.nulls_equal = nulls_equal};
    auto const match = [&](std::size_t i, std::size_t j) { return keys_match(l.k[i], r.k[j], nulls_equal); };
    bool const unique = colx::build(rf, colx::on("k"_c), options).unique_keys();
    for (auto const& [first, count] : {std::pair<size_type, size_type>{0, 0}, {0, 300}, {0, 120}, {120, 100}, {250, 50}, {300, 0}}) {
      CAPTURE(nulls_equal, first, count);
      auto built = staged_build(rf, colx::on("k"_c), options, first, count);
      // Probed before the rest is in: a clear error, not a wrong answer.
      CHECK_THROWS_AS(lf | colx::join(built, colx::on("k"_c)), colx::logic_error);
      built.insert_rest({});
      built.insert_rest({});  // (once only)
      CHECK(built.unique_keys() == unique);
      CHECK(sorted_rows_of(lf | colx::join(built, colx::on("k"_c))) ==
            rows_from_pairs(reference_pairs(join_kind::inner, 400, 300, all, match), left_row, payload));
      CHECK(sorted_rows_of(lf | colx::join<join_kind::left>(built, colx::on("k"_c))) ==
            rows_from_pairs(reference_pairs(join_kind::left, 400, 300, all, match), left_row, payload));
    }
  }
  CHECK_THROWS_AS(staged_build(rf, colx::on("k"_c), {}, 200, 101), colx::logic_error);
  CHECK_THROWS_AS(staged_build(rf, colx::on("k"_c), {}, -1, 10), colx::logic_error);
  // A semi join probes the table too: the same error before the rest is in.
  CHECK_THROWS_AS(lf | colx::join<join_kind::semi>(staged_build(rf, colx::on("k"_c), {}, 0, 100), colx::on("k"_c)), colx::logic_error);
  // Copies share the table: the rest goes in once, whichever copy asks, and every copy may probe.
  auto first = staged_build(rf, colx::on("k"_c), {}, 100, 100);
  auto second = first;
  first.insert_rest({});
  second.insert_rest({});
  auto const match = [&](std::size_t i, std::size_t j) { return keys_match(l.k[i], r.k[j], false); };
  CHECK(sorted_rows_of(lf | colx::join(second, colx::on("k"_c))) ==
        rows_from_pairs(reference_pairs(join_kind::inner, 400, 300, all, match), left_row, payload));
  // Unique keys, and then one key twice, once in each stage: unique_keys() tells them apart (the
  // one-pass probe, or not), as a whole build does.
  right_rows u;
  for (int j = 0; j < 50; ++j) {
    u.k.emplace_back(j * 7 % 50);
    u.rid.push_back(j);
    u.b.emplace_back(j / 2.0);
    u.rs.emplace_back("u" + std::to_string(j));
  }
  for (bool const duplicate : {false, true}) {
    CAPTURE(duplicate);
    right_rows v = u;
    if (duplicate) { v.k[45] = v.k[3]; }  // rows 3 (first stage) and 45 (the rest)
    auto const vf = make_right(v);
    auto built = staged_build(vf, colx::on("k"_c), {}, 0, 20);
    built.insert_rest({});
    CHECK(built.unique_keys() == !duplicate);
    auto const vmatch = [&](std::size_t i, std::size_t j) { return keys_match(l.k[i], v.k[j], false); };
    CHECK(sorted_rows_of(lf | colx::join(built, colx::on("k"_c))) ==
          rows_from_pairs(reference_pairs(join_kind::inner, 400, 50, all, vmatch), left_row, [&](std::size_t j) { return v.payload(j); }));
  }
}

TEST_CASE("join: floating-point keys, -0.0 matches 0.0", "[frame]") {
  using DL = colx::schema<colx::field<"k", double>, colx::field<"id", std::int32_t, colx::not_null>>;
  using DR = colx::schema<colx::field<"k", double>, colx::field<"rid", std::int32_t, colx::not_null>>;
  auto const mr = backend_resource();
  colx::frame<DL> const lf(colx::make_column<double>(optionals<double>{{0.0}, {-0.0}, {1.5}, std::nullopt, {7.0}}, {}, mr),
                           colx::make_column<std::int32_t>(std::vector<std::int32_t>{0, 1, 2, 3, 4}, {}, mr));
  colx::frame<DR> const rf(colx::make_column<double>(optionals<double>{{-0.0}, {1.5}, {2.0}, std::nullopt, {1.5}}, {}, mr),
                           colx::make_column<std::int32_t>(std::vector<std::int32_t>{0, 1, 2, 3, 4}, {}, mr));
  using row = std::tuple<std::optional<double>, std::optional<std::int32_t>, std::optional<std::int32_t>>;
  for (bool const nulls_equal : {false, true}) {
    CAPTURE(nulls_equal);
    auto const out = lf | colx::join(rf, colx::on("k"_c), colx::join_options{.nulls_equal = nulls_equal});
    auto const got = sorted_rows_of(out);
    std::vector<row> want{{0.0, 0, 0}, {-0.0, 1, 0}, {1.5, 2, 1}, {1.5, 2, 4}};
    if (nulls_equal) { want.emplace_back(std::nullopt, 3, 3); }
    std::sort(want.begin(), want.end());
    CHECK(got == want);
  }
}
