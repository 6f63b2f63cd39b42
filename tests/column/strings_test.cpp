// SPDX-License-Identifier: Apache-2.0
// Strings columns: make_strings_column with int32 and int64 offsets, nulls, empty strings, UTF-8,
// zero-copy slices, strings_column_view::visit / device_view, and to_strings.
#include "support/backend.hpp"

#include <catch2/catch.hpp>

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <type_traits>
#include <vector>

namespace {

using colx::size_type;
using colx::test::backend_kind;
using colx::test::backend_resource;
using colx::test::tracked_resource;

using strings = std::vector<std::optional<std::string>>;

strings sub(strings const& v, size_type begin, size_type end) { return strings(v.begin() + begin, v.begin() + end); }

size_type nulls_in(strings const& v) {
  size_type n = 0;
  for (auto const& s : v) { n += s ? 0 : 1; }
  return n;
}

std::size_t chars_in(strings const& v) {
  std::size_t n = 0;
  for (auto const& s : v) { n += s ? s->size() : 0; }
  return n;
}

// n rows mixing ASCII, multi-byte UTF-8, empty strings and nulls.
strings mixed(std::size_t n) {
  static char const* const words[] = {"a", "", "héllo", "日本語", "🙂 ok", "xyzzy", "Ωmega", "tab\tnl\n"};
  strings out(n);
  for (std::size_t i = 0; i < n; ++i) {
    if (i % 5 == 3 || i % 11 == 0) { continue; }
    out[i] = std::string(words[i % 8]) + (i % 2 == 0 ? std::to_string(i) : std::string());
  }
  return out;
}

// Code points of UTF-8 text: bytes that do not continue a sequence.
size_type code_points(std::string const& s) {
  size_type n = 0;
  for (unsigned char c : s) { n += (c & 0xC0u) != 0x80u; }
  return n;
}

// Runs on the backend (device or host): writes each row's code-point count, or -1 for null.
template <class Offset>
struct lengths_fn {
  colx::strings_device_view<Offset> view;
  size_type* out;
  COLX_HOST_DEVICE void operator()(size_type i) const { out[i] = view.is_null(i) ? -1 : view.value(i).length(); }
};

struct lengths_visitor {
  size_type* out;
  colx::memory_kind kind;
  template <class DeviceView>
  int operator()(DeviceView const& dv) const {
    using Offset = std::remove_cv_t<std::remove_pointer_t<decltype(dv.offsets)>>;
    colx::on_backend(kind, {}, [&](auto const& exec) { exec.for_each_n(dv.size, lengths_fn<Offset>{dv, out}); });
    return static_cast<int>(sizeof(Offset));
  }
};

// Row lengths computed on the backend that owns the column, into memory of the same kind.
std::vector<size_type> backend_lengths(colx::strings_column_view const& view, int expected_offset_bytes) {
  colx::uvector<size_type> out(view.size(), {}, colx::get_current_resource(view.kind()));
  CHECK(view.visit(lengths_visitor{out.data(), view.kind()}) == expected_offset_bytes);
  return out.to_host();
}

std::vector<size_type> reference_lengths(strings const& v) {
  std::vector<size_type> out;
  for (auto const& s : v) { out.push_back(s ? code_points(*s) : -1); }
  return out;
}

}  // namespace

