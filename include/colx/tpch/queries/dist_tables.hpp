// SPDX-License-Identifier: Apache-2.0
#pragma once
// The eight TPC-H tables split over the ranks of a world: what the generic queries (qNN_of)
// run on distributed. scatter_database splits tables that one rank read (the runner
// colx-tpch-dist); a program that reads each rank's share of the files itself builds the struct
// from dist::read_parquet.
#include <colx/dist/dist_frame.hpp>
#include <colx/tpch/queries/tables.hpp>

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

}  // namespace colx::tpch::queries
