// SPDX-License-Identifier: Apache-2.0
// A filter in stages (expr/filter_stages.hpp): how its conjuncts are grouped, that a row passes every
// stage exactly when it passes the filter, and reductions behind filters (which the GPU takes
// eight rows at a time, stage by stage) against a plain loop: nulls in the first stage's column
// and in the others, every standard size, and a slice that starts mid-word. Each stage also as a
// load of its column's value and a test of that value.
#include "support/backend.hpp"
#include "support/columns.hpp"

#include <catch2/catch.hpp>

#include <cstdint>
#include <optional>
#include <random>
#include <type_traits>
#include <vector>

namespace {

using namespace colx::literals;
using colx::size_type;
using namespace colx::test;  // support/columns.hpp: sizes, column_of, optionals

using S = colx::schema<colx::field<"d", std::int32_t>, colx::field<"x", std::int64_t>, colx::field<"q", double, colx::not_null>>;

template <class E>
using bound = decltype(colx::expr::bind<S>(std::declval<E>()));

template <class P>
constexpr int stages = colx::expr::stage_count_v<bound<P>>;

auto const in_range = "d"_c >= 10 && "d"_c < 20;
using in_range_t = std::remove_cvref_t<decltype(in_range)>;
using full_t = std::remove_cvref_t<decltype(in_range && "x"_c > 0 && "q"_c < 0.5)>;
using mixed_t = std::remove_cvref_t<decltype("d"_c < "x"_c && "d"_c > 0 && "d"_c < 30)>;
using or_t = std::remove_cvref_t<decltype("d"_c < 5 || "d"_c > 50)>;
using back_t = std::remove_cvref_t<decltype("d"_c > 0 && "x"_c > 0 && "d"_c < 30)>;

// (Checked by g++ alone: the same in both builds, and nvcc 13 with g++ 12 as its host compiler
// writes these types out with their column names, which its host pass cannot then parse.)
#if !defined(__CUDACC__)
static_assert(stages<full_t> == 3, "[d >= 10 && d < 20], [x > 0], [q < 0.5]");
static_assert(stages<in_range_t> == 1, "two conjuncts over one column make one stage");
static_assert(stages<mixed_t> == 2, "[d < x] reads two columns, then [d > 0 && d < 30]");
static_assert(stages<or_t> == 1, "an OR is one conjunct");
static_assert(stages<back_t> == 3, "only consecutive conjuncts over one column are taken together");
#endif

struct data {
  optionals<std::int32_t> d;
  optionals<std::int64_t> x;
  std::vector<double> q;
};

data stage_rows(size_type n, std::uint64_t seed) {
  std::mt19937_64 gen(seed);
  data r;
  for (size_type i = 0; i < n; ++i) {
    r.d.push_back(gen() % 9 == 0 ? std::nullopt : std::optional<std::int32_t>(static_cast<std::int32_t>(gen() % 40)));
    r.x.push_back(gen() % 7 == 0 ? std::nullopt : std::optional<std::int64_t>(static_cast<std::int64_t>(gen() % 2001) - 1000));
    r.q.push_back(static_cast<double>(gen() % 1000) / 1000.0);
  }
  return r;
}

// Whether stage K of a list, taken as a load of its column's value and a test of that value,
// gives what the stage gives at row i.
template <int K, class List, class Inputs>
bool split_agrees(List const& list, Inputs const& in, size_type i) {
  auto const& stage = colx::expr::detail::stage_at<K>(list);
  static_assert(colx::expr::detail::takes_values_v<std::remove_cvref_t<decltype(stage)>::column, Inputs>);
  return stage.test(in, i, stage.load(in, i)) == stage(in, i);
}

}  // namespace

