// SPDX-License-Identifier: Apache-2.0
// TPC-H Q1 (pricing summary report) over generated lineitem rows: one fused pass of filter,
// derived values and eight aggregations into four groups. Usage: example_tpch_q1 [scale factor].
#include <colx/colx.hpp>
#include <colx/tpch/generator.hpp>
#include <colx/tpch/q1.hpp>

#include <cstdlib>
#include <iostream>

int main(int argc, char** argv) {
  try {
    double const scale_factor = argc > 1 ? std::atof(argv[1]) : 0.01;
    auto const lineitem = colx::tpch::generate_lineitem(scale_factor);
    std::cout << "TPC-H Q1 at scale factor " << scale_factor << " (" << lineitem.num_rows() << " lineitem rows)\n"
              << colx::tpch::q1(lineitem) << "\n";
  } catch (std::exception const& e) {
    std::cerr << "tpch_q1: " << e.what() << "\n";
    return 1;
  }
}