TEST_CASE("strings: make_strings_column with int32 and int64 offsets", "[column][strings]") {
  auto const offset_type = GENERATE(colx::type_id::int32, colx::type_id::int64);
  INFO("offsets " << colx::to_string(offset_type));
  tracked_resource mr;
  {
    strings const values{"one", "two", std::nullopt, "", "three"};
    auto const c = colx::make_strings_column(values, offset_type, {}, mr.ref());
    CHECK(c.size() == 5);
    CHECK(c.null_count() == 1);
    CHECK(c.nullable());
    CHECK(c.kind() == backend_kind());
    CHECK(c.chars_size() == 11);
    CHECK(c.untyped().type().id() == colx::type_id::string);
    REQUIRE(c.untyped().children().size() == 1);
    CHECK(c.untyped().children()[0].type().id() == offset_type);
    CHECK(c.untyped().children()[0].size() == 6);

    auto const v = c.view();
    CHECK(v.offset_type() == offset_type);
    CHECK(v.offset() == 0);
    CHECK(colx::to_strings(v) == values);

    // The offsets are Arrow's: 0, 3, 6, 6 (null row: empty), 6, 11.
    std::vector<std::int64_t> offsets;
    if (offset_type == colx::type_id::int32) {
      for (auto o : colx::to_vector(c.untyped().children()[0].view().as<std::int32_t>())) { offsets.push_back(o); }
      CHECK_THROWS_AS(v.offsets_head<std::int64_t>(), colx::schema_error);
      CHECK_THROWS_WITH(v.offsets_head<std::int64_t>(), Catch::Contains("strings offsets are int32, not int64"));
    } else {
      offsets = colx::to_vector(c.untyped().children()[0].view().as<std::int64_t>());
      CHECK_THROWS_WITH(v.offsets_head<std::int32_t>(), Catch::Contains("strings offsets are int64, not int32"));
    }
    CHECK(offsets == std::vector<std::int64_t>{0, 3, 6, 6, 6, 11});
  }
  CHECK(mr.outstanding_bytes() == 0);
  CHECK(mr.outstanding_allocations() == 0);
}

TEST_CASE("strings: nulls, empty strings and UTF-8", "[column][strings]") {
  auto const offset_type = GENERATE(colx::type_id::int32, colx::type_id::int64);
  INFO("offsets " << colx::to_string(offset_type));
  SECTION("no nulls: no mask") {
    strings const values{"α", "β", "", "🙂"};
    auto const c = colx::make_strings_column(values, offset_type, {}, backend_resource());
    CHECK_FALSE(c.nullable());
    CHECK(c.null_count() == 0);
    CHECK(c.chars_size() == 2 + 2 + 4);
    CHECK(colx::to_strings(c) == values);
  }
  SECTION("all null") {
    strings const values(70);
    auto const c = colx::make_strings_column(values, offset_type, {}, backend_resource());
    CHECK(c.null_count() == 70);
    CHECK(c.chars_size() == 0);
    CHECK(colx::to_strings(c) == values);
    CHECK(colx::to_strings(c.view().slice(33, 65)) == strings(32));
  }
  SECTION("all empty strings") {
    strings const values(65, std::string());
    auto const c = colx::make_strings_column(values, offset_type, {}, backend_resource());
    CHECK_FALSE(c.nullable());
    CHECK(c.chars_size() == 0);
    CHECK(colx::to_strings(c) == values);
  }
  SECTION("no rows") {
    auto const c = colx::make_strings_column({}, offset_type, {}, backend_resource());
    CHECK(c.size() == 0);
    CHECK(c.empty());
    CHECK(c.chars_size() == 0);
    CHECK(c.untyped().children()[0].size() == 1);
    CHECK(colx::to_strings(c).empty());
    CHECK(c.view().visit([](auto const& dv) { return dv.size; }) == 0);
  }
  SECTION("one row") {
    auto const c = colx::make_strings_column({"only"}, offset_type, {}, backend_resource());
    CHECK(colx::to_strings(c) == strings{"only"});
    auto const n = colx::make_strings_column({std::nullopt}, offset_type, {}, backend_resource());
    CHECK(n.null_count() == 1);
    CHECK(colx::to_strings(n) == strings{std::nullopt});
  }
  SECTION("bytes are kept as they are, embedded NUL included") {
    strings const values{std::string("a\0b", 3), std::string("\xff\xfe", 2), "z"};
    auto const c = colx::make_strings_column(values, offset_type, {}, backend_resource());
    CHECK(c.chars_size() == 6);
    CHECK(colx::to_strings(c) == values);
  }
  SECTION("many rows") {
    auto const values = mixed(4097);
    auto const c = colx::make_strings_column(values, offset_type, {}, backend_resource());
    CHECK(c.null_count() == nulls_in(values));
    CHECK(static_cast<std::size_t>(c.chars_size()) == chars_in(values));
    CHECK(colx::to_strings(c) == values);
  }
}

