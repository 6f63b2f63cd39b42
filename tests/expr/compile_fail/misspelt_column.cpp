// SPDX-License-Identifier: Apache-2.0
// A misspelt column name, join keys of different types, a sum of strings and nunique in reduce
// (a group-by aggregation), two make_frame columns of one name, an unnamed aggregation, a join
// suffix clash, stages in an impossible order and a duration times a double must be compile
// errors that say so in plain words. Compiled only by the host.expr.compile_fail test (tests/CMakeLists.txt), once per
// COLX_MISSPELL_<where> or COLX_WRONG_<what> macro, each of which must fail with its message;
// with COLX_MISSPELL_NONE, the same uses written right, it must compile, so the failures are the
// mistakes' and nothing else's.
#include <colx/colx.hpp>

#include <cstdint>

using namespace colx::literals;

using lineitem = colx::schema<colx::field<"price", double>, colx::field<"qty", std::int32_t>,
                              colx::field<"name", colx::string_view>>;
using other = colx::schema<colx::field<"qty", std::int64_t>, colx::field<"code", std::int32_t>>;

double use(colx::frame<lineitem> const& f, colx::frame<other> const& g) {
#if defined(COLX_MISSPELL_REDUCE)
  return (f | colx::reduce(colx::sum("prise"_c * "qty"_c))).value();
#elif defined(COLX_MISSPELL_INDEX)
  return static_cast<double>(f["qyt"_c].size());
#elif defined(COLX_MISSPELL_WITH_COLUMNS)
  return static_cast<double>((f | colx::with_columns(("price"_c * "quantity"_c).as<"total">())).num_rows());
#elif defined(COLX_MISSPELL_FILTER)
  return static_cast<double>((f | colx::filter("Price"_c > 1.0)).collect().num_rows());
#elif defined(COLX_MISSPELL_SORT)
  return static_cast<double>((f | colx::sort_by(colx::desc("prices"_c))).num_rows());
#elif defined(COLX_MISSPELL_GROUP_BY)
  return static_cast<double>((f | colx::group_by("quantity"_c) | colx::aggregate(colx::count().as<"n">())).num_rows());
#elif defined(COLX_MISSPELL_AGGREGATE)
  return static_cast<double>((f | colx::group_by("qty"_c) | colx::aggregate(colx::sum("prce"_c).as<"s">())).num_rows());
#elif defined(COLX_MISSPELL_JOIN)
  return static_cast<double>((f | colx::join(g | colx::select("code"_c), colx::on("qty"_c), colx::on("cod"_c))).num_rows());
#elif defined(COLX_MISSPELL_LAZY)
  // "price" was dropped by the select before the filter that reads it: rejected where appended.
  auto const p = colx::lazy(f) | colx::select("qty"_c) | colx::filter("price"_c > 1.0);
  return static_cast<double>(p.collect().num_rows());
#elif defined(COLX_WRONG_JOIN_TYPES)
  // A string against an int32 (int32 against int64 joins by value; so would uint32 against int32).
  return static_cast<double>((f | colx::join(g, colx::on("name"_c), colx::on("code"_c))).num_rows());
#elif defined(COLX_WRONG_SUM_OF_STRINGS)
  return static_cast<double>((f | colx::group_by("qty"_c) | colx::aggregate(colx::sum("name"_c).as<"total">())).num_rows());
#elif defined(COLX_WRONG_REDUCE_NUNIQUE)
  return static_cast<double>((f | colx::reduce(colx::nunique("name"_c))).value());
#elif defined(COLX_MISSPELL_FILTER_LINE)
  // The message must point at the filter's line (numbered 1000 here), not at the stage after it.
  auto const derived = f
#line 1000
    | colx::filter("prise"_c > 1.0)
    | colx::with_columns(("price"_c * 2).as<"p2">());
  return static_cast<double>(derived.num_rows());
#elif defined(COLX_WRONG_UNNAMED_AGGREGATION)
  return static_cast<double>((f | colx::group_by("qty"_c) | colx::aggregate(colx::sum("price"_c))).num_rows());
#elif defined(COLX_WRONG_JOIN_SUFFIX_CLASH)
  // "code" clashes; its left copy would become "code_x", which the left side already has.
  auto const left = f | colx::with_columns(("qty"_c * 2).as<"code">(), ("qty"_c * 3).as<"code_x">());
  return static_cast<double>((left | colx::join(g, colx::on("code"_c), colx::on("qty"_c))).num_rows());
#elif defined(COLX_WRONG_RUNTIME_DECIMAL)
  // decimal64's scale is a run-time fact: comparing or adding would use unscaled integers.
  using priced = colx::schema<colx::field<"amount", colx::decimal64>>;
  colx::frame<priced> const p(colx::make_decimal_column<std::int64_t>({}, -2));
  return static_cast<double>(p | colx::count_if("amount"_c > "amount"_c));
#elif defined(COLX_WRONG_COMPUTED_STRING_READ)
  // upper(...) has no bytes until it is stored: LIKE cannot read it in the same expression.
  using named = colx::schema<colx::field<"name", colx::string_view>>;
  colx::frame<named> const n(colx::make_column({std::optional<std::string>("a")}));
  return static_cast<double>(n | colx::count_if(colx::like(colx::upper("name"_c), "A%")));
#elif defined(COLX_WRONG_DURATION_TIMES_DOUBLE)
  // A duration scales by an integer only: its ticks would otherwise need a rounding rule.
  using timed = colx::schema<colx::field<"d", colx::duration_s>>;
  colx::frame<timed> const t(colx::make_column(std::vector<colx::duration_s>{colx::duration_s(1)}));
  return static_cast<double>((t | colx::with_columns(("d"_c * 1.5).as<"x">())).num_rows());
#elif defined(COLX_WRONG_STAGE_ORDER)
  return static_cast<double>((f | colx::group_by("qty"_c) | colx::sort_by("price"_c)).num_rows());
#elif defined(COLX_WRONG_MAKE_FRAME_NAMES)
  auto const h = colx::make_frame(colx::values<"qty">({1, 2}), colx::values<"qty">({3.0, 4.0}));
  return static_cast<double>(h.size());
#else
  auto const made = colx::make_frame(colx::values<"qty">({1, 2}), colx::values<"name">({"a", "b"}));
  auto const grouped =
      f | colx::group_by("qty"_c) | colx::aggregate(colx::sum("price"_c).as<"s">(), colx::nunique("name"_c).as<"u">());
  auto const joined = f | colx::join(g | colx::select("code"_c), colx::on("qty"_c), colx::on("code"_c));
  auto const widths = f | colx::join<colx::join_kind::full>(g, colx::on("qty"_c));  // int32 against int64
  auto const sorted = f | colx::sort_by(colx::desc("price"_c));
  auto const lazily = (colx::lazy(f) | colx::filter("price"_c > 1.0) | colx::select("qty"_c)).collect();
  double const total = (f | colx::reduce(colx::sum("price"_c * "qty"_c))).value();
  using timed = colx::schema<colx::field<"d", colx::duration_s>>;
  colx::frame<timed> const t(colx::make_column(std::vector<colx::duration_s>{colx::duration_s(1)}));
  auto const [d_sum, d_mean] = (t | colx::with_columns(("d"_c * 3).as<"x">())) | colx::reduce(colx::sum("x"_c), colx::mean("x"_c));
  auto const rows = f["qty"_c].size() + (f | colx::with_columns(("price"_c * "qty"_c).as<"total">())).num_rows() +
                    (f | colx::filter("price"_c > 1.0)).collect().num_rows() + grouped.num_rows() + joined.num_rows() +
                    sorted.num_rows() + lazily.num_rows() + made.size() + widths.num_rows() +
                    static_cast<std::size_t>(d_sum.value().ticks + d_mean.value().ticks);
  return total + static_cast<double>(rows);
#endif
}
