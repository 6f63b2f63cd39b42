// SPDX-License-Identifier: Apache-2.0
// What real files bring to ranks: each rank reads its share of a set of Parquet files (together
// they hold every file's rows once; with more ranks than files, some hold none), and dictionary
// columns, each rank's over its own dictionary, move between ranks.
#include "support/backend.hpp"
#include "support/rows.hpp"
#include "support/world.hpp"

#include <colx/dist.hpp>
#include <colx/dist/read_parquet.hpp>
#include <colx/tpch/queries/q01.hpp>
#include <colx/tpch/queries/q06.hpp>
#include <colx/tpch/queries/dist_tables.hpp>

#include <catch2/catch.hpp>

#include <exception>
#include <filesystem>
#include <string>
#include <unistd.h>
#include <vector>

using namespace colx::literals;
namespace dist = colx::dist;

TEST_CASE("ranks read their share of a set of Parquet files", "[dist]") {
  auto& world = colx::test::world();
  using s = colx::schema<colx::field<"id", std::int64_t>, colx::field<"name", colx::string_view, colx::nullable>,
                         colx::field<"tag", colx::string_view>>;
  // Read back with the tags as a dictionary column: each file gets its own dictionary.
  using coded = colx::schema<colx::field<"id", std::int64_t>, colx::field<"name", colx::string_view, colx::nullable>,
                             colx::field<"tag", colx::dictionary<colx::string_view, std::uint8_t>>>;
  // One directory for all ranks: rank 0's process id names it.
  auto const pid = world.all_gather(static_cast<std::int64_t>(::getpid()))[0];
  auto const dir = std::filesystem::temp_directory_path() / ("colx-dist-read-" + std::to_string(pid));
  std::vector<std::string> files;
  std::vector<colx::frame<s>> written;
  for (int i = 0; i < 3; ++i) {
    std::vector<std::int64_t> id;
    std::vector<std::optional<std::string>> name, tag;
    for (int r = 0; r < 100 * (i + 1); ++r) {
      id.push_back(i * 1000 + r);
      name.push_back(r % 3 == 0 ? std::nullopt : std::optional<std::string>("n" + std::to_string(r)));
      tag.push_back("file" + std::to_string(i) + "-" + std::to_string(r % (2 + i)));
    }
    auto const mr = colx::test::backend_resource();
    written.emplace_back(colx::make_column<std::int64_t>(id, {}, mr), colx::make_strings_column(name, colx::type_id::int32, {}, mr),
                         colx::make_strings_column(tag, colx::type_id::int32, {}, mr));
    files.push_back((dir / ("part-" + std::to_string(i) + ".parquet")).string());
  }
  // Rank 0 writes them; every rank learns whether it could (a build without the default codec's
  // library cannot), so that none waits in a collective for a rank that left the test.
  std::string failure;
  if (world.rank() == 0) {
    try {
      std::filesystem::create_directories(dir);
      for (std::size_t i = 0; i < files.size(); ++i) { colx::write_parquet(written[i], files[i]); }
    } catch (std::exception const& e) {
      failure = e.what();
    }
  }
  bool const wrote = world.all_gather(static_cast<std::uint8_t>(failure.empty() ? 1 : 0))[0] != 0;
  INFO("rank 0 could not write the files: " << failure);
  REQUIRE(wrote);
  auto const d = dist::read_parquet<s>(world, files);
  CHECK(d.num_rows() == 600);
  // A rank with no file holds an empty frame in the world's memory: it joins like the others.
  CHECK((d | colx::join(d, colx::on("id"_c))).num_rows() == 600);
  auto const all = dist::gather(d);
  auto const expected = colx::concat(written[0], written[1], written[2]);
  if (world.rank() == 0) { CHECK(colx::test::sorted_rows_of(all) == colx::test::sorted_rows_of(expected)); }
  // A rank that reads two files joins their dictionaries.
  auto const all_coded = dist::gather(dist::read_parquet<coded>(world, files));
  if (world.rank() == 0) {
    std::vector<std::pair<std::int64_t, std::string>> got, want;
    auto const ids = colx::test::read(all_coded["id"_c]);
    auto const tags = colx::to_strings(colx::decode(all_coded["tag"_c]).view());
    for (std::size_t i = 0; i < ids.size(); ++i) { got.emplace_back(*ids[i], *tags[i]); }
    auto const wid = colx::test::read(expected["id"_c]);
    auto const wtag = colx::to_strings(expected["tag"_c].view());
    for (std::size_t i = 0; i < wid.size(); ++i) { want.emplace_back(*wid[i], *wtag[i]); }
    std::sort(got.begin(), got.end());
    std::sort(want.begin(), want.end());
    CHECK(got == want);
  }
  // A missing file fails on the rank that reads it, and every rank throws.
  CHECK_THROWS(dist::read_parquet<s>(world, {files[0], (dir / "missing.parquet").string()}));
  world.barrier();
  if (world.rank() == 0) { std::filesystem::remove_all(dir); }
}