TEST_CASE("strings: slices at odd offsets", "[column][strings]") {
  auto const offset_type = GENERATE(colx::type_id::int32, colx::type_id::int64);
  INFO("offsets " << colx::to_string(offset_type));
  auto const values = mixed(1000);
  auto const c = colx::make_strings_column(values, offset_type, {}, backend_resource());
  auto const view = c.view();
  for (size_type begin : {0, 1, 3, 31, 32, 33, 63, 64, 65, 999, 1000}) {
    for (size_type length : {0, 1, 31, 33, 100, 900}) {
      size_type const end = begin + length;
      if (end > 1000) { continue; }
      INFO("slice [" << begin << ", " << end << ")");
      auto const s = view.slice(begin, end);
      CHECK(s.size() == length);
      CHECK(s.offset() == begin);
      CHECK(s.chars() == view.chars());  // zero-copy
      CHECK(s.null_mask() == view.null_mask());
      CHECK(s.offset_type() == offset_type);
      CHECK(s.null_count() == nulls_in(sub(values, begin, end)));
      CHECK(colx::to_strings(s) == sub(values, begin, end));
    }
  }
  // Slices of slices.
  auto const inner = view.slice(31, 900).slice(33, 500);  // rows [64, 531)
  CHECK(inner.offset() == 64);
  CHECK(inner.null_count() == nulls_in(sub(values, 64, 531)));
  CHECK(colx::to_strings(inner) == sub(values, 64, 531));
  CHECK_THROWS_AS(view.slice(5, 1001), colx::out_of_range);
  CHECK_THROWS_WITH(view.slice(7, 3), Catch::Contains("slice [7, 3) is outside a column of 1000 rows"));
}

TEST_CASE("strings: device_view and visit", "[column][strings]") {
  auto const offset_type = GENERATE(colx::type_id::int32, colx::type_id::int64);
  int const offset_bytes = offset_type == colx::type_id::int32 ? 4 : 8;
  INFO("offsets " << colx::to_string(offset_type));
  auto const values = mixed(300);
  auto const c = colx::make_strings_column(values, offset_type, {}, backend_resource());

  SECTION("the device view points into the column, with the slice offset applied") {
    auto const s = c.view().slice(33, 290);
    s.visit([&](auto const& dv) {
      using Offset = std::remove_cv_t<std::remove_pointer_t<decltype(dv.offsets)>>;
      CHECK(sizeof(Offset) == static_cast<std::size_t>(offset_bytes));
      CHECK(dv.offsets == s.offsets_head<Offset>() + 33);
      CHECK(dv.chars == c.view().chars());
      CHECK(dv.mask == c.view().null_mask());
      CHECK(dv.mask_offset == 33);
      CHECK(dv.size == 257);
      CHECK(dv.nullable());
      return 0;
    });
    auto const empty = c.view().slice(10, 10);
    CHECK(empty.visit([](auto const& dv) { return dv.offsets == nullptr && dv.size == 0; }));
  }
  SECTION("a functor reads every row on the backend") {
    CHECK(backend_lengths(c.view(), offset_bytes) == reference_lengths(values));
    CHECK(backend_lengths(c.view().slice(63, 257), offset_bytes) == reference_lengths(sub(values, 63, 257)));
    CHECK(backend_lengths(c.view().slice(1, 2), offset_bytes) == reference_lengths(sub(values, 1, 2)));
  }
  SECTION("on the host, the device view reads values directly") {
    auto const h = colx::make_strings_column(values, offset_type, {}, colx::get_current_host_resource());
    auto const s = h.view().slice(3, 299);
    s.visit([&](auto const& dv) {
      for (size_type i = 0; i < dv.size; ++i) {
        auto const& expected = values[static_cast<std::size_t>(3 + i)];
        CHECK(dv.is_valid(i) == expected.has_value());
        CHECK(dv.is_null(i) == !expected.has_value());
        auto const sv = dv.value(i);
        if (expected) {
          CHECK(std::string(sv.data(), static_cast<std::size_t>(sv.size_bytes())) == *expected);
          CHECK(sv.length() == code_points(*expected));
        } else {
          CHECK(sv.empty());  // colx writes no bytes for a null row
        }
      }
      return 0;
    });
    CHECK(backend_lengths(h.view(), offset_bytes) == reference_lengths(values));
  }
}

