// SPDX-License-Identifier: Apache-2.0
#pragma once
// Group-by with aggregation, fused: `f | filter(p) | group_by("k"_c) | aggregate(sum(e).as<"s">())`
// evaluates the predicate, the keys and every aggregated expression inside one pass over the rows.
//
// One global open-addressing hash table (linear probing) maps a group to a slot; a slot holds the
// group's keys packed into one word when they fit 64 bits, else the row number of the group's
// first-inserted row (keys are then compared by evaluating the key expressions at that row, so
// any key type works, strings included), and the group's cells (shared between aggregations where
// they keep the same thing: see group_by/sharing.hpp). With a handful of groups each thread keeps the
// cells of the last few groups it saw privately (registers, or shared memory when wide) and
// merges them into its block's shared-memory table only to make room: a thread touches the tables
// a handful of times in all. With up to a few thousand groups (the few-groups path) each GPU row
// goes straight to its block's shared-memory table, merged once per block into the global one.
// With many groups each row goes to the global table (the many-groups path); on the GPU, a table
// of packed keys larger than L2 is filled partition by partition (gpu/aggregate_pass.cuh). The
// table's size comes from the number of groups estimated on a sample of the rows; an estimate
// that proves too small is detected and the pass rerun. nunique keeps, beside the table, a set of
// (group, value) pairs: a row counts for its group where its pair is new to the set.
//
// The parts, one job a file (group_by/): cells.hpp (what a group keeps, per aggregation kind),
// sharing.hpp (cells shared between aggregations), table.hpp (the table and its lookups),
// output.hpp (the result's schema and rows), plan.hpp (binding and sizing; explain reads it),
// aggregate.hpp (the run). Both backends share the row loop (exec/aggregate_rows.hpp).
#include <colx/frame/explain.hpp>
#include <colx/frame/group_by/aggregate.hpp>
#include <colx/frame/group_by/plan.hpp>
#include <colx/frame/pipeline.hpp>

#include <algorithm>
#include <cstddef>
#include <sstream>
#include <string>
#include <string_view>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

namespace colx {

template <class Source, class... Keys>
struct grouped;

// A source (a frame, or a filtered frame) and its keys: group_by(...) waits for aggregate(...).
template <class... Keys>
struct group_by_stage {
  using stage_tag = void;
  std::tuple<Keys...> keys;
  group_by_options options;

  template <class Source>
    requires requires(Source const& s) { detail::unfiltered_source(s).inputs(); }
  grouped<Source, Keys...> apply(Source const& source, stream_ref, resource_ref) const {
    return {source, *this};
  }
};

// Keys are column references ("k"_c) or named expressions ((e).as<"k">()).
template <class... Keys>
  requires(!std::same_as<Keys, group_by_options> && ...)
[[nodiscard]] constexpr auto group_by(Keys const&... keys) {
  static_assert(sizeof...(Keys) > 0, "colx::group_by needs at least one key");
  return group_by_stage<Keys...>{{keys...}, {}};
}
template <class... Keys>
[[nodiscard]] constexpr auto group_by(group_by_options options, Keys const&... keys) {
  static_assert(sizeof...(Keys) > 0, "colx::group_by needs at least one key");
  return group_by_stage<Keys...>{{keys...}, options};
}

template <class Source, class... Keys>
struct grouped {
  Source source;
  group_by_stage<Keys...> stage;
};
template <class Source, class... Keys>
inline constexpr bool is_pipeline_source<grouped<Source, Keys...>> = true;

// One pass over the grouped rows: one result row per group, the keys then the aggregations.
template <class... Named>
struct aggregate_stage {
  using stage_tag = void;
  std::tuple<Named...> aggs;

