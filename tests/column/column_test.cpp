// SPDX-License-Identifier: Apache-2.0
// Owning and non-owning columns (column<T>, any_column, column_view<T>, any_column_view), their
// checked casts and zero-copy slices, decimal scales, scalars and tables, on the backend under test.
#include "support/backend.hpp"

#include <catch2/catch.hpp>

#include <cstdint>
#include <optional>
#include <random>
#include <span>
#include <utility>
#include <vector>

namespace {

using colx::bitmask_type;
using colx::size_type;
using colx::test::backend_kind;
using colx::test::backend_resource;
using colx::test::tracked_resource;

template <class T>
using optionals = std::vector<std::optional<T>>;

// Row i is null when i % 3 == 1 or i % 7 == 0: nulls in every word, at irregular positions.
optionals<std::int32_t> nullable_values(std::size_t n) {
  optionals<std::int32_t> out(n);
  for (std::size_t i = 0; i < n; ++i) {
    if (i % 3 != 1 && i % 7 != 0) { out[i] = static_cast<std::int32_t>(i * 10 + 1); }
  }
  return out;
}

template <class T>
optionals<T> sub(optionals<T> const& v, size_type begin, size_type end) {
  return optionals<T>(v.begin() + begin, v.begin() + end);
}

template <class T>
size_type nulls_in(optionals<T> const& v) {
  size_type n = 0;
  for (auto const& x : v) { n += x ? 0 : 1; }
  return n;
}

// A host-built validity mask in memory from `mr`.
colx::buffer mask_buffer(std::vector<bool> const& valid, colx::resource_ref mr) {
  auto const n = static_cast<size_type>(valid.size());
  std::vector<bitmask_type> words(colx::bitmask_allocation_bytes(n) / sizeof(bitmask_type), 0);
  for (size_type i = 0; i < n; ++i) {
    if (valid[static_cast<std::size_t>(i)]) { colx::set_bit(words.data(), i); }
  }
  return colx::buffer(words.data(), colx::memory_kind::host, words.size() * sizeof(bitmask_type), {}, mr);
}

colx::uvector<std::int32_t> iota_values(size_type n, colx::resource_ref mr) {
  std::vector<std::int32_t> host(static_cast<std::size_t>(n));
  for (size_type i = 0; i < n; ++i) { host[static_cast<std::size_t>(i)] = static_cast<std::int32_t>(i); }
  return colx::uvector<std::int32_t>(std::span<std::int32_t const>(host), {}, mr);
}

}  // namespace

// ---- column<T> and any_column ---------------------------------------------------------------------

TEST_CASE("column: a default column is empty", "[column]") {
  colx::column<std::int32_t> const c;
  CHECK(c.size() == 0);
  CHECK(c.empty());
  CHECK(c.null_count() == 0);
  CHECK_FALSE(c.nullable());
  CHECK_FALSE(c.has_nulls());
  CHECK(c.type() == colx::data_type{colx::type_id::int32});
  CHECK(c.view().size() == 0);
  CHECK(c.view().null_mask() == nullptr);
  CHECK(colx::to_optional_vector(c.view()).empty());

  colx::any_column const a;
  CHECK(a.type().id() == colx::type_id::empty);
  CHECK(a.size() == 0);
  CHECK(a.view().size() == 0);
}

TEST_CASE("column: column<T> from values and a mask", "[column]") {
  tracked_resource mr;
  {
    std::vector<bool> valid(1000);
    optionals<std::int32_t> expected(1000);
    for (std::size_t i = 0; i < valid.size(); ++i) {
      valid[i] = i % 5 != 2;
      if (valid[i]) { expected[i] = static_cast<std::int32_t>(i); }
    }
    colx::column<std::int32_t> c(iota_values(1000, mr.ref()), mask_buffer(valid, mr.ref()), 200);
    CHECK(c.size() == 1000);
    CHECK(c.null_count() == 200);
    CHECK(c.has_nulls());
    CHECK(c.nullable());
    CHECK(c.kind() == backend_kind());
    CHECK(c.type().id() == colx::type_id::int32);
    CHECK(c.data() != nullptr);
    CHECK(c.null_mask() != nullptr);
    CHECK(colx::to_optional_vector(c.view()) == expected);
    // Typed and untyped faces share the buffers.
    colx::any_column_view const untyped = c;
    CHECK(untyped.head() == c.data());
    CHECK(untyped.null_mask() == c.null_mask());
    CHECK(untyped.null_count() == 200);
    CHECK(c.untyped().data().read() == c.data());

    // A column moves into an any_column and back without copying.
    auto const* data = c.data();
    colx::any_column a = std::move(c).release();
    CHECK(a.data().read() == data);
    colx::column<std::int32_t> back(std::move(a));
    CHECK(back.data() == data);
    CHECK(back.null_count() == 200);
  }
  CHECK(mr.outstanding_bytes() == 0);
  CHECK(mr.outstanding_allocations() == 0);
}

