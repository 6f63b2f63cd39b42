// SPDX-License-Identifier: Apache-2.0
// colx-tpch-dist: the 22 TPC-H queries over tables split across the ranks of an MPI world (host
// memory). Each rank reads its share of tables written in parts (tpchgen-cli parquet --parts N);
// tables in one file each are read by rank 0, which scatters them. Each query is the
// same code colx-tpch runs (qNN_of), here over dist::dist_frames, so that its joins, group-bys,
// sorts and top-ks run distributed; its answer, gathered on rank 0, is printed and written
// (--out DIR, one CSV a query) as colx-tpch's are, so tests/tpch/compare_duckdb.py compares them
// with DuckDB's (its --launcher option runs this under mpirun).
//   mpirun -n 2 colx-tpch-dist --data DIR [--queries 1-22] [--out DIR] [--rows N] [--explain summary|full]
//                              [--broadcast-rows N] [--key-spans on|off] [--key-sample-rows N]
//                              (dist/limits.hpp: to try the strategies)
#include <colx/colx.hpp>
#include <colx/dist.hpp>
#include <colx/dist/mpi_communicator.hpp>
#include <colx/io/csv.hpp>
#include <colx/tpch/queries/dist_run.hpp>

#include "runner_common.hpp"

#include <chrono>
#include <cstdio>
#include <cstdint>
#include <exception>
#include <filesystem>
#include <iostream>
#include <string>
#include <vector>

namespace q = colx::tpch::queries;

int main(int argc, char** argv) {
  using colx::tpch::runner::milliseconds_since;
  using colx::tpch::runner::option;
  colx::dist::mpi_session const mpi(&argc, &argv);
  colx::dist::mpi_communicator world;
  bool const root = world.rank() == 0;
  std::string const data = option(argc, argv, "--data", "");
  if (data.empty()) {
    if (root) { std::cout << "usage: mpirun -n RANKS colx-tpch-dist --data DIR [--queries 1-22] [--out DIR] [--rows N] [--explain summary|full] [--broadcast-rows N] [--key-spans on|off] [--key-sample-rows N]\n"; }
    return 0;
  }
  int failed = 0;
  try {
    std::string const out = option(argc, argv, "--out", "");
    std::string const explain = option(argc, argv, "--explain", "");  // "summary" or "full": rank 0's steps a query
    auto const rows = static_cast<colx::size_type>(std::stoll(option(argc, argv, "--rows", "10")));
    auto const wanted = colx::tpch::runner::parse_queries(option(argc, argv, "--queries", "1-22"));
    auto& limits = colx::dist::limits();
    limits.broadcast_rows = static_cast<colx::size_type>(std::stoll(option(argc, argv, "--broadcast-rows", std::to_string(limits.broadcast_rows))));
    limits.key_spans = option(argc, argv, "--key-spans", "on") != "off";
    limits.key_sample_rows = static_cast<colx::size_type>(std::stoll(option(argc, argv, "--key-sample-rows", std::to_string(limits.key_sample_rows))));
    auto const mr = colx::get_current_resource();
    auto const loading = std::chrono::steady_clock::now();
    // Rank 0 decides: every rank must take the same path, whatever the others' file systems hold.
    bool const in_parts = world.all_gather(static_cast<std::uint8_t>(std::filesystem::is_directory(std::filesystem::path(data) / "lineitem")))[0] != 0;
    // Tables written in parts: every rank reads its share. Tables in one file each: rank 0 reads
    // them (an agreed step: a read that throws, a wrong --data, ends every rank, none waits) and
    // splits every table evenly.
    q::dist_database const db = in_parts ? q::read_dist_database(world, data) : [&] {
      auto const tables = colx::dist::agreed(world, "read the tables", [&] { return root ? q::load_database(data, {}, mr) : q::empty_database(mr); });
      return q::scatter_database(world, tables);
    }();
    if (root) {
      std::printf("%s the 8 tables of scale factor %g from %s over %d ranks in %.1f ms\n\n",
                  in_parts ? "read each rank's share of" : "read on rank 0 and split", db.scale_factor, data.c_str(), world.size(),
                  milliseconds_since(loading));
    }
    for (int n : wanted) {
      auto const found = q::dist_queries().find(n);
      if (found == q::dist_queries().end()) {
        if (root) { std::printf("Q%d: not built\n\n", n); }
        ++failed;
        continue;
      }
      // A query that fails on one rank fails on every rank (dist::agreed), so all go on alike.
      try {
        world.clear_traffic();
        auto const started = std::chrono::steady_clock::now();
        auto const answer = found->second(db);
        double const ms = milliseconds_since(started);
        if (!root) { continue; }
        std::printf("Q%d (%lld rows, %.3f ms over %d ranks)\n", n, static_cast<long long>(answer.table.num_rows()), ms, world.size());
        if (explain == "summary") { std::printf("  %s\n", colx::dist::explain_summary(world).c_str()); }
        if (explain == "full") { std::printf("%s", colx::dist::explain(world).c_str()); }
        std::cout << answer.print({.max_rows = rows}) << "\n\n";
        if (!out.empty()) {
          colx::write_csv(answer.table, colx::tpch::runner::answer_path(out, n));
        }
      } catch (std::exception const& e) {
        if (root) { std::printf("Q%d failed: %s\n\n", n, e.what()); }
        ++failed;
      }
    }
  } catch (std::exception const& e) {
    std::cerr << "colx-tpch-dist (rank " << world.rank() << "): " << e.what() << "\n";
    return 1;
  }
  return failed == 0 ? 0 : 1;
}
