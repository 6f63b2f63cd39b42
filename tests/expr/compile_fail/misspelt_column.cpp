// SPDX-License-Identifier: Apache-2.0
// A misspelt column name must be a compile error that says so in plain words. Compiled only by the
// host.expr.compile_fail test (tests/CMakeLists.txt), once per COLX_MISSPELL_<where> macro, each of
// which must fail with "not a field of the schema"; with COLX_MISSPELL_NONE, the same uses spelt
// right, it must compile, so the failures are the misspellings' and nothing else's.
#include <colx/colx.hpp>

#include <cstdint>

using namespace colx::literals;

using lineitem = colx::schema<colx::field<"price", double>, colx::field<"qty", std::int32_t>>;

double use(colx::frame<lineitem> const& f) {
#if defined(COLX_MISSPELL_REDUCE)
  return (f | colx::reduce(colx::sum("prise"_c * "qty"_c))).value;
#elif defined(COLX_MISSPELL_INDEX)
  return static_cast<double>(f["qyt"_c].size());
#elif defined(COLX_MISSPELL_WITH_COLUMNS)
  return static_cast<double>((f | colx::with_columns(("price"_c * "quantity"_c).as<"total">())).num_rows());
#elif defined(COLX_MISSPELL_FILTER)
  return static_cast<double>((f | colx::filter("Price"_c > 1.0)).collect().num_rows());
#else
  double const total = (f | colx::reduce(colx::sum("price"_c * "qty"_c))).value;
  auto const rows = f["qty"_c].size() + (f | colx::with_columns(("price"_c * "qty"_c).as<"total">())).num_rows() +
                    (f | colx::filter("price"_c > 1.0)).collect().num_rows();
  return total + static_cast<double>(rows);
#endif
}
