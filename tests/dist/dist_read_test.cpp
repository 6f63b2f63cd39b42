// SPDX-License-Identifier: Apache-2.0
// Each rank reads its share of a set of Parquet files: together the ranks hold every file's rows
// once; with more ranks than files, some hold none.
#include "support/backend.hpp"
#include "support/rows.hpp"
#include "support/world.hpp"

#include <colx/dist.hpp>
#include <colx/dist/read_parquet.hpp>

#include <catch2/catch.hpp>

#include <filesystem>
#include <string>
#include <unistd.h>
#include <vector>

using namespace colx::literals;
namespace dist = colx::dist;

TEST_CASE("ranks read their share of a set of Parquet files", "[dist]") {
  auto& world = colx::test::world();
  using s = colx::schema<colx::field<"id", std::int64_t>, colx::field<"name", colx::string_view, colx::nullable>>;
  // One directory for all ranks: rank 0's process id names it.
  auto const pid = world.all_gather(static_cast<std::int64_t>(::getpid()))[0];
  auto const dir = std::filesystem::temp_directory_path() / ("colx-dist-read-" + std::to_string(pid));
  std::vector<std::string> files;
  std::vector<colx::frame<s>> written;
  for (int i = 0; i < 3; ++i) {
    std::vector<std::int64_t> id;
    std::vector<std::optional<std::string>> name;
    for (int r = 0; r < 100 * (i + 1); ++r) {
      id.push_back(i * 1000 + r);
      name.push_back(r % 3 == 0 ? std::nullopt : std::optional<std::string>("n" + std::to_string(r)));
    }
    auto const mr = colx::test::backend_resource();
    written.emplace_back(colx::make_column<std::int64_t>(id, {}, mr), colx::make_strings_column(name, colx::type_id::int32, {}, mr));
    files.push_back((dir / ("part-" + std::to_string(i) + ".parquet")).string());
  }
  if (world.rank() == 0) {
    std::filesystem::create_directories(dir);
    for (std::size_t i = 0; i < files.size(); ++i) { colx::write_parquet(written[i], files[i]); }
  }
  world.barrier();
  auto const d = dist::read_parquet<s>(world, files);
  CHECK(d.num_rows() == 600);
  auto const all = dist::gather(d);
  if (world.rank() == 0) {
    CHECK(colx::test::sorted_rows_of(all) == colx::test::sorted_rows_of(colx::concat(written[0], written[1], written[2])));
  }
  // A missing file fails on the rank that reads it, and every rank throws.
  CHECK_THROWS(dist::read_parquet<s>(world, {files[0], (dir / "missing.parquet").string()}));
  world.barrier();
  if (world.rank() == 0) { std::filesystem::remove_all(dir); }
}
