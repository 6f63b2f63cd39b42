// SPDX-License-Identifier: Apache-2.0
// Dictionary columns through the Arrow C Data Interface: export as indices plus a dictionary array
// (zero-copy codes, any slice), import back, and the checks that refuse a dictionary colx cannot
// trust before the array is taken (codes outside the dictionary, repeated or null values).
// pyarrow's side of the same is in interop/pyarrow.
#include "support/backend.hpp"

#include <colx/interop/arrow_device.hpp>
#include <colx/interop/arrow_export.hpp>
#include <colx/interop/arrow_import.hpp>

#include <catch2/catch.hpp>

#include <optional>
#include <string>
#include <vector>

namespace {

using strings = std::vector<std::optional<std::string>>;
using codes8 = std::vector<std::optional<std::uint8_t>>;

colx::resource_ref host() { return colx::get_current_host_resource(); }

struct exported {
  ArrowSchema schema{};
  ArrowArray array{};
  ~exported() {
    if (array.release != nullptr) { array.release(&array); }
    if (schema.release != nullptr) { schema.release(&schema); }
  }
};

strings decoded(colx::any_column c) {
  return colx::to_strings(colx::decode(colx::dictionary_column<colx::string_view, std::uint8_t>(std::move(c))).view());
}

void no_release(ArrowArray* a) { a->release = nullptr; }
void no_release(ArrowSchema* s) { s->release = nullptr; }

}  // namespace

TEST_CASE("arrow: a dictionary column exports its codes and its whole dictionary, and imports back", "[arrow]") {
  strings values;
  for (int i = 0; i < 70; ++i) {
    values.push_back(i % 5 == 1 ? std::nullopt : std::optional<std::string>(std::string(static_cast<std::size_t>(i % 4), 'x') + "k"));
  }
  auto const column = colx::encode<std::uint8_t>(colx::make_strings_column(values, colx::type_id::int32, {}, host()));
  for (colx::size_type begin : {0, 1, 33, 70}) {
    CAPTURE(begin);
    exported e;
    colx::export_arrow_schema(column.untyped(), "d", &e.schema);
    colx::export_arrow_array(column.untyped(), begin, 70, &e.array);
    CHECK(std::string(e.schema.format) == "C");  // uint8 indices
    REQUIRE(e.schema.dictionary != nullptr);
    CHECK(std::string(e.schema.dictionary->format) == "u");
    REQUIRE(e.array.dictionary != nullptr);
    CHECK(e.array.offset == begin);
    CHECK(e.array.dictionary->length == column.dictionary_size());
    CHECK(e.array.buffers[1] == column.codes().data());  // the codes are shared
    auto const back = colx::import_arrow_column(&e.schema, &e.array);
    CHECK(e.array.release == nullptr);
    CHECK(decoded(back) == strings(values.begin() + begin, values.end()));
  }
}

TEST_CASE("arrow: a dictionary colx cannot trust is refused before the array is taken", "[arrow]") {
  std::vector<std::uint8_t> codes{0, 1, 2};
  std::int32_t const offsets[] = {0, 1, 2};
  char const chars[] = "ab";
  void const* value_buffers[] = {nullptr, offsets, chars};
  void const* code_buffers[] = {nullptr, codes.data()};
  ArrowArray dictionary{};
  dictionary.length = 2;
  dictionary.n_buffers = 3;
  dictionary.buffers = value_buffers;
  dictionary.release = &no_release;
  ArrowArray array{};
  array.length = 3;
  array.n_buffers = 2;
  array.buffers = code_buffers;
  array.dictionary = &dictionary;
  array.release = &no_release;
  ArrowSchema values_schema{};
  values_schema.format = "u";
  values_schema.release = &no_release;
  ArrowSchema schema{};
  schema.format = "C";
  schema.name = "flag";
  schema.dictionary = &values_schema;
  schema.release = &no_release;

  // Code 2 indexes a dictionary of 2 values.
  CHECK_THROWS_WITH(colx::import_arrow_column(&schema, &array), Catch::Contains("\"flag\"") && Catch::Contains("1 of 3 codes are outside"));
  CHECK(array.release != nullptr);  // still the producer's
  codes[2] = 1;
  std::int32_t const same_offsets[] = {0, 1, 2};
  char const same_chars[] = "aa";
  value_buffers[1] = same_offsets;
  value_buffers[2] = same_chars;
  CHECK_THROWS_WITH(colx::import_arrow_column(&schema, &array), Catch::Contains("repeat 1 times"));
  CHECK(array.release != nullptr);
  value_buffers[2] = chars;
  ArrowSchema float_indices = schema;
  float_indices.format = "g";
  CHECK_THROWS_AS(colx::import_arrow_column(&float_indices, &array), colx::schema_error);
  array.dictionary = nullptr;
  CHECK_THROWS_WITH(colx::import_arrow_column(&schema, &array), Catch::Contains("the schema has a dictionary but the array has none"));
  array.dictionary = &dictionary;
  auto const good = colx::import_arrow_column(&schema, &array);
  CHECK(decoded(good) == strings{"a", "b", "b"});
}

TEST_CASE("arrow: a dictionary column of the backend's memory through the C Device Data Interface", "[arrow]") {
  strings values;
  for (int i = 0; i < 1000; ++i) { values.push_back(i % 9 == 4 ? std::nullopt : std::optional<std::string>(std::string("v").append(std::to_string(i % 13)))); }
  auto const column = colx::encode<std::uint8_t>(colx::make_strings_column(values));  // device memory in the CUDA tests
  exported e;
  ArrowDeviceArray device{};
  colx::export_arrow_schema(column.untyped(), "d", &e.schema);
  colx::export_arrow_device_array(column.untyped(), 7, 1000, &device);
  REQUIRE(device.array.dictionary != nullptr);
  CHECK(device.array.dictionary->length == 13);
  auto const back = colx::import_arrow_device_column(&e.schema, &device);
  CHECK(back.kind() == column.kind());
  CHECK(decoded(back) == strings(values.begin() + 7, values.end()));
}

TEST_CASE("arrow: an all-null and an empty dictionary column round-trip", "[arrow]") {
  for (std::size_t n : {std::size_t{0}, std::size_t{5}}) {
    CAPTURE(n);
    strings const values(n);
    auto const column = colx::encode<std::uint8_t>(colx::make_strings_column(values, colx::type_id::int32, {}, host()));
    CHECK(column.dictionary_size() == 0);
    exported e;
    colx::export_arrow_schema(column.untyped(), "d", &e.schema);
    colx::export_arrow_array(column.untyped(), &e.array);
    auto const back = colx::import_arrow_column(&e.schema, &e.array);
    CHECK(decoded(back) == values);
  }
}