TEST_CASE("column: construction checks", "[column][errors]") {
  tracked_resource mr;
  auto const i32 = colx::data_type{colx::type_id::int32};
  SECTION("negative size") {
    CHECK_THROWS_WITH(colx::any_column(i32, -1, colx::buffer(0, {}, mr.ref())), Catch::Contains("negative size (-1)"));
  }
  SECTION("data buffer too small") {
    CHECK_THROWS_AS(colx::any_column(i32, 10, colx::buffer(39, {}, mr.ref())), colx::logic_error);
    CHECK_THROWS_WITH(colx::any_column(i32, 10, colx::buffer(39, {}, mr.ref())),
                      Catch::Contains("a data buffer of 39 bytes cannot hold 10 rows of int32"));
    CHECK_NOTHROW(colx::any_column(i32, 10, colx::buffer(40, {}, mr.ref())));
  }
  SECTION("mask too small") {
    CHECK_THROWS_WITH(colx::any_column(i32, 33, colx::buffer(132, {}, mr.ref()), colx::buffer(4, {}, mr.ref())),
                      Catch::Contains("a mask of 4 bytes cannot hold 33 bits"));
  }
  SECTION("null count outside the column") {
    CHECK_THROWS_WITH(colx::column<std::int32_t>(iota_values(3, mr.ref()), colx::create_bitmask(3, true, {}, mr.ref()), 4),
                      Catch::Contains("null count 4 is outside [0, 3]"));
    CHECK_THROWS_AS(colx::column<std::int32_t>(iota_values(3, mr.ref()), colx::create_bitmask(3, true, {}, mr.ref()), -1),
                    colx::logic_error);
  }
  SECTION("nulls without a mask") {
    CHECK_THROWS_WITH(colx::column<std::int32_t>(iota_values(3, mr.ref()), colx::buffer{}, 1),
                      Catch::Contains("without a validity mask cannot have 1 nulls"));
  }
  SECTION("an empty-typed column with rows") {
    CHECK_THROWS_WITH(colx::any_column(colx::data_type{}, 2, colx::buffer(0, {}, mr.ref())),
                      Catch::Contains("empty-typed column cannot have rows"));
  }
  SECTION("a column<T> with a data_type of another type") {
    CHECK_THROWS_AS(colx::column<std::int32_t>(iota_values(3, mr.ref()), colx::buffer{}, 0,
                                               colx::data_type{colx::type_id::float32}),
                    colx::schema_error);
    CHECK_THROWS_WITH(colx::column<std::int32_t>(iota_values(3, mr.ref()), colx::buffer{}, 0,
                                                 colx::data_type{colx::type_id::int64}),
                      Catch::Contains("a column<int32> cannot have type int64"));
  }
  SECTION("a strings column without offsets") {
    CHECK_THROWS_WITH(colx::any_column(colx::data_type{colx::type_id::string}, 2, colx::buffer(4, {}, mr.ref())),
                      Catch::Contains("needs one child (its offsets), not 0"));
  }
  SECTION("a strings column with offsets of the wrong type or length") {
    std::vector<colx::any_column> children;
    children.emplace_back(colx::data_type{colx::type_id::int16}, 3, colx::buffer(6, {}, mr.ref()));
    CHECK_THROWS_WITH(colx::any_column(colx::data_type{colx::type_id::string}, 2, colx::buffer(4, {}, mr.ref()),
                                       colx::buffer{}, 0, std::move(children)),
                      Catch::Contains("strings offsets must be int32 or int64, not int16"));
    std::vector<colx::any_column> short_offsets;
    short_offsets.emplace_back(i32, 2, colx::buffer(8, {}, mr.ref()));
    CHECK_THROWS_WITH(colx::any_column(colx::data_type{colx::type_id::string}, 2, colx::buffer(4, {}, mr.ref()),
                                       colx::buffer{}, 0, std::move(short_offsets)),
                      Catch::Contains("needs 3 offsets, not 2"));
  }
  // Whatever threw, the buffers handed over were freed.
  CHECK(mr.outstanding_bytes() == 0);
  CHECK(mr.outstanding_allocations() == 0);
}

TEST_CASE("column: set_null_count checks", "[column][errors]") {
  auto c = colx::make_column(nullable_values(10), {}, backend_resource());
  REQUIRE(c.null_count() == nulls_in(nullable_values(10)));
  c.set_null_count(0);
  CHECK(c.null_count() == 0);
  c.set_null_count(10);
  CHECK(c.null_count() == 10);
  CHECK_THROWS_WITH(c.set_null_count(11), Catch::Contains("null count 11 is impossible"));
  CHECK_THROWS_AS(c.set_null_count(-1), colx::logic_error);
  auto d = colx::make_column(std::vector<std::int32_t>{1, 2, 3}, {}, backend_resource());
  CHECK_FALSE(d.nullable());
  CHECK_THROWS_AS(d.set_null_count(1), colx::logic_error);
  CHECK_NOTHROW(d.set_null_count(0));
}

