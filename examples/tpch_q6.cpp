// SPDX-License-Identifier: Apache-2.0
// TPC-H Q6 (forecasting revenue change) over generated lineitem rows: a filter and a sum fused
// into one pass. Usage: example_tpch_q6 [scale factor].
#include <colx/colx.hpp>
#include <colx/tpch/generator.hpp>
#include <colx/tpch/q6.hpp>

#include <cstdio>
#include <cstdlib>
#include <iostream>

int main(int argc, char** argv) {
  try {
    double const scale_factor = argc > 1 ? std::atof(argv[1]) : 0.01;
    auto const lineitem = colx::tpch::generate_lineitem(scale_factor);
    std::printf("TPC-H Q6 at scale factor %g (%lld lineitem rows)\nrevenue = %.2f\n", scale_factor,
                static_cast<long long>(lineitem.num_rows()), colx::tpch::q6(lineitem));
  } catch (std::exception const& e) {
    std::cerr << "tpch_q6: " << e.what() << "\n";
    return 1;
  }
}
