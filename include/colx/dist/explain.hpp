// SPDX-License-Identifier: Apache-2.0
#pragma once
// What the distributed steps did, as text, on this rank: one line per exchange (shuffle,
// broadcast, gather) with the rows and bytes sent to and received from the other ranks, where its
// time went and the transfer's rate; one line per local step (a partition, a local join) with its
// time and the wait for the other ranks, which shows a slow or overloaded rank.
#include <colx/dist/communicator.hpp>

#include <cstdint>
#include <cstdio>
#include <string>

namespace colx::dist {

[[nodiscard]] inline std::string explain(communicator const& comm) {
  std::string out = "rank " + std::to_string(comm.rank()) + " of " + std::to_string(comm.size()) + " (" + comm.name() + ")\n";
  for (auto const& t : comm.traffic()) {
    char line[384];
    if (!t.moved_rows) {
      // A local step: this rank's work, then its wait for the others to agree.
      std::snprintf(line, sizeof line, "  %-30s local %.3f ms, waited %.3f ms for the other ranks\n", t.step.c_str(),
                    t.milliseconds, t.wait_ms);
      out += line;
      continue;
    }
    double const moved = static_cast<double>(t.bytes_sent + t.bytes_received);
    double const rate = t.transfer_ms > 0 ? moved / t.transfer_ms / 1e6 : 0.0;
    std::snprintf(line, sizeof line,
                  "  %-30s sent %lld rows, %.3f MB; received %lld rows, %.3f MB; %.3f ms: prepare %.3f, wait %.3f, "
                  "transfer %.3f ms (%.1f GB/s in and out)\n",
                  t.step.c_str(), static_cast<long long>(t.rows_sent), static_cast<double>(t.bytes_sent) / 1e6,
                  static_cast<long long>(t.rows_received), static_cast<double>(t.bytes_received) / 1e6, t.milliseconds,
                  t.prepare_ms, t.wait_ms, t.transfer_ms, rate);
    out += line;
  }
  auto const c = comm.collectives();
  char line[160];
  std::snprintf(line, sizeof line, "  %lld host-value collectives (sizes, agreements), %.3f ms with their waits\n",
                static_cast<long long>(c.calls), c.milliseconds);
  return out + line;
}

// The same in one line: how many steps and exchanges ran, the bytes they moved, and how many
// host-value collectives they took (a query over small tables costs its collectives' round trips).
[[nodiscard]] inline std::string explain_summary(communicator const& comm) {
  std::int64_t exchanges = 0, local_steps = 0, bytes = 0;
  double local_ms = 0, transfer_ms = 0;
  for (auto const& t : comm.traffic()) {
    if (t.moved_rows) {
      ++exchanges;
      bytes += t.bytes_sent + t.bytes_received;
      transfer_ms += t.transfer_ms;
    } else {
      ++local_steps;
      local_ms += t.milliseconds;
    }
  }
  auto const c = comm.collectives();
  char line[320];
  std::snprintf(line, sizeof line,
                "%lld local steps (%.3f ms), %lld exchanges (%.3f MB in and out, %.3f ms transferring), "
                "%lld collectives (%.3f ms)",
                static_cast<long long>(local_steps), local_ms, static_cast<long long>(exchanges), static_cast<double>(bytes) / 1e6,
                transfer_ms, static_cast<long long>(c.calls), c.milliseconds);
  return line;
}

}  // namespace colx::dist