TEST_CASE("column: a released column is empty", "[column]") {
  // any_column::release() leaves the column empty (size 0); a column whose buffers went away by
  // a move must not keep claiming its rows either, or a view of it reads freed memory.
  auto c = colx::make_column(nullable_values(100), {}, backend_resource());
  colx::any_column moved = std::move(c).release();
  CHECK(moved.size() == 100);
  CHECK(moved.null_count() == nulls_in(nullable_values(100)));
  CHECK(c.size() == 0);          // NOLINT(bugprone-use-after-move): the state after a move is the point
  CHECK(c.null_count() == 0);    // NOLINT
  CHECK(c.view().size() == 0);   // NOLINT

  colx::any_column target(std::move(moved));
  CHECK(target.size() == 100);
  CHECK(moved.size() == 0);      // NOLINT
  CHECK(moved.null_count() == 0);  // NOLINT

  auto parts = std::move(target).release();
  CHECK(target.size() == 0);     // NOLINT
  CHECK(parts.data.size() >= 400);
  CHECK_FALSE(parts.mask.empty());
}

// ---- checked casts ------------------------------------------------------------------------------

TEST_CASE("column: checked casts between typed and untyped faces", "[column][errors]") {
  tracked_resource mr;
  {
    auto c = colx::make_column(std::vector<double>{1.5, 2.5, 3.5}, {}, mr.ref());
    colx::any_column_view const v = c;
    CHECK(v.type().id() == colx::type_id::float64);

    auto const typed = v.as<double>();
    CHECK(typed.size() == 3);
    CHECK(typed.data() == c.data());
    CHECK(colx::to_vector(typed) == std::vector<double>{1.5, 2.5, 3.5});

    CHECK_THROWS_AS(v.as<float>(), colx::schema_error);
    CHECK_THROWS_WITH(v.as<std::int64_t>(), Catch::Contains("column has type float64, not the requested int64"));
    CHECK_THROWS_AS(v.as<colx::timestamp_ms>(), colx::schema_error);

    // Owning: a wrong cast throws, and the column it took is freed.
    colx::any_column a = std::move(c).release();
    CHECK_THROWS_AS(colx::column<float>(std::move(a)), colx::schema_error);
    auto b = colx::make_column(std::vector<std::int16_t>{1, 2}, {}, mr.ref());
    CHECK_THROWS_WITH(colx::column<std::uint16_t>(std::move(b).release()),
                      Catch::Contains("column has type int16, not the requested uint16"));

    // Same width, different meaning: int64 vs timestamp[ms] vs duration[ms].
    auto t = colx::make_column(std::vector<colx::timestamp_ms>{colx::timestamp_ms{5}}, {}, mr.ref());
    colx::any_column_view const tv = t;
    CHECK(tv.as<colx::timestamp_ms>().size() == 1);
    CHECK_THROWS_AS(tv.as<std::int64_t>(), colx::schema_error);
    CHECK_THROWS_WITH(tv.as<colx::duration_ms>(), Catch::Contains("not the requested duration[ms]"));
  }
  CHECK(mr.outstanding_bytes() == 0);
}

TEST_CASE("column: an untyped slice cast to a typed view keeps its offset and null count", "[column]") {
  auto const values = nullable_values(200);
  auto const c = colx::make_column(values, {}, backend_resource());
  colx::any_column_view const v = c;
  auto const s = v.slice(33, 140).as<std::int32_t>();
  CHECK(s.offset() == 33);
  CHECK(s.size() == 107);
  CHECK(s.null_count() == nulls_in(sub(values, 33, 140)));
  CHECK(colx::to_optional_vector(s) == sub(values, 33, 140));
}

// ---- views and slices ------------------------------------------------------------------------------

