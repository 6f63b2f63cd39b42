// SPDX-License-Identifier: Apache-2.0
// The 22 TPC-H queries over tables split across GPUs: colx-tpch's own query code (qNN_of in
// colx/tpch/queries, one unit a query: run_dist_qNN) over dist_frames, one process per GPU over
// NCCL (one GPU: a world of one, the same code with no transfers). Each rank reads its share of
// every table (q::read_dist_database: file i of a table on rank i % ranks; write the tables with
// `tpchgen-cli parquet -s SF --parts N`). Each query then runs --repeat times after a warm-up;
// the median of the slowest rank's times is printed. A query's time includes gathering its answer
// on rank 0. Rank 0 writes each answer (--out DIR: DIR/<ranks>/qNN.csv, as colx-tpch --out does,
// for tests/tpch/compare_duckdb.py --answers), which must be the same for every number of GPUs.
//   bench_dist_tpch --data DIR [--ranks 1,2,4] [--queries 1-22] [--repeat 5] [--out DIR]
//                   [--explain summary|full]   (rank 0's steps, exchanges and collectives a query)
//                   [--key-spans on|off]       (off: no join or group-by looks for keys the ranks hold apart)
//                   [--key-sample-rows N]      (a rank with N rows or more shows a sample of its keys first)
#include "../../examples/tpch/runner_common.hpp"
#include "../bench_common.cuh"
#include "ranks.cuh"

#include <colx/cuda.cuh>
#include <colx/dist.hpp>
#include <colx/dist/local_ranks.hpp>
#include <colx/dist/nccl_communicator.hpp>
#include <colx/io/csv.hpp>
#include <colx/tpch/queries/dist_run.hpp>

#include <algorithm>
#include <cstdio>
#include <exception>
#include <filesystem>
#include <sstream>
#include <string>
#include <vector>

namespace dist = colx::dist;
namespace q = colx::tpch::queries;
using colx::tpch::runner::milliseconds_since;

namespace {

struct options {
  std::string data;
  std::string out;
  std::vector<int> queries;
  int repeat = 5;
  std::string explain;  // "summary" or "full": rank 0's distributed steps of each query's last run
};

int run_rank(options const& o, int rank, int ranks, std::filesystem::path const& rendezvous) {
  auto const comm = colx::bench::join_world(rank, ranks, rendezvous);
  auto& world = *comm;
  bool const root = rank == 0;
  auto const reading = std::chrono::steady_clock::now();
  q::dist_database const db = q::read_dist_database(world, o.data);
  COLX_CUDA_TRY(cudaDeviceSynchronize());
  double const read_ms = world.all_max(milliseconds_since(reading));
  std::size_t free_bytes = 0, total_bytes = 0;
  COLX_CUDA_TRY(cudaMemGetInfo(&free_bytes, &total_bytes));
  double const held_gb = world.all_max(static_cast<double>(total_bytes - free_bytes) / 1e9);
  colx::size_type const lineitem_rows = db.lineitem.num_rows();  // (a collective: every rank asks)
  if (root) {
    std::printf("%d GPU(s): read each rank's share of the 8 tables of scale factor %g in %.1f ms (slowest rank); "
                "lineitem %lld rows; up to %.1f GB of a GPU's memory in use\n",
                ranks, db.scale_factor, read_ms, static_cast<long long>(lineitem_rows), held_gb);
    std::fflush(stdout);
  }
  std::string const answers = o.out.empty() ? "" : o.out + "/" + std::to_string(ranks);  // (made by main)
  double sum = 0;
  int failed = 0;
  for (int n : o.queries) {
    auto const found = q::dist_queries().find(n);
    if (found == q::dist_queries().end()) {
      if (root) { std::printf("Q%02d not built\n", n); }
      ++failed;
      continue;
    }
    // A query that throws on one rank throws on every rank (dist::agreed): all go on alike.
    try {
      double const ms = colx::bench::slowest_rank_ms(world, [&] { (void)found->second(db); }, o.repeat);
      world.clear_traffic();
      auto const answer = found->second(db);
      sum += ms;
      if (!root) { continue; }
      std::printf("%d GPU(s) Q%02d %9.3f ms  %lld rows\n", ranks, n, ms, static_cast<long long>(answer.table.num_rows()));
      if (o.explain == "summary") { std::printf("    %s\n", dist::explain_summary(world).c_str()); }
      if (o.explain == "full") { std::printf("%s", dist::explain(world).c_str()); }
      std::fflush(stdout);
      if (!answers.empty()) { colx::write_csv(answer.table, colx::tpch::runner::answer_path(answers, n)); }
    } catch (std::exception const& e) {
      if (root) { std::printf("%d GPU(s) Q%02d failed: %s\n", ranks, n, e.what()); }
      ++failed;
    }
  }
  if (root) {
    std::printf("%d GPU(s): sum of the %zu queries' medians %.3f ms, %d failed\n\n", ranks, o.queries.size(), sum, failed);
    std::fflush(stdout);
  }
  return failed == 0 ? 0 : 1;
}

}  // namespace

int main(int argc, char** argv) {
  using colx::tpch::runner::option;
  options o;
  o.data = option(argc, argv, "--data", "");
  o.out = option(argc, argv, "--out", "");
  o.repeat = std::stoi(option(argc, argv, "--repeat", "5"));
  o.explain = option(argc, argv, "--explain", "");
  o.queries = colx::tpch::runner::parse_queries(option(argc, argv, "--queries", "1-22"));
  dist::limits().key_spans = option(argc, argv, "--key-spans", "on") != "off";  // (set before the ranks start)
  dist::limits().key_sample_rows = static_cast<colx::size_type>(std::stoll(option(argc, argv, "--key-sample-rows", std::to_string(dist::limits().key_sample_rows))));
  std::vector<int> rank_counts;
  std::stringstream ss(option(argc, argv, "--ranks", "1,2"));
  for (std::string x; std::getline(ss, x, ',');) { rank_counts.push_back(std::stoi(x)); }
  if (o.data.empty()) {
    std::fprintf(stderr, "usage: bench_dist_tpch --data DIR [--ranks 1,2,4] [--queries 1-22] [--repeat 5] [--out DIR] [--explain summary|full] [--key-spans on|off] [--key-sample-rows N]\n");
    return 2;
  }
  o.repeat = std::max(1, o.repeat);
  for (int ranks : rank_counts) {
    if (!o.out.empty()) { std::filesystem::create_directories(o.out + "/" + std::to_string(ranks)); }
  }
  auto const rendezvous = dist::make_rendezvous_dir();
  int worst = 0;
  for (int ranks : rank_counts) {
    int const rc = dist::run_local_ranks(ranks, [&](int rank, int size) {
      try {
        return run_rank(o, rank, size, rendezvous);
      } catch (std::exception const& e) {
        std::fprintf(stderr, "rank %d of %d: %s\n", rank, size, e.what());
        return 1;
      }
    });
    if (rc != 0) {
      std::printf("%d GPU(s): failed (%d)\n", ranks, rc);
      worst = rc;
    }
  }
  std::filesystem::remove_all(rendezvous);
  return worst;
}
