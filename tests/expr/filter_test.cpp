// SPDX-License-Identifier: Apache-2.0
// Filters on the backend under test, checked against plain loops: filter(p).collect() keeps the
// rows where p is true (a null p drops the row) in every column with its nulls, count_if, chained
// filters, filters in front of reduce, all-or-nothing and empty frames (string predicates are in
// functions_test).
#include "support/backend.hpp"
#include "support/columns.hpp"

#include <catch2/catch.hpp>

#include <cstdint>
#include <optional>
#include <random>
#include <sstream>
#include <string>
#include <type_traits>
#include <vector>

namespace {

using namespace colx::literals;
using colx::size_type;
using colx::test::backend_kind;
using colx::test::backend_resource;
using namespace colx::test;  // support/columns.hpp: sizes, column_of, check_rows, random_optionals, ...

// A collected column: its rows, its null count, and whether it has a mask as its field requires.
template <class T>
void check_column(colx::column<T> const& got, optionals<T> const& want, bool may_have_mask) {
  check_rows(colx::to_optional_vector(got.view()), want);
  size_type nulls = 0;
  for (auto const& v : want) { nulls += v ? 0 : 1; }
  CHECK(got.size() == static_cast<size_type>(want.size()));
  CHECK(got.null_count() == nulls);
  if (!may_have_mask) { CHECK_FALSE(got.nullable()); }
  if (!got.empty()) { CHECK(got.kind() == backend_kind()); }
}

// The rows of v where keep is true.
template <class T>
optionals<T> pick(optionals<T> const& v, std::vector<bool> const& keep) {
  optionals<T> out;
  for (std::size_t i = 0; i < v.size(); ++i) {
    if (keep[i]) { out.push_back(v[i]); }
  }
  return out;
}
template <class T>
optionals<T> pick(std::vector<T> const& v, std::vector<bool> const& keep) {
  return pick(optionals<T>(v.begin(), v.end()), keep);
}

size_type count(std::vector<bool> const& keep) {
  size_type n = 0;
  for (bool const k : keep) { n += k ? 1 : 0; }
  return n;
}

// Kleene AND of two maybe-null truths.
std::optional<bool> kleene_and(std::optional<bool> p, std::optional<bool> q) {
  if ((p && !*p) || (q && !*q)) { return false; }
  if (p && q) { return true; }
  return std::nullopt;
}

// A frame of every fixed-width kind of column, nullable and not_null.
using wide_schema = colx::schema<colx::field<"a", std::int8_t>, colx::field<"b", std::int32_t, colx::not_null>,
                                 colx::field<"c", std::int64_t>, colx::field<"x", double>, colx::field<"y", float, colx::not_null>,
                                 colx::field<"f", bool>, colx::field<"d", colx::date32>, colx::field<"u", std::uint16_t>>;

struct wide_data {
  optionals<std::int8_t> a;
  std::vector<std::int32_t> b;
  optionals<std::int64_t> c;
  optionals<double> x;
  std::vector<float> y;
  optionals<bool> f;
  optionals<colx::date32> d;
  optionals<std::uint16_t> u;

  wide_data(std::size_t n, std::uint64_t seed)
      : a(random_optionals<std::int8_t>(n, seed, 0.2, -128, 127)),
        b(dense(random_optionals<std::int32_t>(n, seed + 1, 0.0, -1000, 1000))),
        c(random_optionals<std::int64_t>(n, seed + 2, 0.1, -(std::int64_t{1} << 60), std::int64_t{1} << 60)),
        x(random_optionals<double>(n, seed + 3, 0.15, 0.0, 1.0)),
        y(dense(random_optionals<float>(n, seed + 4, 0.0, -1.0f, 1.0f))),
        f(random_optionals<bool>(n, seed + 5, 0.3, false, true)),
        d(n),
        u(random_optionals<std::uint16_t>(n, seed + 7, 0.05, 0, 65535)) {
    auto const days = random_optionals<std::int32_t>(n, seed + 6, 0.1, -40000, 40000);
    for (std::size_t i = 0; i < n; ++i) {
      if (days[i]) { d[i] = colx::date32(*days[i]); }
    }
  }

  [[nodiscard]] colx::frame<wide_schema> frame() const {
    return colx::frame<wide_schema>(column_of(a), column_of(b), column_of(c), column_of(x), column_of(y), column_of(f), column_of(d),
                                    column_of(u));
  }

