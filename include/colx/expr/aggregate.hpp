// SPDX-License-Identifier: Apache-2.0
#pragma once
// The catalogue of aggregations: what each kind means, once. Each Kind says how to fold valid
// values of an expression into a small trivially copyable state, how to merge two states (the left
// one covers earlier rows), and how to finish a state into a scalar: reduce() runs exactly that.
// Group-by's cells (frame/group_by/cells*.hpp) hold the same meaning in a form that merges with
// atomics in any order, and take from here what the two share: the sum's accumulator type and
// wrapping, the order of min/max (NaN loses), the statistic a var/std finishes with. Nulls are
// skipped; an aggregate with no valid input is null, except count, count_valid and nunique (0),
// any (false) and all (true).
#include <colx/column/scalar.hpp>
#include <colx/expr/expression.hpp>

#include <cmath>
#include <string>
#include <type_traits>

namespace colx::expr {

namespace kinds {

template <class T>
struct sum_of {
  using type = std::conditional_t<std::is_floating_point_v<T>, double,
                                  std::conditional_t<std::is_unsigned_v<T> && !std::is_same_v<T, bool>, std::uint64_t, std::int64_t>>;
};
// A decimal sums to DEC(38, S) in 128 bits, as DuckDB's sum.
template <dec_type T>
struct sum_of<T> {
  using type = dec<38, T::scale>;
};
// A duration sums to a duration of its unit, its ticks wrapping as integers do.
template <duration_type T>
struct sum_of<T> {
  using type = T;
};
template <class T>
using sum_t = typename sum_of<T>::type;

struct sum {
  static constexpr char const* name = "sum";
  template <class T>
  struct state {
    sum_t<T> total{};
    size_type count = 0;
  };
  // total + v in the accumulator: an integer sum wraps like the element-wise ops (and like
  // group-by's atomic adds), never signed overflow.
  template <class Acc>
  static constexpr COLX_HOST_DEVICE Acc plus(Acc total, Acc v) {
    if constexpr (dec_type<Acc>) {
      return Acc{colx::detail::wrap_add(total.unscaled, v.unscaled)};
    } else if constexpr (duration_type<Acc>) {
      return Acc(plus(total.ticks, v.ticks));
    } else if constexpr (std::is_integral_v<Acc>) {
      using U = std::make_unsigned_t<Acc>;
      return static_cast<Acc>(static_cast<U>(total) + static_cast<U>(v));
    } else {
      return total + v;
    }
  }
  // v in the accumulator's type.
  template <class T>
  static constexpr COLX_HOST_DEVICE sum_t<T> widen(T v) {
    if constexpr (dec_type<T>) {
      return sum_t<T>{v.unscaled};
    } else {
      return static_cast<sum_t<T>>(v);
    }
  }
  template <class T>
  static constexpr COLX_HOST_DEVICE void add(state<T>& s, T v, size_type) {
    static_assert(std::is_arithmetic_v<T> || dec_type<T> || duration_type<T>,
                  "colx::sum needs a number, a dec<P, S> or a duration (not strings or dates)");
    s.total = plus(s.total, widen(v));
    ++s.count;
  }
  template <class T>
  static constexpr COLX_HOST_DEVICE state<T> merge(state<T> a, state<T> b) {
    return {plus(a.total, b.total), a.count + b.count};
  }
  template <class T>
  static scalar<sum_t<T>> finish(state<T> s) {
    return s.count == 0 ? scalar<sum_t<T>>{} : scalar<sum_t<T>>(s.total);
  }
};

template <bool IsMin>
struct extremum {
  static constexpr char const* name = IsMin ? "min" : "max";
  template <class T>
  struct state {
    T value{};
    bool any = false;
  };
  template <class T>
  static constexpr COLX_HOST_DEVICE bool better(T a, T b) {
    if constexpr (std::is_floating_point_v<T>) {  // NaN loses to any number, as Arrow's min/max
      if (a != a) { return false; }
      if (b != b) { return true; }
    }
    return IsMin ? a < b : b < a;
  }
  template <class T>
  static constexpr COLX_HOST_DEVICE void add(state<T>& s, T v, size_type) {
    if (!s.any || better(v, s.value)) { s.value = v; }
    s.any = true;
  }
  template <class T>
  static constexpr COLX_HOST_DEVICE state<T> merge(state<T> a, state<T> b) {
    if (!a.any) { return b; }
    if (!b.any) { return a; }
    return better(b.value, a.value) ? b : a;  // ties keep the earlier rows' value
  }
  template <class T>
  static scalar<T> finish(state<T> s) {
    return s.any ? scalar<T>(s.value) : scalar<T>{};
  }
};

// Rows (all of them when CountNulls, else the valid ones).
template <bool CountNulls>
struct count {
  static constexpr char const* name = CountNulls ? "count" : "count_valid";
  static constexpr bool counts_nulls = CountNulls;
  template <class T>
  struct state {
    size_type n = 0;
  };
  template <class T>
  static constexpr COLX_HOST_DEVICE void add(state<T>& s, T, size_type) {
    ++s.n;
  }
  template <class T>
  static constexpr COLX_HOST_DEVICE state<T> merge(state<T> a, state<T> b) {
    return {a.n + b.n};
  }
  template <class T>
  static scalar<size_type> finish(state<T> s) {
    return scalar<size_type>(s.n);
  }
};

// Welford's running mean and squared deviations, merged with Chan's formula: stable, and in a
// fixed order deterministic.
struct moments {
  size_type n = 0;
  double mean = 0;
  double m2 = 0;
};
constexpr COLX_HOST_DEVICE moments merge_moments(moments a, moments b) {
  if (a.n == 0) { return b; }
  if (b.n == 0) { return a; }
  size_type const n = a.n + b.n;
  double const delta = b.mean - a.mean;
  double const mean = a.mean + delta * static_cast<double>(b.n) / static_cast<double>(n);
  double const m2 = a.m2 + b.m2 + delta * delta * static_cast<double>(a.n) * static_cast<double>(b.n) / static_cast<double>(n);
  return {n, mean, m2};
}

// Statistic: 0 mean, 1 sample variance, 2 sample standard deviation (ddof 1, as pandas). reduce
// folds with Welford's update and merges in a fixed order (the most accurate); group-by's cells
// merge with atomics in any order, so they keep sums about a shift instead (cells_moments.hpp).
// Both finish through statistic(): the same answer from n values, their mean and squared deviations.
template <int Statistic>
struct moment {
  static constexpr char const* name = Statistic == 0 ? "mean" : Statistic == 1 ? "var" : "std";
  // Null for no values (mean) or fewer than two (var, std).
  static COLX_HOST_DEVICE maybe<double, true> statistic(size_type n, double mean, double m2) {
    if constexpr (Statistic == 0) {
      return {mean, n > 0};
    } else {
      if (n < 2) { return {0.0, false}; }
      // Rounding can leave m2 a hair below zero; NaN (an infinite value) must stay NaN.
      double const var = (m2 < 0 ? 0.0 : m2) / static_cast<double>(n - 1);
      return {Statistic == 1 ? var : std::sqrt(var), true};
    }
  }
  // A duration's mean is a duration of its unit: the exact sum of its ticks over their count,
  // rounded half away from zero (DuckDB's avg of an interval is an interval). Group-by's cell
  // finishes through mean_of too.
  template <duration_type T>
  static constexpr COLX_HOST_DEVICE T mean_of(int128_t total, size_type n) {
    int128_t q = total / n;
    int128_t const r = total % n;
    if (2 * (r < 0 ? -r : r) >= n) { q += total < 0 ? -1 : 1; }
    return T(static_cast<typename T::rep>(q));
  }
  struct tick_sum {
    int128_t total = 0;
    size_type n = 0;
  };
  template <class T>
  using state = std::conditional_t<duration_type<T>, tick_sum, moments>;
  template <class T>
  static constexpr COLX_HOST_DEVICE void add(state<T>& s, T v, size_type) {
    if constexpr (duration_type<T>) {
      static_assert(Statistic == 0, "colx::var/std of a duration are not defined; its sum and mean are");
      s.total += v.ticks;
      ++s.n;
    } else {
      static_assert(std::is_arithmetic_v<T> || dec_type<T>, "colx::mean/var/std need a numeric expression or a duration");
      double const x = colx::detail::as_double(v);  // a decimal's mean, var and std are doubles, as DuckDB's
      ++s.n;
      double const delta = x - s.mean;
      s.mean += delta / static_cast<double>(s.n);
      s.m2 += delta * (x - s.mean);
    }
  }
  template <class T>
  static constexpr COLX_HOST_DEVICE state<T> merge(state<T> a, state<T> b) {
    if constexpr (duration_type<T>) {
      return {a.total + b.total, a.n + b.n};
    } else {
      return merge_moments(a, b);
    }
  }
  template <class T>
  static auto finish(state<T> s) {
    if constexpr (duration_type<T>) {
      return s.n == 0 ? scalar<T>{} : scalar<T>(mean_of<T>(s.total, s.n));
    } else {
      auto const r = statistic(s.n, s.mean, s.m2);
      return r.valid ? scalar<double>(r.value) : scalar<double>{};
    }
  }
};

template <bool IsAny>
struct boolean {
  static constexpr char const* name = IsAny ? "any" : "all";
  template <class T>
  struct state {
    bool value = !IsAny;
  };
  template <class T>
  static constexpr COLX_HOST_DEVICE void add(state<T>& s, T v, size_type) {
    s.value = IsAny ? (s.value || static_cast<bool>(v)) : (s.value && static_cast<bool>(v));
  }
  template <class T>
  static constexpr COLX_HOST_DEVICE state<T> merge(state<T> a, state<T> b) {
    return {IsAny ? (a.value || b.value) : (a.value && b.value)};
  }
  template <class T>
  static scalar<bool> finish(state<T> s) {
    return scalar<bool>(s.value);
  }
};

// The row of the smallest (largest) valid value; ties go to the first row.
template <bool IsMin>
struct arg_extremum {
  static constexpr char const* name = IsMin ? "argmin" : "argmax";
  template <class T>
  struct state {
    T value{};
    size_type row = -1;
  };
  // A tie goes to the lower row whatever the order rows are added in (a fold that searches four
  // rows a thread adds them out of order: gpu/reduce_rows.cuh).
  template <class T>
  static constexpr COLX_HOST_DEVICE void add(state<T>& s, T v, size_type row) {
    if (s.row < 0 || extremum<IsMin>::better(v, s.value) || (row < s.row && !extremum<IsMin>::better(s.value, v))) {
      s.value = v;
      s.row = row;
    }
  }
  template <class T>
  static constexpr COLX_HOST_DEVICE state<T> merge(state<T> a, state<T> b) {
    if (a.row < 0) { return b; }
    if (b.row < 0) { return a; }
    if (extremum<IsMin>::better(b.value, a.value)) { return b; }
    if (extremum<IsMin>::better(a.value, b.value)) { return a; }
    return a.row <= b.row ? a : b;
  }
  template <class T>
  static scalar<size_type> finish(state<T> s) {
    return s.row < 0 ? scalar<size_type>{} : scalar<size_type>(s.row);
  }
};

// The value of the first (last) row with a valid value, by row number.
template <bool IsFirst>
struct positional {
  static constexpr char const* name = IsFirst ? "first" : "last";
  template <class T>
  struct state {
    T value{};
    size_type row = -1;
  };
  template <class T>
  static constexpr COLX_HOST_DEVICE void add(state<T>& s, T v, size_type row) {
    if (s.row < 0 || (IsFirst ? row < s.row : row > s.row)) {
      s.value = v;
      s.row = row;
    }
  }
  template <class T>
  static constexpr COLX_HOST_DEVICE state<T> merge(state<T> a, state<T> b) {
    if (a.row < 0) { return b; }
    if (b.row < 0) { return a; }
    return (IsFirst ? b.row < a.row : b.row > a.row) ? b : a;
  }
  template <class T>
  static scalar<T> finish(state<T> s) {
    return s.row < 0 ? scalar<T>{} : scalar<T>(s.value);
  }
};

// The number of distinct valid values, per group only: no small state holds a set of values, so
// group-by keeps one set of (group, value) pairs beside its table (group_by/cells.hpp). Its
// state and operations only carry what lets reduce()'s static_assert be the one error shown.
struct distinct_count {
  static constexpr char const* name = "nunique";
  static constexpr bool group_only = true;
  template <class T>
  struct state {};
  template <class T>
  static constexpr COLX_HOST_DEVICE void add(state<T>&, T, size_type) {}
  template <class T>
  static constexpr COLX_HOST_DEVICE state<T> merge(state<T> a, state<T>) {
    return a;
  }
  template <class T>
  static scalar<size_type> finish(state<T>) {
    return {};
  }
};

}  // namespace kinds

// An aggregation of an expression: what reduce and aggregate take.
template <class Kind, class E>
struct aggregation {
  E expr;

