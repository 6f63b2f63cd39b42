// SPDX-License-Identifier: Apache-2.0
// Typed frames and fused expressions: derived columns in one pass, a filtered reduction in one
// pass, and explain() saying what each will cost. Runs on the GPU when built with nvcc.
#include <colx/colx.hpp>

#include <cstdio>
#include <iostream>
#include <optional>
#include <vector>

using namespace colx::literals;

using sales = colx::schema<colx::field<"day", colx::date32, colx::not_null>, colx::field<"price", double>,
                           colx::field<"qty", std::int32_t, colx::not_null>, colx::field<"region", colx::string_view>>;

int main() {
  try {
    colx::frame<sales> const f(
        colx::make_column<colx::date32>({colx::date(2026, 1, 3), colx::date(2026, 2, 14), colx::date(2026, 2, 28),
                                         colx::date(2026, 3, 1), colx::date(2026, 3, 9)}),
        colx::make_column<double>({{9.5}, std::nullopt, {12.25}, {3.0}, {7.75}}),
        colx::make_column<std::int32_t>(std::vector<std::int32_t>{3, 1, 4, 10, 2}),
        colx::make_strings_column({"north", "south", "north", std::nullopt, "west"}));

    // Two new columns from one pass over the inputs; price is nullable, so revenue is too.
    auto const stage = colx::with_columns(("price"_c * "qty"_c).as<"revenue">(), colx::month("day"_c).as<"month">());
    std::cout << colx::explain(f, stage);
    auto const g = f | stage;
    auto const revenue = colx::to_optional_vector(g["revenue"_c].view());
    auto const months = colx::to_vector(g["month"_c].view());
    for (std::size_t i = 0; i < revenue.size(); ++i) {
      std::printf("  month %d: revenue %s\n", months[i], revenue[i] ? std::to_string(*revenue[i]).c_str() : "null");
    }

    // Filter and reduce fused: no filtered column is ever written.
    auto const northish = f | colx::filter(colx::starts_with("region"_c, "no") && "qty"_c >= 2);
    auto const [total, rows, avg] = northish | colx::reduce(colx::sum("price"_c * "qty"_c), colx::count(), colx::mean("price"_c));
    std::printf("north, qty >= 2: %lld rows, revenue %.2f, mean price %.3f\n", static_cast<long long>(rows.value()),
                total.value(), avg.value());
    std::printf("rows without a price: %lld\n", static_cast<long long>(f | colx::count_if(colx::is_null("price"_c))));
  } catch (colx::cuda_error const& e) {
    std::printf("no usable GPU: %s\n", e.what());
    return 77;
  }
  return 0;
}