TEST_CASE("filter stages: a row passes every stage exactly when it passes the filter", "[expr]") {
  auto const d = stage_rows(4097, 3);
  // Evaluated here as a kernel would per row, over host columns.
  auto const mr = colx::get_current_host_resource();
  colx::frame<S> const host(colx::make_column<std::int32_t>(d.d, {}, mr), colx::make_column<std::int64_t>(d.x, {}, mr),
                            colx::make_column<double>(d.q, {}, mr));
  auto const pred = colx::expr::bind<S>(in_range && "x"_c > 0 && "q"_c < 0.5);
  auto const list = colx::expr::stages_of(pred);
  auto const in = host.inputs();
  std::size_t passed = 0;
  for (size_type i = 0; i < host.num_rows(); ++i) {
    auto const k = static_cast<std::size_t>(i);
    auto const p = pred(in, i);
    bool const kept = p.valid && p.value;
    bool const first = colx::expr::detail::stage_at<0>(list)(in, i);
    bool const second = colx::expr::detail::stage_at<1>(list)(in, i);
    bool const third = colx::expr::detail::stage_at<2>(list)(in, i);
    CHECK(first == (d.d[k] && *d.d[k] >= 10 && *d.d[k] < 20));  // exactly the two conjuncts on d
    CHECK(second == (d.x[k] && *d.x[k] > 0));                  // null x fails its stage
    CHECK((first && second && third) == kept);
    // Each stage split in two, as the GPU's fold takes it: the column's value loaded, then tested.
    CHECK(split_agrees<0>(list, in, i));
    CHECK(split_agrees<1>(list, in, i));
    CHECK(split_agrees<2>(list, in, i));
    passed += kept ? 1 : 0;
  }
  CHECK(passed > 0);
}

TEST_CASE("filter stages: reductions behind filters match a plain loop", "[expr]") {
  for (size_type const n : sizes) {
    CAPTURE(n);
    auto const d = stage_rows(n, static_cast<std::uint64_t>(n) + 11);
    colx::frame<S> const f(column_of(d.d), column_of(d.x), column_of(d.q));
    for (size_type const first : {size_type{0}, size_type{3}}) {
      if (first > n) { continue; }
      CAPTURE(first);
      auto const part = f.slice(first, n);
      std::int64_t sum = 0;
      size_type rows = 0;
      std::optional<std::int64_t> most;
      for (size_type i = first; i < n; ++i) {
        auto const k = static_cast<std::size_t>(i);
        bool const kept = d.d[k] && *d.d[k] >= 10 && *d.d[k] < 20 && d.x[k] && *d.x[k] > 0 && d.q[k] < 0.5;
        if (!kept) { continue; }
        sum += *d.x[k];
        ++rows;
        most = most ? std::max(*most, *d.x[k]) : *d.x[k];
      }
      auto const [got_sum, got_rows, got_most] =
          part | colx::filter(in_range && "x"_c > 0 && "q"_c < 0.5) |
          colx::reduce(colx::sum("x"_c), colx::count(), colx::max("x"_c));
      CHECK(got_sum.to_optional() == (rows > 0 ? std::optional<std::int64_t>(sum) : std::nullopt));
      CHECK(got_rows.value() == rows);
      CHECK(got_most.to_optional() == most);
      // A filter of one stage over one column, and one of a single conjunct (an OR).
      CHECK((part | colx::filter(in_range) | colx::reduce(colx::count())).value() ==
            [&] {
              size_type c = 0;
              for (size_type i = first; i < n; ++i) {
                auto const& v = d.d[static_cast<std::size_t>(i)];
                c += v && *v >= 10 && *v < 20 ? 1 : 0;
              }
              return c;
            }());
      CHECK((part | colx::filter("d"_c < 5 || "d"_c > 35) | colx::reduce(colx::count())).value() ==
            [&] {
              size_type c = 0;
              for (size_type i = first; i < n; ++i) {
                auto const& v = d.d[static_cast<std::size_t>(i)];
                c += v && (*v < 5 || *v > 35) ? 1 : 0;
              }
              return c;
            }());
    }
  }
}

