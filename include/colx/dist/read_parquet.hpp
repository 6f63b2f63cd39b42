// SPDX-License-Identifier: Apache-2.0
#pragma once
// Each rank reads its share of a set of Parquet files: file i goes to rank i % ranks, and a
// rank's files are concatenated in the order given. Every rank checks its files against the same
// schema (read_parquet<Schema>), so a file that does not fit fails on its rank and every rank
// throws. A rank with no file holds no rows.
#include <colx/dist/dist_frame.hpp>
#include <colx/io/parquet.hpp>

#include <string>
#include <vector>

namespace colx::dist {

template <class Schema>
[[nodiscard]] dist_frame<Schema> read_parquet(communicator& comm, std::vector<std::string> const& files,
                                              parquet_read_options options = {}, stream_ref stream = {}) {
  auto local = agreed(comm, "read_parquet", [&] {
    std::vector<frame<Schema>> mine;
    for (std::size_t i = static_cast<std::size_t>(comm.rank()); i < files.size(); i += static_cast<std::size_t>(comm.size())) {
      mine.push_back(colx::read_parquet<Schema>(files[i], options, stream, get_current_resource(comm.kind())));
    }
    if (mine.empty()) { return detail::empty_frame<Schema>(); }
    if (mine.size() == 1) { return std::move(mine.front()); }
    return concat(std::span<frame<Schema> const>(mine), stream);
  });
  return {comm, std::move(local)};
}

}  // namespace colx::dist