TEST_CASE("strings: checked casts and bad offsets", "[column][strings][errors]") {
  tracked_resource mr;
  {
    auto ints = colx::make_column(std::vector<std::int32_t>{1, 2}, {}, mr.ref());
    colx::any_column_view const iv = ints;
    CHECK_THROWS_AS(colx::strings_column_view(iv), colx::schema_error);
    CHECK_THROWS_WITH(colx::strings_column_view(iv), Catch::Contains("column has type int32, not string"));
    CHECK_THROWS_WITH(colx::strings_column(std::move(ints).release()), Catch::Contains("not string"));

    CHECK_THROWS_AS(colx::make_strings_column({"a"}, colx::type_id::int16, {}, mr.ref()), colx::logic_error);
    CHECK_THROWS_WITH(colx::make_strings_column({"a"}, colx::type_id::uint32, {}, mr.ref()),
                      Catch::Contains("strings offsets must be int32 or int64, not uint32"));

    // The untyped view of a strings column is a strings column view again.
    auto const s = colx::make_strings_column({"x", std::nullopt, "yz"}, colx::type_id::int32, {}, mr.ref());
    colx::any_column_view const u = s;
    CHECK(u.type().id() == colx::type_id::string);
    CHECK(u.children().size() == 1);
    CHECK_THROWS_AS(u.as<std::int32_t>(), colx::schema_error);
    colx::strings_column_view const back(u.slice(1, 3));
    CHECK(back.offset() == 1);
    CHECK(colx::to_strings(back) == strings{std::nullopt, "yz"});

    // A strings view whose offsets cannot describe its rows.
    auto const offsets_view = s.untyped().children()[0].view();
    CHECK_THROWS_WITH(colx::any_column_view(colx::data_type{colx::type_id::string}, 3, s.view().chars(), backend_kind(),
                                            nullptr, 0, 1, {offsets_view}),
                      Catch::Contains("strings offsets of 4 rows cannot describe rows [1, 4)"));
    CHECK_THROWS_WITH(colx::any_column_view(colx::data_type{colx::type_id::string}, 3, s.view().chars(), backend_kind(),
                                            nullptr, 0),
                      Catch::Contains("needs one child (its offsets), not 0"));
  }
  CHECK(mr.outstanding_bytes() == 0);
  CHECK(mr.outstanding_allocations() == 0);
}

TEST_CASE("strings: a default strings view is empty", "[column][strings]") {
  colx::strings_column_view const v;
  CHECK(v.size() == 0);
  CHECK(v.empty());
  CHECK(v.offset_type() == colx::type_id::int32);
  CHECK(colx::to_strings(v).empty());
  CHECK(v.slice(0, 0).empty());
  CHECK_THROWS_AS(v.slice(0, 1), colx::out_of_range);
}

TEST_CASE("strings: string_view", "[column][strings]") {
  std::string const text = "añb🙂";
  colx::string_view const sv(text.data(), static_cast<size_type>(text.size()));
  CHECK(sv.size_bytes() == 8);
  CHECK(sv.length() == 4);
  CHECK_FALSE(sv.empty());
  colx::string_view const a("abc", 3);
  colx::string_view const ab("ab", 2);
  colx::string_view const abd("abd", 3);
  CHECK(ab < a);
  CHECK(a < abd);
  CHECK(a == colx::string_view("abcdef", 3));
  CHECK(a != abd);
  CHECK(a.compare(a) == 0);
  // Byte order is code-point order: 'z' (0x7A) before 'é' (0xC3 0xA9).
  CHECK(colx::string_view("z", 1) < colx::string_view("é", 2));
  CHECK(colx::string_view().empty());
  CHECK(colx::string_view().length() == 0);
}

