// SPDX-License-Identifier: Apache-2.0
#pragma once
// Pipelines over frames: `f | filter(p) | reduce(sum(e))`, `f | with_columns(e.as<"x">())`,
// `(f | filter(p)).collect()`, `f | count_if(p)`, and explain(). A filter is lazy: it runs inside
// whatever follows it, so filter + reduce is one pass with no compaction, and collect() is one
// compaction pass over every column. Every stage runs through frame/stage.hpp's run() and
// operator|; a stage's apply() says what it takes.
#include <colx/column/bitmask_ops.hpp>
#include <colx/exec/dispatch.hpp>
#include <colx/expr/aggregate.hpp>
#include <colx/expr/functions_strings.hpp>
#include <colx/frame/frame.hpp>
#include <colx/frame/kernels.hpp>
#include <colx/frame/output_column.hpp>
#include <colx/frame/stage.hpp>
#include <colx/frame/with_columns.hpp>

#include <limits>
#include <sstream>
#include <string>
#include <tuple>
#include <vector>

namespace colx {

// ---- a frame with a pending predicate --------------------------------------------------------------

template <class Frame, class Pred>
class filtered {
 public:
  filtered(Frame frame, Pred pred) : _frame(std::move(frame)), _pred(pred) {}
  [[nodiscard]] Frame const& source() const noexcept { return _frame; }
  [[nodiscard]] Pred const& predicate() const noexcept { return _pred; }

  // The kept rows of every column, in one compaction pass; by default where the frame lives.
  [[nodiscard]] Frame collect(stream_ref stream, resource_ref mr) const;
  [[nodiscard]] Frame collect(stream_ref stream = {}) const { return collect(stream, get_current_resource(_frame.kind())); }

 private:
  Frame _frame;
  Pred _pred;
};

template <class Frame, class Pred>
inline constexpr bool is_pipeline_source<filtered<Frame, Pred>> = true;
namespace detail {
template <class Frame, class Pred>
inline constexpr bool is_filtered<filtered<Frame, Pred>> = true;
}  // namespace detail

namespace detail {
// A stage's source is a frame or a filtered frame: the frame, and the predicate (every row when
// there is none).
template <class Source>
auto const& unfiltered_source(Source const& s) {
  if constexpr (requires { s.predicate(); }) {
    return s.source();
  } else {
    return s;
  }
}
template <class Source>
auto predicate_of_source(Source const& s) {
  if constexpr (requires { s.predicate(); }) {
    return s.predicate();
  } else {
    return expr::row_marker{};
  }
}
}  // namespace detail

template <class Pred>
struct filter_stage {
  using stage_tag = void;
  Pred pred;

  // The predicate is checked against the schema here, where the filter is written, though it runs
  // later: a misspelt column is reported at this line.
  template <class Schema>
  auto apply(frame<Schema> const& f, stream_ref, resource_ref) const {
    using checked [[maybe_unused]] = decltype(expr::bind<Schema>(pred));
    return filtered<frame<Schema>, Pred>(f, pred);
  }
  template <class Frame, class P>
  auto apply(filtered<Frame, P> const& f, stream_ref, resource_ref) const {
    using checked [[maybe_unused]] = decltype(expr::bind<typename Frame::schema_type>(pred));
    auto both = f.predicate() && pred;
    return filtered<Frame, decltype(both)>(f.source(), both);
  }
};

// Keeps the rows where `pred` is true (null counts as false).
template <class P>
  requires(expr::expression<P> || std::same_as<P, bool>)
[[nodiscard]] constexpr auto filter(P const& pred) {
  auto e = expr::as_expression(pred);
  return filter_stage<decltype(e)>{e};
}

// ---- reduce ---------------------------------------------------------------------------------------

namespace detail {

template <class Inputs, class... Aggs, class State, std::size_t... K>
auto finish_all(State const& s, std::index_sequence<K...>) {
  auto results = std::tuple(aggregation_traits<Aggs, Inputs>::kind::template finish<typename aggregation_traits<Aggs, Inputs>::value_type>(
      get<K>(s))...);
  if constexpr (sizeof...(Aggs) == 1) {
    return std::get<0>(results);
  } else {
    return results;
  }
}

// One pass: the predicate and every aggregation's expression are evaluated per row, and each
// aggregation folds its valid values into its state.
template <class Frame, class Pred, class... Aggs>
auto reduce_bound(Frame const& f, Pred const& pred, stream_ref stream, Aggs const&... aggs) {
  spill_lock_scope const spill_lock(stream);  // the columns read here stay put until the work is done
  using inputs = typename Frame::inputs_type;
  using acc_t = accumulate_fn<inputs, Pred, Aggs...>;
  using state_t = typename acc_t::state;
  acc_t const acc{f.inputs(), pred, tuple<Aggs...>(aggs...)};
  state_t const s = on_backend(f.kind(), stream, [&](auto const& exec) {
    return exec.reduce_rows(f.num_rows(), state_t{}, acc, merge_fn<inputs, Aggs...>{});
  });
  return finish_all<inputs, Aggs...>(s, std::index_sequence_for<Aggs...>{});
}

template <class Frame, class Pred, class... Aggs>
auto reduce_frame(Frame const& f, Pred const& pred, std::tuple<Aggs...> const& aggs, stream_ref stream) {
  using schema_type = typename Frame::schema_type;
  std::vector<buffer> scratch;  // what resolved nodes read, kept until the kernels have run
  return std::apply(
      [&](auto const&... a) {
        return reduce_bound(f, resolve_literals(expr::bind<schema_type>(pred), f, stream, &scratch), stream,
                            resolve_literals(expr::bind<schema_type>(a), f, stream, &scratch)...);
      },
      aggs);
}

}  // namespace detail

// One pass over the rows (of a filtered frame, the kept rows): one scalar for one aggregation, a
// std::tuple of scalars for several (structured bindings).
template <class... Aggs>
struct reduce_stage {
  using stage_tag = void;
  std::tuple<Aggs...> aggs;

