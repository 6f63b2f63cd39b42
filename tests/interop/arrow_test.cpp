// SPDX-License-Identifier: Apache-2.0
// The Arrow C Data Interface (export, import, streams) and the C Device Data Interface on host
// memory: round trips of every type, slices, tables, the release and move rules, copy-on-write
// exposure, and every kind of malformed input. Columns are made in host memory in both builds;
// device memory is tested in arrow_device_test.cpp.
#include "support/backend.hpp"

#include <colx/interop/arrow_device.hpp>
#include <colx/interop/arrow_export.hpp>
#include <colx/interop/arrow_import.hpp>
#include <colx/interop/arrow_stream.hpp>

#include <catch2/catch.hpp>

#include <cstdint>
#include <cstring>
#include <optional>
#include <string>
#include <type_traits>
#include <vector>

namespace {

using colx::size_type;
using Catch::Matchers::Contains;

template <class T>
using optionals = std::vector<std::optional<T>>;

colx::resource_ref host_mr() { return colx::get_current_host_resource(); }

// Row i is null when i % 3 == 1 or i % 7 == 0.
bool is_null_row(std::size_t i) { return i % 3 == 1 || i % 7 == 0; }

template <class T>
T value_at(std::size_t i) {
  if constexpr (std::is_same_v<T, bool>) {
    return i % 2 == 0;
  } else if constexpr (std::is_arithmetic_v<T>) {
    return static_cast<T>(i * 3 + 1);
  } else if constexpr (requires { T::unit; }) {
    return T(static_cast<typename T::rep>(i * 1000 + 7));
  } else {
    return T{static_cast<typename T::rep>(static_cast<std::int64_t>(i) * 12345 - 99)};
  }
}

template <class T>
optionals<T> values_with_nulls(std::size_t n) {
  optionals<T> out(n);
  for (std::size_t i = 0; i < n; ++i) {
    if (!is_null_row(i)) { out[i] = value_at<T>(i); }
  }
  return out;
}

template <class T>
optionals<T> sub(optionals<T> const& v, size_type begin, size_type end) {
  return optionals<T>(v.begin() + begin, v.begin() + end);
}

template <class T>
colx::any_column make_any(optionals<T> const& values, std::int32_t scale = 0) {
  if constexpr (colx::data_type::is_decimal(colx::type_to_id<T>)) {
    return std::move(colx::make_decimal_column(values, scale, {}, host_mr())).release();
  } else {
    return std::move(colx::make_column(values, {}, host_mr())).release();
  }
}

template <class T>
optionals<T> read_back(colx::any_column const& c) {
  return colx::to_optional_vector(c.view().template as<T>());
}

struct schema_guard {
  ArrowSchema schema{};
  ~schema_guard() {
    if (schema.release != nullptr) { schema.release(&schema); }
  }
};
struct array_guard {
  ArrowArray array{};
  ~array_guard() {
    if (array.release != nullptr) { array.release(&array); }
  }
};

// Exports rows [begin, end) of `values` and imports them back.
template <class T>
void check_round_trip(optionals<T> const& values, size_type begin, size_type end, std::int32_t scale = 0) {
  CAPTURE(values.size(), begin, end);
  colx::any_column const c = make_any(values, scale);
  schema_guard s;
  array_guard a;
  colx::export_arrow_schema(c, "x", &s.schema);
  colx::export_arrow_array(c, begin, end, &a.array);
  auto const expected = sub(values, begin, end);
  size_type expected_nulls = 0;
  for (auto const& v : expected) { expected_nulls += v ? 0 : 1; }
  CHECK(a.array.length == end - begin);
  CHECK(a.array.null_count == expected_nulls);
  CHECK(a.array.n_buffers == 2);
  CHECK(a.array.n_children == 0);
  CHECK(a.array.dictionary == nullptr);
  if constexpr (!std::is_same_v<T, bool>) {
    CHECK(a.array.offset == begin);  // zero-copy: the column's own memory (copy-on-write copies a shared one)
    if (!c.empty() && !colx::copy_on_write()) { CHECK(a.array.buffers[1] == c.data().read()); }
  }
  colx::any_column const back = colx::import_arrow_column(&s.schema, &a.array);
  CHECK(a.array.release == nullptr);  // moved into the import
  CHECK(back.type() == c.type());
  CHECK(back.null_count() == expected_nulls);
  CHECK(read_back<T>(back) == expected);
}

template <class T>
void check_type(std::int32_t scale = 0) {
  for (std::size_t n : {0, 1, 31, 32, 33, 100}) {
    auto const values = values_with_nulls<T>(n);
    auto const size = static_cast<size_type>(n);
    check_round_trip(values, 0, size, scale);
    for (size_type begin : {1, 3, 33}) {
      if (begin <= size) { check_round_trip(values, begin, size, scale); }
      if (begin + 2 <= size) { check_round_trip(values, begin, size - 2, scale); }
    }
  }
}

// Matches an exception whose message contains `part`.
struct says : Catch::MatcherBase<std::exception> {
  std::string part;
  explicit says(std::string p) : part(std::move(p)) {}
  bool match(std::exception const& e) const override { return std::string(e.what()).find(part) != std::string::npos; }
  std::string describe() const override { return "has a message containing \"" + part + "\""; }
};

// ---- hand-built Arrow input -----------------------------------------------------------------------

// Counts calls of an array's release; the array does not own its buffers (the test does).
struct release_counter {
  int calls = 0;
};
void counting_release(ArrowArray* self) {
  ++static_cast<release_counter*>(self->private_data)->calls;
  self->release = nullptr;
}
void noop_schema_release(ArrowSchema* self) { self->release = nullptr; }

ArrowSchema make_schema(char const* format, char const* name = "") {
  ArrowSchema s{};
  s.format = format;
  s.name = name;
  s.flags = ARROW_FLAG_NULLABLE;
  s.release = &noop_schema_release;
  return s;
}

ArrowArray make_array(std::int64_t length, std::int64_t null_count, std::int64_t offset,
                      std::vector<void const*>& buffers, release_counter& counter) {
  ArrowArray a{};
  a.length = length;
  a.null_count = null_count;
  a.offset = offset;
  a.n_buffers = static_cast<std::int64_t>(buffers.size());
  a.buffers = buffers.data();
  a.release = &counting_release;
  a.private_data = &counter;
  return a;
}

// An Arrow validity bitmap (padded to 64 bytes) with bit i set unless is_null_row(i).
std::vector<std::uint64_t> arrow_bitmap(std::size_t n) {
  std::vector<std::uint64_t> words((n + 511) / 512 * 8 + 8, 0);
  auto* bytes = reinterpret_cast<std::uint8_t*>(words.data());
  for (std::size_t i = 0; i < n; ++i) {
    if (!is_null_row(i)) { bytes[i / 8] |= static_cast<std::uint8_t>(1u << (i % 8)); }
  }
  return words;
}

template <class E>
void expect_rejected(ArrowSchema const* schema, ArrowArray* array, char const* culprit) {
  CAPTURE(culprit);
  REQUIRE_THROWS_MATCHES(colx::import_arrow_column(schema, array), E, says(culprit));
}

}  // namespace