  template <class Source, class... Keys>
  auto apply(grouped<Source, Keys...> const& g, stream_ref stream, resource_ref mr) const;
};
namespace detail {
// A stand-in name ("?0", "?1", ...) for an aggregation the user did not name: the static_assert in
// aggregate() says what is wrong, and the pipeline after it still compiles, so that the message is
// the only error.
template <std::size_t I>
inline constexpr fixed_string<4> unnamed_aggregation = [] {
  fixed_string<4> name;
  name.chars[0] = '?';
  name.chars[1] = static_cast<char>('0' + I / 10 % 10);
  name.chars[2] = static_cast<char>('0' + I % 10);
  return name;
}();
template <std::size_t I, class A>
constexpr auto named_or_stand_in(A const& a) {
  if constexpr (requires { A::name; }) {
    return a;
  } else {
    return a.template as<unnamed_aggregation<I>>();
  }
}
}  // namespace detail

// aggregate(sum("x"_c).as<"total">(), count().as<"n">(), ...): each named.
template <class... Named>
[[nodiscard]] constexpr auto aggregate(Named const&... aggs) {
  static_assert(sizeof...(Named) > 0, "colx::aggregate needs at least one aggregation");
  static_assert((requires { Named::name; } && ...),
                "colx::aggregate: name each aggregation, as in sum(\"x\"_c).as<\"total\">()");
  return [&]<std::size_t... I>(std::index_sequence<I...>) {
    return aggregate_stage<decltype(detail::named_or_stand_in<I>(aggs))...>{{detail::named_or_stand_in<I>(aggs)...}};
  }(std::index_sequence_for<Named...>{});
}

template <class... Named>
template <class Source, class... Keys>
auto aggregate_stage<Named...>::apply(grouped<Source, Keys...> const& g, stream_ref stream, resource_ref mr) const {
  return detail::aggregate_impl(detail::unfiltered_source(g.source), detail::predicate_of_source(g.source), g.stage.keys,
                                g.stage.options, aggs, stream, mr);
}

namespace detail {
// The aggregations that read another's value for a part of theirs (expr/reuse.hpp), and the
// parts alike in type whose constants differ.
template <class Bound, class... Named>
void explain_reuses(Bound const& bound, std::tuple<Named...> const&, std::ostringstream& out) {
  std::string_view const names[] = {std::string_view(Named::name.view())...};
  [&]<std::size_t... K>(std::index_sequence<K...>) {
    (([&] {
       std::vector<std::pair<std::size_t, bool>> reuses;
       expr::detail::collect_reuses(get<K>(bound).expr, reuses);
       std::sort(reuses.begin(), reuses.end());
       reuses.erase(std::unique(reuses.begin(), reuses.end()), reuses.end());
       for (auto const& [j, same] : reuses) {
         out << "  " << names[K]
             << (same ? " reads the value of " + std::string(names[j]) + " for a part of its expression: computed once a row\n"
                      : " computes itself a part typed as " + std::string(names[j]) + "'s expression: its constants differ\n");
       }
     }()),
     ...);
  }(std::index_sequence_for<Named...>{});
}
}  // namespace detail

// The plan of a group-by: the pass, the paths a sample of its rows will choose among, and the least
// bytes. Known from the types and the row count: explain launches nothing.
template <class Source, class... Keys, class... Named>
[[nodiscard]] plan_cost plan(grouped<Source, Keys...> const& g, aggregate_stage<Named...> const& a,
                             std::ostringstream* text = nullptr) {
  auto const& f = detail::unfiltered_source(g.source);
  auto const pred = detail::predicate_of_source(g.source);
  using binding = detail::group_by_binding<std::remove_cvref_t<decltype(f)>, std::remove_cvref_t<decltype(pred)>,
                                           std::tuple<Keys...>, std::tuple<Named...>>;
  detail::group_plan const p = detail::plan_of<typename binding::fn_t>(f.num_rows());
  std::ostringstream out;
  out << "group_by + aggregate over " << p.rows << " rows, one pass\n  where " << pred.to_string() << "\n  keys:";
  std::apply([&](auto const&... k) { ((out << " " << detail::group_key<std::remove_cvref_t<decltype(k)>>::name.view()), ...); },
             g.stage.keys);
  out << " (" << p.key_form << ")\n";
  std::apply([&](auto const&... n) { ((out << "  " << n.name.view() << " = " << n.expr.to_string() << "\n"), ...); }, a.aggs);
  detail::explain_reuses(binding::bind_aggs(a.aggs), a.aggs, out);
  out << "  cells: " << p.cell_bytes << " bytes a group (a row count and sums of one column kept once)\n";
  out << "  the path, by the groups in a sample of up to " << detail::most_sampled_rows
      << " rows, or by the most groups the keys can form where each is a dictionary, boolean or 8-bit column and they form fewer than "
      << 2 * detail::group_cache_size << ":\n    up to "
      << 2 * detail::group_cache_size << " groups: per-thread caches of " << detail::group_cache_size << " groups first (in narrow form, "
      << p.private_bytes << " bytes a group, where they are kept in the GPU's shared memory, and on the host)\n"
      << "    up to " << static_cast<size_type>(p.few_groups_limit) << " groups (few-groups path): on the GPU, per-block "
      << "shared-memory tables of " << p.block_slots << " slots, merged once per block into the global table\n"
      << "    more (many-groups path): a global hash table of " << p.load_factor << " slots a group, " << p.entry_bytes
      << " bytes a slot";
  if (p.partitionable) { out << "; on the GPU, rows go first into partitions by slot when the table is larger than L2"; }
  out << "\n";
  if (p.pair_sets > 0) {
    out << "  nunique: " << (p.pair_sets == 1 ? std::string("a set") : std::to_string(p.pair_sets) + " sets (one per nunique)")
        << " of (group, value) pairs of " << p.most_pair_slots << " slots (" << static_cast<std::size_t>(p.most_pair_slots) * sizeof(size_type)
        << " bytes, fewer when the filter drops rows), where each row's pair is looked up as it is added\n";
  }
  auto const used = std::apply(
      [&](auto const&... k) {
        return std::apply(
            [&](auto const&... n) {
              return detail::used_columns<std::remove_cvref_t<decltype(f)>>(pred, detail::group_key<std::remove_cvref_t<decltype(k)>>::expr_of(k)...,
                                                                             n.expr.expr...);
            },
            a.aggs);
      },
      g.stage.keys);
  // sample, table, compaction (+ sort, + clearing the pair sets)
  plan_cost cost{1, 4 + (g.stage.options.sorted ? 3 : 0) + (p.pair_sets > 0 ? 1 : 0), 0, 0};
  cost.bytes_read = detail::read_bytes(f, used, out);
  if (text != nullptr) { *text << out.str(); }
  return cost;
}

}  // namespace colx