TEST_CASE("strings: make_fixed_width_strings knows its strings' size", "[column][strings]") {
  tracked_resource mr;
  {
    for (size_type const width : {0, 1, 3}) {
      for (size_type const n : {0, 1, 7, 33, 1000}) {
        CAPTURE(width, n);
        // Row i's bytes are 'a' + (i + b) % 26 for b < width; every fifth row null.
        std::string bytes;
        strings want;
        for (size_type i = 0; i < n; ++i) {
          std::string s;
          for (size_type b = 0; b < width; ++b) { s += static_cast<char>('a' + (i + b) % 26); }
          bytes += s;
          want.push_back(i % 5 == 4 ? std::nullopt : std::optional<std::string>(s));
        }
        auto [words, nulls] = colx::detail::host_bitmask(n, [&](size_type i) { return i % 5 != 4; });
        CHECK(nulls == nulls_in(want));
        colx::buffer mask(words.data(), colx::memory_kind::host, words.size() * sizeof(colx::bitmask_type), {}, mr.ref());
        colx::buffer chars(bytes.data(), colx::memory_kind::host, bytes.size(), {}, mr.ref());
        auto const c = colx::make_fixed_width_strings(n, width, std::move(chars), std::move(mask), nulls, {}, mr.ref());
        CHECK(c.size() == n);
        CHECK(c.null_count() == nulls);
        CHECK(c.uniform_bytes() == width);
        CHECK(c.view().uniform_bytes() == width);
        CHECK(c.view().offset_type() == colx::type_id::int32);
        CHECK(colx::to_strings(c.view()) == want);
        // Offsets 0, width, 2 width, ...: an ordinary strings column to every other reader.
        auto const offsets = colx::to_vector(c.untyped().children()[0].view().as<std::int32_t>());
        std::size_t bad = 0;
        for (size_type i = 0; i <= n; ++i) { bad += offsets[static_cast<std::size_t>(i)] == i * width ? 0 : 1; }
        CHECK(bad == 0);
        // Slices and copies stay fixed-width.
        size_type const begin = n / 3;
        size_type const end = n - n / 5;
        auto const s = c.view().slice(begin, end);
        CHECK(s.uniform_bytes() == width);
        CHECK(colx::to_strings(s) == sub(want, begin, end));
        auto const copied = colx::strings_column(colx::copy(colx::any_column_view(s), {}, mr.ref()));
        CHECK(copied.uniform_bytes() == width);
        CHECK(colx::to_strings(copied.view()) == sub(want, begin, end));
        // A column whose offsets may be rewritten no longer claims it.
        auto untyped = c.untyped();
        CHECK(untyped.uniform_bytes() == width);
        (void)untyped.mutable_children();
        CHECK(untyped.uniform_bytes() == -1);
      }
    }
    // Concatenating strings of one size keeps the size; of different sizes, or with ordinary
    // strings, not.
    auto const one = colx::make_fixed_width_strings(3, 1, colx::buffer("abc", colx::memory_kind::host, 3, {}, mr.ref()), {}, 0, {}, mr.ref());
    auto const two = colx::make_fixed_width_strings(2, 2, colx::buffer("wxyz", colx::memory_kind::host, 4, {}, mr.ref()), {}, 0, {}, mr.ref());
    auto const plain = colx::make_strings_column({"d", "e"}, colx::type_id::int32, {}, mr.ref());
    std::vector<colx::any_column_view> const same{one.view(), one.view().slice(1, 3)};
    auto const joined = colx::strings_column(colx::concatenate(same, {}, mr.ref()));
    CHECK(joined.uniform_bytes() == 1);
    CHECK(colx::to_strings(joined.view()) == strings{"a", "b", "c", "b", "c"});
    std::vector<colx::any_column_view> const mixed_sizes{one.view(), two.view()};
    CHECK(colx::strings_column(colx::concatenate(mixed_sizes, {}, mr.ref())).uniform_bytes() == -1);
    std::vector<colx::any_column_view> const with_plain{one.view(), plain.view()};
    auto const mixed_kinds = colx::strings_column(colx::concatenate(with_plain, {}, mr.ref()));
    CHECK(mixed_kinds.uniform_bytes() == -1);
    CHECK(colx::to_strings(mixed_kinds.view()) == strings{"a", "b", "c", "d", "e"});
    CHECK(plain.uniform_bytes() == -1);

    // Bad input.
    CHECK_THROWS_WITH(colx::make_fixed_width_strings(4, 1, colx::buffer("abc", colx::memory_kind::host, 3, {}, mr.ref()), {}, 0, {},
                                                     mr.ref()),
                      Catch::Contains("chars of 3 bytes cannot hold 4 strings of 1 bytes"));
    CHECK_THROWS_WITH(colx::make_fixed_width_strings(2, -1, colx::buffer(0, {}, mr.ref()), {}, 0, {}, mr.ref()),
                      Catch::Contains("not negative (2 rows of -1 bytes)"));
    auto ints = colx::make_column(std::vector<std::int32_t>{1, 2}, {}, mr.ref()).release();
    CHECK_THROWS_WITH(ints.set_uniform_bytes(1, colx::detail::built_uniform_offsets{}), Catch::Contains("only a strings column"));
  }
  CHECK(mr.outstanding_bytes() == 0);
  CHECK(mr.outstanding_allocations() == 0);
}

