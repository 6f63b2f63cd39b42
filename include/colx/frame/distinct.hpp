// SPDX-License-Identifier: Apache-2.0
#pragma once
// Rows by key: distinct (pandas' drop_duplicates), drop_nulls, value_counts and nunique. Each is
// a group-by (one fused pass over the rows) plus small work on its result: distinct groups by the
// keys with the first and last row number of each group, then gathers those rows in input order.
#include <colx/expr/functions.hpp>
#include <colx/frame/gather.hpp>
#include <colx/frame/group_by.hpp>
#include <colx/frame/pipeline.hpp>
#include <colx/frame/select.hpp>
#include <colx/frame/sort.hpp>

#include <tuple>

namespace colx {

// Which row of each set of rows with equal keys distinct() keeps; `none` keeps only the rows
// whose keys appear once (pandas' keep=False). `any` may be any of them (today the first).
enum class keep_rows { first, last, any, none };

template <class... Keys>
struct distinct_stage {
  using stage_tag = void;
  std::tuple<Keys...> keys;  // none: every column is a key
  keep_rows keep = keep_rows::first;

  template <class Source>
    requires requires(Source const& s) { detail::unfiltered_source(s).inputs(); }
  auto apply(Source const& source, stream_ref stream, resource_ref mr) const;
};

// f | distinct(): rows whose keys (every column, or the given columns or named expressions) are
// unique, one per set of duplicates, in input order. Null keys are equal to each other.
template <class... Keys>
  requires(!std::same_as<Keys, keep_rows> && ...)
[[nodiscard]] constexpr auto distinct(Keys const&... keys) {
  return distinct_stage<Keys...>{{keys...}, keep_rows::first};
}
template <class... Keys>
[[nodiscard]] constexpr auto distinct(keep_rows keep, Keys const&... keys) {
  return distinct_stage<Keys...>{{keys...}, keep};
}

template <class... Cols>
struct drop_nulls_stage {
  using stage_tag = void;
  std::tuple<Cols...> columns;  // none: every column

