// SPDX-License-Identifier: Apache-2.0
#pragma once
// Distributed reduce: `d | reduce(sum("x"_c), mean("x"_c), ...)` gives every rank the same
// scalars. Each rank reduces its rows in one fused pass to partial results (a mean as a sum and a
// count), the partials are all-gathered (a few bytes a rank) and merged in rank order on every
// rank, so every rank computes the same answer from the same numbers in the same order.
#include <colx/dist/dist_frame.hpp>
#include <colx/dist/kinds.hpp>
#include <colx/frame/pipeline.hpp>

#include <array>
#include <tuple>
#include <vector>

namespace colx::dist {
namespace detail {

// The partial aggregations one aggregation needs, as a tuple: a mean's sum (of an integer, in
// doubles: an int64 sum could wrap) and count.
template <class Schema, class Kind, class E>
constexpr auto partials_of(expr::aggregation<Kind, E> const& a) {
  if constexpr (std::is_same_v<Kind, expr::kinds::moment<0>>) {
    using value = typename expr::result_t<decltype(expr::bind<Schema>(a.expr)), typename frame<Schema>::inputs_type>::value_type;
    if constexpr (std::is_integral_v<value>) {
      return std::tuple(colx::sum(colx::cast<double>(a.expr)), colx::count(a.expr));
    } else {
      return std::tuple(colx::sum(a.expr), colx::count(a.expr));
    }
  } else {
    static_assert(std::is_same_v<Kind, expr::kinds::sum> || std::is_same_v<Kind, expr::kinds::count<true>> ||
                      std::is_same_v<Kind, expr::kinds::count<false>> || std::is_same_v<Kind, expr::kinds::extremum<true>> ||
                      std::is_same_v<Kind, expr::kinds::extremum<false>> || std::is_same_v<Kind, expr::kinds::boolean<true>> ||
                      std::is_same_v<Kind, expr::kinds::boolean<false>>,
                  "colx::dist: reduce over a dist_frame takes sum, count, min, max, mean, any and all");
    return std::tuple(a);
  }
}
template <class Schema, class A>
inline constexpr std::size_t partial_count = std::tuple_size_v<decltype(partials_of<Schema>(std::declval<A>()))>;

template <class T>
auto as_tuple(T&& t) {
  if constexpr (requires { std::tuple_size<std::remove_cvref_t<T>>::value; }) {
    return std::forward<T>(t);
  } else {
    return std::tuple(std::forward<T>(t));
  }
}

template <class T>
scalar<T> add_scalars(std::vector<scalar<T>> const& all) {
  scalar<T> total;
  for (auto const& s : all) {
    if (!s.has_value()) { continue; }
    total = total.has_value() ? scalar<T>(expr::kinds::sum::plus(*total, *s)) : s;
  }
  return total;
}

// Merges the all-gathered partials of aggregation A (at positions [At, At + partial_count<A>)).
template <class Kind, std::size_t At, class Gathered>
auto merge_partials(Gathered const& g) {
  auto const& first = std::get<At>(g);
  using first_t = typename std::remove_cvref_t<decltype(first)>::value_type;
  using value_t = typename first_t::value_type;
  if constexpr (std::is_same_v<Kind, expr::kinds::moment<0>>) {
    static_assert(std::is_arithmetic_v<value_t> || dec_type<value_t>, "colx::dist: mean over a dist_frame takes numbers or decimals");
    auto const total = add_scalars(first);
    auto const count = add_scalars(std::get<At + 1>(g));
    size_type const n = count.has_value() ? *count : 0;
    if (n == 0) { return scalar<double>{}; }
    double const sum = [&] {  // a decimal's exact sum, converted as the one-process mean does
      if constexpr (dec_type<value_t>) {
        return colx::detail::as_double(*total);
      } else {
        return static_cast<double>(*total);
      }
    }();
    return scalar<double>(sum / static_cast<double>(n));
  } else if constexpr (std::is_same_v<Kind, expr::kinds::extremum<true>> || std::is_same_v<Kind, expr::kinds::extremum<false>>) {
    static_assert(!std::is_same_v<value_t, string_view>,
                  "colx::dist: min and max of strings over a dist_frame are not supported yet (a rank's string is "
                  "an address in its own memory); group_by(...) | aggregate(min(...)) is, or gather() first");
    typename Kind::template state<value_t> s{};
    for (auto const& x : first) {
      if (x.has_value()) { s = Kind::merge(s, typename Kind::template state<value_t>{*x, true}); }
    }
    return Kind::finish(s);
  } else if constexpr (std::is_same_v<Kind, expr::kinds::boolean<true>> || std::is_same_v<Kind, expr::kinds::boolean<false>>) {
    bool constexpr is_any = std::is_same_v<Kind, expr::kinds::boolean<true>>;
    bool v = !is_any;
    for (auto const& x : first) { v = is_any ? (v || *x) : (v && *x); }
    return scalar<bool>(v);
  } else {
    return add_scalars(first);  // sums and counts
  }
}

}  // namespace detail

template <dist_source Source, class... Aggs>
[[nodiscard]] auto operator|(Source const& d, reduce_stage<Aggs...> const& r) {
  auto& comm = d.comm();
  using Schema = typename std::remove_cvref_t<decltype(colx::detail::unfiltered_source(d.local()))>::schema_type;
  auto const partial_aggs =
      std::apply([](auto const&... a) { return std::tuple_cat(detail::partials_of<Schema>(a)...); }, r.aggs);
  auto const local = agreed(comm, "reduce", [&] {
    return detail::as_tuple(std::apply([&](auto const&... p) { return d.local() | colx::reduce(p...); }, partial_aggs));
  });
  auto const gathered = std::apply([&](auto const&... s) { return std::tuple(comm.all_gather(s)...); }, local);
  constexpr std::array<std::size_t, sizeof...(Aggs)> counts{detail::partial_count<Schema, Aggs>...};
  auto const result = [&]<std::size_t... I>(std::index_sequence<I...>) {
    constexpr auto at = [](std::size_t i, auto const& c) {
      std::size_t s = 0;
      for (std::size_t k = 0; k < i; ++k) { s += c[k]; }
      return s;
    };
    return std::tuple(detail::merge_partials<detail::kind_of_t<Aggs>, at(I, counts)>(gathered)...);
  }(std::index_sequence_for<Aggs...>{});
  if constexpr (sizeof...(Aggs) == 1) {
    return std::get<0>(result);
  } else {
    return result;
  }
}

}  // namespace colx::dist
