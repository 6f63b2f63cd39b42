// SPDX-License-Identifier: Apache-2.0
#pragma once
// The hash shuffle: every row to the rank its keys hash to, so that equal keys meet on one rank
// (distributed group-by and join). Sizes go first, then every column in one grouped transfer
// (dist/exchange.hpp); the rows a rank receives come in rank order, each rank's in its order.
#include <colx/dist/dist_frame.hpp>
#include <colx/dist/partition.hpp>

namespace colx::dist {

template <class Schema, class... Keys>
[[nodiscard]] dist_frame<Schema> hash_shuffle(dist_frame<Schema> const& d, stream_ref stream, Keys const&... keys) {
  auto& comm = d.comm();
  if (comm.size() == 1) { return d; }
  auto grouped = agreed(comm, "hash shuffle (partition)", [&] {
    auto const destination = hash_destinations(d.local(), comm.size(), stream, keys...);
    auto out = group_by_destination(d.local(), destination.data(), comm.size(), stream);
    stream.synchronize();  // the step's time is the work's, not its launch's
    return out;
  });
  return {comm, exchange_rows(comm, grouped.first, std::span<size_type const>(grouped.second), "hash shuffle", stream)};
}
template <class Schema, class... Keys>
  requires(!std::same_as<Keys, stream_ref> && ...)
[[nodiscard]] dist_frame<Schema> hash_shuffle(dist_frame<Schema> const& d, Keys const&... keys) {
  return hash_shuffle(d, stream_ref{}, keys...);
}

}  // namespace colx::dist
