// SPDX-License-Identifier: Apache-2.0
#pragma once
// Distributed group-by: `d | group_by("k"_c) | aggregate(sum("v"_c).as<"s">(), ...)` over a
// dist_frame gives a dist_frame with each group on exactly one rank.
//
// When every aggregation can be merged from partial results (sum, count, min, max, any, all, and
// a mean of numbers or decimals as a sum and a count), each rank first aggregates its own rows
// (the fused one-pass group-by), and only the partial groups move: a hash shuffle of them by key,
// then a merge (sum of sums, sum of counts, min of mins, ...; a mean's sum over its count). Keys
// may then be named expressions (year("d"_c).as<"y">()): the partials hold them as columns. When
// the partial groups are few in all (limits().few_groups_rows), they go to rank 0 and are merged
// there without a shuffle; the result is then rank 0's alone. When the first key is an integer
// column whose values the ranks already hold apart (dist/key_spans.hpp: data split by key), each
// rank's partial groups are whole and nothing moves. Any other aggregation (var, nunique, first,
// ...) shuffles the rows themselves by key (columns), unless they are already apart that way, and
// aggregates once.
#include <colx/dist/colocated.hpp>
#include <colx/dist/kinds.hpp>
#include <colx/dist/limits.hpp>
#include <colx/dist/shuffle.hpp>
#include <colx/frame/group_by.hpp>
#include <colx/frame/select.hpp>
#include <colx/frame/with_columns.hpp>

