// SPDX-License-Identifier: Apache-2.0
#pragma once
// TPC-H Q6 as a colx pipeline over the generated tables (tpch/generator.hpp). One query a header:
// a query's kernels are instantiated wherever its function is compiled, so a program that runs
// one query includes only that one (tpch/queries.hpp has all three).
#include <colx/frame/pipeline.hpp>
#include <colx/tpch/schemas.hpp>

namespace colx::tpch {

using namespace colx::literals;

// Q6, the forecasting revenue change: one fused filter + sum.
[[nodiscard]] inline double q6(frame<lineitem_schema> const& lineitem) {
  return (lineitem |
          filter("l_shipdate"_c >= date(1994, 1, 1) && "l_shipdate"_c < date(1995, 1, 1) &&
                 between("l_discount"_c, 0.05, 0.07) && "l_quantity"_c < 24.0) |
          reduce(sum("l_extendedprice"_c * "l_discount"_c)))
      .to_optional()
      .value_or(0.0);
}

}  // namespace colx::tpch
