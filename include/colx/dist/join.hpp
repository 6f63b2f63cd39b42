// SPDX-License-Identifier: Apache-2.0
#pragma once
// Distributed join: `left | join<How>(right, on("k"_c), ...)` with both sides distributed (a
// dist_frame, or a filtered one, which is collected first).
//
// When the right side is small, in all or beside the left (dist/limits.hpp), and the join keeps
// no unmatched right rows (inner, left, semi, anti), every rank gets the whole right side and
// joins its own left rows: only the small side moves. A semi or anti join moves only the right
// side's key columns. When one side's first key (an integer) is already held apart on the ranks
// (dist/key_spans.hpp: data split by key), the other side's rows go to the rank holding their
// key, and most stay put. Otherwise a right side small beside the left is sent whole, or both
// sides are hash-shuffled by their keys, which puts equal keys on one rank, and each rank joins
// what it holds. The keys must hash alike on both sides: integers of any width do, a decimal and
// an integer (or two scales) do not. A large right side sent whole to an inner or left join goes
// in the order of the bands of slots its rows take in each rank's hash table
// (dist/slot_order.hpp), and each rank builds its table a band at a time (join/banded_build.hpp).
#include <colx/dist/colocated.hpp>
#include <colx/dist/limits.hpp>
#include <colx/dist/shuffle.hpp>
#include <colx/dist/slot_order.hpp>
#include <colx/frame/join.hpp>
#include <colx/frame/select.hpp>

#include <algorithm>
#include <array>
#include <optional>
#include <span>
#include <tuple>
#include <vector>

