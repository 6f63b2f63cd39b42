// SPDX-License-Identifier: Apache-2.0
// Moving whole rows on the backend under test: take by index columns of several integer types
// (repeats, reversed, empty; out-of-range and null indices rejected before anything is written),
// slice / head / tail at unaligned starts with nullable and string columns, and concat of frames
// with and without masks, empty ones included. Every result is checked against a host copy of
// the rows.
#include "support/backend.hpp"

#include <colx/frame/gather.hpp>

#include <catch2/catch.hpp>

#include <algorithm>
#include <cstdint>
#include <limits>
#include <numeric>
#include <optional>
#include <random>
#include <set>
#include <span>
#include <string>
#include <vector>

using namespace colx::literals;

namespace {

using colx::size_type;
using colx::test::backend_resource;

template <class T>
using optionals = std::vector<std::optional<T>>;

// A nullable int64, a nullable string, a not_null double and a nullable bool.
using S = colx::schema<colx::field<"i", std::int64_t>, colx::field<"s", colx::string_view>,
                       colx::field<"d", double, colx::not_null>, colx::field<"b", bool>>;

struct rows {
  optionals<std::int64_t> i;
  optionals<std::string> s;
  std::vector<double> d;
  optionals<bool> b;

  [[nodiscard]] std::size_t size() const { return d.size(); }
  void push(rows const& from, std::size_t r) {
    i.push_back(from.i[r]);
    s.push_back(from.s[r]);
    d.push_back(from.d[r]);
    b.push_back(from.b[r]);
  }
};

// `nulls`: whether the nullable columns get nulls (else they have no mask at all).
rows random_rows(std::size_t n, unsigned seed, bool nulls = true) {
  std::mt19937 rng(seed);
  char const* words[] = {"", "x", "north", "h\xc3\xa9llo", "a string long enough to span several words of chars", "ok"};
  rows r;
  for (std::size_t k = 0; k < n; ++k) {
    bool const null_i = nulls && rng() % 4 == 0;
    bool const null_s = nulls && rng() % 5 == 0;
    bool const null_b = nulls && rng() % 3 == 0;
    r.i.push_back(null_i ? std::nullopt : std::optional<std::int64_t>(static_cast<std::int64_t>(rng() % 100000) - 50000));
    r.s.push_back(null_s ? std::nullopt : std::optional<std::string>(std::string(words[rng() % 6]) + std::to_string(k)));
    r.d.push_back(static_cast<double>(k) + 0.25);
    r.b.push_back(null_b ? std::nullopt : std::optional<bool>(rng() % 2 == 0));
  }
  return r;
}

colx::frame<S> make_frame(rows const& r) {
  auto mr = backend_resource();
  return colx::frame<S>(colx::make_column<std::int64_t>(r.i, {}, mr), colx::make_strings_column(r.s, colx::type_id::int32, {}, mr),
                        colx::make_column<double>(r.d, {}, mr), colx::make_column<bool>(r.b, {}, mr));
}

template <class T>
size_type nulls_in(optionals<T> const& v) {
  return static_cast<size_type>(std::count(v.begin(), v.end(), std::nullopt));
}

// Every column of f against the expected rows, values and null counts.
void check_rows(colx::frame<S> const& f, rows const& want) {
  REQUIRE(f.num_rows() == static_cast<size_type>(want.size()));
  CHECK(colx::to_optional_vector(f["i"_c].view()) == want.i);
  CHECK(colx::to_strings(f["s"_c].view()) == want.s);
  CHECK(colx::to_vector(f["d"_c].view()) == want.d);
  CHECK(colx::to_optional_vector(f["b"_c].view()) == want.b);
  CHECK(f["i"_c].null_count() == nulls_in(want.i));
  CHECK(f["s"_c].null_count() == nulls_in(want.s));
  CHECK(f["d"_c].null_count() == 0);
  CHECK(f["b"_c].null_count() == nulls_in(want.b));
}

template <class I>
rows pick(rows const& from, std::vector<I> const& index) {
  rows out;
  for (I k : index) { out.push(from, static_cast<std::size_t>(k)); }
  return out;
}

rows range_of(rows const& from, std::size_t begin, std::size_t end) {
  rows out;
  for (std::size_t r = begin; r < end; ++r) { out.push(from, r); }
  return out;
}

// Index patterns over n rows (all indices below `limit`, for narrow index types).
template <class I>
std::vector<std::vector<I>> index_patterns(std::size_t n, std::size_t limit, unsigned seed) {
  std::size_t const m = std::min(n, limit);
  std::vector<std::vector<I>> out;
  out.emplace_back();  // empty
  if (m == 0) { return out; }
  std::vector<I> reversed(m);
  for (std::size_t k = 0; k < m; ++k) { reversed[k] = static_cast<I>(m - 1 - k); }
  out.push_back(reversed);
  std::vector<I> repeats;  // each row three times, and the last row many times
  for (std::size_t k = 0; k < m; ++k) {
    for (int t = 0; t < 3; ++t) { repeats.push_back(static_cast<I>(k)); }
  }
  for (int t = 0; t < 40; ++t) { repeats.push_back(static_cast<I>(m - 1)); }
  out.push_back(repeats);
  std::mt19937 rng(seed);
  std::vector<I> random(2 * m + 5);
  for (auto& k : random) { k = static_cast<I>(rng() % m); }
  out.push_back(random);
  out.push_back(std::vector<I>{static_cast<I>(m - 1)});
  return out;
}

}  // namespace

