// SPDX-License-Identifier: Apache-2.0
// A CSV file into a typed frame and into a table of detected types, then a fused pipeline over it.
// The example writes its own small file (quotes, a comma and a newline inside quotes, nulls).
#include <colx/colx.hpp>
#include <colx/io/csv.hpp>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
using namespace colx::literals;

int main() {
  std::string const path = (std::filesystem::temp_directory_path() / "colx_example_orders.csv").string();
  std::ofstream(path) << "order,city,amount,placed\n"
                         "1,Oslo,12.50,2024-03-01\n"
                         "2,\"Lima, Peru\",7.25,2024-03-02\n"
                         "3,Oslo,,2024-03-02\n"
                         "4,\"New\nYork\",30.00,2024-03-05\n";

  // Detected: the delimiter, the header, and each column's type (here int8, string, a decimal
  // with two digits after the point, and a date).
  colx::csv_read_stats stats;
  colx::csv_read_options options;
  options.stats = &stats;
  colx::any_table const t = colx::read_csv(path, options);
  for (std::size_t c = 0; c < t.num_columns(); ++c) {
    std::printf("%-8s %s\n", t.labels()[c][0].c_str(), t.column(c).type().to_string().c_str());
  }

  // Typed: the schema says the types; the city arrives dictionary-encoded.
  using orders = colx::schema<colx::field<"city", colx::dictionary<colx::string_view, std::int8_t>>, colx::field<"amount", colx::dec<9, 2>>>;
  auto const f = colx::read_csv<orders>(path);
  std::cout << (f | colx::group_by("city"_c) | colx::aggregate(colx::sum("amount"_c).as<"total">(), colx::count().as<"orders">()) |
                colx::sort_by(colx::asc("city"_c)))
            << "\n";
  std::printf("%lld records, %lld bytes\n", static_cast<long long>(stats.records), static_cast<long long>(stats.file_bytes));
  std::filesystem::remove(path);
}