  template <fixed_string Name>
  [[nodiscard]] constexpr named_expr<Name, aggregation> as() const {
    return {*this};
  }
  template <class F>
  [[nodiscard]] auto map(F f) const {
    return aggregation<Kind, decltype(f(expr))>{f(expr)};
  }
  [[nodiscard]] std::string to_string() const { return std::string(Kind::name) + "(" + expr.to_string() + ")"; }
};

// count() with no argument: every row (of a filtered frame, every kept row).
struct row_marker : node<row_marker> {
  template <class Inputs>
  [[nodiscard]] COLX_HOST_DEVICE maybe<bool, false> operator()(Inputs const&, size_type) const {
    return {true};
  }
  [[nodiscard]] static std::string to_string() { return "*"; }
};

template <class T>
inline constexpr bool is_aggregation = false;
template <class Kind, class E>
inline constexpr bool is_aggregation<aggregation<Kind, E>> = true;

// Aggregations that only group-by computes (aggregate(...)), not reduce.
template <class T>
inline constexpr bool is_group_only = false;
template <class Kind, class E>
inline constexpr bool is_group_only<aggregation<Kind, E>> = requires { Kind::group_only; };

template <class Kind, class A>
[[nodiscard]] constexpr auto make_aggregation(A const& a) {
  auto x = as_expression(a);
  return aggregation<Kind, decltype(x)>{x};
}

}  // namespace colx::expr