  void check(colx::frame<wide_schema> const& got, std::vector<bool> const& keep) const {
    REQUIRE(got.num_rows() == count(keep));
    check_column(got["a"_c], pick(a, keep), true);
    check_column(got["b"_c], pick(b, keep), false);
    check_column(got["c"_c], pick(c, keep), true);
    check_column(got["x"_c], pick(x, keep), true);
    check_column(got["y"_c], pick(y, keep), false);
    check_column(got["f"_c], pick(f, keep), true);
    check_column(got["d"_c], pick(d, keep), true);
    check_column(got["u"_c], pick(u, keep), true);
  }
};

}  // namespace

// ---- collect ---------------------------------------------------------------------------------------
// Every distinct predicate type instantiates a compaction (CUB's DeviceSelect under nvcc, ~3 s of
// build each), so the tests below reuse a few predicate shapes with run-time constants.

TEST_CASE("filter: collect keeps every column's rows where the predicate is true", "[expr][filter]") {
  for (size_type const n : sizes) {
    INFO("rows: " << n);
    auto const nn = static_cast<std::size_t>(n);
    wide_data const data(nn, 301 + nn);
    auto const f = data.frame();
    // Null where x is null (15%) unless b decides it: a null predicate drops the row.
    std::int32_t const m = 3;
    double const t = 0.3;
    auto const kept = (f | colx::filter("b"_c % m != 0 && "x"_c > t)).collect();
    std::vector<bool> keep(nn);
    for (std::size_t i = 0; i < nn; ++i) {
      std::optional<bool> const p = data.x[i] ? std::optional<bool>(*data.x[i] > t) : std::nullopt;
      keep[i] = kleene_and(data.b[i] % m != 0, p).value_or(false);
    }
    data.check(kept, keep);
    CHECK((f | colx::count_if("b"_c % m != 0 && "x"_c > t)) == count(keep));
    // The source frame is untouched.
    CHECK(f.num_rows() == n);
  }
}

TEST_CASE("filter: a null predicate drops the row, whichever way it is negated", "[expr][filter]") {
  for (size_type const n : {size_type{33}, size_type{1000}, size_type{100003}}) {
    INFO("rows: " << n);
    auto const nn = static_cast<std::size_t>(n);
    wide_data const data(nn, 311);
    auto const f = data.frame();
    std::int8_t const v = 0;
    std::vector<bool> pos(nn), neg(nn), null(nn);
    for (std::size_t i = 0; i < nn; ++i) {
      pos[i] = data.a[i] && *data.a[i] > v;
      neg[i] = data.a[i] && !(*data.a[i] > v);
      null[i] = !data.a[i];
    }
    data.check((f | colx::filter("a"_c > v)).collect(), pos);
    auto const nulls = (f | colx::filter(colx::is_null("a"_c))).collect();
    data.check(nulls, null);
    CHECK(nulls["a"_c].null_count() == count(null));  // every kept a is null
    CHECK((f | colx::count_if("a"_c > v)) == count(pos));
    CHECK((f | colx::count_if(!("a"_c > v))) == count(neg));
    CHECK((f | colx::count_if(colx::is_null("a"_c))) == count(null));
    CHECK(count(pos) + count(neg) + count(null) == n);
  }
}

TEST_CASE("filter: keep everything, keep nothing, and empty frames", "[expr][filter]") {
  for (size_type const n : {size_type{0}, size_type{1}, size_type{257}, size_type{100003}}) {
    INFO("rows: " << n);
    auto const nn = static_cast<std::size_t>(n);
    wide_data const data(nn, 331);
    auto const f = data.frame();
    data.check((f | colx::filter(true)).collect(), std::vector<bool>(nn, true));
    auto const none = (f | colx::filter(false)).collect();
    data.check(none, std::vector<bool>(nn, false));
    CHECK(none.num_rows() == 0);
    // b % 1 != 0 is false for every row, and a known false decides even where x is null.
    data.check((f | colx::filter("b"_c % 1 != 0 && "x"_c > 0.5)).collect(), std::vector<bool>(nn, false));
    CHECK((f | colx::count_if(false)) == 0);
    CHECK((f | colx::count_if(true)) == n);
    // A collected empty frame still works downstream.
    CHECK((none | colx::count_if(true)) == 0);
    CHECK_FALSE((none | colx::filter("f"_c) | colx::reduce(colx::sum("b"_c))).has_value());
    CHECK((none | colx::count_if("a"_c > std::int8_t{0})) == 0);
  }
}

