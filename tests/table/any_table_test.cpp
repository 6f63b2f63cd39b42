// SPDX-License-Identifier: Apache-2.0
// any_table: labels to run-time typed columns with cuDF's ColumnAccessor semantics (selection
// by label, list, position, slices, prefixes and wildcards of hierarchical labels; insert,
// rename, drop), and the checked, zero-copy conversion to and from frame<Schema>.
#include "support/backend.hpp"

#include <catch2/catch.hpp>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

using namespace colx::literals;

namespace {

using colx::any_table;
using colx::label;

colx::any_column ints(std::vector<std::optional<std::int32_t>> const& v) {
  return colx::make_column(v).release();
}

std::vector<std::string> names(any_table const& t) {
  std::vector<std::string> out;
  for (auto const& l : t.labels()) { out.push_back(l.to_string()); }
  return out;
}

// sales/2023, sales/2024, costs/2023, costs/2024, each a column of three rows.
any_table two_levels() {
  any_table t(2, {"kind", "year"});
  t.insert({"sales", "2023"}, ints({1, 2, 3}));
  t.insert({"sales", "2024"}, ints({4, 5, 6}));
  t.insert({"costs", "2023"}, ints({7, 8, 9}));
  t.insert({"costs", "2024"}, ints({10, 11, std::nullopt}));
  return t;
}

std::vector<std::optional<std::int32_t>> values_of(colx::any_column const& c) {
  return colx::to_optional_vector(c.view().as<std::int32_t>());
}

}  // namespace

TEST_CASE("any_table: select by label, list, position and slices", "[table]") {
  any_table t;
  t.insert("a", ints({1, 2}));
  t.insert("c", ints({5, 6}));
  t.insert("b", ints({3, 4}), 1);  // at a position
  CHECK(names(t) == std::vector<std::string>{"\"a\"", "\"b\"", "\"c\""});
  CHECK(t.num_rows() == 2);
  CHECK(t.num_columns() == 3);
  CHECK(values_of(t["b"]) == std::vector<std::optional<std::int32_t>>{3, 4});
  CHECK(t["b"].data().shares_memory_with(t.column(1).data()));

  CHECK(names(t.select_labels({"c", "a", "c"})) == std::vector<std::string>{"\"c\"", "\"a\"", "\"c\""});
  CHECK(names(t.select_positions({2, 0})) == std::vector<std::string>{"\"c\"", "\"a\""});
  CHECK(names(t.slice(1, 3)) == std::vector<std::string>{"\"b\"", "\"c\""});
  CHECK(names(t.slice(1, 1)).empty());
  CHECK(names(t.slice_labels("a", "b")) == std::vector<std::string>{"\"a\"", "\"b\""});
  CHECK(names(t.select("b")) == std::vector<std::string>{"\"b\""});

  CHECK_THROWS_WITH(t["z"], Catch::Contains("no column is labelled \"z\"") && Catch::Contains("\"a\", \"b\", \"c\""));
  CHECK_THROWS_AS(t.column(3), colx::out_of_range);
  CHECK_THROWS_AS(t.slice(2, 4), colx::out_of_range);
  CHECK_THROWS_AS(t.slice_labels("c", "a"), colx::out_of_range);
  CHECK_THROWS_AS(t.select_positions({0, 7}), colx::out_of_range);
}

TEST_CASE("any_table: insert, rename, drop and pop are checked", "[table]") {
  any_table t;
  t.insert("a", ints({1, 2}));
  CHECK_THROWS_WITH(t.insert("a", ints({1, 2})), Catch::Contains("already has a column labelled \"a\""));
  CHECK_THROWS_WITH(t.insert("b", ints({1, 2, 3})), Catch::Contains("has 3 rows; the table has 2"));
  CHECK_THROWS_WITH(t.insert({"x", "y"}, ints({1, 2})), Catch::Contains("has 2 levels"));
  CHECK_THROWS_AS(t.insert("b", ints({1, 2}), 5), colx::out_of_range);
  t.insert("b", ints({3, 4}));
  t.rename("a", "first");
  CHECK(names(t) == std::vector<std::string>{"\"first\"", "\"b\""});
  CHECK_THROWS_WITH(t.rename("b", "first"), Catch::Contains("already has"));
  CHECK_THROWS_AS(t.rename("nope", "x"), colx::out_of_range);
  CHECK(t.drop("first") == 1);
  CHECK_THROWS_AS(t.drop("first"), colx::out_of_range);
  colx::any_column b = t.pop("b");
  CHECK(t.empty());
  CHECK(b.size() == 2);
  t.insert("c", ints({}));  // an empty table takes a column of any length
  CHECK(t.num_rows() == 0);
}