TEST_CASE("column: column_view construction checks", "[column][errors]") {
  std::int32_t const data[4] = {1, 2, 3, 4};
  bitmask_type const mask[16] = {0b1011u};
  colx::column_view<std::int32_t> const ok(data, 4, colx::memory_kind::host, mask, 1, 0);
  CHECK(ok.null_count() == 1);
  CHECK(ok.head() == data);
  CHECK_THROWS_WITH(colx::column_view<std::int32_t>(data, -1, colx::memory_kind::host),
                    Catch::Contains("non-negative size and offset"));
  CHECK_THROWS_AS(colx::column_view<std::int32_t>(data, 4, colx::memory_kind::host, nullptr, 0, -2), colx::logic_error);
  CHECK_THROWS_WITH(colx::column_view<std::int32_t>(data, 4, colx::memory_kind::host, mask, 5),
                    Catch::Contains("null count 5 is outside [0, 4]"));
  CHECK_THROWS_WITH(colx::column_view<std::int32_t>(data, 4, colx::memory_kind::host, nullptr, 1),
                    Catch::Contains("without a validity mask cannot have nulls"));
  CHECK_THROWS_WITH(colx::column_view<std::int32_t>(data, 4, colx::memory_kind::host, nullptr, 0, 0,
                                                    colx::data_type{colx::type_id::uint32}),
                    Catch::Contains("a column_view of int32 cannot have type uint32"));

  CHECK_THROWS_WITH(colx::any_column_view(colx::data_type{colx::type_id::int32}, 4, data, colx::memory_kind::host,
                                          nullptr, 2),
                    Catch::Contains("cannot have 2 nulls"));
  CHECK_THROWS_WITH(colx::any_column_view(colx::data_type{colx::type_id::int32}, -4, data, colx::memory_kind::host,
                                          nullptr, 0),
                    Catch::Contains("non-negative size and offset (size -4"));
  colx::any_column_view const untyped(colx::data_type{colx::type_id::int32}, 4, data, colx::memory_kind::host, mask, 1);
  CHECK(untyped.children().empty());
  CHECK_THROWS_AS(untyped.child(0), colx::out_of_range);
  CHECK_THROWS_WITH(untyped.child(2), Catch::Contains("child 2 of a column with 0 children"));
}

TEST_CASE("column: slices are zero-copy with null counts at odd offsets", "[column]") {
  for (std::size_t n : {std::size_t{1}, std::size_t{64}, std::size_t{100}, std::size_t{1000}, std::size_t{4097}}) {
    auto const values = nullable_values(n);
    auto const c = colx::make_column(values, {}, backend_resource());
    auto const view = c.view();
    INFO("rows " << n);
    for (size_type begin : {0, 1, 3, 31, 32, 33, 63, 64, 65}) {
      for (size_type length : {0, 1, 31, 32, 33, 100, 1000}) {
        size_type const end = begin + length;
        if (end > static_cast<size_type>(n)) { continue; }
        INFO("slice [" << begin << ", " << end << ")");
        auto const s = view.slice(begin, end);
        CHECK(s.size() == length);
        CHECK(s.offset() == begin);
        CHECK(s.head() == c.data());
        CHECK(s.data() == c.data() + begin);
        CHECK(s.null_mask() == c.null_mask());
        CHECK(s.kind() == backend_kind());
        CHECK(s.null_count() == nulls_in(sub(values, begin, end)));
        CHECK(colx::to_optional_vector(s) == sub(values, begin, end));

        colx::any_column_view const u = colx::any_column_view(c).slice(begin, end);
        CHECK(u.offset() == begin);
        CHECK(u.head() == c.data());
        CHECK(u.null_count() == s.null_count());
      }
    }
  }
}

TEST_CASE("column: slices of slices", "[column]") {
  auto const values = nullable_values(1000);
  auto const c = colx::make_column(values, {}, backend_resource());
  auto const s1 = c.view().slice(3, 900);
  auto const s2 = s1.slice(31, 700);   // rows [34, 703)
  auto const s3 = s2.slice(33, 33);    // empty, at row 67
  auto const s4 = s2.slice(63, 64);    // one row: 97
  CHECK(s2.offset() == 34);
  CHECK(s2.null_count() == nulls_in(sub(values, 34, 703)));
  CHECK(colx::to_optional_vector(s2) == sub(values, 34, 703));
  CHECK(s3.empty());
  CHECK(s3.offset() == 67);
  CHECK(s3.null_count() == 0);
  CHECK(colx::to_optional_vector(s4) == sub(values, 97, 98));
  CHECK(s4.null_count() == nulls_in(sub(values, 97, 98)));

  colx::any_column_view const u = colx::any_column_view(c).slice(3, 900).slice(31, 700);
  CHECK(u.offset() == 34);
  CHECK(u.null_count() == s2.null_count());
  CHECK(colx::to_optional_vector(u.as<std::int32_t>()) == sub(values, 34, 703));
}

TEST_CASE("column: slices of a column without nulls", "[column]") {
  auto const c = colx::sequence<std::int64_t>(4097, 0, 1, {}, backend_resource());
  auto const s = c.view().slice(33, 4000);
  CHECK_FALSE(s.nullable());
  CHECK(s.null_count() == 0);
  auto const host = colx::to_vector(s);
  REQUIRE(host.size() == 3967);
  CHECK(host.front() == 33);
  CHECK(host.back() == 3999);

  // A mask with no nulls: the slice keeps the mask and counts none.
  auto const all_valid = colx::make_column(optionals<std::int64_t>(100, std::int64_t{7}), {}, backend_resource());
  CHECK_FALSE(all_valid.nullable());
  colx::column<std::int64_t> masked(colx::uvector<std::int64_t>(100, {}, backend_resource()),
                                    colx::create_bitmask(100, true, {}, backend_resource()), 0);
  auto const ms = masked.view().slice(3, 97);
  CHECK(ms.nullable());
  CHECK(ms.null_count() == 0);
}