TEST_CASE("read_dist_database: a table folder without Parquet files fails on every rank", "[dist]") {
  auto& world = colx::test::world();
  auto const pid = world.all_gather(static_cast<std::int64_t>(::getpid()))[0];
  auto const dir = std::filesystem::temp_directory_path() / ("colx-dist-tables-" + std::to_string(pid));
  if (world.rank() == 0) { std::filesystem::create_directories(dir / "nation"); }  // a folder, no files
  world.barrier();
  CHECK_THROWS(colx::tpch::queries::read_dist_database(world, dir.string()));
  world.barrier();
  if (world.rank() == 0) { std::filesystem::remove_all(dir); }
}

TEST_CASE("a strings column widened to int64 offsets keeps its rows", "[dist]") {
  // What dist::read_parquet does on every rank once one rank's share of a strings column needs
  // int64 offsets (over 2^31 bytes: too large for a test, so the widening is tested alone).
  auto const mr = colx::test::backend_resource();
  std::vector<std::optional<std::string>> const rows{"a", std::nullopt, "", "\xc3\xa9t\xc3\xa9", "longer than the others"};
  auto const narrow = colx::make_strings_column(rows, colx::type_id::int32, {}, mr);
  auto const wide = dist::detail::with_int64_offsets(narrow.untyped(), {}, mr);
  CHECK(colx::strings_column_view(wide).offset_type() == colx::type_id::int64);
  CHECK(colx::to_strings(colx::strings_column_view(wide)) == rows);
  CHECK(wide.null_count() == 1);
  // Already int64, and empty: as they are.
  auto const again = dist::detail::with_int64_offsets(wide, {}, mr);
  CHECK(colx::to_strings(colx::strings_column_view(again)) == rows);
  auto const empty = dist::detail::with_int64_offsets(colx::make_strings_column({}, colx::type_id::int32, {}, mr).untyped(), {}, mr);
  CHECK(empty.size() == 0);
  CHECK(colx::strings_column_view(empty).offset_type() == colx::type_id::int64);
}

TEST_CASE("dictionary columns move between ranks that hold different dictionaries", "[dist]") {
  auto& world = colx::test::world();
  using coded = colx::schema<colx::field<"k", std::int64_t>, colx::field<"d", colx::dictionary<colx::string_view, std::int16_t>, colx::nullable>>;
  // Rank r's rows: keys r*1000 + i. Its values: some shared by all ranks and some of its own
  // (different dictionaries); the same few on every rank (equal dictionaries, which join without
  // recoding); or as many values of the same lengths as every other rank, but its own (equal in
  // size, different in bytes: they must be recoded).
  enum class values { mixed, equal, same_sizes };
  auto const rows_of = [&](values kind, int r, std::vector<std::int64_t>& k, std::vector<std::optional<std::string>>& d) {
    for (int i = 0; i < 300 + 50 * r; ++i) {
      k.push_back(r * 1000 + i);
      std::string const own = "rank" + std::to_string(r) + "-" + std::to_string(i % 3);
      std::string const common = "common-" + std::to_string(i % 5);
      d.push_back(i % 7 == 0 ? std::nullopt
                  : kind == values::equal      ? std::optional<std::string>(common)
                  : kind == values::same_sizes ? std::optional<std::string>(own)
                                               : std::optional<std::string>(i % 2 == 0 ? common : own));
    }
  };
  auto const mr = colx::test::backend_resource();
  for (values kind : {values::mixed, values::equal, values::same_sizes}) {
    std::vector<std::int64_t> k;
    std::vector<std::optional<std::string>> d;
    rows_of(kind, world.rank(), k, d);
    colx::frame<coded> const mine(colx::make_column<std::int64_t>(k, {}, mr),
                                  colx::encode<std::int16_t>(colx::make_strings_column(d, colx::type_id::int32, {}, mr)));
    dist::dist_frame<coded> const local(world, mine);
    {  // replicate: every rank's rows on every rank, in rank order
      auto const everywhere = dist::replicate(local);
      std::vector<std::optional<std::string>> expected;
      for (int r = 0; r < world.size(); ++r) {
        std::vector<std::int64_t> rk;
        rows_of(kind, r, rk, expected);
      }
      CHECK(colx::to_strings(colx::decode(everywhere["d"_c]).view()) == expected);
    }
    auto const all = dist::gather(dist::hash_shuffle(local, "k"_c));
    if (world.rank() == 0) {
      std::vector<std::pair<std::int64_t, std::optional<std::string>>> expected, got;
      for (int r = 0; r < world.size(); ++r) {
        std::vector<std::int64_t> rk;
        std::vector<std::optional<std::string>> rd;
        rows_of(kind, r, rk, rd);
        for (std::size_t i = 0; i < rk.size(); ++i) { expected.emplace_back(rk[i], rd[i]); }
      }
      auto const keys = colx::test::read(all["k"_c]);
      auto const decoded = colx::to_strings(colx::decode(all["d"_c]).view());
      for (std::size_t i = 0; i < keys.size(); ++i) { got.emplace_back(*keys[i], decoded[i]); }
      std::sort(expected.begin(), expected.end());
      std::sort(got.begin(), got.end());
      CHECK(got == expected);
    }
  }
}