namespace colx::dist {
namespace detail {
// A semi or anti join reads only the right side's keys, so only they need to move: when they are
// named once each (a frame of them alone then has a valid schema).
template <join_kind How, class... R>
inline constexpr bool moves_keys_only =
    (How == join_kind::semi || How == join_kind::anti) && colx::detail::names_unique<R...>();
// What a join's sides tell every rank first: their rows, and where their first keys lie.
struct join_sizes {
  std::array<size_type, 2> rows;  // left, right
  key_look left, right;
};
}  // namespace detail

template <class Schema, join_kind How, class RightSchema, class... L, class... R, class Suffixes>
[[nodiscard]] auto operator|(dist_frame<Schema> const& left,
                             join_stage<How, dist_frame<RightSchema>, join_keys<L...>, join_keys<R...>, Suffixes> const& j) {
  auto& comm = left.comm();
  COLX_EXPECTS(&comm == &j.right.comm(), "colx::dist: the two sides of a join live on different communicators");
  stream_ref const stream{};  // (the distributed steps run on the default stream)
  using local_stage = join_stage<How, frame<RightSchema>, join_keys<L...>, join_keys<R...>, Suffixes>;
  auto const join_local = [&](frame<Schema> const& l, frame<RightSchema> const& r) {
    auto out = agreed(comm, "join", [&] { return l | local_stage{r, j.options}; });
    return dist_frame<typename decltype(out)::schema_type>(comm, std::move(out));
  };
  if (comm.size() == 1) { return join_local(left.local(), j.right.local()); }
  constexpr bool keeps_unmatched_right = How == join_kind::right || How == join_kind::full;
  if constexpr (detail::moves_keys_only<How, R...> && RightSchema::size > sizeof...(R)) {
    auto const keys = j.right | colx::select(R{}...);
    return left | join_stage<How, std::remove_cvref_t<decltype(keys)>, join_keys<L...>, join_keys<R...>, Suffixes>{keys, j.options};
  } else {
    // Both sides' rows in all, and what each rank holds of each side's first key (its spans, or a
    // sample of its keys: dist/colocated.hpp), in one collective. Null keys match nothing, so
    // stay anywhere; a nulls_equal join does not look. A rank whose right rows, were every rank's
    // as many, would make a right side small enough to send whole whatever the keys say looks
    // later, only where the sizes in all call for it (its spans then come in the second
    // collective).
    using left_key = std::tuple_element_t<0, std::tuple<L...>>;
    using right_key = std::tuple_element_t<0, std::tuple<R...>>;
    constexpr bool spannable = detail::span_key_v<typename field_of<Schema, left_key>::type::type> &&
                               detail::span_key_v<typename field_of<RightSchema, right_key>::type::type>;
    detail::join_sizes mine{{left.local().num_rows(), j.right.local().num_rows()}, {}, {}};
    if constexpr (spannable) {
      bool const now = keeps_unmatched_right || j.right.local().num_rows() * comm.size() > limits().broadcast_rows;
      if (!j.options.nulls_equal) {
        mine.left = now ? detail::look_at(left.local(), left_key{}, stream) : detail::later_look();
        mine.right = now ? detail::look_at(j.right.local(), right_key{}, stream) : detail::later_look();
      }
    }
    double left_rows = 0, right_rows = 0, most_left = 0, most_right = 0;
    std::vector<detail::key_look> left_looks, right_looks;
    std::vector<size_type> runs{0};  // where each rank's right rows start in a right side sent whole
    for (auto const& n : comm.all_gather(mine)) {
      runs.push_back(runs.back() + n.rows[1]);
      left_rows += static_cast<double>(n.rows[0]);
      right_rows += static_cast<double>(n.rows[1]);
      most_left = std::max(most_left, static_cast<double>(n.rows[0]));
      most_right = std::max(most_right, static_cast<double>(n.rows[1]));
      left_looks.push_back(n.left);
      right_looks.push_back(n.right);
    }
    // A side whose rows stay put must be spread over the ranks about evenly: the other side's
    // rows follow it (one rank holding every row would draw the whole other side to it).
    auto const spread = [&](double most, double all) { return most <= 1.5 * all / comm.size() + 1024; };
    // A large right side sent whole, in the order of the bands of slots its rows take in every
    // rank's table: where that table is a hash table of the right rows' keys as the ranks hold
    // them (not a semi or anti join's bits, nor its left side hashed; not dictionary codes, which
    // the all-gather recodes). The table is then built a band at a time, the rows of every rank at
    // once (join/banded_build.hpp); or, to compare, row by row: each rank's own rows while the
    // others' arrive (where they arrive in place: fixed-width columns without nulls), then theirs.
    auto const broadcast_join = [&] {
      if constexpr ((How == join_kind::inner || How == join_kind::left) &&
                    !(colx::detail::dictionary_key_v<decltype(expr::bind<RightSchema>(R{}))> || ...)) {
        if (right_rows >= static_cast<double>(limits().slot_order_rows)) {
          auto ordered = agreed(comm, "join (right rows in slot order)", [&] {
            return detail::in_slot_order(j.right.local(), join_keys<R...>{}, static_cast<size_type>(right_rows), j.options, stream);
          });
          using build_t = join_build<frame<RightSchema>, R...>;
          using table = strategy_limits::broadcast_table;
          table const how = limits().broadcast_build;
          std::optional<build_t> built;
          auto all = exchange_to_all(comm, ordered, "replicate", stream, [&](frame<RightSchema> const& arriving, size_type first, size_type own) {
            if (how != table::while_receiving) { return; }
            try {
              built.emplace(arriving, j.options, stream, first, own);
            } catch (...) {
              built.reset();  // built whole below, where a failure is agreed
            }
          });
          if (how == table::after || (how == table::while_receiving && !built)) { return join_local(left.local(), all); }
          auto out = agreed(comm, "join", [&] {
            if (built) {
              built->insert_rest(stream);
            } else {
              built.emplace(all, j.options, stream, std::span<size_type const>(runs));  // a run a rank, in rank order
            }
            return left.local() | join_stage<How, build_t, join_keys<L...>, join_keys<R...>, Suffixes>{*built, j.options};
          });
          return dist_frame<typename decltype(out)::schema_type>(comm, std::move(out));
        }
      }
      return join_local(left.local(), replicate(j.right));
    };
    bool const small_right = right_rows <= static_cast<double>(limits().broadcast_rows);
    if (!keeps_unmatched_right && small_right) { return join_local(left.local(), replicate(j.right)); }
    bool const broadcast = !keeps_unmatched_right && right_rows * comm.size() <= limits().broadcast_share * left_rows;
    // One side's keys already apart on the ranks: the other side's rows go where their keys are.
    // The right side's rows, so moved, are fewer than a broadcast sends; the left side's may be
    // more, so a right side small enough to broadcast is broadcast instead. A side's spans only
    // where they can be used (its rows spread; the right side's not before a broadcast) and its
    // looks leave them possibly apart; where some rank sent a sample, in a second collective.
    if constexpr (spannable) {
      bool const left_may = spread(most_left, left_rows) && detail::may_be_apart(left_looks);
      bool const right_may = !broadcast && spread(most_right, right_rows) && detail::may_be_apart(right_looks);
      if (left_may || right_may) {
        std::vector<detail::key_spans> lefts = detail::given_spans(left_looks);
        std::vector<detail::key_spans> rights = detail::given_spans(right_looks);
        if ((left_may && detail::some_sampled(left_looks)) || (right_may && detail::some_sampled(right_looks))) {
          auto const me = static_cast<std::size_t>(comm.rank());
          std::array<detail::key_spans, 2> const spans{
              left_may ? detail::own_spans(left_looks[me], left.local(), left_key{}, stream) : detail::key_spans{},
              right_may ? detail::own_spans(right_looks[me], j.right.local(), right_key{}, stream) : detail::key_spans{}};
          auto const all = comm.all_gather(spans);
          for (std::size_t r = 0; r < all.size(); ++r) {
            lefts[r] = all[r][0];
            rights[r] = all[r][1];
          }
        }
        if (left_may && detail::spans_apart(lefts, false)) {
          auto const r = detail::move_to_spans(j.right, right_key{}, lefts, "join (right rows to their key's rank)", stream);
          return join_local(left.local(), r.local());
        }
        if (right_may && detail::spans_apart(rights, false)) {
          auto const l = detail::move_to_spans(left, left_key{}, rights, "join (left rows to their key's rank)", stream);
          return join_local(l.local(), j.right.local());
        }
      }
    }
    if (broadcast) { return broadcast_join(); }
  }
  auto const l = hash_shuffle(left, L{}...);
  auto const r = hash_shuffle(j.right, R{}...);
  return join_local(l.local(), r.local());
}

// A filtered right side (a dist_lazy) is collected on each rank first: only its key columns for a
// semi or anti join (the filter still reads what it needs).
template <class Schema, join_kind How, class Local, class LeftKeys, class... R, class Suffixes>
[[nodiscard]] auto operator|(dist_frame<Schema> const& left,
                             join_stage<How, dist_lazy<Local>, LeftKeys, join_keys<R...>, Suffixes> const& j) {
  auto const right = [&] {
    if constexpr (detail::moves_keys_only<How, R...>) {
      auto keys = agreed(j.right.comm(), "collect", [&] { return j.right.local() | colx::select(R{}...); });
      return dist_frame<typename decltype(keys)::schema_type>(j.right.comm(), std::move(keys));
    } else {
      return j.right.collect();
    }
  }();
  return left | join_stage<How, std::remove_cvref_t<decltype(right)>, LeftKeys, join_keys<R...>, Suffixes>{right, j.options};
}

}  // namespace colx::dist
