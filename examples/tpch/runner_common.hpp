// SPDX-License-Identifier: Apache-2.0
#pragma once
// What the TPC-H runners (colx_tpch.cpp, colx_tpch_dist.cpp) share: the command line (`--name
// value` options and the query list), their clock, and where an answer is written.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <string>
#include <vector>

namespace colx::tpch::runner {

// "1-22", "1,3,6" or "2-5,9".
inline std::vector<int> parse_queries(std::string const& text) {
  std::vector<int> out;
  std::size_t at = 0;
  while (at < text.size()) {
    std::size_t const comma = std::min(text.find(',', at), text.size());
    std::string const part = text.substr(at, comma - at);
    std::size_t const dash = part.find('-');
    int const first = std::stoi(part.substr(0, dash));
    int const last = dash == std::string::npos ? first : std::stoi(part.substr(dash + 1));
    for (int q = first; q <= last; ++q) { out.push_back(q); }
    at = comma + 1;
  }
  return out;
}

// The value after `name` on the command line, else `otherwise`.
inline std::string option(int argc, char** argv, std::string const& name, std::string const& otherwise) {
  for (int i = 1; i + 1 < argc; ++i) {
    if (argv[i] == name) { return argv[i + 1]; }
  }
  return otherwise;
}

inline double milliseconds_since(std::chrono::steady_clock::time_point t) {
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t).count();
}

// Query n's answer file in the folder `out` (--out): out/qNN.csv, what compare_duckdb.py reads.
inline std::string answer_path(std::string const& out, int n) {
  char name[16];  // (snprintf: g++ 12 warns, wrongly, of "/q" + std::to_string(n))
  std::snprintf(name, sizeof name, "/q%02d.csv", n);
  return out + name;
}

}  // namespace colx::tpch::runner