TEST_CASE("TPC-H Q1 and Q6 over a split lineitem give the one-process answers", "[dist]") {
  auto& world = colx::test::world();
  namespace q = colx::tpch::queries;
  using lineitem = colx::schema<
      colx::field<"l_quantity", q::money, colx::not_null>, colx::field<"l_extendedprice", q::money, colx::not_null>,
      colx::field<"l_discount", q::money, colx::not_null>, colx::field<"l_tax", q::money, colx::not_null>,
      colx::field<"l_returnflag", q::coded, colx::not_null>, colx::field<"l_linestatus", q::coded, colx::not_null>,
      colx::field<"l_shipdate", colx::date32, colx::not_null>>;
  std::vector<q::money> quantity, price, discount, tax;
  std::vector<std::optional<std::string>> flag, status;
  std::vector<colx::date32> shipdate;
  std::uint64_t x = 12345;
  for (int i = 0; i < 30011; ++i) {
    x = x * 6364136223846793005ull + 1442695040888963407ull;
    auto const r = x >> 20;
    quantity.push_back(q::money::from_unscaled(static_cast<std::int64_t>(100 + r % 5000)));
    price.push_back(q::money::from_unscaled(static_cast<std::int64_t>(90000 + r % 10000000)));
    discount.push_back(q::money::from_unscaled(static_cast<std::int64_t>(r % 11)));
    tax.push_back(q::money::from_unscaled(static_cast<std::int64_t>(r / 11 % 9)));
    flag.push_back(std::string(1, "ANR"[r / 99 % 3]));
    status.push_back(std::string(1, "FO"[r / 297 % 2]));
    shipdate.push_back(colx::date32{static_cast<std::int32_t>(8036 + r % 2526)});  // 1992-01-02 .. 1998-12-01
  }
  auto const mr = colx::test::backend_resource();
  colx::frame<lineitem> const f(
      colx::make_column<q::money>(quantity, {}, mr), colx::make_column<q::money>(price, {}, mr),
      colx::make_column<q::money>(discount, {}, mr), colx::make_column<q::money>(tax, {}, mr),
      colx::encode<std::uint8_t>(colx::make_strings_column(flag, colx::type_id::int32, {}, mr)),
      colx::encode<std::uint8_t>(colx::make_strings_column(status, colx::type_id::int32, {}, mr)),
      colx::make_column<colx::date32>(shipdate, {}, mr));
  auto const d = dist::scatter(world, f);
  auto const q1 = dist::gather(q::q01_over(d));
  auto const revenue = q::q06_revenue(d);
  CHECK(revenue.value() == q::q06_revenue(f).value());
  if (world.rank() == 0) {
    auto const expected = q::q01_over(f);
    REQUIRE(q1.num_rows() == expected.num_rows());
    CHECK(colx::to_strings(colx::decode(q1["l_returnflag"_c]).view()) ==
          colx::to_strings(colx::decode(expected["l_returnflag"_c]).view()));
    CHECK(colx::test::read(q1["sum_charge"_c]) == colx::test::read(expected["sum_charge"_c]));
    CHECK(colx::test::read(q1["avg_price"_c]) == colx::test::read(expected["avg_price"_c]));
    CHECK(colx::test::read(q1["count_order"_c]) == colx::test::read(expected["count_order"_c]));
  }
}
