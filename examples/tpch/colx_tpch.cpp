// SPDX-License-Identifier: Apache-2.0
// colx-tpch: TPC-H on tpchgen-cli's Parquet files. Loads the eight tables once (into device memory
// in the CUDA build), runs each query asked for `repeat` times, prints its answer and a table of
// times (the median; with --repeat N > 1 the first run is a warm-up), and with --out DIR writes
// each answer to DIR/qNN.csv (what tests/tpch/compare_duckdb.py compares with DuckDB's).
//   tpchgen-cli parquet -s 1 --output-dir DIR
//   colx-tpch --data DIR [--queries 1-22 | 1,3,6] [--repeat N] [--out DIR] [--rows N]
#include <colx/colx.hpp>
#include <colx/io/csv.hpp>
#include <colx/tpch/queries/inputs.hpp>
#include <colx/tpch/queries/run.hpp>

#include "runner_common.hpp"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <iostream>
#include <map>
#include <string>
#include <vector>

#if defined(__CUDACC__) && __has_include(<nvtx3/nvToolsExt.h>)
#  include <nvtx3/nvToolsExt.h>  // (a range per query run, "Q1"...: what Nsight tools filter on)
#  define COLX_TPCH_RANGE_PUSH(name) nvtxRangePushA(name)
#  define COLX_TPCH_RANGE_POP() nvtxRangePop()
#else
#  define COLX_TPCH_RANGE_PUSH(name) (void)(name)
#  define COLX_TPCH_RANGE_POP()
#endif

namespace {

using colx::tpch::queries::database;
using colx::tpch::runner::option;
using colx::tpch::runner::milliseconds_since;
using colx::tpch::runner::parse_queries;
using query_fn = colx::tpch::queries::query_answer (*)(database const&);

std::map<int, query_fn> const& all_queries() {
  static std::map<int, query_fn> const queries = {
#define COLX_TPCH_QUERY(n) {std::atoi(#n), &colx::tpch::queries::run_q##n},
#include "query_list.inc"
#undef COLX_TPCH_QUERY
  };
  return queries;
}

// The bytes of the eight tables' files, as read whole by load_database.
double parquet_bytes(std::string const& dir) {
  double bytes = 0;
  for (char const* table : {"nation", "region", "part", "supplier", "partsupp", "customer", "orders", "lineitem"}) {
    std::error_code ec;
    auto const size = std::filesystem::file_size(dir + "/" + table + ".parquet", ec);
    if (!ec) { bytes += static_cast<double>(size); }
  }
  return bytes;
}

}  // namespace

int main(int argc, char** argv) {
  std::string const data = option(argc, argv, "--data", "");
  if (data.empty()) {
    std::cout << "colx-tpch: TPC-H queries over tpchgen-cli's Parquet files\n"
              << "usage: colx-tpch --data DIR [--queries 1-22] [--repeat N] [--out DIR] [--rows N]\n"
              << "  (make DIR with: tpchgen-cli parquet -s 1 --output-dir DIR)\nqueries built:";
    for (auto const& [q, run] : all_queries()) { std::cout << " " << q; }
    std::cout << "\n";
    return 0;
  }
  try {
    int const repeat = std::max(1, std::stoi(option(argc, argv, "--repeat", "1")));
    std::string const out = option(argc, argv, "--out", "");
    auto const rows = static_cast<colx::size_type>(std::stoll(option(argc, argv, "--rows", "10")));
    std::vector<int> const wanted = parse_queries(option(argc, argv, "--queries", "1-22"));
    colx::stream_ref const stream{};
    auto const loading = std::chrono::steady_clock::now();
    std::vector<colx::tpch::queries::table_read> reads;
    database const db = colx::tpch::queries::load_database(data, stream, colx::get_current_resource(), &reads);
    stream.synchronize();
    double const load_ms = milliseconds_since(loading);
    double const file_gb = parquet_bytes(data) / 1e9;
    std::printf("loaded the 8 tables of scale factor %g from %s (%.2f GB of Parquet) in %.1f ms, %.2f GB/s (%s memory):",
                db.scale_factor, data.c_str(), file_gb, load_ms, file_gb / (load_ms / 1e3), colx::to_string(db.lineitem.kind()));
    for (auto const& r : reads) { std::printf(" %s %.1f ms,", r.table, r.ms); }
    std::printf("\n\n");
    std::vector<std::pair<int, double>> times;
    int failed = 0;
    for (int q : wanted) {
      auto const found = all_queries().find(q);
      if (found == all_queries().end()) {
        std::printf("Q%d: not built yet\n\n", q);
        ++failed;
        continue;
      }
      try {
        std::vector<double> ms;
        colx::tpch::queries::query_answer answer;
        for (int r = 0; r < repeat; ++r) {
          char range[16];  // (snprintf: g++ 12 warns, wrongly, of "Q" + std::to_string(q))
          std::snprintf(range, sizeof range, "Q%d", q);
          COLX_TPCH_RANGE_PUSH(range);
          auto const started = std::chrono::steady_clock::now();
          answer = found->second(db);
          stream.synchronize();
          ms.push_back(milliseconds_since(started));
          COLX_TPCH_RANGE_POP();
        }
        if (ms.size() > 1) { ms.erase(ms.begin()); }  // (the first run is a warm-up)
        std::sort(ms.begin(), ms.end());
        times.emplace_back(q, ms[ms.size() / 2]);
        std::printf("Q%d (%lld rows, %.3f ms)\n", q, static_cast<long long>(answer.table.num_rows()), times.back().second);
        std::cout << answer.print({.max_rows = rows}) << "\n\n";
        if (!out.empty()) {
          colx::write_csv(answer.table, colx::tpch::runner::answer_path(out, q));
        }
      } catch (std::exception const& e) {
        std::printf("Q%d failed: %s\n\n", q, e.what());
        ++failed;
      }
    }
    // Beside each time, the bytes of the columns the query reads (each once, inputs.hpp) and the
    // rate that makes (past the memory's where a filter skips what it drops: Q6).
    double total = 0;
    double total_mb = 0;
    std::printf("query  time (ms, median of %d)  read (MB)      GB/s\n", std::max(1, repeat - 1));
    for (auto const& [q, ms] : times) {
      double const mb = static_cast<double>(colx::tpch::queries::input_bytes(db, q)) / 1e6;
      std::printf("Q%-5d %10.3f %20.1f %9.1f\n", q, ms, mb, mb / ms);
      total += ms;
      total_mb += mb;
    }
    std::printf("sum    %10.3f %20.1f %9.1f  (%zu queries)\n", total, total_mb, total > 0 ? total_mb / total : 0.0, times.size());
    std::printf("end to end (the load, then each query once at its median): %.1f ms\n", load_ms + total);
    return failed == 0 ? 0 : 1;
  } catch (std::exception const& e) {
    std::cerr << "colx-tpch: " << e.what() << "\n";
    return 1;
  }
}