TEST_CASE("strings: a fixed-width column's input view finds rows without offsets", "[column][strings]") {
  // On the host, where the test can call the view itself: a slice at an odd row.
  auto const host = colx::get_current_resource(colx::memory_kind::host);
  std::string const bytes = "AFNORFAFNONO";  // six 2-byte strings
  auto const c = colx::make_fixed_width_strings(6, 2, colx::buffer(bytes.data(), colx::memory_kind::host, bytes.size(), {}, host), {},
                                                0, {}, host);
  auto const in = colx::input_view(c.view().slice(1, 5));
  CHECK(in.width == 2);
  std::vector<std::string> got;
  for (size_type i = 0; i < 4; ++i) { got.emplace_back(in.value(i).data(), static_cast<std::size_t>(in.value(i).size_bytes())); }
  CHECK(got == std::vector<std::string>{"NO", "RF", "AF", "NO"});
  auto const plain = colx::make_strings_column({"AF", "NO", "RF"}, colx::type_id::int32, {}, host);
  CHECK(colx::input_view(plain.view()).width == -1);
}

TEST_CASE("strings: a fixed-width column stays one across the bus", "[column][strings]") {
  if (!colx::has_cuda) { return; }
  auto const c = colx::make_fixed_width_strings(4, 1, colx::buffer("NORF", colx::memory_kind::host, 4, {}, backend_resource()), {}, 0,
                                                {}, backend_resource());
  auto const host = colx::copy(c, {}, colx::get_current_resource(colx::memory_kind::host));
  CHECK(host.uniform_bytes() == 1);
  auto const back = colx::copy(host.view().slice(1, 4), {}, backend_resource());
  CHECK(back.uniform_bytes() == 1);
  CHECK(colx::to_strings(back.view()) == strings{"O", "R", "F"});
}

TEST_CASE("strings: make_column<std::string> makes a strings column", "[column][strings]") {
  auto const mr = backend_resource();
  for (std::size_t n : {0u, 1u, 5u, 33u}) {
    CAPTURE(n);
    strings const want = mixed(n);
    auto const c = colx::make_column<std::string>(want, {}, mr);
    STATIC_REQUIRE(std::is_same_v<std::remove_cvref_t<decltype(c)>, colx::strings_column>);
    CHECK(c.size() == static_cast<size_type>(n));
    CHECK(c.null_count() == nulls_in(want));
    CHECK(c.kind() == backend_kind());
    CHECK(colx::to_strings(c.view()) == want);
  }
  std::vector<std::string> const plain{"x", "", "héllo"};
  auto const p = colx::make_column<std::string>(plain, {}, mr);
  CHECK(p.null_count() == 0);
  CHECK(colx::to_strings(p.view()) == strings{"x", "", "héllo"});
  CHECK(colx::to_strings(colx::make_column(plain, {}, mr).view()) == strings{"x", "", "héllo"});  // deduced
  CHECK(colx::to_strings(colx::make_column<std::string>({"a", std::nullopt, "c"}, {}, mr).view()) ==
        strings{"a", std::nullopt, "c"});
  CHECK(colx::to_strings(colx::make_column<colx::string_view>({"only"}, {}, mr).view()) == strings{"only"});
  CHECK(colx::make_column<std::string>(std::vector<std::string>{}, {}, mr).empty());
}
