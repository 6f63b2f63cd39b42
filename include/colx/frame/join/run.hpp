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
#include <limits>
#include <cstddef>
#include <type_traits>
#include <utility>

namespace colx::detail {

template <class Inputs, std::size_t... I>
auto project(Inputs const& in, std::index_sequence<I...>) {
  return tuple(get<I>(in)...);
}

template <class BuildValue, class ProbeValue>
uvector<std::int32_t> build_codes_of(any_column const& build_dictionary, any_column const& probe_values, memory_kind kind,
                                     stream_ref stream);

// Where each coded probe key reads its codes (join/dictionary_keys.hpp): a map of its dictionary's
// entries to the build side's codes (none where both share the dictionary), or each row's code
// for a key of plain values. The arrays go into `codes`.
template <class ProbeKeys, class ProbeFrame, class Build>
auto probe_key_arrays(ProbeFrame const& left, Build const& built, probe_key_codes& codes, stream_ref stream) {
  std::array<std::int32_t const*, ProbeFrame::schema_type::size> where{};
  [&]<std::size_t... K>(std::index_sequence<K...>) {
    auto const one = [&]<std::size_t k>(std::integral_constant<std::size_t, k>) {
      using build_key = std::tuple_element_t<k, tuple_types_t<typename Build::bound_keys>>;
      using probe_key = std::tuple_element_t<k, tuple_types_t<ProbeKeys>>;
      if constexpr (dictionary_key_v<build_key>) {
        auto const& r = built.frame().template column_at<build_key::position>();
        auto const& l = left.template column_at<probe_key::position>();
        using build_value = typename build_key::element_type::value_type;
        COLX_EXPECTS(r.dictionary_size() <= std::numeric_limits<std::int32_t>::max(), "join: a dictionary key of ",
                     r.dictionary_size(), " entries; at most 2^31 - 1 join on their codes");
        if constexpr (dictionary_key_v<probe_key>) {
          // One dictionary: the codes as they are. An empty one: no valid row (an empty build
          // dictionary: every build row null, which no valid code equals; an empty probe one: no
          // code to look up).
          if (same_dictionary(l.dictionary(), r.dictionary()) || l.dictionary_size() == 0 || r.dictionary_size() == 0) {
            return;
          }
          using probe_value = typename probe_key::element_type::value_type;
          codes.arrays.push_back(build_codes_of<build_value, probe_value>(r.dictionary(), l.dictionary(), left.kind(), stream));
        } else if (r.dictionary_size() == 0) {  // nothing to find: every row -1
          codes.arrays.emplace_back(left.num_rows(), stream, get_current_resource(left.kind()));
          fill_bytes(codes.arrays.back().data(), left.kind(), 0xFF, codes.arrays.back().size() * sizeof(std::int32_t), stream);
        } else {
          codes.arrays.push_back(
              build_codes_of<build_value, typename probe_key::element_type>(r.dictionary(), l.untyped(), left.kind(), stream));
        }
        where[probe_key::position] = codes.arrays.back().data();
      }
    };
    (one(std::integral_constant<std::size_t, K>{}), ...);
  }(std::make_index_sequence<std::tuple_size_v<tuple_types_t<ProbeKeys>>>{});
  return where;
}

// The probe of `left` (its pending filter bound to its schema) against the build side, once both
// sides are known to live where one backend reaches them; `op` names the call in the message.
// Arrays the probe reads (join/dictionary_keys.hpp) go into `codes`, which the caller keeps as
// long as the probe.
template <join_kind How, class ProbeFrame, class Pred, class Build, class... L>
auto make_probe(ProbeFrame const& left, Pred const& unbound_pred, Build const& built, join_keys<L...>, char const* op,
                probe_key_codes& codes, stream_ref stream) {
  using probe_schema = typename ProbeFrame::schema_type;
  using bound = bound_keys_t<probe_schema, L...>;
  using side = probe_side_keys<typename ProbeFrame::inputs_type, bound, typename Build::bound_keys>;
  using probe_keys = key_columns<typename side::inputs, typename side::leaves>;
  auto const pred = expr::bind<probe_schema>(unbound_pred);
  using probe_t = probe_fn<How, typename ProbeFrame::inputs_type, std::remove_cvref_t<decltype(pred)>, probe_keys,
                           typename Build::key_columns>;
  auto const& right = built.frame();
  COLX_EXPECTS(is_host_accessible(left.kind()) == is_host_accessible(right.kind()), op, ": the left frame lives in ",
               to_string(left.kind()), " memory, the right in ", to_string(right.kind()));
  auto const where = probe_key_arrays<bound>(left, built, codes, stream);
  return probe_t{left.inputs(), pred, probe_keys{side::make(left.inputs(), where)}, typename Build::key_columns{built.key_inputs()},
                 built.slots(), built.mask(), built.wrap(), built.options().nulls_equal, built.members()};
}

// Row i's code in the build side's dictionary: the entry its value matched, -1 for none.
template <class Probe>
struct build_code_fn {
  Probe probe;
  std::int32_t* out;
  COLX_HOST_DEVICE void operator()(size_type i) const { out[i] = static_cast<std::int32_t>(only_match(probe, i)); }
};

// For each value of `probe_values`, the entry of `build_dictionary` that holds it (its code), -1
// where none does: a join of the values on the dictionary, whose values are distinct.
template <class BuildValue, class ProbeValue>
uvector<std::int32_t> build_codes_of(any_column const& build_dictionary, any_column const& probe_values, memory_kind kind,
                                     stream_ref stream) {
  using namespace colx::literals;
  frame<schema<field<"value", BuildValue>>> const entries{column_storage_t<BuildValue>{any_column(build_dictionary)}};
  frame<schema<field<"value", ProbeValue>>> const values{column_storage_t<ProbeValue>{any_column(probe_values)}};
  auto const built = build(entries, on("value"_c), join_options{}, stream);
  probe_key_codes none;  // plain values: no arrays
  auto const probe = make_probe<join_kind::left>(values, expr::row_marker{}, built, on("value"_c), "join", none, stream);
  uvector<std::int32_t> out(values.num_rows(), stream, get_current_resource(kind));
  on_backend(kind, stream, [&](auto const& exec) {
    exec.for_each_n(values.num_rows(), build_code_fn<std::remove_cvref_t<decltype(probe)>>{probe, out.data()});
  });
  return out;
}

// One entry per output column: the left side's, then the right side's at the kept positions I.
template <std::size_t N, class T, std::size_t P, std::size_t B, std::size_t... I>
std::array<T, N> left_then_kept(std::array<T, P> const& left, [[maybe_unused]] std::array<T, B> const& right,
                                std::index_sequence<I...>) {
  std::array<T, N> out{};
  std::size_t k = 0;
  for (auto const& v : left) { out[k++] = v; }
  ((out[k++] = right[I]), ...);
  return out;
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
  probe_key_codes codes;
  auto const probe = make_probe<How>(left, unbound_pred, built, join_keys<L...>{}, "join", codes, stream);
  build_frame const& right = built.frame();
  probe_passes<How, std::remove_cvref_t<decltype(probe)>> passes(probe, built, left.num_rows(), left.kind(), stream);
  using kept = typename layout::kept_build;
  auto types = left_then_kept<out_schema::size>(column_types(left), column_types(right), kept{});
  // A shared key of two integer types is written in one holding both (join/layout.hpp).
  [&]<std::size_t... C>(std::index_sequence<C...>) {
    ((types[C] = std::is_same_v<typename out_schema::template field_at<C>::type, typename probe_schema::template field_at<C>::type>
                     ? types[C]
                     : data_type_of<typename out_schema::template field_at<C>::type>()),
     ...);
  }(std::make_index_sequence<probe_schema::size>{});
  // A right or full join writes a key named alike on both sides into one column, from the left
  // or the right row: for a dictionary key, codes of one dictionary.
  [&]<std::size_t... B, std::size_t... P>(std::index_sequence<B...>, std::index_sequence<P...>) {
    [[maybe_unused]] auto const check = [&](auto const& l, auto const& r, std::string_view name) {
      if constexpr (requires { l.dictionary(); }) {
        COLX_EXPECTS(same_dictionary(l.dictionary(), r.dictionary()), "join: the key \"", name,
                     "\" is a dictionary column over different dictionaries on the two sides, and a right or full join "
                     "writes both sides' codes into one column: recode both over one dictionary (colx::unify_dictionaries) first");
      }
    };
    (check(left.template column_at<P>(), right.template column_at<B>(), probe_schema::template field_at<P>::name.view()), ...);
  }(typename layout::shared_build{}, typename layout::shared_probe{});
  // The columns the output's columns copy rows of: the left's, then the right's kept ones.
  auto const likes = left_then_kept<out_schema::size>(columns_of(left), columns_of(right), kept{});
  // A mask only where an output column can hold a null: its source column has one, or its side's
  // row can be missing (both sides' in a full join). Parquet files declare most columns nullable
  // and hold no null in many, and a mask costs an atomic write per row.
  constexpr bool left_may_miss = How == join_kind::right || How == join_kind::full;
  constexpr bool right_may_miss = How == join_kind::left || How == join_kind::full;
  auto const masked =
      left_then_kept<out_schema::size>(column_masks(left, left_may_miss), column_masks(right, right_may_miss), kept{});

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
  probe_key_codes codes;
  auto const probe = make_probe<How>(left, unbound_pred, built, join_keys<L...>{}, "join_rows", codes, stream);
  probe_passes<How, std::remove_cvref_t<decltype(probe)>> passes(probe, built, left.num_rows(), left.kind(), stream);
  uvector<size_type> left_rows(passes.most(), stream, mr);
  uvector<size_type> right_rows(passes.most(), stream, mr);
  size_type const written = passes.write(index_pairs_sink{left_rows.data(), right_rows.data()});
  left_rows.resize(written, stream);
  right_rows.resize(written, stream);
  return {std::move(left_rows), std::move(right_rows)};
}

// A frame's build side, hashed on its keys; with `membership` (a semi or anti join's), its keys
// may be kept as bits instead (join/table.hpp).
template <class Schema, class... Keys>
auto build_of(frame<Schema> const& right, join_keys<Keys...>, join_options options, stream_ref stream, bool membership) {
  static_assert(((sizeof(typename field_of<Schema, Keys>::type) > 0) && ...));
  return join_build<frame<Schema>, Keys...>(right, options, stream, membership);
}
// A join's build side: a join_build as it is, else the frame's (a filtered frame collected first).
template <class Right>
auto as_build(Right const& right, auto keys, join_options options, stream_ref stream, bool membership = false) {
  if constexpr (requires { right.slots(); }) {
    return right;
  } else if constexpr (requires { right.predicate(); }) {
    return build_of(right.collect(stream, get_current_resource(right.source().kind())), keys, options, stream, membership);
  } else {
    return build_of(right, keys, options, stream, membership);
  }
}

}  // namespace colx::detail