TEST_CASE("gather: take rows by int32, int64 and uint8 index columns", "[frame]") {
  for (std::size_t const n : {std::size_t{0}, std::size_t{1}, std::size_t{37}, std::size_t{300}, std::size_t{4099}}) {
    CAPTURE(n);
    auto const r = random_rows(n, static_cast<unsigned>(n) + 11);
    auto const f = make_frame(r);
    auto const check_type = [&]<class I>(I, std::size_t limit) {
      for (auto const& index : index_patterns<I>(n, limit, static_cast<unsigned>(n) * 3 + 1)) {
        CAPTURE(sizeof(I), index.size());
        auto const column = colx::make_column<I>(index, {}, backend_resource());
        check_rows(colx::take(f, column), pick(r, index));
        check_rows(colx::take(f, column.view()), pick(r, index));
      }
    };
    check_type(std::int32_t{}, n);
    check_type(std::int64_t{}, n);
    check_type(std::uint8_t{}, 256);
  }

  // An index column with a mask but no nulls is fine, and takes its rows into the given memory.
  auto const r = random_rows(40, 5);
  auto const f = make_frame(r);
  colx::test::tracked_resource mr;
  {
    auto const index = colx::make_column<std::int32_t>(optionals<std::int32_t>{{39}, {0}, {7}}, {}, backend_resource());
    auto const out = colx::take(f, index, {}, mr.ref());
    CHECK(mr.outstanding_bytes() > 0);
    check_rows(out, pick(r, std::vector<int>{39, 0, 7}));
  }
  CHECK(mr.outstanding_bytes() == 0);

  // A sliced index view: its rows only; nulls outside the slice do not count.
  auto const index = colx::make_column<std::int32_t>(
      optionals<std::int32_t>{std::nullopt, {1}, {38}, {2}, {2}, {20}, std::nullopt, {3}}, {}, backend_resource());
  check_rows(colx::take(f, index.view().slice(1, 6)), pick(r, std::vector<int>{1, 38, 2, 2, 20}));
  check_rows(colx::take(f, index.view().slice(7, 8)), pick(r, std::vector<int>{3}));
  CHECK_THROWS_WITH(colx::take(f, index.view().slice(5, 8)), Catch::Contains("index column has 1 nulls"));
}

TEST_CASE("gather: take rejects out-of-range and null indices before writing a row", "[frame]") {
  auto const r = random_rows(37, 17);
  auto const f = make_frame(r);
  auto const mr = backend_resource();
  colx::test::tracked_resource out_mr;

  auto const i32 = colx::make_column<std::int32_t>(std::vector<std::int32_t>{0, 37, 5, -1}, {}, mr);
  CHECK_THROWS_AS(colx::take(f, i32, {}, out_mr.ref()), colx::out_of_range);
  CHECK_THROWS_WITH(colx::take(f, i32), Catch::Contains("2 of 4 indices") && Catch::Contains("outside [0, 37)"));

  auto const u8 = colx::make_column<std::uint8_t>(std::vector<std::uint8_t>{255}, {}, mr);
  CHECK_THROWS_AS(colx::take(f, u8), colx::out_of_range);
  CHECK_THROWS_WITH(colx::take(f, u8), Catch::Contains("1 of 1 indices") && Catch::Contains("outside [0, 37)"));

  // Wide indices are not truncated into range.
  auto const i64 = colx::make_column<std::int64_t>(std::vector<std::int64_t>{std::int64_t{1} << 40, 3, (std::int64_t{1} << 32) + 1}, {}, mr);
  CHECK_THROWS_AS(colx::take(f, i64), colx::out_of_range);
  CHECK_THROWS_WITH(colx::take(f, i64), Catch::Contains("2 of 3 indices"));
  auto const u64 = colx::make_column<std::uint64_t>(std::vector<std::uint64_t>{2, std::numeric_limits<std::uint64_t>::max()}, {}, mr);
  CHECK_THROWS_AS(colx::take(f, u64), colx::out_of_range);

  // Any index into an empty frame is out of range.
  auto const empty = make_frame(random_rows(0, 1));
  auto const zero = colx::make_column<std::int32_t>(std::vector<std::int32_t>{0}, {}, mr);
  CHECK_THROWS_AS(colx::take(empty, zero), colx::out_of_range);
  CHECK_THROWS_WITH(colx::take(empty, zero), Catch::Contains("outside [0, 0)"));

  // Null indices: a logic error that says so.
  auto const with_null = colx::make_column<std::int32_t>(optionals<std::int32_t>{{1}, std::nullopt, {2}, std::nullopt}, {}, mr);
  CHECK_THROWS_AS(colx::take(f, with_null, {}, out_mr.ref()), colx::logic_error);
  CHECK_THROWS_WITH(colx::take(f, with_null), Catch::Contains("index column has 2 nulls"));

  CHECK(out_mr.outstanding_bytes() == 0);
  CHECK(out_mr.statistics().peak_bytes == 0);  // nothing was allocated for an output
}

