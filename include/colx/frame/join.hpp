// SPDX-License-Identifier: Apache-2.0
#pragma once
// Hash joins on one or more key columns: inner, left, right, full, semi and anti.
//
// The build side (the right frame) goes into an open-addressing multimap with one entry per row
// (join/table.hpp), which notes whether two build rows share their keys. The probe (join/probe.hpp)
// is one compaction pass where each probe row has at most one output row, else a counting pass
// and a writing pass; either way every output column is gathered in the pass that writes. Output
// rows come in probe order; a probe row's matches in an unspecified order. Null keys match nothing
// unless join_options::nulls_equal. A semi or anti join on one integer key whose build values are
// dense keeps only which values occur, as bits (a membership, join/table.hpp): small enough for
// L2 where a hash table of the same keys is not.
//
// Output columns, as pandas' merge: the left's columns, then the right's. A key named alike on
// both sides (on("k"_c), or on("k"_c), on("k"_c)) is one column "k" in every kind: in right and
// full joins it holds the right row's key where there is no left row, so a right join's "k" is
// nullable only where the right key is. (Polars' full join keeps both, "k" and "k_right", unless
// coalesce=True; pandas and SQL's USING keep one, and which side a row came from still shows in
// the other columns.) Other columns of the same name on both sides, keys of different names
// included, get suffixes: "_x" on the left's and "_y" on the right's, or those of
// suffixes<"_l", "_r">(); a suffixed name that is still taken is a compile error. Semi and anti
// joins write only the left's columns.
//
// The parts (join/): options.hpp (kinds, options, keys, suffixes), table.hpp (the build side;
// membership.hpp, its keys as bits), probe.hpp (the probe's passes), sinks.hpp (where output rows
// go), layout.hpp (the output schema), run.hpp (the run), semi_by_left.hpp (semi and anti joins
// whose right side is the larger: the left side is hashed and the right's rows mark the left rows
// they match).
#include <colx/frame/join/options.hpp>
#include <colx/frame/join/run.hpp>
#include <colx/frame/join/semi_by_left.hpp>
#include <colx/frame/join/table.hpp>
#include <colx/frame/pipeline.hpp>

#include <type_traits>
#include <utility>

namespace colx {

template <join_kind How, class Right, class LeftKeys, class RightKeys, class Suffixes = default_join_suffixes>
struct join_stage {
  using stage_tag = void;
  Right right;  // a frame, a filtered frame or a join_build
  join_options options;

  // The left side is a frame or a filtered frame (its filter runs inside the probe).
  template <class Left>
    requires requires(Left const& l) { detail::unfiltered_source(l).inputs(); }
  auto apply(Left const& left, stream_ref stream, resource_ref mr) const {
    if constexpr (requires { right.slots(); }) {
      static_assert(std::is_same_v<typename Right::keys_type, RightKeys>,
                    "colx::join: a join_build is probed with the keys it was built on");
    }
    if constexpr ((How == join_kind::semi || How == join_kind::anti) && !requires { right.slots(); }) {
      if (detail::semi_join_hashes_left(left, right)) {
        auto const& rows = detail::unfiltered_source(left);
        if constexpr (requires { left.predicate(); }) {
          return detail::semi_join_by_left<How>(left.collect(stream, get_current_resource(rows.kind())), right, LeftKeys{},
                                                RightKeys{}, options, stream, mr);
        } else {
          return detail::semi_join_by_left<How>(rows, right, LeftKeys{}, RightKeys{}, options, stream, mr);
        }
      }
    }
    auto const built = detail::as_build(right, RightKeys{}, options, stream, How == join_kind::semi || How == join_kind::anti);
    return detail::join_impl<How, Suffixes>(detail::unfiltered_source(left), detail::predicate_of_source(left), built,
                                            LeftKeys{}, stream, mr);
  }
};

// left | join(right, on("k"_c)): the key columns named alike on both sides;
// left | join<join_kind::left>(right, on("a"_c), on("b"_c)): left key a matches right key b;
// then optionally suffixes<"_l", "_r">() (default "_x", "_y"), then optionally join_options.
// `right` may be a join_build (build(...)) hashed once for several joins.
template <join_kind How = join_kind::inner, class Right, class... L, class... R,
          join_suffix_pair Suffixes = default_join_suffixes>
[[nodiscard]] auto join(Right const& right, join_keys<L...>, join_keys<R...>, Suffixes = {}, join_options options = {}) {
  return join_stage<How, Right, join_keys<L...>, join_keys<R...>, Suffixes>{right, options};
}
template <join_kind How = join_kind::inner, class Right, class... L, class... R>
[[nodiscard]] auto join(Right const& right, join_keys<L...> left_on, join_keys<R...> right_on, join_options options) {
  return join<How>(right, left_on, right_on, default_join_suffixes{}, options);
}
template <join_kind How = join_kind::inner, class Right, class... K, join_suffix_pair Suffixes = default_join_suffixes>
[[nodiscard]] auto join(Right const& right, join_keys<K...> keys, Suffixes suffix = {}, join_options options = {}) {
  return join<How>(right, keys, keys, suffix, options);
}
template <join_kind How = join_kind::inner, class Right, class... K>
[[nodiscard]] auto join(Right const& right, join_keys<K...> keys, join_options options) {
  return join<How>(right, keys, keys, default_join_suffixes{}, options);
}

// The matching row pairs only: {left rows, right rows}, -1 where an outer join has no partner.
template <join_kind How = join_kind::inner, class Left, class Right, class... L, class... R>
[[nodiscard]] std::pair<uvector<size_type>, uvector<size_type>> join_rows(Left const& left, Right const& right,
                                                                           join_keys<L...> left_on, join_keys<R...> right_on,
                                                                           join_options options = {}, stream_ref stream = {},
                                                                           resource_ref mr = get_current_resource()) {
  auto const built = detail::as_build(right, right_on, options, stream);
  return detail::join_rows_impl<How>(detail::unfiltered_source(left), detail::predicate_of_source(left), built, left_on, stream, mr);
}
// The same on key columns named alike on both sides: join_rows(left, right, on("k"_c)).
template <join_kind How = join_kind::inner, class Left, class Right, class... K>
[[nodiscard]] std::pair<uvector<size_type>, uvector<size_type>> join_rows(Left const& left, Right const& right,
                                                                           join_keys<K...> keys, join_options options = {},
                                                                           stream_ref stream = {},
                                                                           resource_ref mr = get_current_resource()) {
  return join_rows<How>(left, right, keys, keys, options, stream, mr);
}

}  // namespace colx
