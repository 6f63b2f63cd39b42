// SPDX-License-Identifier: Apache-2.0
#pragma once
// The sizes at which distributed operations change strategy, one set per process (every rank
// must hold the same values: they choose which collectives run). Tests lower them to reach the
// shuffling paths with small data.
#include <colx/core/config.hpp>

namespace colx::dist {

struct strategy_limits {
  // A join's right side is sent whole to every rank when it has at most this many rows in all,
  // or when its rows times the ranks are at most broadcast_share of the left side's rows: each
  // rank then receives fewer bytes than a shuffle of both sides would bring it, at the cost of
  // building the whole right side on every rank (measured: bench/results/dist.md).
  size_type broadcast_rows = size_type{1} << 22;
  double broadcast_share = 0.5;
  // A group-by whose partial groups number at most this many in all merges them on rank 0.
  size_type few_groups_rows = size_type{1} << 18;
  // Look for a join's or group-by's integer key already held apart on the ranks (data split by
  // key, as files written in key order), and then move no rows, or only the few out of place
  // (dist/key_spans.hpp). Off: always the shuffles and broadcasts above.
  bool key_spans = true;
  // A right side of at least this many rows sent whole to an inner or left join (one small
  // beside the left side, by broadcast_share) is first sorted, on each rank, by the slots its
  // rows take in the hash table every rank then builds (dist/slot_order.hpp): a table larger
  // than L2 is then built in a sweep, not by random writes.
  size_type slot_order_rows = size_type{1} << 22;
  // Before looking for those spans, a rank holding at least this many rows shows the others a few
  // of its keys, and the spans are not looked for where those already show that they overlap
  // (scattered keys: a pass over the key column saved). Fewer rows: the pass is short, and a
  // sample would cost a wait of its own.
  size_type key_sample_rows = size_type{1} << 20;
  // How each rank builds the hash table of a large right side sent whole in slot order
  // (dist/join.hpp): a band of slots at a time once every rank's rows are in
  // (join/banded_build.hpp); or row by row, its own rows while the other ranks' arrive, then
  // theirs; or row by row after they all arrived. The last two are there to compare in one run.
  enum class broadcast_table { in_bands, while_receiving, after };
  broadcast_table broadcast_build = broadcast_table::in_bands;
};
[[nodiscard]] inline strategy_limits& limits() noexcept {
  static strategy_limits values;
  return values;
}

}  // namespace colx::dist
