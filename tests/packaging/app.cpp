// SPDX-License-Identifier: Apache-2.0
// The README's first program, built by the packaging tests exactly as a consumer builds it (through
// find_package(colx) and through add_subdirectory): a frame from vectors, a filter, a derived
// column, a group-by with three aggregations and a sort, printed like pandas.
#include <colx/colx.hpp>

#include <iostream>
#include <optional>

static_assert(__cplusplus >= 202002L, "colx::colx must carry cxx_std_20 to its consumers");

using namespace colx::literals;

int main() {
  auto const trips = colx::make_frame(
      colx::values<"city">({"Oslo", "Lima", "Oslo", "Pune", "Lima", "Oslo"}),
      colx::values<"km", std::optional<double>>({3.5, 12.0, 7.25, 1.0, std::nullopt, 4.0}),
      colx::values<"fare">({9.0, 21.5, 15.0, 2.5, 8.0, 7.0}));

  auto const by_city = trips
    | colx::filter("fare"_c > 5.0)
    | colx::with_columns(("fare"_c / "km"_c).as<"per_km">())
    | colx::group_by("city"_c)
    | colx::aggregate(colx::sum("km"_c).as<"km">(), colx::mean("per_km"_c).as<"per_km">(),
                      colx::count().as<"trips">())
    | colx::sort_by(colx::desc("km"_c));

  std::cout << by_city << "\n";
}