TEST_CASE("column: slice out of range throws out_of_range", "[column][errors]") {
  auto const c = colx::make_column(nullable_values(10), {}, backend_resource());
  auto const v = c.view();
  CHECK_THROWS_AS(v.slice(3, 11), colx::out_of_range);
  CHECK_THROWS_WITH(v.slice(3, 20), Catch::Contains("slice [3, 20) is outside a column of 10 rows"));
  CHECK_THROWS_AS(v.slice(5, 4), colx::out_of_range);
  CHECK_THROWS_AS(v.slice(-1, 4), colx::out_of_range);
  CHECK_NOTHROW(v.slice(10, 10));
  CHECK_THROWS_AS(v.slice(2, 8).slice(0, 7), colx::out_of_range);
  colx::any_column_view const u = c;
  CHECK_THROWS_AS(u.slice(0, 11), colx::out_of_range);
  CHECK_THROWS_WITH(u.slice(4, 2), Catch::Contains("slice [4, 2) is outside a column of 10 rows"));
  CHECK_THROWS_AS(u.slice(1, 9).slice(3, 9), colx::out_of_range);
}

TEST_CASE("column: device_view applies the slice offset", "[column]") {
  auto const c = colx::make_column(nullable_values(100), {}, backend_resource());
  auto const dv = c.view().slice(33, 90).device_view();
  CHECK(dv.data == c.data() + 33);
  CHECK(dv.mask == c.null_mask());
  CHECK(dv.mask_offset == 33);
  CHECK(dv.size == 57);
  CHECK(dv.nullable());
  CHECK_FALSE(c.view().slice(0, 0).device_view().size != 0);

  // On the host the device view reads the rows it describes.
  auto const values = nullable_values(100);
  auto const h = colx::make_column(values, {}, colx::get_current_host_resource());
  auto const hv = h.view().slice(31, 97).device_view();
  for (size_type i = 0; i < hv.size; ++i) {
    auto const& expected = values[static_cast<std::size_t>(31 + i)];
    CHECK(hv.is_valid(i) == expected.has_value());
    CHECK(hv.is_null(i) == !expected.has_value());
    if (expected) { CHECK(hv.value(i) == *expected); }
  }
  auto const no_mask = colx::make_column(std::vector<std::int32_t>{4, 5}, {}, colx::get_current_host_resource());
  auto const nv = no_mask.device_view();
  CHECK_FALSE(nv.nullable());
  CHECK(nv.is_valid(1));
  CHECK(nv.value(1) == 5);
}

TEST_CASE("column: mutable_device_view writes the column's rows", "[column]") {
  auto c = colx::make_column(optionals<std::int32_t>{1, std::nullopt, 3}, {}, colx::get_current_host_resource());
  auto const mv = c.mutable_device_view();
  CHECK(mv.size == 3);
  CHECK(mv.is_valid(0));
  CHECK_FALSE(mv.is_valid(1));
  mv.set_value(2, 30);
  CHECK(mv.value(2) == 30);
  colx::clear_bit(mv.mask, 0);
  c.set_null_count(2);
  CHECK(colx::to_optional_vector(c.view()) == optionals<std::int32_t>{std::nullopt, std::nullopt, 30});
}

// ---- decimals ----------------------------------------------------------------------------------

