// SPDX-License-Identifier: Apache-2.0
// colx in ten lines: a typed frame, a fused filter + group-by, a sort, printed like pandas.
#include <colx/colx.hpp>
#include <iostream>
using namespace colx::literals;

int main() {
  using trips = colx::schema<colx::field<"city", colx::string_view>, colx::field<"km", double>, colx::field<"fare", double>>;
  colx::frame<trips> const t(colx::make_strings_column({"Oslo", "Lima", "Oslo", "Pune", "Lima", std::nullopt}),
                             colx::make_column<double>({{3.5}, {12.0}, {7.25}, {1.0}, std::nullopt, {4.0}}),
                             colx::make_column<double>({{9.0}, {21.5}, {15.0}, {2.5}, {8.0}, {7.0}}));
  auto const by_city = t | colx::filter("fare"_c > 5.0) | colx::group_by("city"_c) |
                       colx::aggregate(colx::sum("km"_c).as<"km">(), colx::mean("fare"_c / "km"_c).as<"per_km">(),
                                       colx::count().as<"trips">());
  std::cout << (by_city | colx::sort_by(colx::desc("km"_c))) << "\n";
}