  template <class Source>
    requires requires(Source const& s) { detail::unfiltered_source(s).inputs(); }
  auto apply(Source const& source, stream_ref stream, resource_ref) const {
    return detail::reduce_frame(detail::unfiltered_source(source), detail::predicate_of_source(source), aggs, stream);
  }
};

// Reduces every row (of a filtered frame, every kept row) to one value per aggregation.
template <class... Aggs>
  requires(expr::is_aggregation<Aggs> && ...)
[[nodiscard]] constexpr auto reduce(Aggs const&... aggs) {
  static_assert(sizeof...(Aggs) > 0, "colx::reduce needs at least one aggregation: reduce(sum(\"x\"_c), ...)");
  static_assert((!expr::is_group_only<Aggs> && ...),
                "colx::reduce: nunique(e) counts distinct values per group, inside group_by(...) | aggregate(...); "
                "over a whole frame call colx::nunique(frame, e)");
  return reduce_stage<Aggs...>{{aggs...}};
}

template <class Pred>
struct count_if_stage {
  using stage_tag = void;
  Pred pred;

  template <class Source>
    requires requires(Source const& s) { detail::unfiltered_source(s).inputs(); }
  size_type apply(Source const& source, stream_ref stream, resource_ref mr) const {
    return reduce_stage<decltype(count())>{{count()}}
        .apply(filter_stage<Pred>{pred}.apply(source, stream, mr), stream, mr)
        .to_optional()
        .value_or(0);
  }
};

// The number of rows where `pred` is true.
template <class P>
  requires(expr::expression<P> || std::same_as<P, bool>)
[[nodiscard]] constexpr auto count_if(P const& pred) {
  auto e = expr::as_expression(pred);
  return count_if_stage<decltype(e)>{e};
}

// ---- collect ---------------------------------------------------------------------------------------

namespace detail {

template <class Schema, std::size_t I>
using output_of = output_column<typename Schema::template field_at<I>::type>;

// The rows of `out` where `pred` holds on `f`'s rows (the same rows: `out` is f or a selection of
// its columns), in one compaction pass that writes only out's columns.
template <class Frame, class Pred, class Out, std::size_t... C>
Out collect_impl(Frame const& f, Pred const& pred, Out const& out, stream_ref stream, resource_ref mr, std::index_sequence<C...>) {
  spill_lock_scope const spill_lock(stream);  // the columns read here stay put until the work is done
  using out_schema = typename Out::schema_type;
  COLX_EXPECTS(is_host_accessible(mr.kind()) == is_host_accessible(f.kind()), "collect writes ", to_string(mr.kind()),
               " memory from a frame in ", to_string(f.kind()), " memory: copy the frame there first");
  size_type const rows = f.num_rows();
  std::vector<buffer> scratch;  // what resolved nodes read, kept until the kernels below have run
  auto const bound = resolve_literals(expr::bind<typename Frame::schema_type>(pred), f, stream, &scratch);
  std::tuple<output_of<out_schema, C>...> outputs(output_of<out_schema, C>{rows, out.template column_at<C>().nullable(),
                                                                           type_of(out.template column_at<C>()),
                                                                           &out.template column_at<C>().untyped(), stream, mr}...);
  auto const views = tuple(std::get<C>(outputs).view(stream)...);
  keep_fn<typename Frame::inputs_type, std::remove_cvref_t<decltype(bound)>> const keep{f.inputs(), bound};
  using item = row_item<stored_t<typename out_schema::template field_at<C>::type>...>;
  load_row_fn<typename Out::inputs_type, item> const load{out.inputs()};
  store_row_fn<std::remove_cvref_t<decltype(views)>> const store{views};
  size_type const kept =
      on_backend(f.kind(), stream, [&](auto const& exec) { return exec.select_rows(rows, keep, load, store); });
  return std::make_from_tuple<Out>(finish_outputs(outputs, kept, mr.kind(), stream));
}

}  // namespace detail

template <class Frame, class Pred>
Frame filtered<Frame, Pred>::collect(stream_ref stream, resource_ref mr) const {
  return detail::collect_impl(_frame, _pred, _frame, stream, mr, std::make_index_sequence<Frame::schema_type::size>{});
}

}  // namespace colx