// ---- formats ---------------------------------------------------------------------------------------

TEST_CASE("arrow: format strings of every type, both ways", "[arrow]") {
  using colx::data_type;
  using colx::type_id;
  CHECK(colx::arrow_format(data_type{type_id::bool8}) == "b");
  CHECK(colx::arrow_format(data_type{type_id::uint16}) == "S");
  CHECK(colx::arrow_format(data_type{type_id::timestamp_days}) == "tdD");
  CHECK(colx::arrow_format(data_type{type_id::timestamp_microseconds}) == "tsu:");
  CHECK(colx::arrow_format(data_type{type_id::duration_days}) == "tDs");
  CHECK(colx::arrow_format(data_type{type_id::duration_nanoseconds}) == "tDn");
  CHECK(colx::arrow_format(data_type{type_id::decimal32, -2}) == "d:9,2,32");
  CHECK(colx::arrow_format(data_type{type_id::decimal64, 3}) == "d:18,-3,64");
  CHECK(colx::arrow_format(data_type{type_id::decimal128, -10}) == "d:38,10");
  CHECK(colx::arrow_format(data_type::dictionary_of(type_id::uint8)) == "C");  // its codes'
  for (int i = 1; i < static_cast<int>(type_id::dictionary); ++i) {
    auto const id = static_cast<type_id>(i);
    data_type const t = data_type::is_decimal(id) ? data_type{id, -4} : data_type{id};
    auto const back = colx::data_type_from_arrow_format(colx::arrow_format(t));
    CAPTURE(t.to_string());
    CHECK(back == (id == type_id::duration_days ? data_type{type_id::duration_seconds} : t));
  }
  CHECK(colx::data_type_from_arrow_format("tsn:Europe/Paris") == data_type{type_id::timestamp_nanoseconds});
  CHECK(colx::data_type_from_arrow_format("U") == data_type{type_id::string});
  CHECK(colx::data_type_from_arrow_format("d:10,3") == data_type{type_id::decimal128, -3});
  CHECK(colx::data_type_from_arrow_format("d:5,-2,64") == data_type{type_id::decimal64, 2});
  for (char const* bad : {"e", "z", "vu", "tdm", "tts", "+l", "n", "", "ix", "tsx:"}) {
    CAPTURE(bad);
    REQUIRE_THROWS_MATCHES(colx::data_type_from_arrow_format(bad), colx::schema_error,
                           says(std::string("\"") + bad + "\""));
  }
  REQUIRE_THROWS_MATCHES(colx::data_type_from_arrow_format("d:40,2,256"), colx::schema_error, says("256"));
  REQUIRE_THROWS_MATCHES(colx::data_type_from_arrow_format("d:4x"), colx::schema_error, says("d:4x"));
  REQUIRE_THROWS_AS(colx::arrow_format(data_type{}), colx::schema_error);
}

// ---- round trips -----------------------------------------------------------------------------------