TEST_CASE("filter: a bool column as the predicate", "[expr][filter]") {
  auto const nn = std::size_t{4097};
  wide_data const data(nn, 321);
  auto const f = data.frame();
  size_type want = 0;
  std::int64_t want_b = 0;
  for (std::size_t i = 0; i < nn; ++i) {
    if (data.f[i].value_or(false)) {
      ++want;
      want_b += data.b[i];
    }
  }
  CHECK((f | colx::count_if("f"_c)) == want);
  CHECK((f | colx::filter("f"_c) | colx::reduce(colx::sum("b"_c))) ==
        (want > 0 ? colx::scalar<std::int64_t>(want_b) : colx::scalar<std::int64_t>{}));
}

// ---- chained filters, count_if ---------------------------------------------------------------------

TEST_CASE("filter: chained filters are their conjunction", "[expr][filter]") {
  for (size_type const n : sizes) {
    INFO("rows: " << n);
    auto const nn = static_cast<std::size_t>(n);
    wide_data const data(nn, 341 + nn);
    auto const f = data.frame();
    std::int8_t const v = -10;
    auto const first = f | colx::filter("x"_c < 0.8);
    auto const second = first | colx::filter("a"_c > v);
    auto const third = second | colx::filter("d"_c >= colx::date32(0) || colx::is_null("d"_c));
    std::vector<bool> k1(nn), k2(nn), k3(nn);
    for (std::size_t i = 0; i < nn; ++i) {
      k1[i] = data.x[i] && *data.x[i] < 0.8;
      k2[i] = k1[i] && data.a[i] && *data.a[i] > v;
      k3[i] = k2[i] && (!data.d[i] || data.d[i]->ticks >= 0);
    }
    data.check(first.collect(), k1);
    data.check(second.collect(), k2);
    // The same stages, used again, give the same rows.
    data.check(second.collect(), k2);

    // count_if on a filtered frame, and a filter in front of reduce.
    CHECK((first | colx::count_if("a"_c > v)) == count(k2));
    auto const [rows, sum_b] = third | colx::reduce(colx::count(), colx::sum("b"_c));
    std::int64_t want_b = 0;
    for (std::size_t i = 0; i < nn; ++i) { want_b += k3[i] ? data.b[i] : 0; }
    CHECK(rows.value() == count(k3));
    CHECK(sum_b == (count(k3) > 0 ? colx::scalar<std::int64_t>(want_b) : colx::scalar<std::int64_t>{}));

    // Filtering a collected frame is filtering the original by both predicates.
    auto const again = (first.collect() | colx::filter("a"_c > v)).collect();
    data.check(again, k2);
  }
}

TEST_CASE("filter: count_if counts true rows only", "[expr][filter]") {
  using S = colx::schema<colx::field<"k", std::int32_t>, colx::field<"x", double>>;
  for (size_type const n : sizes) {
    INFO("rows: " << n);
    auto const nn = static_cast<std::size_t>(n);
    auto const k = random_optionals<std::int32_t>(nn, 351, 0.25, 0, 9);
    auto const x = random_optionals<double>(nn, 352, 0.25, -1.0, 1.0);
    colx::frame<S> const f(column_of(k), column_of(x));
    size_type want_k = 0, want_or = 0, want_div = 0, want_nulls = 0;
    for (std::size_t i = 0; i < nn; ++i) {
      want_k += k[i] && *k[i] >= 5 ? 1 : 0;
      bool const p = k[i] && *k[i] >= 5;
      bool const q = x[i] && *x[i] < 0.0;
      want_or += p || q ? 1 : 0;  // Kleene OR is true if either side is
      want_div += k[i] && *k[i] != 0 && 9 / *k[i] >= 2 ? 1 : 0;
      want_nulls += !k[i] || !x[i] ? 1 : 0;
    }
    colx::size_type const got_k = f | colx::count_if("k"_c >= 5);
    CHECK(got_k == want_k);
    CHECK((f | colx::count_if("k"_c >= 5 || "x"_c < 0.0)) == want_or);
    CHECK((f | colx::count_if(9 / "k"_c >= 2)) == want_div);  // 9 / 0 is null: not counted
    CHECK((f | colx::count_if(colx::is_null("k"_c) || colx::is_null("x"_c))) == want_nulls);
  }
}

