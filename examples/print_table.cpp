// SPDX-License-Identifier: Apache-2.0
// colx: host-only
// Printing a table through fmt (host-only: fmt stays out of CUDA translation units).
#include <colx/colx.hpp>
#include <colx/io/format.hpp>

#include <fmt/core.h>

#include <vector>

int main() {
  std::vector<colx::any_column> columns;
  columns.push_back(colx::sequence<std::int32_t>(4, 1).release());
  columns.push_back(colx::make_column<double>({{0.5}, std::nullopt, {2.25}, {-1.0}}).release());
  columns.push_back(colx::make_strings_column({"north", "south", std::nullopt, "west"}).release());
  columns.push_back(colx::make_column<colx::date32>({colx::date(1994, 1, 1), colx::date(1995, 6, 30),
                                                     colx::date(1970, 1, 1), colx::date(2026, 11, 21)}).release());
  colx::table const t(std::move(columns));
  fmt::print("{}", colx::to_string(t.view(), {"id", "value", "region", "day"}));
  fmt::print("value column: {}\n", t.column(1).view());
  return 0;
}
