// SPDX-License-Identifier: Apache-2.0
#pragma once
// The eight TPC-H tables split over the ranks of a world: what the generic queries (qNN_of)
// run on distributed. scatter_database splits tables that one rank read; read_dist_database has
// each rank read its share of tables written in parts (tpchgen-cli parquet --parts N).
#include <colx/dist/dist_frame.hpp>
#include <colx/dist/read_parquet.hpp>
#include <colx/tpch/queries/tables.hpp>

#include <algorithm>
#include <filesystem>
#include <string>
#include <vector>

namespace colx::tpch::queries {

struct dist_database {
  dist::dist_frame<nation_schema> nation;
  dist::dist_frame<region_schema> region;
  dist::dist_frame<part_schema> part;
  dist::dist_frame<supplier_schema> supplier;
  dist::dist_frame<partsupp_schema> partsupp;
  dist::dist_frame<customer_schema> customer;
  dist::dist_frame<orders_schema> orders;
  dist::dist_frame<lineitem_schema> lineitem;
  double scale_factor = 1;
};

// The eight tables with no rows, in mr's memory: what the ranks other than the root pass to
// scatter_database.
[[nodiscard]] inline database empty_database(resource_ref mr) {
  return {dist::detail::empty_frame<nation_schema>(mr),   dist::detail::empty_frame<region_schema>(mr),   dist::detail::empty_frame<part_schema>(mr),
          dist::detail::empty_frame<supplier_schema>(mr), dist::detail::empty_frame<partsupp_schema>(mr), dist::detail::empty_frame<customer_schema>(mr),
          dist::detail::empty_frame<orders_schema>(mr),   dist::detail::empty_frame<lineitem_schema>(mr)};
}

// Rank root's tables (db; the other ranks' are not read) split evenly over comm's ranks.
[[nodiscard]] inline dist_database scatter_database(dist::communicator& comm, database const& db, int root = 0) {
  double const scale = comm.all_gather(db.scale_factor)[static_cast<std::size_t>(root)];
  return {dist::scatter(comm, db.nation, root),   dist::scatter(comm, db.region, root),   dist::scatter(comm, db.part, root),
          dist::scatter(comm, db.supplier, root), dist::scatter(comm, db.partsupp, root), dist::scatter(comm, db.customer, root),
          dist::scatter(comm, db.orders, root),   dist::scatter(comm, db.lineitem, root), scale};
}

// A table's files: DIR/<table>/*.parquet in the order of their part numbers (tpchgen-cli's
// <table>.<k>.parquet, so part 2 before part 10), else the one file DIR/<table>.parquet.
[[nodiscard]] inline std::vector<std::string> table_files(std::string const& dir, std::string const& table) {
  std::vector<std::string> files;
  std::filesystem::path const folder = std::filesystem::path(dir) / table;
  if (!std::filesystem::is_directory(folder)) { return {(std::filesystem::path(dir) / (table + ".parquet")).string()}; }
  for (auto const& e : std::filesystem::directory_iterator(folder)) {
    if (e.path().extension() == ".parquet") { files.push_back(e.path().string()); }
  }
  std::sort(files.begin(), files.end(), [](std::string const& a, std::string const& b) {
    return a.size() != b.size() ? a.size() < b.size() : a < b;
  });
  return files;
}

// A table's files as every rank sees them: listed in an agreed step (a folder one rank cannot
// read fails on every rank), and the same number on every rank, or every rank throws.
template <class Schema>
[[nodiscard]] dist::dist_frame<Schema> read_share(dist::communicator& comm, std::string const& dir, std::string const& table,
                                                  stream_ref stream) {
  auto const files = dist::agreed(comm, "list the files of " + table, [&] {
    auto found = table_files(dir, table);
    COLX_EXPECTS(!found.empty(), "read_dist_database: ", dir, "/", table, " holds no .parquet file");
    return found;
  });
  dist::expect_same_on_all_ranks(comm, files.size(), "how many files " + dir + "/" + table + " holds");
  return dist::read_parquet<Schema>(comm, files, {}, stream);
}

// Every rank reads its share of each table's files (file i on rank i % ranks: dist::read_parquet),
// so no rank reads or holds more than its share. A table in one file is read by rank 0 alone.
// (A braced list runs its reads in order, the same on every rank, as collectives must.)
[[nodiscard]] inline dist_database read_dist_database(dist::communicator& comm, std::string const& dir, stream_ref stream = {}) {
  dist_database db{read_share<nation_schema>(comm, dir, "nation", stream),     read_share<region_schema>(comm, dir, "region", stream),
                   read_share<part_schema>(comm, dir, "part", stream),         read_share<supplier_schema>(comm, dir, "supplier", stream),
                   read_share<partsupp_schema>(comm, dir, "partsupp", stream), read_share<customer_schema>(comm, dir, "customer", stream),
                   read_share<orders_schema>(comm, dir, "orders", stream),     read_share<lineitem_schema>(comm, dir, "lineitem", stream)};
  db.scale_factor = scale_factor_of(db.supplier.num_rows());
  return db;
}

}  // namespace colx::tpch::queries