// On the GPU a filtered fold takes eight rows a thread at a time only while a warp's rows are all
// in range: a thread's first pass needs 8 x 256 x 32 x multiprocessors rows (its grid is 32 blocks
// of 256 threads a multiprocessor), 8.65M on 132, and a second pass for some threads 16 x 256 x 32
// x 132 minus the rest (20M rows: the first 3.8M threads take two, on 132 multiprocessors; 148
// give every thread one). Below that, every row takes the one-row path. Folded over a slice that
// starts mid-word, with a filter that keeps few rows and one that keeps nearly all, adding the kept
// rows in place and queued (see gpu/reduce_rows.cuh); argmin checks that each thread still adds
// its rows in order (ties go to the first row).
TEST_CASE("filter stages: a fold long enough for eight rows a thread", "[expr]") {
  size_type const n = on_device() ? 20'000'011 : 300'007;
  size_type const first = 3;
  auto const d = stage_rows(n, 29);
  colx::frame<S> const whole(column_of(d.d), column_of(d.x), column_of(d.q));
  auto const f = whole.slice(first, n);
  auto const check = [&](auto const& pred, auto const& keeps) {
    std::int64_t sum = 0;
    size_type rows = 0;
    std::optional<std::int64_t> most;
    std::optional<std::int64_t> least;
    size_type least_at = -1;
    std::optional<double> least_q;
    for (size_type i = first; i < n; ++i) {
      auto const k = static_cast<std::size_t>(i);
      if (!keeps(k)) { continue; }
      ++rows;
      if (d.x[k]) {
        sum += *d.x[k];
        most = most ? std::max(*most, *d.x[k]) : *d.x[k];
        if (!least || *d.x[k] < *least) {
          least = *d.x[k];
          least_at = i - first;
        }
      }
      least_q = least_q ? std::min(*least_q, d.q[k]) : d.q[k];
    }
    auto const sum_of = [&](std::int64_t times) { return most ? std::optional<std::int64_t>(sum * times) : std::nullopt; };
    // Columns as they are: each lane adds its kept rows in place.
    auto const [got_sum, got_rows, got_most, got_least_q, got_least_at] =
        f | colx::filter(pred) |
        colx::reduce(colx::sum("x"_c), colx::count(), colx::max("x"_c), colx::min("q"_c), colx::argmin("x"_c));
    CHECK(got_rows.value() == rows);
    CHECK(got_sum.to_optional() == sum_of(1));
    CHECK(got_most.to_optional() == most);
    CHECK(got_least_q.to_optional() == least_q);
    CHECK(got_least_at.to_optional() == (least ? std::optional<size_type>(least_at) : std::nullopt));
    // A computed value (x * 3) among them: the GPU queues the kept rows and adds them 32 at a time.
    auto const [queued_sum, queued_rows, queued_least_at] =
        f | colx::filter(pred) | colx::reduce(colx::sum("x"_c * 3), colx::count(), colx::argmin("x"_c));
    CHECK(queued_sum.to_optional() == sum_of(3));
    CHECK(queued_rows.value() == rows);
    CHECK(queued_least_at.to_optional() == (least ? std::optional<size_type>(least_at) : std::nullopt));
    return rows;
  };
  // About 0.24% of rows: d = 7 (a 40th of the non-null 8/9), x > 0 (3/7), q < 0.25 (a quarter).
  auto const few = check("d"_c == 7 && "x"_c > 0 && "q"_c < 0.25, [&](std::size_t k) {
    return d.d[k] && *d.d[k] == 7 && d.x[k] && *d.x[k] > 0 && d.q[k] < 0.25;
  });
  CHECK(few > 0);
  // All but the nulls of d (the sums skip null x).
  auto const most = check("d"_c >= 0 && "q"_c < 2.0, [&](std::size_t k) { return d.d[k] && *d.d[k] >= 0 && d.q[k] < 2.0; });
  CHECK(most > (n - first) / 2);
}
