// SPDX-License-Identifier: Apache-2.0
#pragma once
// Distributed top-k (ORDER BY ... LIMIT k): each rank takes its own first k rows, the candidates
// (at most k a rank) go to rank 0, and rank 0 takes the first k of them. Candidates arrive in rank
// order and every top_k is stable, so the answer is the one-process top_k of the ranks' rows
// taken in rank order (what gather() then top_k gives), without sorting or moving the rest.
#include <colx/dist/dist_frame.hpp>
#include <colx/frame/sort.hpp>

namespace colx::dist {

// The first k rows of d in the keys' order, on rank 0 (the other ranks hold none).
template <class Schema, class... Keys>
[[nodiscard]] dist_frame<Schema> top_k(dist_frame<Schema> const& d, size_type k, Keys const&... keys) {
  COLX_EXPECTS(k >= 0, "top_k: k must not be negative, got ", k);
  auto& comm = d.comm();
  auto const mine = agreed(comm, "top_k", [&] { return colx::top_k(d.local(), k, keys...); });
  auto const bounds = detail::all_to_bounds(mine.num_rows(), comm.size(), 0);
  auto const candidates = exchange_rows(comm, mine, std::span<size_type const>(bounds), "top_k (candidates to rank 0)");
  return dist_frame<Schema>(comm, agreed(comm, "top_k (rank 0)", [&] { return colx::top_k(candidates, k, keys...); }));
}

}  // namespace colx::dist