namespace colx::dist {

template <class Source, class... Keys>
struct dist_grouped {
  Source source;  // a dist_frame, or a dist_lazy (a filter fused into the partial aggregation)
  group_by_stage<Keys...> stage;
};

template <dist_source Source, class... Keys>
[[nodiscard]] dist_grouped<Source, Keys...> operator|(Source const& d, group_by_stage<Keys...> const& stage) {
  static_assert((named<Keys> && ...), "colx::dist: group_by keys are columns (\"k\"_c) or named expressions "
                                      "(year(\"d\"_c).as<\"y\">())");
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

// A hidden column's name, "#s3" or "#n3": the sum and the count a mean's partials keep.
template <char Tag, std::size_t I>
inline constexpr fixed_string<5> hidden_name = [] {
  static_assert(I < 100, "colx::dist: at most 100 aggregations in one distributed aggregate");
  fixed_string<5> name;
  name.chars[0] = '#';
  name.chars[1] = Tag;
  name.chars[2] = static_cast<char>('0' + I / 10);
  name.chars[3] = static_cast<char>('0' + I % 10);
  return name;
}();

// A mean of numbers or decimals merges as a sum and a count (a duration's mean does not: its
// rows are shuffled).
template <class E, class Schema>
using value_of_t = typename expr::result_t<decltype(expr::bind<Schema>(std::declval<E>())), typename frame<Schema>::inputs_type>::value_type;
template <class Named, class Schema>
constexpr bool mergeable_mean() {
  if constexpr (std::is_same_v<kind_of_t<decltype(Named::expr)>, expr::kinds::moment<0>>) {
    using value = value_of_t<decltype(std::declval<Named>().expr.expr), Schema>;
    return std::is_arithmetic_v<value> || dec_type<value>;
  } else {
    return false;
  }
}
template <class Named, class Schema>
inline constexpr bool mergeable =
    merge_kind<std::remove_cvref_t<decltype(Named::expr)>>::mergeable || mergeable_mean<Named, Schema>();

// What aggregation I computes on each rank, as a tuple: itself, or a mean's sum and count.
template <std::size_t I, class Named, class Schema>
constexpr auto partials_of(Named const& a) {
  if constexpr (mergeable_mean<Named, Schema>()) {
    // Integers sum as doubles, as the one-process mean works: an int64 sum could wrap.
    auto const summed = [&] {
      if constexpr (std::is_integral_v<value_of_t<decltype(a.expr.expr), Schema>>) {
        return colx::cast<double>(a.expr.expr);
      } else {
        return a.expr.expr;
      }
    }();
    return std::tuple(colx::sum(summed).template as<hidden_name<'s', I>>(),
                      colx::count(a.expr.expr).template as<hidden_name<'n', I>>());
  } else {
    return std::tuple(a);
  }
}
// How aggregation I's partials merge, as a tuple (read from the partials' columns).
template <std::size_t I, class Named, class Schema>
constexpr auto merges_of() {
  if constexpr (mergeable_mean<Named, Schema>()) {
    using sums = expr::col<hidden_name<'s', I>>;
    using counts = expr::col<hidden_name<'n', I>>;
    return std::tuple(expr::aggregation<expr::kinds::sum, sums>{sums{}}.template as<hidden_name<'s', I>>(),
                      expr::aggregation<expr::kinds::sum, counts>{counts{}}.template as<hidden_name<'n', I>>());
  } else {
    using kind = typename merge_kind<std::remove_cvref_t<decltype(Named::expr)>>::kind;
    using column = expr::col<Named::name>;
    return std::tuple(expr::aggregation<kind, column>{column{}}.template as<Named::name>());
  }
}
// What finishes aggregation I after the merge, as a tuple: a mean's sum over its count, in
// doubles (a decimal's exact sum converted, then divided, as the one-process mean does).
template <std::size_t I, class Named, class Schema>
constexpr auto finishes_of() {
  if constexpr (mergeable_mean<Named, Schema>()) {
    using sums = expr::col<hidden_name<'s', I>>;
    using counts = expr::col<hidden_name<'n', I>>;
    return std::tuple((colx::cast<double>(sums{}) / colx::cast<double>(counts{})).template as<Named::name>());
  } else {
    return std::tuple();
  }
}

template <class K>
constexpr auto key_column() {
  return expr::col<K::name>{};
}

// Whether a group-by key is an integer column of the schema's, whose spans tell where its keys
// live (dist/key_spans.hpp).
template <class Schema, class K>
constexpr bool spannable_key() {
  if constexpr (expr::column_ref<K>) {
    return span_key_v<typename field_of<Schema, K>::type::type>;
  } else {
    return false;
  }
}
// What a rank holds of the first key (dist/colocated.hpp; unknown for any other key: a named
// expression, a string, ...).
template <class K, class... Rest, class Schema>
key_look look_at_first_key(frame<Schema> const& f) {
  if constexpr (spannable_key<Schema, K>()) {
    return look_at(f, K{}, {});
  } else {
    return {};
  }
}
// Whether every rank's first key is apart from every other rank's (each key then lives on one
// rank), from every rank's look: where some rank sent a sample and the samples leave it open, by
// the spans, in a second collective.
template <class K, class... Rest, class Schema>
bool first_keys_apart(communicator& comm, std::span<key_look const> looks, frame<Schema> const& f) {
  if (!may_be_apart(looks)) { return false; }
  if (!some_sampled(looks)) { return spans_apart(given_spans(looks), true); }
  if constexpr (spannable_key<Schema, K>()) {
    return spans_apart(comm.all_gather(own_spans(looks[static_cast<std::size_t>(comm.rank())], f, K{}, {})), true);
  } else {
    return false;  // (no look of such a key is a sample)
  }
}
struct groups_and_look {
  size_type groups;
  key_look look;
};

}  // namespace detail

template <class Source, class... Keys, class... Named>
[[nodiscard]] auto operator|(dist_grouped<Source, Keys...> const& g, aggregate_stage<Named...> const& agg) {
  auto& comm = g.source.comm();
  auto const& local = g.source.local();
  using Schema = typename std::remove_cvref_t<decltype(colx::detail::unfiltered_source(local))>::schema_type;
  if constexpr ((detail::mergeable<Named, Schema> && ...)) {
    // (References, not a structured binding: clang before 16 cannot capture one in a lambda.)
    auto const plan = [&]<std::size_t... I>(std::index_sequence<I...>) {
      return std::tuple(std::tuple_cat(detail::partials_of<I, Named, Schema>(std::get<I>(agg.aggs))...),
                        std::tuple_cat(detail::merges_of<I, Named, Schema>()...),
                        std::tuple_cat(detail::finishes_of<I, Named, Schema>()...));
    }(std::index_sequence_for<Named...>{});
    auto const& partials = std::get<0>(plan);
    auto const& merges = std::get<1>(plan);
    auto const& finishes = std::get<2>(plan);
    // The merge runs on each rank's own rows: a plain (local) group-by of the partials, then the
    // means' divisions and the columns in the order asked.
    auto const merge = [&](auto const& rows) {
      auto out = agreed(comm, "group_by (merge)", [&] {
        auto merged = rows | colx::group_by(g.stage.options, detail::key_column<Keys>()...) |
                      std::apply([](auto const&... m) { return colx::aggregate(m...); }, merges);
        if constexpr (std::tuple_size_v<std::remove_cvref_t<decltype(finishes)>> == 0) {
          return merged;
        } else {
          return merged | std::apply([](auto const&... f) { return colx::with_columns(f...); }, finishes) |
                 colx::select(detail::key_column<Keys>()..., expr::col<Named::name>{}...);
        }
      });
      return dist_frame<typename decltype(out)::schema_type>(comm, std::move(out));
    };
    auto const aggregate_partials = [&] {
      return local | g.stage | std::apply([](auto const&... a) { return colx::aggregate(a...); }, partials);
    };
    // A world of one: the one-process group-by, one pass (when it gives the merge's columns).
    using partial_t = decltype(aggregate_partials());
    using direct_t = decltype(local | g.stage | agg);
    using merged_schema = typename std::invoke_result_t<decltype(merge), partial_t const&>::schema_type;
    if constexpr (std::is_same_v<typename direct_t::schema_type, merged_schema>) {
      if (comm.size() == 1) {
        auto out = agreed(comm, "group_by", [&] { return local | g.stage | agg; });
        return dist_frame<typename direct_t::schema_type>(comm, std::move(out));
      }
    }
    auto const& source = colx::detail::unfiltered_source(local);
    detail::key_look const look = comm.size() > 1 ? detail::look_at_first_key<Keys...>(source) : detail::key_look{};
    auto partial = agreed(comm, "group_by (partial aggregation)", aggregate_partials);
    if (comm.size() == 1) { return merge(partial); }
    using partial_schema = typename decltype(partial)::schema_type;
    dist_frame<partial_schema> const parts(comm, std::move(partial));
    // The groups in all and where each rank's keys lie, in one collective; then whether each key
    // lives on one rank (each rank's partial groups are then whole).
    size_type groups = 0;
    std::vector<detail::key_look> looks;
    for (auto const& [g, l] : comm.all_gather(detail::groups_and_look{parts.local().num_rows(), look})) {
      groups += g;
      looks.push_back(l);
    }
    if (detail::first_keys_apart<Keys...>(comm, looks, source)) {
      if constexpr (std::is_same_v<partial_schema, merged_schema>) {
        return parts;
      } else {
        return merge(parts.local());  // the means' divisions, on each rank's own groups
      }
    }
    if (groups <= limits().few_groups_rows) {
      auto const bounds = detail::all_to_bounds(parts.local().num_rows(), comm.size(), 0);
      return merge(exchange_rows(comm, parts.local(), std::span<size_type const>(bounds), "group_by (partials to rank 0)"));
    }
    return merge(std::apply([&](auto const&... k) { return hash_shuffle(parts, k...); },
                            std::tuple(detail::key_column<Keys>()...))
                     .local());
  } else {
    static_assert((expr::column_ref<Keys> && ...),
                  "colx::dist: an aggregation that does not merge from partials (var, nunique, first, ...) shuffles the "
                  "rows by their keys, which must then be columns: add computed keys with with_columns first");
    auto const rows = [&] {
      if constexpr (detail::is_dist_frame<Source>) {
        return g.source;
      } else {
        return g.source.collect();
      }
    }();
    auto const shuffled = [&] {
      using rows_schema = typename std::remove_cvref_t<decltype(rows)>::schema_type;
      if (comm.size() > 1 && detail::spannable_key<rows_schema, std::tuple_element_t<0, std::tuple<Keys...>>>()) {
        auto const looks = comm.all_gather(detail::look_at_first_key<Keys...>(rows.local()));
        if (detail::first_keys_apart<Keys...>(comm, looks, rows.local())) { return rows; }  // each key on one rank already
      }
      return std::apply([&](auto const&... k) { return hash_shuffle(rows, k...); }, g.stage.keys);
    }();
    auto out = agreed(comm, "group_by", [&] { return shuffled.local() | g.stage | agg; });
    return dist_frame<typename decltype(out)::schema_type>(comm, std::move(out));
  }
}

}  // namespace colx::dist
