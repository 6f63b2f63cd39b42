// SPDX-License-Identifier: Apache-2.0
// TPC-H Q3 (shipping priority) over generated tables: a semi join, an inner join whose probe
// applies the lineitem filter, a group-by and a top 10. Usage: example_tpch_q3 [scale factor].
#include <colx/colx.hpp>
#include <colx/tpch/generator.hpp>
#include <colx/tpch/q3.hpp>

#include <cstdlib>
#include <iostream>

int main(int argc, char** argv) {
  try {
    double const scale_factor = argc > 1 ? std::atof(argv[1]) : 0.01;
    auto const t = colx::tpch::generate(scale_factor);
    std::cout << "TPC-H Q3 at scale factor " << scale_factor << " (" << t.customer.num_rows() << " customers, "
              << t.orders.num_rows() << " orders, " << t.lineitem.num_rows() << " lineitems)\n"
              << colx::tpch::q3(t.customer, t.orders, t.lineitem) << "\n";
  } catch (std::exception const& e) {
    std::cerr << "tpch_q3: " << e.what() << "\n";
    return 1;
  }
}