TEST_CASE("column: the decimal scale travels in data_type", "[column][decimal]") {
  using colx::decimal64;
  optionals<decimal64> const values{decimal64{12345}, std::nullopt, decimal64{-7}, decimal64{0}};
  auto const c = colx::make_decimal_column(values, -2, {}, backend_resource());
  CHECK(c.type().id() == colx::type_id::decimal64);
  CHECK(c.type().scale() == -2);
  CHECK(c.type() == colx::data_type(colx::type_id::decimal64, -2));
  CHECK_FALSE(c.type() == colx::data_type(colx::type_id::decimal64, -3));
  CHECK(c.type().to_string() == "decimal64(scale -2)");
  CHECK(c.null_count() == 1);
  CHECK(colx::to_optional_vector(c.view()) == values);

  auto const view = c.view();
  CHECK(view.type().scale() == -2);
  CHECK(view.slice(1, 3).type().scale() == -2);
  colx::any_column_view const untyped = c;
  CHECK(untyped.type().scale() == -2);
  CHECK(untyped.slice(2, 4).as<decimal64>().type().scale() == -2);
  CHECK_THROWS_AS(untyped.as<colx::decimal32>(), colx::schema_error);
  CHECK_THROWS_AS(untyped.as<std::int64_t>(), colx::schema_error);

  // Moving through any_column keeps the scale.
  auto c2 = colx::make_decimal_column(values, 3, {}, backend_resource());
  colx::column<decimal64> back(std::move(c2).release());
  CHECK(back.type().scale() == 3);

  // A column<decimal> built from values takes its scale from the data_type given.
  colx::column<decimal64> scaled(colx::uvector<decimal64>(4, {}, backend_resource()), colx::buffer{}, 0,
                                 colx::data_type(colx::type_id::decimal64, -5));
  CHECK(scaled.type().scale() == -5);
  CHECK(scaled.view().type().scale() == -5);

  // Other widths.
  auto const d32 = colx::make_decimal_column(optionals<colx::decimal32>{colx::decimal32{1}}, -1, {}, backend_resource());
  CHECK(d32.type() == colx::data_type(colx::type_id::decimal32, -1));
  optionals<colx::decimal128> const wide{colx::decimal128{colx::int128_t{1} << 100}, std::nullopt};
  auto const d128 = colx::make_decimal_column(wide, 10, {}, backend_resource());
  CHECK(d128.type() == colx::data_type(colx::type_id::decimal128, 10));
  CHECK(colx::to_optional_vector(d128.view()) == wide);
}

TEST_CASE("column: data_type equality and names", "[column][types]") {
  // The scale matters for decimals only.
  CHECK(colx::data_type(colx::type_id::int32, 4) == colx::data_type(colx::type_id::int32));
  CHECK_FALSE(colx::data_type(colx::type_id::decimal32, 4) == colx::data_type(colx::type_id::decimal32));
  CHECK(colx::data_type_of<colx::decimal128>(-3) == colx::data_type(colx::type_id::decimal128, -3));
  CHECK(colx::data_type_of<bool>().to_string() == "bool8");
  CHECK(colx::data_type_of<colx::date32>().to_string() == "timestamp[days]");
  CHECK(colx::size_of(colx::data_type_of<colx::decimal128>()) == 16);
  CHECK_THROWS_AS(colx::size_of(colx::data_type{colx::type_id::string}), colx::logic_error);
}

// ---- scalars --------------------------------------------------------------------------------------

TEST_CASE("scalar: scalar<T>", "[column][scalar]") {
  STATIC_REQUIRE(std::is_trivially_copyable_v<colx::scalar<double>>);
  STATIC_REQUIRE(std::is_trivially_copyable_v<colx::scalar<colx::decimal128>>);
  colx::scalar<std::int32_t> const null;
  CHECK_FALSE(null.is_valid());
  CHECK_FALSE(null.has_value());
  CHECK_FALSE(null.to_optional().has_value());
  colx::scalar<std::int32_t> const five = 5;
  CHECK(five.is_valid());
  CHECK(five.has_value());
  CHECK(five.to_optional() == std::optional<std::int32_t>{5});
  CHECK(five == colx::scalar<std::int32_t>{5});
  CHECK(five == 5);
  CHECK_FALSE(five == colx::scalar<std::int32_t>{6});
  CHECK_FALSE(five == null);
  CHECK(null == colx::null_scalar<std::int32_t>());
  STATIC_REQUIRE(colx::scalar<std::int64_t>{3}.is_valid());
  STATIC_REQUIRE(!colx::null_scalar<float>().is_valid());
}

TEST_CASE("scalar: read like std::optional", "[column][scalar]") {
  colx::scalar<double> const null;
  colx::scalar<double> const half = 0.5;
  CHECK(half.value() == 0.5);
  CHECK(*half == 0.5);
  CHECK(half.value_or(7) == 0.5);
  CHECK(null.value_or(7) == 7.0);
  CHECK(*null == 0.0);  // a null scalar holds T{}
  CHECK_THROWS_AS(null.value(), colx::logic_error);
  CHECK_THROWS_WITH(null.value(), Catch::Contains("the scalar is null"));
  STATIC_REQUIRE(colx::scalar<int>{4}.value() == 4);
  STATIC_REQUIRE(*colx::scalar<int>{4} == 4);
  STATIC_REQUIRE(colx::null_scalar<int>().value_or(-1) == -1);
  // scalar<bool>: validity and truth are two questions, so neither is an operator bool.
  STATIC_REQUIRE(!std::is_constructible_v<bool, colx::scalar<bool>>);
  colx::scalar<bool> const no = false;
  CHECK(no.has_value());
  CHECK_FALSE(*no);
  CHECK_FALSE(no.value());
  colx::scalar<colx::decimal64> const d = colx::decimal64{-125};
  CHECK(d.value().unscaled == -125);
}

