// SPDX-License-Identifier: Apache-2.0
// colx: host-only
// The README's snippets, compiled and run: tests/readme/check_snippets.py checks that every code
// block of the README is here (or in the file its marker names), line for line, so the README
// cannot drift from code that builds. Host-only: its many pipelines took 7 minutes to compile
// under nvcc at -O3, and the same API goes through nvcc in the other examples and the tests.
#include <colx/colx.hpp>
#include <colx/tpch/generator.hpp>

#include <cstdio>
#include <iostream>
#include <optional>
#include <vector>

using namespace colx::literals;

namespace {

void columns() {
auto prices = colx::make_column<double>({{9.5}, std::nullopt, {12.25}, {3.0}});  // nullable
auto tail   = prices.view().slice(1, 4);                    // zero-copy, null count 1
auto both   = colx::concatenate<double>(std::vector{prices.view(), tail});
auto ids    = colx::sequence<std::int64_t>(both.size(), 100, 10);
auto names  = colx::make_column<std::string>({"apple", std::nullopt, "fig"});  // a strings column
auto flags  = colx::make_fixed_width_strings(3, 1, colx::buffer("NRA", colx::memory_kind::host, 3));
                                  // CHAR(1): kernels read row i's byte at i, not its offsets
auto status = colx::encode<std::uint8_t>(colx::make_strings_column({"open", "shut", "open"}));
                                  // a dictionary column: codes {0, 1, 0} into {"open", "shut"}
auto host   = colx::to_optional_vector(both.view());         // {9.5, null, 12.25, 3, null, 12.25, 3}
  std::cout << ids.size() << " ids, " << names.size() << " names, " << flags.size() << " flags, "
            << status.dictionary_size() << " statuses, " << host.size() << " prices\n";
}

void idioms() {
// pandas                                   colx
// df = pd.DataFrame({"k": [...], ...})
auto df = colx::make_frame(colx::values<"k">({1, 2, 1, 3}), colx::values<"x">({2.5, 4.0, 1.0, 8.0}),
                           colx::values<"name">({"a", "b", "c", "d"}));
// len(df), df.head(2)
auto n = df.size();
auto first_two = df.head(2);
// df[df.x > 2]
auto big = df | colx::filter("x"_c > 2.0);                 // lazy: runs inside the next stage
// df.assign(y=df.x * 2)
auto with_y = df | colx::with_columns(("x"_c * 2).as<"y">());
// df[df.x > 2].assign(y=df.x * 2)
auto both = df | colx::filter("x"_c > 2.0) | colx::with_columns(("x"_c * 2).as<"y">());
// df.groupby("k").agg(total=("x", "sum"), n=("x", "count"))
auto per_k = df | colx::group_by("k"_c)
                | colx::aggregate(colx::sum("x"_c).as<"total">(), colx::count().as<"n">());
// df.sort_values("x", ascending=False)
auto sorted = df | colx::sort_by(colx::desc("x"_c));
// df.merge(other, on="k", how="left")  (clashing names get _x and _y)
auto other = colx::make_frame(colx::values<"k">({1, 3}), colx::values<"x">({10.0, 30.0}));
auto merged = df | colx::join<colx::join_kind::left>(other, colx::on("k"_c));
// df.x.sum()
auto total = df | colx::reduce(colx::sum("x"_c));          // a colx::scalar<double>
// print(df)
std::cout << merged << "\n" << total << "\n";
  std::cout << n << " rows; " << first_two.size() << ", " << with_y.size() << ", " << both.size() << ", "
            << per_k.size() << ", " << sorted.size() << ", " << big.collect().size() << "\n";
}

void lineitem_queries() {
auto const t = colx::tpch::generate(0.01);               // TPC-H-shaped tables, deterministic
auto const& li = t.lineitem;                              // a colx::frame<colx::tpch::lineitem_schema>

auto revenue = li                                         // TPC-H Q6: colx::scalar<double>
  | colx::filter("l_shipdate"_c >= colx::date(1994, 1, 1) && "l_shipdate"_c < colx::date(1995, 1, 1)
                 && colx::between("l_discount"_c, 0.05, 0.07) && "l_quantity"_c < 24)
  | colx::reduce(colx::sum("l_extendedprice"_c * "l_discount"_c));
auto with = li | colx::with_columns(("l_extendedprice"_c * (1 - "l_discount"_c)).as<"net">());
auto cheap = (li | colx::filter("l_extendedprice"_c < 1000)).collect();   // one compaction pass
std::cout << colx::explain(li, colx::with_columns(("l_quantity"_c * 2).as<"q2">()));  // kernels, bytes

auto q1 = li                                              // TPC-H Q1, as in tpch/q1.hpp
  | colx::filter("l_shipdate"_c <= colx::date(1998, 9, 2))
  | colx::group_by(colx::group_by_options{.sorted = true}, "l_returnflag"_c, "l_linestatus"_c)
  | colx::aggregate(colx::sum("l_quantity"_c).as<"sum_qty">(), colx::mean("l_discount"_c).as<"avg_disc">(),
                    colx::count().as<"count_order">());  // a typed frame<schema<...>>
auto top = q1 | colx::sort_by(colx::desc("sum_qty"_c), colx::asc("l_returnflag"_c).nulls_first());
auto big = t.orders | colx::join<colx::join_kind::left>(t.customer, colx::on("o_custkey"_c), colx::on("c_custkey"_c));
std::cout << top << "\n";                                 // printed like pandas, <NA> for nulls

auto p = colx::lazy(li) | colx::filter("l_quantity"_c < 24) | colx::with_columns(("l_quantity"_c * 2).as<"q2">())
       | colx::group_by("l_returnflag"_c) | colx::aggregate(colx::sum("q2"_c).as<"s">()) | colx::head(10);
auto result = p.collect();                                // frame<schema<l_returnflag, s>>
auto firsts = li | colx::distinct(colx::keep_rows::first, "l_returnflag"_c);  // pandas' drop_duplicates
auto running = colx::cumsum(li | colx::group_by("l_returnflag"_c), "l_quantity"_c);  // a column, per group
auto ranks = colx::rank(li, colx::rank_method::dense, colx::desc("l_extendedprice"_c));
auto by_flag = q1 | colx::set_index("l_returnflag"_c, "l_linestatus"_c);  // a multi-index
auto rows_r = by_flag.loc("R");                           // by the leading level
  std::cout << "Q6 revenue " << revenue << "; " << with.size() << ", " << cheap.size() << ", " << big.size() << ", "
            << result.size() << ", " << firsts.size() << ", " << running.size() << ", " << ranks.size() << ", "
            << rows_r.size() << " rows\n";
}

void edges() {
auto f = colx::make_frame(colx::values<"id", std::int32_t>({1, 2, 3}),
                          colx::values<"price", std::optional<double>>({9.5, std::nullopt, 3.0}),
                          colx::memory_kind::host);  // the Arrow C Data Interface is for host memory
ArrowSchema out_schema;
ArrowArray out_array;
colx::any_table back = colx::to_table(f);       // the same columns, labelled by field name
colx::export_arrow(back, &out_schema, &out_array);  // a struct array pyarrow can import
colx::any_table t = colx::import_arrow_any_table(&out_schema, &out_array);  // takes the array, zero-copy
out_schema.release(&out_schema);                 // the schema stays the caller's to release
auto g = t.as<colx::schema<colx::field<"id", std::int32_t, colx::not_null>, colx::field<"price", double>>>();
auto prices = t.select({"price"});               // by label, list, prefix; hierarchical labels too
DLManagedTensorVersioned* tensor = colx::to_dlpack(g["id"_c]);  // torch.from_dlpack(...)
  std::cout << g << "\n" << prices.num_columns() << " column selected; a tensor of " << tensor->dl_tensor.shape[0]
            << " values\n";
  tensor->deleter(tensor);
}

}  // namespace

int main() {
  try {
    columns();
    idioms();
    lineitem_queries();
    edges();
  } catch (colx::cuda_error const& e) {
    std::printf("no usable GPU: %s\n", e.what());
    return 77;
  }
}
