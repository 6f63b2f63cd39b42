// SPDX-License-Identifier: Apache-2.0
#pragma once
// colx: host-only
// Frames through fmt, as colx/io/print.hpp prints them (see there for the rules):
//
//   fmt::print("{}\n", f);      // pandas' defaults
//   fmt::print("{:20}\n", f);   // truncate frames of more than 20 rows; {:0} prints every row
//
// Host-only: fmt 9 does not compile under nvcc in C++20 mode. A g++ translation unit cannot
// reach device memory, so there a device frame throws colx::logic_error; a CUDA translation unit
// prints it with colx::to_string or operator<< from print.hpp instead.
#include <colx/frame/frame.hpp>
#include <colx/io/format.hpp>
#include <colx/io/print.hpp>

#include <fmt/format.h>

#include <algorithm>

// "{}" prints with pandas' defaults; "{:N}" sets max_rows to N (0: every row).
template <class Schema>
struct fmt::formatter<colx::frame<Schema>> {
  colx::print_options options;

  constexpr auto parse(format_parse_context& ctx) {
    auto it = ctx.begin();
    if (it != ctx.end() && *it >= '0' && *it <= '9') {
      options.max_rows = 0;
      for (; it != ctx.end() && *it >= '0' && *it <= '9'; ++it) { options.max_rows = options.max_rows * 10 + (*it - '0'); }
    }
    if (it != ctx.end() && *it != '}') { ctx.on_error("a colx frame takes \"{}\" or \"{:N}\" (print at most N rows)"); }
    return it;
  }

  auto format(colx::frame<Schema> const& f, format_context& ctx) const {
    auto const text = colx::to_string(f, options);
    return std::copy(text.begin(), text.end(), ctx.out());
  }
};