TEST_CASE("arrow: every fixed-width type round-trips with nulls, sizes and slices", "[arrow]") {
  check_type<bool>();
  check_type<std::int8_t>();
  check_type<std::int16_t>();
  check_type<std::int32_t>();
  check_type<std::int64_t>();
  check_type<std::uint8_t>();
  check_type<std::uint16_t>();
  check_type<std::uint32_t>();
  check_type<std::uint64_t>();
  check_type<float>();
  check_type<double>();
  check_type<colx::date32>();
  check_type<colx::timestamp_s>();
  check_type<colx::timestamp_ms>();
  check_type<colx::timestamp_us>();
  check_type<colx::timestamp_ns>();
  check_type<colx::duration_s>();
  check_type<colx::duration_ms>();
  check_type<colx::duration_us>();
  check_type<colx::duration_ns>();
  check_type<colx::decimal32>(-2);
  check_type<colx::decimal64>(3);
  check_type<colx::decimal128>(-20);
}

TEST_CASE("arrow: bools are exported bit-packed", "[arrow]") {
  optionals<bool> const values{true, false, std::nullopt, true, true, false, false, true, true};
  colx::any_column const c = make_any(values);
  array_guard a;
  colx::export_arrow_array(c, 1, 9, &a.array);  // a copy of rows 1..8, at offset 0
  CHECK(a.array.offset == 0);
  CHECK(a.array.null_count == 1);
  auto const* bits = static_cast<std::uint8_t const*>(a.array.buffers[1]);
  auto const* valid = static_cast<std::uint8_t const*>(a.array.buffers[0]);
  CHECK(bits[0] == 0b1100'1100);  // rows 1..8: f, (null, stored false), t, t, f, f, t, t
  CHECK(valid[0] == 0b1111'1101);
}

TEST_CASE("arrow: duration[days] is exported as duration[s] values", "[arrow]") {
  optionals<colx::duration_days> const values{colx::duration_days(1), std::nullopt, colx::duration_days(-3)};
  colx::any_column const c = make_any(values);
  schema_guard s;
  array_guard a;
  colx::export_arrow(c, "d", &s.schema, &a.array);
  CHECK(std::string(s.schema.format) == "tDs");
  CHECK(std::string(s.schema.name) == "d");
  auto const* seconds = static_cast<std::int64_t const*>(a.array.buffers[1]);
  CHECK(seconds[0] == 86400);
  CHECK(seconds[2] == -3 * 86400);
  auto const back = colx::import_arrow_column(&s.schema, &a.array);
  CHECK(read_back<colx::duration_s>(back) ==
        optionals<colx::duration_s>{colx::duration_s(86400), std::nullopt, colx::duration_s(-259200)});
}

TEST_CASE("arrow: strings round-trip with int32 and int64 offsets, nulls and slices", "[arrow]") {
  for (auto offset_type : {colx::type_id::int32, colx::type_id::int64}) {
    for (std::size_t n : {0, 1, 31, 33, 70}) {
      std::vector<std::optional<std::string>> values(n);
      for (std::size_t i = 0; i < n; ++i) {
        if (!is_null_row(i)) { values[i] = std::string(i % 5, static_cast<char>('a' + i % 26)); }
      }
      auto const c = colx::make_strings_column(values, offset_type, {}, host_mr()).release();
      auto const size = static_cast<size_type>(n);
      for (size_type begin : {0, 1, 3, 33}) {
        if (begin > size) { continue; }
        CAPTURE(n, begin, colx::to_string(offset_type));
        schema_guard s;
        array_guard a;
        colx::export_arrow_schema(c, "s", &s.schema);
        colx::export_arrow_array(c, begin, size, &a.array);
        CHECK(std::string(s.schema.format) == (offset_type == colx::type_id::int64 ? "U" : "u"));
        CHECK(a.array.n_buffers == 3);
        CHECK(a.array.offset == begin);
        CHECK(a.array.buffers[1] != nullptr);
        auto const back = colx::strings_column(colx::import_arrow_column(&s.schema, &a.array));
        std::vector<std::optional<std::string>> const expected(values.begin() + begin, values.end());
        CHECK(colx::to_strings(back.view()) == expected);
      }
    }
  }
}

TEST_CASE("arrow: import shares strings offsets from the array's offset and the whole chars", "[arrow]") {
  std::vector<std::int32_t> const offsets{0, 1, 3, 6, 10};
  std::string const chars = "abbcccdddd";
  std::vector<void const*> buffers{nullptr, offsets.data(), chars.data()};
  release_counter counter;
  ArrowSchema const schema = make_schema("u");
  ArrowArray array = make_array(2, 0, 2, buffers, counter);
  {
    auto const c = colx::import_arrow_column(&schema, &array);
    CHECK(c.children().front().data().read() == offsets.data() + 2);
    CHECK(c.data().read() == chars.data());
    CHECK(c.data().is_foreign());
    CHECK(colx::to_strings(colx::strings_column_view(c.view())) ==
          std::vector<std::optional<std::string>>{"ccc", "dddd"});
    CHECK(counter.calls == 0);
  }
  CHECK(counter.calls == 1);
}

TEST_CASE("arrow: empty and one-row columns", "[arrow]") {
  check_round_trip(optionals<std::int32_t>{}, 0, 0);
  check_round_trip(optionals<std::int32_t>{std::nullopt}, 0, 1);
  check_round_trip(optionals<double>{2.5}, 0, 1);
  // An empty strings column without offsets still exports valid (zero) offsets.
  colx::any_column const empty(colx::data_type{colx::type_id::string}, 0, colx::shared_buffer{}, colx::shared_buffer{},
                               0, {colx::any_column(colx::data_type{colx::type_id::int32}, 0, colx::buffer{})});
  array_guard a;
  colx::export_arrow_array(empty, &a.array);
  REQUIRE(a.array.buffers[1] != nullptr);
  CHECK(*static_cast<std::int32_t const*>(a.array.buffers[1]) == 0);
}

// ---- tables ----------------------------------------------------------------------------------------

TEST_CASE("arrow: a table is a struct array with named children, both ways", "[arrow]") {
  auto const ints = values_with_nulls<std::int64_t>(40);
  auto const dbls = values_with_nulls<double>(40);
  std::vector<std::optional<std::string>> strs(40);
  for (std::size_t i = 0; i < 40; ++i) { strs[i] = is_null_row(i) ? std::nullopt : std::optional(std::to_string(i)); }
  std::vector<colx::any_column> columns;
  columns.push_back(make_any(ints));
  columns.push_back(make_any(dbls));
  columns.push_back(colx::make_strings_column(strs, colx::type_id::int32, {}, host_mr()).release());
  colx::table const t(std::move(columns));
  std::vector<std::string> const names{"i", "d", "s"};

  schema_guard s;
  array_guard a;
  colx::export_arrow_schema(t, names, &s.schema);
  colx::export_arrow_array(t, 3, 38, &a.array);
  CHECK(std::string(s.schema.format) == "+s");
  CHECK(s.schema.n_children == 3);
  CHECK(std::string(s.schema.children[2]->name) == "s");
  CHECK(a.array.n_buffers == 1);
  CHECK(a.array.buffers[0] == nullptr);
  CHECK(a.array.length == 35);
  CHECK(a.array.n_children == 3);
  CHECK(a.array.children[0]->offset == 3);

  auto const back = colx::import_arrow_table(&s.schema, &a.array);
  CHECK(back.names == names);
  REQUIRE(back.columns.num_columns() == 3);
  CHECK(read_back<std::int64_t>(back.columns.column(0)) == sub(ints, 3, 38));
  CHECK(read_back<double>(back.columns.column(1)) == sub(dbls, 3, 38));
  CHECK(colx::to_strings(colx::strings_column_view(back.columns.column(2).view())) ==
        std::vector<std::optional<std::string>>(strs.begin() + 3, strs.begin() + 38));
  REQUIRE_THROWS_MATCHES(colx::export_arrow_schema(t, {"a"}, &s.schema), colx::logic_error, says("names"));
}

TEST_CASE("arrow: a struct's offset applies to its children", "[arrow]") {
  std::vector<std::int32_t> const values{0, 1, 2, 3, 4, 5, 6, 7, 8, 9};
  std::vector<void const*> child_buffers{nullptr, values.data()};
  std::vector<void const*> struct_buffers{nullptr};
  release_counter child_counter;
  release_counter struct_counter;
  ArrowSchema child_schema = make_schema("i", "v");
  ArrowSchema* child_schemas[] = {&child_schema};
  ArrowSchema schema = make_schema("+s");
  schema.n_children = 1;
  schema.children = child_schemas;
  ArrowArray child = make_array(9, 0, 1, child_buffers, child_counter);  // rows 1..9 of values
  ArrowArray* children[] = {&child};
  ArrowArray array = make_array(4, 0, 3, struct_buffers, struct_counter);  // rows 3..6 of the child
  array.n_children = 1;
  array.children = children;
  {
    auto const t = colx::import_arrow_table(&schema, &array);
    CHECK(read_back<std::int32_t>(t.columns.column(0)) == optionals<std::int32_t>{4, 5, 6, 7});
    CHECK(t.names == std::vector<std::string>{"v"});
  }
  CHECK(struct_counter.calls == 1);  // the parent's release (a real producer's would release the child)

  array = make_array(8, 0, 3, struct_buffers, struct_counter);  // the child has 9 rows, not 3 + 8
  array.n_children = 1;
  array.children = children;
  child.release = &counting_release;
  REQUIRE_THROWS_MATCHES(colx::import_arrow_table(&schema, &array), colx::logic_error, says("shorter"));
  CHECK(array.release != nullptr);  // rejected input stays with the caller
}

// ---- release and move rules ------------------------------------------------------------------------

TEST_CASE("arrow: import calls the producer's release exactly once, when the last buffer goes", "[arrow]") {
  std::vector<std::int64_t> const values{10, 20, 30, 40, 50};
  auto const bitmap = arrow_bitmap(5);  // rows 0, 1 and 4 null
  std::vector<void const*> buffers{bitmap.data(), values.data()};
  release_counter counter;
  ArrowSchema const schema = make_schema("l");
  ArrowArray array = make_array(5, 3, 0, buffers, counter);
  std::optional<colx::any_column> copy;
  {
    auto const c = colx::import_arrow_column(&schema, &array);
    CHECK(array.release == nullptr);
    CHECK(c.data().read() == values.data());            // zero-copy
    CHECK(c.mask().read() != bitmap.data());            // 5 rows end inside a word: copied (see below)
    CHECK(c.null_count() == 3);
    copy = c;  // shallow
  }
  CHECK(counter.calls == 0);
  CHECK(read_back<std::int64_t>(*copy) == optionals<std::int64_t>{std::nullopt, std::nullopt, 30, 40, std::nullopt});
  copy.reset();
  CHECK(counter.calls == 1);

  // Nothing shared (bools are copied): released at once.
  std::uint8_t const bits[8] = {0b101};
  std::vector<void const*> bool_buffers{nullptr, bits};
  release_counter bool_counter;
  ArrowSchema const bool_schema = make_schema("b");
  ArrowArray bool_array = make_array(3, 0, 0, bool_buffers, bool_counter);
  auto const b = colx::import_arrow_column(&bool_schema, &bool_array);
  CHECK(bool_counter.calls == 1);
  CHECK(read_back<bool>(b) == optionals<bool>{true, false, true});
}

TEST_CASE("arrow: import at offsets copies or shares the validity bits", "[arrow]") {
  std::vector<std::int16_t> values(100);
  for (std::size_t i = 0; i < values.size(); ++i) { values[i] = value_at<std::int16_t>(i); }
  auto const bitmap = arrow_bitmap(100);
  auto const expected_all = values_with_nulls<std::int16_t>(100);
  for (std::int64_t offset : {0, 1, 3, 32, 33, 64}) {
    for (std::int64_t declared : {-1, 1}) {
      CAPTURE(offset, declared);
      std::vector<void const*> buffers{bitmap.data(), values.data()};
      release_counter counter;
      ArrowSchema const schema = make_schema("s");
      std::int64_t const length = 100 - offset - 5;
      auto const expected = sub(expected_all, offset, offset + length);
      std::int64_t nulls = 0;
      for (auto const& v : expected) { nulls += v ? 0 : 1; }
      ArrowArray array = make_array(length, declared < 0 ? -1 : nulls, offset, buffers, counter);
      auto const c = colx::import_arrow_column(&schema, &array);
      CHECK(c.null_count() == nulls);
      CHECK(c.data().read() == values.data() + offset);
      bool const shared = c.mask().read() == reinterpret_cast<std::uint8_t const*>(bitmap.data()) + offset / 8;
      CHECK(shared == (offset % 32 == 0));
      CHECK(read_back<std::int16_t>(c) == expected);
    }
  }
}

TEST_CASE("arrow: exported memory outlives the colx objects until release", "[arrow]") {
  colx::scoped_option const cow(colx::set_copy_on_write, false);  // export shares the table's memory
  colx::statistics_adaptor stats(host_mr());
  array_guard a;
  {
    std::vector<colx::any_column> cols;
    cols.push_back(std::move(colx::make_column(std::vector<std::int32_t>{7, 8, 9}, {}, stats)).release());
    colx::table t(std::move(cols));
    colx::export_arrow_array(t, &a.array);
  }
  CHECK(stats.statistics().current_bytes > 0);  // the table is gone, its memory is not
  auto const* values = static_cast<std::int32_t const*>(a.array.children[0]->buffers[1]);
  CHECK(values[0] == 7);
  CHECK(values[2] == 9);
  a.array.release(&a.array);
  CHECK(a.array.release == nullptr);
  CHECK(stats.statistics().current_bytes == 0);
}

TEST_CASE("arrow: a child moved out of an exported struct is released on its own", "[arrow]") {
  std::vector<colx::any_column> cols;
  cols.push_back(make_any(values_with_nulls<std::int32_t>(10)));
  cols.push_back(make_any(values_with_nulls<double>(10)));
  ArrowArray parent{};
  colx::export_arrow_array(colx::table(std::move(cols)), &parent);
  ArrowArray moved = *parent.children[1];  // the spec's move: copy the struct, mark the source released
  parent.children[1]->release = nullptr;
  parent.release(&parent);
  CHECK(parent.release == nullptr);
  REQUIRE(moved.release != nullptr);
  CHECK(static_cast<double const*>(moved.buffers[1])[2] == value_at<double>(2));
  moved.release(&moved);
  CHECK(moved.release == nullptr);

  ArrowSchema schema{};
  colx::export_arrow_schema(colx::table({make_any(values_with_nulls<std::int8_t>(2))}), {"a"}, &schema);
  ArrowSchema moved_schema = *schema.children[0];
  schema.children[0]->release = nullptr;
  schema.release(&schema);
  CHECK(std::string(moved_schema.name) == "a");
  moved_schema.release(&moved_schema);
  CHECK(moved_schema.release == nullptr);
}

TEST_CASE("arrow: export exposes the buffers; under copy-on-write shared memory is copied first", "[arrow]") {
  auto const values = values_with_nulls<std::int32_t>(50);
  SECTION("copy-on-write") {
    colx::scoped_option const cow(colx::set_copy_on_write, true);
    colx::any_column const a = make_any(values);
    colx::any_column const b = a;  // shares a's memory
    REQUIRE(a.data().shares_memory_with(b.data()));
    array_guard arr;
    colx::export_arrow_array(a, &arr.array);
    CHECK(arr.array.buffers[1] != a.data().read());  // a copy was exposed
    CHECK(arr.array.buffers[0] != a.mask().read());
    CHECK_FALSE(a.data().is_exposed());
    CHECK_FALSE(b.data().is_exposed());
    static_cast<std::int32_t*>(const_cast<void*>(arr.array.buffers[1]))[0] = -1;  // the consumer writes
    CHECK(read_back<std::int32_t>(a) == values);
    CHECK(read_back<std::int32_t>(b) == values);
    // The exposed copy, imported back, is never shared or spilled again.
    schema_guard s;
    colx::export_arrow_schema(a, "x", &s.schema);
    auto const back = colx::import_arrow_column(&s.schema, &arr.array);
    CHECK(back.data().is_foreign());
  }
  SECTION("no copy-on-write") {
    colx::scoped_option const cow(colx::set_copy_on_write, false);
    colx::any_column const a = make_any(values);
    array_guard arr;
    colx::export_arrow_array(a, &arr.array);
    CHECK(arr.array.buffers[1] == a.data().read());  // zero-copy
    CHECK(a.data().is_exposed());
    CHECK(a.mask().is_exposed());
    CHECK_FALSE(a.data().is_spillable());
  }
  SECTION("a column moved in is handed over without a copy") {
    colx::scoped_option const cow(colx::set_copy_on_write, true);
    colx::any_column a = make_any(values);
    void const* const p = a.data().read();
    array_guard arr;
    colx::export_arrow_array(std::move(a), &arr.array);
    CHECK(arr.array.buffers[1] == p);
  }
}

// ---- malformed input -------------------------------------------------------------------------------

TEST_CASE("arrow: malformed input is rejected with a message naming the culprit", "[arrow]") {
  std::vector<std::int32_t> const values{1, 2, 3, 4};
  std::vector<void const*> buffers{nullptr, values.data()};
  release_counter counter;
  ArrowSchema schema = make_schema("i");
  auto fresh = [&] { return make_array(4, 0, 0, buffers, counter); };
  ArrowArray array = fresh();

  expect_rejected<colx::logic_error>(nullptr, &array, "ArrowSchema pointer is null");
  expect_rejected<colx::logic_error>(&schema, nullptr, "ArrowArray pointer is null");
  array.release = nullptr;
  expect_rejected<colx::logic_error>(&schema, &array, "already released");
  array = fresh();
  schema.release = nullptr;
  expect_rejected<colx::logic_error>(&schema, &array, "ArrowSchema was already released");
  schema = make_schema("i");
  array.length = -1;
  expect_rejected<colx::logic_error>(&schema, &array, "negative length");
  array = fresh();
  array.offset = -2;
  expect_rejected<colx::logic_error>(&schema, &array, "negative offset");
  array = fresh();
  array.null_count = -5;
  expect_rejected<colx::logic_error>(&schema, &array, "negative null_count");
  array = fresh();
  array.null_count = 9;
  expect_rejected<colx::logic_error>(&schema, &array, "null_count 9");
  array = fresh();
  array.null_count = 1;  // but buffers[0] is NULL
  expect_rejected<colx::logic_error>(&schema, &array, "validity buffer");
  array = fresh();
  array.n_buffers = 3;
  expect_rejected<colx::logic_error>(&schema, &array, "n_buffers is 3");
  array = fresh();
  array.n_buffers = 1;
  expect_rejected<colx::logic_error>(&schema, &array, "n_buffers is 1");
  array = fresh();
  array.length = std::int64_t{1} << 62;
  expect_rejected<colx::logic_error>(&schema, &array, "too large");

  ArrowArray child = fresh();
  ArrowArray* children[] = {&child};
  ArrowSchema child_schema = make_schema("i");
  ArrowSchema* child_schemas[] = {&child_schema};
  array = fresh();
  array.n_children = 1;
  array.children = children;
  expect_rejected<colx::logic_error>(&schema, &array, "the array has 1");  // schema has 0
  schema.n_children = 1;
  schema.children = child_schemas;
  expect_rejected<colx::logic_error>(&schema, &array, "has no children");
  schema = make_schema("i");

  std::vector<void const*> null_data{nullptr, nullptr};
  array = make_array(4, 0, 0, null_data, counter);
  expect_rejected<colx::logic_error>(&schema, &array, "buffers[1] (data) is NULL");
  array = make_array(0, 0, 0, null_data, counter);  // no rows: no data needed
  CHECK(colx::import_arrow_column(&schema, &array).size() == 0);

  for (char const* format : {"e", "+l", "z", "tdm", "w:4"}) {
    ArrowSchema const bad = make_schema(format);
    array = fresh();
    expect_rejected<colx::schema_error>(&bad, &array, format);
  }
  ArrowSchema const structure = make_schema("+s");
  array = fresh();
  expect_rejected<colx::schema_error>(&structure, &array, "import_arrow_table");
  ArrowSchema dictionary_values = make_schema("u");
  ArrowSchema dictionary = make_schema("i");
  dictionary.dictionary = &dictionary_values;
  array = fresh();
  expect_rejected<colx::logic_error>(&dictionary, &array, "the schema has a dictionary but the array has none");
  ArrowSchema no_format = make_schema("i");
  no_format.format = nullptr;
  expect_rejected<colx::logic_error>(&no_format, &array, "format is NULL");
  CHECK(counter.calls == 1);  // only the empty import above took (and released) an array

  ArrowSchema const strings = make_schema("u");
  std::string const chars = "abcdef";
  std::vector<std::int32_t> const decreasing{0, 3, 2, 6};
  std::vector<void const*> sbuf{nullptr, decreasing.data(), chars.data()};
  array = make_array(3, 0, 0, sbuf, counter);
  expect_rejected<colx::logic_error>(&strings, &array, "decrease at row 1");
  std::vector<std::int32_t> const negative{-1, 3, 4, 6};
  sbuf[1] = negative.data();
  array = make_array(3, 0, 0, sbuf, counter);
  expect_rejected<colx::logic_error>(&strings, &array, "is negative");
  std::vector<std::int32_t> const fine{0, 3, 4, 6};
  sbuf = {nullptr, fine.data(), nullptr};
  array = make_array(3, 0, 0, sbuf, counter);
  expect_rejected<colx::logic_error>(&strings, &array, "chars");
  sbuf = {nullptr, nullptr, chars.data()};
  array = make_array(3, 0, 0, sbuf, counter);
  expect_rejected<colx::logic_error>(&strings, &array, "offsets");
  std::vector<void const*> two{nullptr, fine.data()};
  array = make_array(3, 0, 0, two, counter);
  expect_rejected<colx::logic_error>(&strings, &array, "n_buffers is 2");
  CHECK(array.release != nullptr);  // never taken

  // Found by tests/interop/fuzz: a declared null_count the bitmap disagrees with was trusted.
  std::uint8_t const bits[1] = {0b1011};  // rows 2 null of 4
  std::vector<void const*> masked{bits, values.data()};
  array = make_array(4, 3, 0, masked, counter);
  expect_rejected<colx::logic_error>(&schema, &array, "null_count is 3 but the validity bitmap has 1 nulls");
  array = make_array(4, 0, 0, masked, counter);
  expect_rejected<colx::logic_error>(&schema, &array, "null_count is 0 but the validity bitmap has 1 nulls");
  CHECK(array.release != nullptr);
}

// Found by tests/interop/fuzz (a data or offsets buffer at an odd address was read as typed values).
TEST_CASE("arrow: unaligned data and offsets buffers are rejected before the array is taken", "[arrow]") {
  alignas(16) std::uint8_t storage[64] = {};
  release_counter counter;
  ArrowSchema const ints = make_schema("i");
  std::vector<void const*> buffers{nullptr, storage + 1};
  ArrowArray array = make_array(4, 0, 0, buffers, counter);
  expect_rejected<colx::logic_error>(&ints, &array, "buffers[1] (data)");
  expect_rejected<colx::logic_error>(&ints, &array, "is not aligned to 4 bytes");
  ArrowSchema const decimals = make_schema("d:38,4");
  buffers[1] = storage + 8;
  array = make_array(2, 0, 0, buffers, counter);
  expect_rejected<colx::logic_error>(&decimals, &array, "is not aligned to 16 bytes");
  ArrowSchema const strings = make_schema("u");
  std::vector<void const*> sbuf{nullptr, storage + 5, storage};
  array = make_array(3, 0, 0, sbuf, counter);
  expect_rejected<colx::logic_error>(&strings, &array, "buffers[1] (offsets)");
  ArrowSchema const large = make_schema("U");
  sbuf[1] = storage + 4;
  array = make_array(3, 0, 0, sbuf, counter);
  expect_rejected<colx::logic_error>(&large, &array, "is not aligned to 8 bytes");
  CHECK(array.release != nullptr);  // never taken
  CHECK(counter.calls == 0);
  ArrowSchema const bools = make_schema("b");  // bit-packed: read byte by byte, any address will do
  buffers[1] = storage + 1;
  array = make_array(4, 0, 0, buffers, counter);
  CHECK(colx::import_arrow_column(&bools, &array).size() == 4);
}

// Found by tests/interop/fuzz: a bitmap holds ceil(bits / 8) bytes, so 69 rows at offset 0 are 9
// bytes, not the 12 of three colx words; sharing it read 3 bytes past the producer's allocation.
TEST_CASE("arrow: a validity bitmap without padding is copied where colx's words would pass its end", "[arrow]") {
  std::vector<std::int64_t> values(69);
  for (std::size_t i = 0; i < values.size(); ++i) { values[i] = value_at<std::int64_t>(i); }
  auto const expected_all = values_with_nulls<std::int64_t>(69);
  for (std::int64_t const length : {69, 64, 63, 57}) {
    CAPTURE(length);
    std::vector<std::uint8_t> bitmap(static_cast<std::size_t>((length + 7) / 8));  // exactly, no padding
    for (std::int64_t i = 0; i < length; ++i) {
      if (!is_null_row(static_cast<std::size_t>(i))) { bitmap[i / 8] |= static_cast<std::uint8_t>(1u << (i % 8)); }
    }
    std::vector<void const*> buffers{bitmap.data(), values.data()};
    release_counter counter;
    ArrowSchema const schema = make_schema("l");
    ArrowArray array = make_array(length, -1, 0, buffers, counter);
    {
      auto const c = colx::import_arrow_column(&schema, &array);
      bool const shared = c.mask().read() == static_cast<void const*>(bitmap.data());
      CHECK(shared == (length % 32 == 0 || length % 32 > 24));  // words within ceil(length / 8) bytes
      CHECK(read_back<std::int64_t>(c) == sub(expected_all, 0, length));
    }
    CHECK(counter.calls == 1);
  }
}

// ---- streams ---------------------------------------------------------------------------------------

TEST_CASE("arrow: a stream of tables round-trips, and failures carry get_last_error", "[arrow]") {
  auto three_rows = [](std::int32_t base) {
    std::vector<colx::any_column> cols;
    cols.push_back(make_any(optionals<std::int32_t>{base, std::nullopt, base + 2}));
    cols.push_back(colx::make_strings_column({"x", std::nullopt, "zz"}, colx::type_id::int64, {}, host_mr()).release());
    return colx::table(std::move(cols));
  };
  ArrowArrayStream stream{};
  colx::export_arrow_stream({three_rows(1), three_rows(10)}, {"n", "s"}, &stream);
  auto const tables = colx::import_arrow_stream(&stream);
  CHECK(stream.release == nullptr);
  REQUIRE(tables.size() == 2);
  CHECK(tables[1].names == std::vector<std::string>{"n", "s"});
  CHECK(read_back<std::int32_t>(tables[1].columns.column(0)) == optionals<std::int32_t>{10, std::nullopt, 12});
  CHECK(colx::to_strings(colx::strings_column_view(tables[0].columns.column(1).view())) ==
        std::vector<std::optional<std::string>>{"x", std::nullopt, "zz"});

  // No tables: no schema; the error is the stream's last error.
  colx::export_arrow_stream({}, {"n"}, &stream);
  ArrowSchema schema{};
  CHECK(stream.get_schema(&stream, &schema) != 0);
  CHECK_THAT(std::string(stream.get_last_error(&stream)), Contains("no tables"));
  REQUIRE_THROWS_MATCHES(colx::import_arrow_stream(&stream), colx::logic_error, says("no tables"));
  CHECK(stream.release == nullptr);

  // Tables of different schemas cannot share a stream.
  std::vector<colx::any_column> other;
  other.push_back(make_any(optionals<double>{1.0, 2.0, 3.0}));
  other.push_back(colx::make_strings_column({"a", "b", "c"}, colx::type_id::int64, {}, host_mr()).release());
  REQUIRE_THROWS_MATCHES(colx::export_arrow_stream({three_rows(1), colx::table(std::move(other))}, {"n", "s"}, &stream),
                         colx::schema_error, says("\"n\""));
}

// ---- device interface on host memory ---------------------------------------------------------------

TEST_CASE("arrow: ArrowDeviceArray of host memory is ARROW_DEVICE_CPU", "[arrow]") {
  auto const values = values_with_nulls<std::uint32_t>(40);
  ArrowDeviceArray d{};
  colx::export_arrow_device_array(make_any(values), 5, 40, &d);
  CHECK(d.device_type == ARROW_DEVICE_CPU);
  CHECK(d.device_id == -1);
  CHECK(d.sync_event == nullptr);
  CHECK(d.array.offset == 5);
  schema_guard s;
  colx::export_arrow_schema(make_any(values), "u", &s.schema);
  auto const back = colx::import_arrow_device_column(&s.schema, &d);
  CHECK(d.array.release == nullptr);
  CHECK(back.kind() == colx::memory_kind::host);
  CHECK(read_back<std::uint32_t>(back) == sub(values, 5, 40));

  std::vector<std::int32_t> const ints{1, 2};
  std::vector<void const*> buffers{nullptr, ints.data()};
  release_counter counter;
  ArrowDeviceArray bad{};
  bad.array = make_array(2, 0, 0, buffers, counter);
  bad.device_type = ARROW_DEVICE_METAL;
  ArrowSchema const schema = make_schema("i");
  REQUIRE_THROWS_MATCHES(colx::import_arrow_device_column(&schema, &bad), colx::logic_error, says("device_type 8"));
  if constexpr (!colx::has_cuda) {
    bad.device_type = ARROW_DEVICE_CUDA;
    REQUIRE_THROWS_MATCHES(colx::import_arrow_device_column(&schema, &bad), colx::logic_error, says("CUDA backend"));
  }
  CHECK(counter.calls == 0);
  bad.array.release(&bad.array);

  ArrowDeviceArrayStream stream{};
  std::vector<colx::table> tables;
  tables.emplace_back(std::vector<colx::any_column>{make_any(values)});
  colx::export_arrow_device_stream(std::move(tables), {"u"}, &stream);
  CHECK(stream.device_type == ARROW_DEVICE_CPU);
  auto const drained = colx::import_arrow_device_stream(&stream);
  REQUIRE(drained.size() == 1);
  CHECK(read_back<std::uint32_t>(drained[0].columns.column(0)) == values);
}
