// SPDX-License-Identifier: Apache-2.0
#pragma once
// A join, run: the probe's passes (join/probe.hpp) into the output frame's columns (join_impl)
// or into row-number pairs (join_rows_impl), and the build side a join's right operand becomes.
#include <colx/frame/gather.hpp>
#include <colx/frame/join/layout.hpp>
#include <colx/frame/join/probe.hpp>
#include <colx/frame/join/sinks.hpp>
#include <colx/frame/join/table.hpp>
#include <colx/frame/pipeline.hpp>

#include <array>
#include <cstddef>
#include <type_traits>
#include <utility>

namespace colx::detail {

template <class Inputs, std::size_t... I>
auto project(Inputs const& in, std::index_sequence<I...>) {
  return tuple(get<I>(in)...);
}

// The probe of `left` (its pending filter bound to its schema) against the build side, once both
// sides are known to live where one backend reaches them; `op` names the call in the message.
template <join_kind How, class ProbeFrame, class Pred, class Build, class... L>
auto make_probe(ProbeFrame const& left, Pred const& unbound_pred, Build const& built, join_keys<L...>, char const* op) {
  using probe_schema = typename ProbeFrame::schema_type;
  using probe_keys = key_columns<typename ProbeFrame::inputs_type, bound_keys_t<probe_schema, L...>>;
  auto const pred = expr::bind<probe_schema>(unbound_pred);
  using probe_t = probe_fn<How, typename ProbeFrame::inputs_type, std::remove_cvref_t<decltype(pred)>, probe_keys,
                           typename Build::key_columns>;
  auto const& right = built.frame();
  COLX_EXPECTS(is_host_accessible(left.kind()) == is_host_accessible(right.kind()), op, ": the left frame lives in ",
               to_string(left.kind()), " memory, the right in ", to_string(right.kind()));
  return probe_t{left.inputs(), pred, typename Build::key_columns{right.inputs()}, built.slots(), built.mask(),
                 built.options().nulls_equal};
}

template <join_kind How, class Suffixes, class ProbeFrame, class Pred, class Build, class... L>
auto join_frames(ProbeFrame const& left, Pred const& unbound_pred, Build const& built, join_keys<L...>, stream_ref stream,
                 resource_ref mr) {
  spill_lock_scope const spill_lock(stream);  // the columns read here stay put until the work is done
  using probe_schema = typename ProbeFrame::schema_type;
  using build_frame = typename Build::frame_type;
  using build_schema = typename build_frame::schema_type;
  using layout = join_layout<How, probe_schema, build_schema, join_keys<L...>, typename Build::keys_type, Suffixes>;
  using out_schema = typename layout::schema_type;
  auto const probe = make_probe<How>(left, unbound_pred, built, join_keys<L...>{}, "join");
  build_frame const& right = built.frame();
  probe_passes<How, std::remove_cvref_t<decltype(probe)>> passes(probe, built, left.num_rows(), left.kind(), stream);
  auto const types = [&]<std::size_t... I>(std::index_sequence<I...>) {
    auto const p = column_types(left);
    [[maybe_unused]] auto const b = column_types(right);
    std::array<data_type, out_schema::size> out{};
    std::size_t k = 0;
    for (auto const& t : p) { out[k++] = t; }
    ((out[k++] = b[I]), ...);
    // A shared key of two integer types is written in one holding both (join/layout.hpp).
    [&]<std::size_t... C>(std::index_sequence<C...>) {
      ((out[C] = std::is_same_v<typename out_schema::template field_at<C>::type, typename probe_schema::template field_at<C>::type>
                     ? out[C]
                     : data_type_of<typename out_schema::template field_at<C>::type>()),
       ...);
    }(std::make_index_sequence<probe_schema::size>{});
    return out;
  }(typename layout::kept_build{});
  // A right or full join writes a key named alike on both sides into one column, from the left
  // or the right row: for a dictionary key, codes of one dictionary.
  [&]<std::size_t... B, std::size_t... P>(std::index_sequence<B...>, std::index_sequence<P...>) {
    [[maybe_unused]] auto const check = [&](auto const& l, auto const& r, std::string_view name) {
      if constexpr (requires { l.dictionary(); }) {
        COLX_EXPECTS(l.dictionary().data().read() == r.dictionary().data().read(), "join: the key \"", name,
                     "\" is a dictionary column over different dictionaries on the two sides, and a right or full join "
                     "writes both sides' codes into one column: recode both over one dictionary (colx::unify_dictionaries) first");
      }
    };
    (check(left.template column_at<P>(), right.template column_at<B>(), probe_schema::template field_at<P>::name.view()), ...);
  }(typename layout::shared_build{}, typename layout::shared_probe{});
  // The columns the output's columns copy rows of: the left's, then the right's kept ones.
  auto const likes = [&]<std::size_t... I>(std::index_sequence<I...>) {
    auto const p = columns_of(left);
    [[maybe_unused]] auto const b = columns_of(right);
    column_likes<out_schema::size> out{};
    std::size_t k = 0;
    for (auto const* c : p) { out[k++] = c; }
    ((out[k++] = b[I]), ...);
    return out;
  }(typename layout::kept_build{});
  std::array<bool, out_schema::size> masked{};
  [&]<std::size_t... C>(std::index_sequence<C...>) {
    ((masked[C] = out_schema::template field_at<C>::is_nullable), ...);
  }(std::make_index_sequence<out_schema::size>{});

  // The output is sized for the most rows the probe may write (right and full joins: every build
  // row too, those no probe row matched being known only after the probe) and trimmed.
  return write_frame<out_schema>(passes.most(), masked, types, likes, stream, mr, [&](auto const& views) {
    using store_t = store_row_fn<std::remove_cvref_t<decltype(views)>>;
    auto const build_columns = project(right.inputs(), typename layout::kept_build{});
    auto const shared_keys = project(right.inputs(), typename layout::shared_build{});
    using sink_t = gather_sink<row_item_t<out_schema>, typename ProbeFrame::inputs_type,
                               std::remove_cvref_t<decltype(build_columns)>, store_t,
                               std::remove_cvref_t<decltype(shared_keys)>, typename layout::shared_probe>;
    return passes.write(sink_t{left.inputs(), build_columns, store_t{views}, shared_keys});
  });
}

// The join's output frame; where the output's names clash, only the layout's message.
template <join_kind How, class Suffixes, class ProbeFrame, class Pred, class Build, class Keys>
auto join_impl(ProbeFrame const& left, Pred const& pred, Build const& built, Keys keys, stream_ref stream, resource_ref mr) {
  if constexpr (join_layout<How, typename ProbeFrame::schema_type, typename Build::frame_type::schema_type, Keys,
                            typename Build::keys_type, Suffixes>::unique_names) {
    return join_frames<How, Suffixes>(left, pred, built, keys, stream, mr);
  } else {
    return left;
  }
}

// The matching (left row, right row) pairs alone, -1 where a side has no row.
template <join_kind How, class ProbeFrame, class Pred, class Build, class... L>
std::pair<uvector<size_type>, uvector<size_type>> join_rows_impl(ProbeFrame const& left, Pred const& unbound_pred,
                                                                 Build const& built, join_keys<L...>, stream_ref stream,
                                                                 resource_ref mr) {
  static_assert(join_key_check<typename ProbeFrame::schema_type, typename Build::frame_type::schema_type, join_keys<L...>,
                               typename Build::keys_type>::ok);
  auto const probe = make_probe<How>(left, unbound_pred, built, join_keys<L...>{}, "join_rows");
  probe_passes<How, std::remove_cvref_t<decltype(probe)>> passes(probe, built, left.num_rows(), left.kind(), stream);
  uvector<size_type> left_rows(passes.most(), stream, mr);
  uvector<size_type> right_rows(passes.most(), stream, mr);
  size_type const written = passes.write(index_pairs_sink{left_rows.data(), right_rows.data()});
  left_rows.resize(written, stream);
  right_rows.resize(written, stream);
  return {std::move(left_rows), std::move(right_rows)};
}

template <class Right>
auto as_build(Right const& right, auto keys, join_options options, stream_ref stream) {
  if constexpr (requires { right.slots(); }) {
    return right;
  } else if constexpr (requires { right.predicate(); }) {
    return build(right.collect(stream, get_current_resource(right.source().kind())), keys, options, stream);
  } else {
    return build(right, keys, options, stream);
  }
}

}  // namespace colx::detail
