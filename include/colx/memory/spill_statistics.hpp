// SPDX-License-Identifier: Apache-2.0
#pragma once
// What the spill manager counts (spill_manager.hpp): bytes, buffers and time each way, and where
// buffers were exposed (handed to code colx does not control, so they can never spill).
#include <cstddef>
#include <map>
#include <sstream>
#include <string>

namespace colx {

// Where a call came from, for exposure statistics. std::source_location would do, but clang up
// to 14 with libstdc++ lacks it (and the fuzzers are built with clang); the builtins both have.
struct call_site {
  char const* file = "";
  int line = 0;
  char const* function = "";
  [[nodiscard]] static constexpr call_site current(char const* file = __builtin_FILE(), int line = __builtin_LINE(),
                                                   char const* function = __builtin_FUNCTION()) noexcept {
    return {file, line, function};
  }
};

struct spill_statistics {
  struct direction {
    std::size_t bytes = 0;
    std::size_t count = 0;
    double seconds = 0;
    [[nodiscard]] double gb_per_second() const noexcept { return seconds > 0 ? static_cast<double>(bytes) / seconds / 1e9 : 0; }
  };
  struct exposure {
    std::size_t count = 0;
    std::size_t bytes = 0;
  };
  direction to_host;    // spills
  direction to_device;  // accesses that brought a buffer back
  std::map<std::string, exposure> exposures;  // level 2: "file:line (function)"

  [[nodiscard]] std::string to_string() const {
    std::ostringstream out;
    auto const line = [&](char const* name, direction const& d) {
      out << name << ": " << d.count << " buffers, " << d.bytes << " bytes, " << d.seconds * 1e3 << " ms, "
          << d.gb_per_second() << " GB/s\n";
    };
    line("spilled to host", to_host);
    line("brought back to device", to_device);
    for (auto const& [where, e] : exposures) { out << "exposed at " << where << ": " << e.count << " times, " << e.bytes << " bytes\n"; }
    return out.str();
  }
};

}  // namespace colx