TEST_CASE("any_table: hierarchical labels, prefix groups and wildcards", "[table]") {
  any_table const t = two_levels();
  CHECK(t.levels() == 2);
  CHECK(values_of(t[{"costs", "2024"}]) == std::vector<std::optional<std::int32_t>>{10, 11, std::nullopt});

  any_table const sales = t.select({"sales"});  // the group, its first level removed
  CHECK(sales.levels() == 1);
  CHECK(sales.level_names() == std::vector<std::string>{"year"});
  CHECK(names(sales) == std::vector<std::string>{"\"2023\"", "\"2024\""});
  CHECK(values_of(sales["2024"]) == std::vector<std::optional<std::int32_t>>{4, 5, 6});

  any_table const y2023 = t.select({colx::any_level, "2023"});  // wildcard: all levels kept
  CHECK(y2023.levels() == 2);
  CHECK(names(y2023) == std::vector<std::string>{"(\"sales\", \"2023\")", "(\"costs\", \"2023\")"});

  any_table const one = t.select({"costs", "2023"});
  CHECK(one.num_columns() == 1);
  CHECK(one.levels() == 2);

  CHECK_THROWS_WITH(t.select({"profit"}), Catch::Contains("no column matches \"profit\""));
  CHECK_THROWS_WITH(t.select({"a", "b", "c"}), Catch::Contains("has 3 levels"));
  any_table dropped = t;
  CHECK(dropped.drop({colx::any_level, "2024"}) == 2);
  CHECK(dropped.num_columns() == 2);
  CHECK(t.num_columns() == 4);  // a copy of a table is a new list of the same columns
}

TEST_CASE("any_table: as<Schema>() converts without copying and names every mismatch", "[table]") {
  using s = colx::schema<colx::field<"id", std::int32_t, colx::not_null>, colx::field<"name", colx::string_view>,
                         colx::field<"price", double>>;
  any_table t;
  t.insert("id", ints({1, 2, 3}));
  t.insert("extra", ints({0, 0, 0}));
  t.insert("name", colx::make_strings_column({"a", std::nullopt, "c"}).release());
  t.insert("price", colx::make_column(std::vector<std::optional<double>>{1.5, 2.5, std::nullopt}).release());

  colx::frame<s> const f = t.as<s>();
  CHECK(f.num_rows() == 3);
  CHECK(f["id"_c].data() == t["id"].view().as<std::int32_t>().data());  // the same memory
  CHECK(colx::to_strings(f["name"_c].view()) == std::vector<std::optional<std::string>>{"a", std::nullopt, "c"});

  any_table const back = colx::to_table(f);
  CHECK(names(back) == std::vector<std::string>{"\"id\"", "\"name\"", "\"price\""});
  CHECK(back["price"].data().shares_memory_with(t["price"].data()));

  any_table wrong;
  wrong.insert("id", ints({1, std::nullopt}));
  wrong.insert("price", ints({1, 2}));
  try {
    (void)wrong.as<s>();
    FAIL("as<Schema>() accepted a mismatched table");
  } catch (colx::schema_error const& e) {
    std::string const what = e.what();
    CHECK_THAT(what, Catch::Contains("field \"id\" is not_null but its column has 1 nulls"));
    CHECK_THAT(what, Catch::Contains("field \"name\" is missing"));
    CHECK_THAT(what, Catch::Contains("field \"price\" is int32, the schema wants float64"));
  }
  CHECK_THROWS_AS(two_levels().as<s>(), colx::schema_error);
}

TEST_CASE("any_table: an Arrow struct array round trip keeps labels, values and memory", "[table]") {
  // The C Data Interface is for host memory (the device interface has its own tests).
  colx::resource_ref const host = colx::get_current_host_resource();
  any_table t;
  t.insert("id", colx::make_column(std::vector<std::optional<std::int32_t>>{1, std::nullopt, 3}, {}, host).release());
  t.insert("name", colx::make_strings_column({"a", "bc", std::nullopt}, colx::type_id::int32, {}, host).release());
  ArrowSchema schema{};
  ArrowArray array{};
  colx::export_arrow(t, &schema, &array);
  CHECK(array.n_children == 2);
  any_table const back = colx::import_arrow_any_table(&schema, &array);
  schema.release(&schema);
  CHECK(array.release == nullptr);  // moved into colx
  CHECK(names(back) == std::vector<std::string>{"\"id\"", "\"name\""});
  CHECK(values_of(back["id"]) == std::vector<std::optional<std::int32_t>>{1, std::nullopt, 3});
  CHECK(colx::to_strings(colx::strings_column_view(back["name"].view())) ==
        std::vector<std::optional<std::string>>{"a", "bc", std::nullopt});
  // Zero-copy both ways; under copy-on-write the export copies the shared column first.
  if (!colx::copy_on_write()) { CHECK(back["id"].view().head() == t["id"].view().head()); }
  CHECK_THROWS_WITH(colx::export_arrow(two_levels(), &schema, &array), Catch::Contains("2 levels"));
}