// A reduction's result, read on the host as a user would.
TEST_CASE("scalar: reductions of 0, 1 and 3 rows, with nulls", "[column][scalar]") {
  using namespace colx::literals;
  using schema = colx::schema<colx::field<"x", std::int64_t>>;
  auto const mr = colx::test::backend_resource();
  auto const of = [&](std::vector<std::optional<std::int64_t>> const& v) {
    return colx::frame<schema>(colx::make_column(v, {}, mr));
  };
  auto const empty = of({}) | colx::reduce(colx::sum("x"_c));
  CHECK_FALSE(empty.has_value());
  CHECK(empty.value_or(-1) == -1);
  CHECK_THROWS_AS(empty.value(), colx::logic_error);
  auto const one = of({{7}}) | colx::reduce(colx::sum("x"_c));
  CHECK(one.value() == 7);
  auto const [sum, n, big] = of({{1}, std::nullopt, {4}}) | colx::reduce(colx::sum("x"_c), colx::count(), colx::max("x"_c));
  CHECK(*sum == 5);
  CHECK(n.value() == 3);
  CHECK(big.value() == 4);
  auto const nulls = of({std::nullopt, std::nullopt, std::nullopt}) | colx::reduce(colx::max("x"_c));
  CHECK_FALSE(nulls.has_value());
}

TEST_CASE("scalar: any_scalar and its checked casts", "[column][scalar][errors]") {
  colx::any_scalar const d = colx::scalar<double>{2.5};
  CHECK(d.type().id() == colx::type_id::float64);
  CHECK(d.is_valid());
  CHECK(d.as<double>() == colx::scalar<double>{2.5});
  CHECK_THROWS_AS(d.as<float>(), colx::schema_error);
  CHECK_THROWS_WITH(d.as<std::int64_t>(), Catch::Contains("scalar has type float64, not the requested int64"));
  CHECK_THROWS_AS(d.as_string(), colx::schema_error);
  CHECK_THROWS_WITH(d.as_string(), Catch::Contains("not string"));

  colx::any_scalar const null_i = colx::null_scalar<std::int16_t>();
  CHECK_FALSE(null_i.is_valid());
  CHECK_FALSE(null_i.as<std::int16_t>().is_valid());

  colx::any_scalar const dec(colx::scalar<colx::decimal128>{colx::decimal128{-(colx::int128_t{1} << 90)}}, -4);
  CHECK(dec.type() == colx::data_type(colx::type_id::decimal128, -4));
  CHECK(dec.as<colx::decimal128>().value().unscaled == -(colx::int128_t{1} << 90));

  colx::any_scalar const ts = colx::scalar<colx::timestamp_us>{colx::timestamp_us{-12}};
  CHECK(ts.as<colx::timestamp_us>().value() == colx::timestamp_us{-12});
  CHECK_THROWS_AS(ts.as<colx::duration_us>(), colx::schema_error);

  colx::any_scalar const s(std::optional<std::string>{"héllo"});
  CHECK(s.type().id() == colx::type_id::string);
  CHECK(s.is_valid());
  CHECK(s.as_string() == std::optional<std::string>{"héllo"});
  CHECK_THROWS_WITH(s.as<std::int32_t>(), Catch::Contains("scalar has type string, not the requested int32"));
  colx::any_scalar const null_s(std::optional<std::string>{});
  CHECK_FALSE(null_s.is_valid());
  CHECK_FALSE(null_s.as_string().has_value());

  colx::any_scalar const empty;
  CHECK(empty.type().id() == colx::type_id::empty);
  CHECK_FALSE(empty.is_valid());
  CHECK_THROWS_AS(empty.as<std::int32_t>(), colx::schema_error);
}

// ---- tables -----------------------------------------------------------------------------------------

TEST_CASE("table: equal lengths are enforced", "[column][table][errors]") {
  tracked_resource mr;
  {
    std::vector<colx::any_column> columns;
    columns.push_back(colx::make_column(std::vector<std::int32_t>{1, 2, 3}, {}, mr.ref()).release());
    columns.push_back(colx::make_column(std::vector<double>{1, 2}, {}, mr.ref()).release());
    CHECK_THROWS_AS(colx::table(std::move(columns)), colx::logic_error);

    std::vector<colx::any_column> columns2;
    columns2.push_back(colx::make_column(std::vector<std::int32_t>{1, 2, 3}, {}, mr.ref()).release());
    columns2.push_back(colx::make_column(std::vector<std::int32_t>{1, 2, 3}, {}, mr.ref()).release());
    columns2.push_back(colx::make_column(std::vector<double>{1}, {}, mr.ref()).release());
    CHECK_THROWS_WITH(colx::table(std::move(columns2)),
                      Catch::Contains("equal lengths: column 0 has 3 rows, column 2 has 1"));

    auto const a = colx::make_column(std::vector<std::int32_t>{1, 2, 3}, {}, mr.ref());
    auto const b = colx::make_column(std::vector<std::int32_t>{1, 2, 3, 4}, {}, mr.ref());
    CHECK_THROWS_WITH(colx::table_view({a, b}), Catch::Contains("column 1 has 4"));
    // A slice to the same length makes them fit.
    CHECK(colx::table_view({a, b.view().slice(1, 4)}).num_rows() == 3);
  }
  CHECK(mr.outstanding_bytes() == 0);
  CHECK(mr.outstanding_allocations() == 0);
}

