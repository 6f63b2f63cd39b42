// SPDX-License-Identifier: Apache-2.0
// A frame split over the ranks of a communicator: scatter, a distributed group-by, join and sort,
// gather. It runs here as a world of one rank; the same code runs on several GPUs over NCCL
// (colx/dist/nccl_communicator.hpp, one process per GPU) or several processes over MPI
// (colx/dist/mpi_communicator.hpp, `mpirun -n 4`): only the communicator changes.
#include <colx/dist.hpp>
#include <iostream>
using namespace colx::literals;

int main() {
  using sales = colx::schema<colx::field<"store", std::int32_t>, colx::field<"amount", double>>;
  using stores = colx::schema<colx::field<"id", std::int32_t>, colx::field<"city", colx::string_view>>;
  colx::frame<sales> const s(colx::make_column<std::int32_t>({1, 2, 1, 3, 2, 1}),
                             colx::make_column<double>({{10.0}, {4.5}, {7.25}, {3.0}, std::nullopt, {1.0}}));
  colx::frame<stores> const st(colx::make_column<std::int32_t>({1, 2, 3}), colx::make_strings_column({"Oslo", "Lima", "Pune"}));

  colx::dist::self_communicator world(colx::get_default_memory_kind());
  auto const d = colx::dist::scatter(world, s);  // rank 0's rows, split evenly over the ranks
  auto const per_store = d | colx::group_by("store"_c) | colx::aggregate(colx::sum("amount"_c).as<"total">());
  auto const named = per_store | colx::join(colx::dist::scatter(world, st), colx::on("store"_c), colx::on("id"_c));
  auto const ranked = named | colx::sort_by(colx::desc("total"_c));
  std::cout << colx::dist::gather(ranked) << "\n";  // every rank's rows, in rank order, on rank 0
  std::cout << colx::dist::explain(world);          // what each step moved between the ranks
}