namespace colx {
template <expr::expression A> [[nodiscard]] constexpr auto sum(A const& a) { return expr::make_aggregation<expr::kinds::sum>(a); }
template <expr::expression A> [[nodiscard]] constexpr auto min(A const& a) { return expr::make_aggregation<expr::kinds::extremum<true>>(a); }
template <expr::expression A> [[nodiscard]] constexpr auto max(A const& a) { return expr::make_aggregation<expr::kinds::extremum<false>>(a); }
// count(): all rows. count(e) and count_valid(e): the rows where e is valid, as SQL's COUNT(e),
// pandas' and cuDF's count. (count(e) counted null rows too until issue 15: a surprise to every
// SQL, pandas and cuDF user; count() counts rows.)
[[nodiscard]] constexpr auto count() { return expr::make_aggregation<expr::kinds::count<true>>(expr::row_marker{}); }
template <expr::expression A> [[nodiscard]] constexpr auto count(A const& a) { return expr::make_aggregation<expr::kinds::count<false>>(a); }
template <expr::expression A> [[nodiscard]] constexpr auto count_valid(A const& a) { return expr::make_aggregation<expr::kinds::count<false>>(a); }
template <expr::expression A> [[nodiscard]] constexpr auto mean(A const& a) { return expr::make_aggregation<expr::kinds::moment<0>>(a); }
template <expr::expression A> [[nodiscard]] constexpr auto var(A const& a) { return expr::make_aggregation<expr::kinds::moment<1>>(a); }
template <expr::expression A> [[nodiscard]] constexpr auto std(A const& a) { return expr::make_aggregation<expr::kinds::moment<2>>(a); }
template <expr::expression A> [[nodiscard]] constexpr auto any(A const& a) { return expr::make_aggregation<expr::kinds::boolean<true>>(a); }
template <expr::expression A> [[nodiscard]] constexpr auto all(A const& a) { return expr::make_aggregation<expr::kinds::boolean<false>>(a); }
template <expr::expression A> [[nodiscard]] constexpr auto argmin(A const& a) { return expr::make_aggregation<expr::kinds::arg_extremum<true>>(a); }
template <expr::expression A> [[nodiscard]] constexpr auto first(A const& a) { return expr::make_aggregation<expr::kinds::positional<true>>(a); }
template <expr::expression A> [[nodiscard]] constexpr auto last(A const& a) { return expr::make_aggregation<expr::kinds::positional<false>>(a); }
template <expr::expression A> [[nodiscard]] constexpr auto argmax(A const& a) { return expr::make_aggregation<expr::kinds::arg_extremum<false>>(a); }
// nunique(e): per group, the number of distinct valid values of e (pandas' nunique, dropna=True),
// equal as group-by keys are (NaN to NaN, -0.0 to 0.0); inside aggregate(...) only. Over a whole
// frame: nunique(frame, e) (frame/distinct.hpp).
template <expr::expression A> [[nodiscard]] constexpr auto nunique(A const& a) { return expr::make_aggregation<expr::kinds::distinct_count>(a); }
}  // namespace colx