TEST_CASE("table: columns, select and slice", "[column][table]") {
  auto const ints = nullable_values(100);
  optionals<double> doubles(100);
  for (std::size_t i = 0; i < doubles.size(); ++i) {
    if (i % 4 != 3) { doubles[i] = static_cast<double>(i) / 4; }
  }
  std::vector<colx::any_column> columns;
  columns.push_back(colx::make_column(ints, {}, backend_resource()).release());
  columns.push_back(colx::make_column(doubles, {}, backend_resource()).release());
  columns.push_back(colx::sequence<std::int64_t>(100, 0, 2, {}, backend_resource()).release());
  auto const* first_data = columns[0].data().read();
  colx::table const t(std::move(columns));
  CHECK(t.num_rows() == 100);
  CHECK(t.num_columns() == 3);
  CHECK(t.column(1).type().id() == colx::type_id::float64);
  CHECK_THROWS_AS(t.column(3), colx::out_of_range);
  CHECK_THROWS_WITH(t.column(7), Catch::Contains("column 7 of a table with 3 columns"));

  colx::table_view const v = t;
  CHECK(v.num_rows() == 100);
  CHECK(v.num_columns() == 3);
  CHECK(v.column(0).head() == first_data);
  CHECK_THROWS_AS(v.column(3), colx::out_of_range);
  std::size_t count = 0;
  for (auto const& c : v) {
    CHECK(c.size() == 100);
    ++count;
  }
  CHECK(count == 3);

  auto const picked = v.select({2, 0, 0});
  CHECK(picked.num_columns() == 3);
  CHECK(picked.column(0).type().id() == colx::type_id::int64);
  CHECK(picked.column(1).head() == first_data);
  CHECK(picked.column(2).head() == first_data);
  CHECK(v.select({}).num_columns() == 0);
  CHECK_THROWS_AS(v.select({0, 3}), colx::out_of_range);

  auto const s = v.slice(33, 97);
  CHECK(s.num_rows() == 64);
  CHECK(s.column(0).offset() == 33);
  CHECK(s.column(0).head() == first_data);
  CHECK(s.column(0).null_count() == nulls_in(sub(ints, 33, 97)));
  CHECK(s.column(1).null_count() == nulls_in(sub(doubles, 33, 97)));
  CHECK(s.column(2).null_count() == 0);
  CHECK(colx::to_optional_vector(s.column(0).as<std::int32_t>()) == sub(ints, 33, 97));
  CHECK(colx::to_optional_vector(s.column(1).as<double>()) == sub(doubles, 33, 97));
  CHECK(colx::to_vector(s.column(2).as<std::int64_t>()).front() == 66);
  CHECK(v.slice(3, 3).num_rows() == 0);
  CHECK_THROWS_AS(v.slice(50, 101), colx::out_of_range);
  CHECK_THROWS_WITH(v.slice(50, 101), Catch::Contains("slice [50, 101) is outside a column of 100 rows"));

  // A selection of a slice, and a slice of a selection, agree.
  auto const a = v.slice(1, 64).select({1});
  auto const b = v.select({1}).slice(1, 64);
  CHECK(a.column(0).offset() == b.column(0).offset());
  CHECK(a.column(0).null_count() == b.column(0).null_count());

  colx::table_view const empty;
  CHECK(empty.num_rows() == 0);
  CHECK(empty.num_columns() == 0);
  CHECK(empty.slice(0, 0).num_columns() == 0);
  colx::table const empty_table;
  CHECK(empty_table.num_rows() == 0);
}

TEST_CASE("table: release gives the columns back", "[column][table]") {
  std::vector<colx::any_column> columns;
  columns.push_back(colx::sequence<std::int32_t>(10, 0, 1, {}, backend_resource()).release());
  columns.push_back(colx::fill<float>(10, 1.5f, {}, backend_resource()).release());
  colx::table t(std::move(columns));
  auto back = std::move(t).release();
  REQUIRE(back.size() == 2);
  colx::column<float> f(std::move(back[1]));
  CHECK(colx::to_vector(f.view()) == std::vector<float>(10, 1.5f));
}