TEST_CASE("gather: slice, head and tail at aligned and unaligned rows", "[frame]") {
  for (std::size_t const n : {std::size_t{0}, std::size_t{1}, std::size_t{31}, std::size_t{32}, std::size_t{33}, std::size_t{100},
                              std::size_t{1000}}) {
    CAPTURE(n);
    auto const r = random_rows(n, static_cast<unsigned>(n) + 23);
    auto const f = make_frame(r);
    auto const sn = static_cast<size_type>(n);
    std::vector<std::pair<size_type, size_type>> ranges{{0, 0}, {0, sn}, {sn, sn}};
    for (auto const& [b, e] : std::vector<std::pair<size_type, size_type>>{
             {3, 4}, {3, 40}, {33, 70}, {33, 34}, {1, 1000}, {31, 65}, {64, 99}, {3, 999}, {500, 1000}}) {
      if (e <= sn) { ranges.emplace_back(b, e); }
      if (b <= sn) { ranges.emplace_back(b, sn); }
    }
    for (auto const& [b, e] : ranges) {
      CAPTURE(b, e);
      check_rows(colx::slice(f, b, e), range_of(r, static_cast<std::size_t>(b), static_cast<std::size_t>(e)));
    }
    for (size_type const k : {size_type{0}, size_type{1}, size_type{3}, size_type{33}, sn, sn + 5, size_type{1} << 40}) {
      CAPTURE(k);
      auto const m = static_cast<std::size_t>(std::min(k, sn));
      check_rows(colx::head(f, k), range_of(r, 0, m));
      check_rows(colx::tail(f, k), range_of(r, n - m, n));
    }
    // A slice of a slice.
    if (n >= 40) {
      auto const inner = colx::slice(colx::slice(f, 3, sn), 30, 37);
      check_rows(inner, range_of(r, 33, 40));
    }

    CHECK_THROWS_AS(colx::slice(f, 0, sn + 1), colx::out_of_range);
    CHECK_THROWS_WITH(colx::slice(f, 0, sn + 1), Catch::Contains("outside a frame of " + std::to_string(n) + " rows"));
    CHECK_THROWS_AS(colx::slice(f, -1, 0), colx::out_of_range);
    if (n >= 2) { CHECK_THROWS_AS(colx::slice(f, 2, 1), colx::out_of_range); }
    CHECK_THROWS_AS(colx::head(f, -1), colx::logic_error);
    CHECK_THROWS_WITH(colx::tail(f, -2), Catch::Contains("must not be negative"));
  }

  // Into a given memory resource, all of it returned.
  auto const r = random_rows(100, 9);
  auto const f = make_frame(r);
  colx::test::tracked_resource mr;
  {
    auto const s = colx::slice(f, 33, 70, {}, mr.ref());
    CHECK(mr.outstanding_bytes() > 0);
    check_rows(s, range_of(r, 33, 70));
  }
  CHECK(mr.outstanding_bytes() == 0);
}

