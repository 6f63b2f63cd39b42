// SPDX-License-Identifier: Apache-2.0
#pragma once
// One stage path. A stage (filter, with_columns, group_by, aggregate, join, sort_by, head, ...) is
// a small value that says what to do; every stage runs through the same two entry points:
//
//   source | stage                        the default stream; output memory like the source's
//   run(source, stage, stream[, mr])      an explicit stream, and optionally a memory resource
//
// A source is a frame, a filtered frame (a pending predicate) or a grouped frame. A stage runs
// itself with its member apply(source, stream, mr). A stage that cannot take a pending filter
// (with_columns, sort_by, head, ...) gets the filtered frame collected first, in one compaction
// pass; so every stage composes after a filter, and stages that can take it (reduce, group_by,
// join, distinct) run it inside their own pass.
//
// Output memory follows the source: without `mr` the result is written where the source lives
// (the current resource of its memory kind), in a host build and in a CUDA build alike. A given
// `mr` is checked once against the source's memory, here, for every stage.
#include <colx/core/error.hpp>
#include <colx/memory/current_resource.hpp>
#include <colx/memory/resource.hpp>
#include <colx/memory/stream.hpp>

#include <concepts>
#include <type_traits>

namespace colx {

// Stages declare themselves with `using stage_tag = void;` (a member type leaves them aggregates).
template <class S>
concept pipeline_stage = requires { typename S::stage_tag; };

template <class Schema>
class frame;

// What a stage can run on: frames here; filtered and grouped frames where they are defined.
template <class S>
inline constexpr bool is_pipeline_source = false;
template <class Schema>
inline constexpr bool is_pipeline_source<frame<Schema>> = true;

template <class S>
concept pipeline_source = is_pipeline_source<std::remove_cvref_t<S>>;

namespace detail {

template <class T>
inline constexpr bool is_filtered = false;

// The frame under a source: a filtered frame's or a grouped frame's input, or the frame itself.
template <class S>
decltype(auto) source_frame(S const& s) {
  if constexpr (requires { s.predicate(); }) {
    return source_frame(s.source());
  } else if constexpr (requires { s.source; }) {
    return source_frame(s.source);
  } else {
    return (s);
  }
}

template <class Stage, class Source>
concept applies_to = requires(Stage const& stage, Source const& source, stream_ref stream, resource_ref mr) {
  stage.apply(source, stream, mr);
};

template <class>
inline constexpr bool always_false = false;

}  // namespace detail

// The memory kind a source's results are written to by default.
template <pipeline_source Source>
[[nodiscard]] memory_kind source_kind(Source const& source) {
  return detail::source_frame(source).kind();
}

// Runs one stage on a source, writing any new columns through `mr`, which must allocate memory of
// the same side (host or device) as the source's.
template <pipeline_source Source, pipeline_stage Stage>
[[nodiscard]] auto run(Source const& source, Stage const& stage, stream_ref stream, resource_ref mr) {
  memory_kind const from = source_kind(source);
  COLX_EXPECTS(is_host_accessible(mr.kind()) == is_host_accessible(from), "a stage over a frame in ", to_string(from),
               " memory was given a resource of ", to_string(mr.kind()),
               " memory for its output: copy the frame there first (to_device / to_host)");
  if constexpr (detail::applies_to<Stage, Source>) {
    return stage.apply(source, stream, mr);
  } else if constexpr (detail::is_filtered<Source>) {
    // The stage needs a materialised frame: the kept rows, in one compaction pass.
    static_assert(detail::applies_to<Stage, std::remove_cvref_t<decltype(source.collect(stream, mr))>>,
                  "colx: this stage cannot follow a filter (nor run on a plain frame); see the stage's comment "
                  "for what it takes");
    return stage.apply(source.collect(stream, mr), stream, mr);
  } else {
    static_assert(detail::always_false<Stage>,
                  "colx: this stage cannot take what the stage before it gives: group_by(...) is followed by "
                  "aggregate(...), aggregate(...) needs group_by(...) just before it, and reduce(...) or "
                  "count_if(...) ends a pipeline");
  }
}

// The same with the output where the source lives.
template <pipeline_source Source, pipeline_stage Stage>
[[nodiscard]] auto run(Source const& source, Stage const& stage, stream_ref stream = {}) {
  return run(source, stage, stream, get_current_resource(source_kind(source)));
}

template <pipeline_source Source, pipeline_stage Stage>
[[nodiscard]] auto operator|(Source const& source, Stage const& stage) {
  return run(source, stage, stream_ref{});
}

}  // namespace colx
