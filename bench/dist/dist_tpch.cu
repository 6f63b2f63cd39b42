// SPDX-License-Identifier: Apache-2.0
// TPC-H Q1 and Q6 over lineitem split across GPUs: the queries' own code (q01_over, q06_revenue in
// colx/tpch/queries) run over a dist_frame, one process per GPU over NCCL (one GPU: a world of
// one). Each rank reads its share of the Parquet files (file i on rank i % ranks: write them with
// `tpchgen-cli parquet -s SF --tables lineitem --parts N`), then each query runs --repeat times
// after a warm-up; the median is printed with the slowest rank's time to read. Rank 0 prints the
// answers, which must be the same for every number of GPUs.
//   bench_dist_tpch --data DIR --ranks 1,2,4 [--repeat 5]     (DIR/lineitem/*.parquet or DIR/lineitem.parquet)
#include "../bench_common.cuh"
#include "ranks.cuh"

#include <colx/cuda.cuh>
#include <colx/dist.hpp>
#include <colx/dist/local_ranks.hpp>
#include <colx/dist/nccl_communicator.hpp>
#include <colx/dist/read_parquet.hpp>
#include <colx/tpch/queries/q01.hpp>
#include <colx/tpch/queries/q06.hpp>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <iostream>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

namespace dist = colx::dist;
namespace q = colx::tpch::queries;

namespace {

// The columns Q1 and Q6 read, typed as colx-tpch reads them (tables.hpp).
using lineitem_q1_q6 =
    colx::schema<colx::field<"l_quantity", q::money, colx::not_null>, colx::field<"l_extendedprice", q::money, colx::not_null>,
                 colx::field<"l_discount", q::money, colx::not_null>, colx::field<"l_tax", q::money, colx::not_null>,
                 colx::field<"l_returnflag", q::coded, colx::not_null>, colx::field<"l_linestatus", q::coded, colx::not_null>,
                 colx::field<"l_shipdate", colx::date32, colx::not_null>>;

std::vector<std::string> lineitem_files(std::string const& dir) {
  std::vector<std::string> files;
  if (std::filesystem::is_directory(dir + "/lineitem")) {
    for (auto const& e : std::filesystem::directory_iterator(dir + "/lineitem")) {
      if (e.path().extension() == ".parquet") { files.push_back(e.path().string()); }
    }
  } else {
    files.push_back(dir + "/lineitem.parquet");
  }
  // Numbered parts in their order (lineitem.2 before lineitem.10).
  std::sort(files.begin(), files.end(), [](std::string const& a, std::string const& b) {
    return a.size() != b.size() ? a.size() < b.size() : a < b;
  });
  return files;
}

int run_rank(std::string const& dir, int repeat, int rank, int ranks, std::filesystem::path const& rendezvous) {
  auto const comm = colx::bench::join_world(rank, ranks, rendezvous);
  auto& world = *comm;
  auto const files = lineitem_files(dir);
  auto const t0 = std::chrono::steady_clock::now();
  auto const lineitem = dist::read_parquet<lineitem_q1_q6>(world, files);
  COLX_CUDA_TRY(cudaDeviceSynchronize());
  double const read_ms = world.all_max(std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count());
  colx::size_type const rows = lineitem.num_rows();

  std::ostringstream answers;
  double const q1_ms = colx::bench::slowest_rank_ms(world, [&] { (void)q::q01_over(lineitem); }, repeat);
  auto const q1 = dist::gather(q::q01_over(lineitem));
  double const q6_ms = colx::bench::slowest_rank_ms(world, [&] { (void)q::q06_revenue(lineitem); }, repeat);
  auto const revenue = q::q06_revenue(lineitem);
  if (rank == 0) {
    answers << q1 << "\nQ6 revenue: " << colx::make_frame(colx::values<"revenue", decltype(revenue.value())>({revenue.value()})) << "\n";
    std::printf("%d GPU(s): lineitem %lld rows in %zu files, read in %.1f ms (slowest rank); Q1 %.3f ms, Q6 %.3f ms\n", ranks,
                static_cast<long long>(rows), files.size(), read_ms, q1_ms, q6_ms);
    std::printf("answers on %d GPU(s):\n%s\n", ranks, answers.str().c_str());
    std::fflush(stdout);
  }
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  std::string dir;
  std::vector<int> rank_counts{1, 2};
  int repeat = 5;
  for (int i = 1; i + 1 < argc; i += 2) {
    std::string const a = argv[i];
    if (a == "--data") {
      dir = argv[i + 1];
    } else if (a == "--repeat") {
      repeat = std::stoi(argv[i + 1]);
    } else if (a == "--ranks") {
      rank_counts.clear();
      std::stringstream ss(argv[i + 1]);
      for (std::string x; std::getline(ss, x, ',');) { rank_counts.push_back(std::stoi(x)); }
    } else {
      std::fprintf(stderr, "unknown option %s\n", a.c_str());
      return 2;
    }
  }
  if (dir.empty()) {
    std::fprintf(stderr, "usage: bench_dist_tpch --data DIR [--ranks 1,2,4] [--repeat 5]\n");
    return 2;
  }
  auto const rendezvous = dist::make_rendezvous_dir();
  int worst = 0;
  for (int ranks : rank_counts) {
    int const rc = dist::run_local_ranks(ranks, [&](int rank, int size) {
      try {
        return run_rank(dir, repeat, rank, size, rendezvous);
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
