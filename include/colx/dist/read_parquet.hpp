// SPDX-License-Identifier: Apache-2.0
#pragma once
// Each rank reads its share of a set of Parquet files: file i goes to rank i % ranks, and a
// rank's files are concatenated in the order given (dictionary columns recoded over the union of
// the files' dictionaries). Every rank checks its files against the same
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
    if (mine.empty()) { return detail::empty_frame<Schema>(get_current_resource(comm.kind())); }
    if (mine.size() == 1) { return std::move(mine.front()); }
    // Column by column, dictionaries recoded over their union: each file has its own.
    std::vector<any_column> columns(Schema::size);
    [&]<std::size_t... C>(std::index_sequence<C...>) {
      auto const join = [&]<std::size_t I>(std::integral_constant<std::size_t, I>) {
        std::vector<any_column> pieces;
        for (auto const& f : mine) { pieces.push_back(f.template column_at<I>().untyped()); }
        columns[I] = detail::join_pieces<Schema, I>(pieces, stream, get_current_resource(comm.kind()));
      };
      (join(std::integral_constant<std::size_t, C>{}), ...);
    }(std::make_index_sequence<Schema::size>{});
    return detail::typed_frame<Schema>(columns, std::make_index_sequence<Schema::size>{});
  });
  return {comm, std::move(local)};
}

}  // namespace colx::dist
