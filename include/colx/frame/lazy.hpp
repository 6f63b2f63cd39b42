// SPDX-License-Identifier: Apache-2.0
// Lazy pipelines: `lazy(f) | filter(p) | with_columns(...) | group_by(k) | aggregate(...) |
// sort_by(...) | head(10)` records stages and runs nothing until collect(). Each stage is checked
// where it is appended: its input's schema is known at compile time, so a stage that names a
// dropped or misspelt column fails to compile there, with the stage's own message.
//
// collect() runs the stages in order, each through run() (frame/stage.hpp), as `|` would. A
// filter stays pending and fuses into the stage after it (a reduction, a group-by, a join's
// probe, distinct); only a stage that needs a materialised frame (with_columns, select, sort_by,
// head) makes the filter compact first.
#pragma once
#include <colx/frame/distinct.hpp>
#include <colx/frame/explain.hpp>
#include <colx/frame/gather.hpp>
#include <colx/frame/group_by.hpp>
#include <colx/frame/join.hpp>
#include <colx/frame/select.hpp>
#include <colx/frame/sort.hpp>

#include <sstream>
#include <string>
#include <tuple>

namespace colx {

namespace detail {

// The result of running `Stages...` on a Source, as a type (the compile-time check).
template <class Acc, class... Stages>
struct pipeline_result {
  using type = Acc;
};
template <class Acc, class Stage, class... More>
struct pipeline_result<Acc, Stage, More...> {
  using type = typename pipeline_result<decltype(run(std::declval<Acc const&>(), std::declval<Stage const&>())),
                                        More...>::type;
};

}  // namespace detail

template <class Source, class... Stages>
class lazy_frame {
 public:
  // The type collect() returns: a frame, or a reduction's value.
  using result_type = typename detail::pipeline_result<Source, Stages...>::type;

  lazy_frame(Source source, std::tuple<Stages...> stages) : _source(std::move(source)), _stages(std::move(stages)) {}

  template <class Stage>
  [[nodiscard]] lazy_frame<Source, Stages..., Stage> then(Stage const& stage) const {
    return {_source, std::tuple_cat(_stages, std::tuple<Stage>(stage))};
  }

  // Runs every stage on `stream`, each writing its columns through `mr` (by default the current
  // resource of the source's memory); a pending filter at the end is collected.
  [[nodiscard]] auto collect(stream_ref stream, resource_ref mr) const {
    auto result = std::apply([&](auto const&... stage) { return run_all(stream, mr, _source, stage...); }, _stages);
    if constexpr (detail::is_filtered<decltype(result)>) {
      return result.collect(stream, mr);
    } else {
      return result;
    }
  }
  [[nodiscard]] auto collect(stream_ref stream = {}) const { return collect(stream, get_current_resource(_source.kind())); }

  // The stages in order, and where a filter will fuse into the stage after it.
  [[nodiscard]] std::string explain() const {
    std::ostringstream out;
    out << "lazy pipeline over " << _source.num_rows() << " rows, " << sizeof...(Stages) << " stages\n";
    int index = 0;
    std::apply([&](auto const&... stage) { ((out << "  " << ++index << ". " << stage_name(stage) << "\n"), ...); }, _stages);
    return out.str();
  }

  [[nodiscard]] Source const& source() const noexcept { return _source; }

 private:
  template <class Acc>
  static auto run_all(stream_ref, resource_ref, Acc const& acc) {
    return acc;
  }
  template <class Acc, class Stage, class... More>
  static auto run_all(stream_ref stream, resource_ref mr, Acc const& acc, Stage const& stage, More const&... more) {
    return run_all(stream, mr, run(acc, stage, stream, mr), more...);
  }
  template <class Stage>
  static std::string stage_name(Stage const& stage) {
    if constexpr (requires { stage.pred.to_string(); }) {
      return "filter " + stage.pred.to_string() + " (runs inside the next stage)";
    } else if constexpr (requires { stage.outputs; }) {
      std::string s = "with_columns";
      std::apply([&](auto const&... n) { ((s += " " + std::string(n.name.view()) + " = " + n.expr.to_string()), ...); }, stage.outputs);
      return s;
    } else if constexpr (requires { stage.aggs; }) {
      std::string s = "aggregate/reduce";
      std::apply([&](auto const&... a) { ((s += " " + to_text(a)), ...); }, stage.aggs);
      return s;
    } else if constexpr (std::is_same_v<Stage, end_rows_stage>) {
      return (stage.from_end ? "tail " : "head ") + std::to_string(stage.n);
    } else if constexpr (requires { stage.keys; stage.options.drop_null_keys; }) {
      return "group_by";
    } else if constexpr (requires { stage.keys; stage.keep; }) {
      return "distinct";
    } else if constexpr (requires { stage.columns; }) {
      return "drop_nulls";
    } else if constexpr (requires { stage.keys; }) {
      return "sort_by";
    } else {
      return "stage";
    }
  }
  template <class A>
  static std::string to_text(A const& a) {
    if constexpr (requires { a.name.view(); a.expr.to_string(); }) {
      return std::string(a.name.view()) + " = " + a.expr.to_string();
    } else {
      return a.to_string();
    }
  }

  Source _source;
  std::tuple<Stages...> _stages;
};

// A lazy pipeline over f: stages recorded, run by collect().
template <class Schema>
[[nodiscard]] lazy_frame<frame<Schema>> lazy(frame<Schema> const& f) {
  return {f, {}};
}
// Appends a stage, checking at compile time that it applies to the pipeline's result so far.
template <class Source, class... Stages, class Stage>
[[nodiscard]] auto operator|(lazy_frame<Source, Stages...> const& p, Stage const& stage) {
  using next = lazy_frame<Source, Stages..., Stage>;
  using checked [[maybe_unused]] = typename next::result_type;
  return p.then(stage);
}

}  // namespace colx
