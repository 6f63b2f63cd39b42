// SPDX-License-Identifier: Apache-2.0
#pragma once
// The sizes at which distributed operations change strategy, one set per process (every rank
// must hold the same values: they choose which collectives run). Tests lower them to reach the
// shuffling paths with small data.
#include <colx/core/config.hpp>

namespace colx::dist {

struct strategy_limits {
  // A join's right side with at most this many rows in all is sent whole to every rank.
  size_type broadcast_rows = size_type{1} << 22;
  // A group-by whose partial groups number at most this many in all merges them on rank 0.
  size_type few_groups_rows = size_type{1} << 18;
};
[[nodiscard]] inline strategy_limits& limits() noexcept {
  static strategy_limits values;
  return values;
}

}  // namespace colx::dist
