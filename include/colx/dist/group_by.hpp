// SPDX-License-Identifier: Apache-2.0
#pragma once
// Distributed group-by: `d | group_by("k"_c) | aggregate(sum("v"_c).as<"s">(), ...)` over a
// dist_frame gives a dist_frame with each group on exactly one rank.
//
// When every aggregation can be merged from partial results (sum, count, min, max, any, all),
// each rank first aggregates its own rows (the fused one-pass group-by), and only the partial
// groups move: a hash shuffle of them by key, then a merge (sum of sums, sum of counts, min of
// mins, ...). When the partial groups are few in all (limits().few_groups_rows), they go to rank 0 and are
// merged there without a shuffle; the result is then rank 0's alone. Any other aggregation
// (mean, var, nunique, first, ...) shuffles the rows themselves by key and aggregates once.
#include <colx/dist/limits.hpp>
#include <colx/dist/shuffle.hpp>
#include <colx/frame/group_by.hpp>

namespace colx::dist {

template <class Schema, class... Keys>
struct dist_grouped {
  dist_frame<Schema> source;
  group_by_stage<Keys...> stage;
};

template <class Schema, class... Keys>
[[nodiscard]] dist_grouped<Schema, Keys...> operator|(dist_frame<Schema> const& d, group_by_stage<Keys...> const& stage) {
  static_assert((expr::column_ref<Keys> && ...),
                "colx::dist: group_by keys are columns (\"k\"_c); add computed keys with with_columns first");
  return {d, stage};
}

namespace detail {

// How the partial results of an aggregation merge: the aggregation applied to them, if any.
template <class Agg>
struct merge_kind {
  static constexpr bool mergeable = false;
};
template <class E>
struct merge_kind<expr::aggregation<expr::kinds::sum, E>> {
  static constexpr bool mergeable = true;
  using kind = expr::kinds::sum;
};
template <bool CountNulls, class E>
struct merge_kind<expr::aggregation<expr::kinds::count<CountNulls>, E>> {
  static constexpr bool mergeable = true;
  using kind = expr::kinds::sum;  // counts add up
};
template <bool IsMin, class E>
struct merge_kind<expr::aggregation<expr::kinds::extremum<IsMin>, E>> {
  static constexpr bool mergeable = true;
  using kind = expr::kinds::extremum<IsMin>;
};
template <bool IsAny, class E>
struct merge_kind<expr::aggregation<expr::kinds::boolean<IsAny>, E>> {
  static constexpr bool mergeable = true;
  using kind = expr::kinds::boolean<IsAny>;
};

template <class Named>
inline constexpr bool mergeable = merge_kind<std::remove_cvref_t<decltype(Named::expr)>>::mergeable;

// The aggregation that merges partial results of `Named` (read from its own output column).
template <class Named>
constexpr auto merge_of() {
  using kind = typename merge_kind<std::remove_cvref_t<decltype(Named::expr)>>::kind;
  using column = expr::col<Named::name>;
  return expr::aggregation<kind, column>{column{}}.template as<Named::name>();
}

template <class K>
constexpr auto key_column() {
  return expr::col<K::name>{};
}

}  // namespace detail

template <class Schema, class... Keys, class... Named>
[[nodiscard]] auto operator|(dist_grouped<Schema, Keys...> const& g, aggregate_stage<Named...> const& agg) {
  auto& comm = g.source.comm();
  auto const& local = g.source.local();
  if constexpr ((detail::mergeable<Named> && ...)) {
    auto partial = agreed(comm, "group_by (partial aggregation)", [&] { return local | g.stage | agg; });
    // The merge runs on each rank's own rows: a plain (local) group-by of the partials.
    auto const merge = [&](auto const& partials) {
      auto out = agreed(comm, "group_by (merge)", [&] {
        return partials | colx::group_by(g.stage.options, detail::key_column<Keys>()...) |
               colx::aggregate(detail::merge_of<Named>()...);
      });
      return dist_frame<typename decltype(out)::schema_type>(comm, std::move(out));
    };
    if (comm.size() == 1) { return merge(partial); }
    using partial_schema = typename decltype(partial)::schema_type;
    dist_frame<partial_schema> const parts(comm, std::move(partial));
    size_type const groups = comm.all_sum(parts.local().num_rows());
    if (groups <= limits().few_groups_rows) {
      auto const bounds = detail::all_to_bounds(parts.local().num_rows(), comm.size(), 0);
      return merge(exchange_rows(comm, parts.local(), std::span<size_type const>(bounds), "group_by (partials to rank 0)"));
    }
    return merge(std::apply([&](auto const&... k) { return hash_shuffle(parts, k...); },
                            std::tuple(detail::key_column<Keys>()...))
                     .local());
  } else {
    auto const shuffled = std::apply([&](auto const&... k) { return hash_shuffle(g.source, k...); }, g.stage.keys);
    auto out = agreed(comm, "group_by", [&] { return shuffled.local() | g.stage | agg; });
    return dist_frame<typename decltype(out)::schema_type>(comm, std::move(out));
  }
}

}  // namespace colx::dist