  template <class Source>
    requires requires(Source const& s) { detail::unfiltered_source(s).inputs(); }
  auto apply(Source const& source, stream_ref stream, resource_ref mr) const;
};
// f | drop_nulls("a"_c, ...): the rows where none of the columns (every column if none are
// named) is null. Lazy, as a filter: it fuses into whatever follows.
template <class... Cols>
[[nodiscard]] constexpr auto drop_nulls(Cols const&... columns) {
  static_assert((expr::column_ref<Cols> && ...), "colx::drop_nulls takes columns: drop_nulls(\"a\"_c, \"b\"_c)");
  return drop_nulls_stage<Cols...>{{columns...}};
}

namespace detail {

template <class Schema>
constexpr auto every_column() {
  return []<std::size_t... C>(std::index_sequence<C...>) {
    return std::tuple(col<Schema::template field_at<C>::name>{}...);
  }(std::make_index_sequence<Schema::size>{});
}
template <class Schema, class... Keys>
auto keys_or_every_column(std::tuple<Keys...> const& keys) {
  if constexpr (sizeof...(Keys) == 0) {
    return every_column<Schema>();
  } else {
    return keys;
  }
}

template <class Source>
using schema_of_source = typename std::remove_cvref_t<decltype(unfiltered_source(std::declval<Source const&>()))>::schema_type;

// The row numbers distinct() keeps, ascending: a frame of one column, "row".
template <class Source, class... Keys>
auto distinct_rows(Source const& source, std::tuple<Keys...> const& keys, keep_rows keep,
                                   stream_ref stream) {
  auto const& f = unfiltered_source(source);
  resource_ref const work = get_current_resource(f.kind());
  // One pass: the first and last row and the size of every group (one instantiation for every keep).
  auto const groups = std::apply(
      [&](auto const&... k) {
        return run(source | group_by(k...),
                   aggregate(min(row_number()).as<"first_row">(), max(row_number()).as<"last_row">(), count().as<"rows">()),
                   stream, work);
      },
      keys);
  auto const picked = [&] {
    if (keep == keep_rows::none) {
      return (groups | filter(col<"rows">{} == 1)).collect(stream, work) | select(col<"first_row">{}.as<"row">());
    }
    if (keep == keep_rows::last) { return groups | select(col<"last_row">{}.as<"row">()); }
    return groups | select(col<"first_row">{}.as<"row">());
  }();
  return run(picked, sort_by(col<"row">{}), stream, work);
}

}  // namespace detail

template <class... Keys>
template <class Source>
  requires requires(Source const& s) { detail::unfiltered_source(s).inputs(); }
auto distinct_stage<Keys...>::apply(Source const& source, stream_ref stream, resource_ref mr) const {
  using schema_type = detail::schema_of_source<Source>;
  auto const rows = detail::distinct_rows(source, detail::keys_or_every_column<schema_type>(keys), keep, stream);
  return take(detail::unfiltered_source(source), rows.template column_at<0>(), stream, mr);
}

namespace detail {
template <class Schema, class... Cols>
auto all_valid(std::tuple<Cols...> const& columns) {
  auto const cols = keys_or_every_column<Schema>(columns);
  return std::apply([](auto const&... c) { return (is_valid(c) && ...); }, cols);
}
}  // namespace detail

template <class... Cols>
template <class Source>
  requires requires(Source const& s) { detail::unfiltered_source(s).inputs(); }
auto drop_nulls_stage<Cols...>::apply(Source const& source, stream_ref stream, resource_ref mr) const {
  using schema_type = detail::schema_of_source<Source>;
  return run(source, filter(detail::all_valid<schema_type>(columns)), stream, mr);
}

struct value_counts_options {
  bool drop_nulls = true;  // no row for a null value (pandas' dropna)
  bool sort = true;        // by count, then by value; else in no defined order
  bool ascending = false;  // with sort: fewest first
};

// How often each value of `key` (a column or a named expression) occurs: a frame of the values
// and a not-null "count" column, most frequent first (ties by value), as pandas' value_counts.
template <class Source, class Key>
[[nodiscard]] auto value_counts(Source const& source, Key const& key, value_counts_options options = {},
                                stream_ref stream = {}) {
  auto const& f = detail::unfiltered_source(source);
  auto counts = run(source | group_by(group_by_options{.sorted = false, .drop_null_keys = options.drop_nulls}, key),
                    aggregate(count().as<"count">()), stream, get_current_resource(f.kind()));
  if (!options.sort) { return counts; }
  using counts_schema = typename decltype(counts)::schema_type;
  auto const by_count = sort_key<col<"count">>{{}, !options.ascending, null_order::last};
  return run(counts, sort_by(by_count, col<counts_schema::template field_at<0>::name>{}), stream,
             get_current_resource(f.kind()));
}

// The number of distinct non-null values of `value` (a column or a named expression).
template <class Source, class Value>
[[nodiscard]] size_type nunique(Source const& source, Value const& value, stream_ref stream = {}) {
  return value_counts(source, value, value_counts_options{.drop_nulls = true, .sort = false}, stream).num_rows();
}

// Per group: the keys, and "nunique", the number of distinct non-null values of `value` (a
// column) in the group (0 when all its values are null): group_by(...) | aggregate(nunique(value)),
// one pass. (It was two group-bys, by keys and value then by keys, and the first dropped the rows
// of a null value where drop_null_keys was set: a group whose values were all null was lost.)
template <class Source, class... Keys, class Value>
  requires expr::column_ref<Value>
[[nodiscard]] auto nunique(grouped<Source, Keys...> const& g, Value const& value, stream_ref stream = {}) {
  auto const& f = detail::unfiltered_source(g.source);
  return run(g, aggregate(colx::nunique(value).template as<"nunique">()), stream, get_current_resource(f.kind()));
}

}  // namespace colx
