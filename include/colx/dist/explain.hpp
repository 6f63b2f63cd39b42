// SPDX-License-Identifier: Apache-2.0
#pragma once
// What the distributed steps moved, as text: one line per shuffle, broadcast or gather on this
// rank, with rows and bytes sent to and received from the other ranks and the rate.
#include <colx/dist/communicator.hpp>

#include <cstdio>
#include <string>

namespace colx::dist {

[[nodiscard]] inline std::string explain(communicator const& comm) {
  std::string out = "rank " + std::to_string(comm.rank()) + " of " + std::to_string(comm.size()) + " (" + comm.name() + ")\n";
  for (auto const& t : comm.traffic()) {
    char line[256];
    double const moved = static_cast<double>(t.bytes_sent + t.bytes_received);
    double const rate = t.milliseconds > 0 ? moved / t.milliseconds / 1e6 : 0.0;
    std::snprintf(line, sizeof line, "  %-34s sent %lld rows, %.3f MB; received %lld rows, %.3f MB; %.3f ms (%.1f GB/s)\n",
                  t.step.c_str(), static_cast<long long>(t.rows_sent), static_cast<double>(t.bytes_sent) / 1e6,
                  static_cast<long long>(t.rows_received), static_cast<double>(t.bytes_received) / 1e6, t.milliseconds, rate);
    out += line;
  }
  return out;
}

}  // namespace colx::dist