TEST_CASE("gather: concat of frames with and without masks, empty ones included", "[frame]") {
  auto const a = random_rows(33, 41);            // nulls in every nullable column
  auto const e = random_rows(0, 42);             // empty
  auto const b = random_rows(45, 43, false);     // no masks at all
  auto const c = random_rows(1, 44);
  auto const fa = make_frame(a);
  auto const fe = make_frame(e);
  auto const fb = make_frame(b);
  auto const fc = make_frame(c);
  REQUIRE(fb["i"_c].null_count() == 0);

  auto const joined = [](std::vector<rows const*> const& parts) {
    rows out;
    for (auto const* p : parts) {
      for (std::size_t r = 0; r < p->size(); ++r) { out.push(*p, r); }
    }
    return out;
  };
  check_rows(colx::concat(fa, fe, fb), joined({&a, &e, &b}));
  check_rows(colx::concat(fe, fb, fa), joined({&e, &b, &a}));
  check_rows(colx::concat(fb, fc, fe, fa, fb), joined({&b, &c, &e, &a, &b}));
  check_rows(colx::concat(fa), a);
  check_rows(colx::concat(fe, fe, fe), e);
  check_rows(colx::concat(fb, fb), joined({&b, &b}));

  // The span form, into a given memory resource.
  colx::test::tracked_resource mr;
  {
    std::vector<colx::frame<S>> const frames{fc, fa, fe, fc};
    auto const out = colx::concat(std::span<colx::frame<S> const>(frames), {}, mr.ref());
    CHECK(mr.outstanding_bytes() > 0);
    check_rows(out, joined({&c, &a, &e, &c}));
  }
  CHECK(mr.outstanding_bytes() == 0);
  CHECK_THROWS_AS(colx::concat(std::span<colx::frame<S> const>()), colx::logic_error);

  // Large enough to cross host chunks and GPU blocks, at unaligned boundaries.
  auto const big1 = random_rows(4099, 45);
  auto const big2 = random_rows(17, 46);
  auto const big3 = random_rows(20001, 47);
  check_rows(colx::concat(make_frame(big1), make_frame(big2), make_frame(big3)), joined({&big1, &big2, &big3}));
}

namespace {
using FW = colx::schema<colx::field<"f", colx::string_view>, colx::field<"v", std::int64_t, colx::not_null>>;
}  // namespace

TEST_CASE("gather: fixed-width strings stay fixed-width through take, sort_by, filter and group-by keys", "[frame]") {
  // Written without a scan of their lengths (their offsets are known), nulls included; a missing
  // row's bytes are zeros.
  for (size_type const n : {0, 1, 7, 1000, 4099}) {
    CAPTURE(n);
    std::string bytes;
    optionals<std::string> f;
    std::vector<std::int64_t> v;
    for (size_type i = 0; i < n; ++i) {
      std::string const s{static_cast<char>('A' + (i * 7) % 5), static_cast<char>('a' + i % 3)};
      bytes += s;
      f.push_back(i % 6 == 5 ? std::nullopt : std::optional<std::string>(s));
      v.push_back(n - i);
    }
    auto const mr = backend_resource();
    auto [words, nulls] = colx::detail::host_bitmask(n, [&](size_type i) { return i % 6 != 5; });
    colx::frame<FW> const t(
        colx::make_fixed_width_strings(n, 2, colx::buffer(bytes.data(), colx::memory_kind::host, bytes.size(), {}, mr),
                                       colx::buffer(words.data(), colx::memory_kind::host, words.size() * sizeof(colx::bitmask_type), {}, mr),
                                       nulls, {}, mr),
        colx::make_column<std::int64_t>(v, {}, mr));

    // sort_by v ascending: rows in reverse.
    auto const sorted = t | colx::sort_by("v"_c);
    CHECK(sorted["f"_c].uniform_bytes() == 2);
    optionals<std::string> reversed(f.rbegin(), f.rend());
    CHECK(colx::to_strings(sorted["f"_c].view()) == reversed);

    // take with repeats.
    std::vector<std::int32_t> idx;
    for (size_type i = 0; i < n; i += 3) { idx.push_back(static_cast<std::int32_t>(i)); idx.push_back(0); }
    auto const taken = colx::take(t, colx::make_column(idx, {}, mr));
    CHECK(taken["f"_c].uniform_bytes() == 2);
    optionals<std::string> want_taken;
    for (auto k : idx) { want_taken.push_back(f[static_cast<std::size_t>(k)]); }
    CHECK(colx::to_strings(taken["f"_c].view()) == want_taken);

    // filter + collect.
    auto const kept = (t | colx::filter("v"_c % 2 == 0)).collect();
    CHECK(kept["f"_c].uniform_bytes() == 2);
    optionals<std::string> want_kept;
    for (std::size_t i = 0; i < f.size(); ++i) {
      if (v[i] % 2 == 0) { want_kept.push_back(f[i]); }
    }
    CHECK(colx::to_strings(kept["f"_c].view()) == want_kept);

    // group-by keys, sorted: the distinct values, null last.
    auto const g = t | colx::group_by(colx::group_by_options{.sorted = true}, "f"_c) | colx::aggregate(colx::count().as<"n">());
    CHECK(g["f"_c].uniform_bytes() == 2);
    std::set<std::string> distinct;
    bool any_null = false;
    for (auto const& s : f) { s ? (void)distinct.insert(*s) : (void)(any_null = true); }
    optionals<std::string> want_keys(distinct.begin(), distinct.end());
    if (any_null) { want_keys.emplace_back(); }
    CHECK(colx::to_strings(g["f"_c].view()) == want_keys);
  }
}
