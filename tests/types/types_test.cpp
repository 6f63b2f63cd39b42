// SPDX-License-Identifier: Apache-2.0
// colx/types: data_type and type ids, the compile-time mapping, type_dispatch and size_of, dates
// and times, decimals, string_view.
#include "support/backend.hpp"

#include <catch2/catch.hpp>

#include <algorithm>
#include <array>
#include <cstdint>
#include <memory>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

namespace {

constexpr auto num_ids = static_cast<std::size_t>(colx::type_id::num_type_ids);

// Every id with an element type (all but empty and dictionary, whose elements are a code and a
// value), with the expected element size (0: not fixed width).
struct id_info {
  colx::type_id id;
  char const* name;
  std::size_t size;
};
constexpr std::array<id_info, num_ids - 2> all_ids{{
    {colx::type_id::bool8, "bool8", 1},
    {colx::type_id::int8, "int8", 1},
    {colx::type_id::int16, "int16", 2},
    {colx::type_id::int32, "int32", 4},
    {colx::type_id::int64, "int64", 8},
    {colx::type_id::uint8, "uint8", 1},
    {colx::type_id::uint16, "uint16", 2},
    {colx::type_id::uint32, "uint32", 4},
    {colx::type_id::uint64, "uint64", 8},
    {colx::type_id::float32, "float32", 4},
    {colx::type_id::float64, "float64", 8},
    {colx::type_id::timestamp_days, "timestamp[days]", 4},
    {colx::type_id::timestamp_seconds, "timestamp[s]", 8},
    {colx::type_id::timestamp_milliseconds, "timestamp[ms]", 8},
    {colx::type_id::timestamp_microseconds, "timestamp[us]", 8},
    {colx::type_id::timestamp_nanoseconds, "timestamp[ns]", 8},
    {colx::type_id::duration_days, "duration[days]", 4},
    {colx::type_id::duration_seconds, "duration[s]", 8},
    {colx::type_id::duration_milliseconds, "duration[ms]", 8},
    {colx::type_id::duration_microseconds, "duration[us]", 8},
    {colx::type_id::duration_nanoseconds, "duration[ns]", 8},
    {colx::type_id::decimal32, "decimal32", 4},
    {colx::type_id::decimal64, "decimal64", 8},
    {colx::type_id::decimal128, "decimal128", 16},
    {colx::type_id::string, "string", 0},
}};

// type_to_id<id_to_type<Id>> == Id for every id but empty and dictionary (the last).
template <std::size_t... I>
constexpr bool round_trips(std::index_sequence<I...>) {
  return ((colx::type_to_id<colx::id_to_type<static_cast<colx::type_id>(I + 1)>> == static_cast<colx::type_id>(I + 1)) &&
          ...);
}
static_assert(round_trips(std::make_index_sequence<num_ids - 2>{}));
static_assert(colx::type_id::dictionary == static_cast<colx::type_id>(num_ids - 1));

// What type_dispatch hands the functor, seen from inside.
struct report_type {
  template <class T>
  std::pair<colx::type_id, std::size_t> operator()(int& calls, int offset) const {
    calls += offset;
    return {colx::type_to_id<T>, sizeof(T)};
  }
};

// A move-only functor, called as an rvalue.
struct move_only_functor {
  std::unique_ptr<int> state = std::make_unique<int>(5);
  move_only_functor() = default;
  move_only_functor(move_only_functor&&) = default;
  template <class T>
  int operator()() && {
    return *state + static_cast<int>(sizeof(T));
  }
};

colx::string_view sv(char const* s) { return {s, static_cast<colx::size_type>(std::char_traits<char>::length(s))}; }

// Days since 1970-01-01 by counting, as a reference for date(): no formula shared with the header.
bool is_leap(int y) { return (y % 4 == 0 && y % 100 != 0) || y % 400 == 0; }
unsigned days_in_month(int y, unsigned m) {
  constexpr unsigned days[] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
  return m == 2 && is_leap(y) ? 29 : days[m - 1];
}

// Functors for the backend check of date(): named, with host-device call operators.
struct civil_round_trip {
  colx::date32* out;
  colx::size_type first_day;
  COLX_HOST_DEVICE void operator()(colx::size_type i) const {
    auto const c = colx::to_civil(colx::date32(static_cast<std::int32_t>(first_day + i)));
    out[i] = colx::date(c.year, c.month, c.day);
  }
};
struct mismatch_count {
  colx::date32 const* out;
  colx::size_type first_day;
  COLX_HOST_DEVICE std::int64_t operator()(colx::size_type i) const { return out[i].ticks != first_day + i ? 1 : 0; }
};
struct plus {
  template <class A>
  COLX_HOST_DEVICE A operator()(A a, A b) const {
    return a + b;
  }
};

}  // namespace

// ---- ids and data_type ---------------------------------------------------------------------------

TEST_CASE("types: type id names", "[types]") {
  CHECK(std::string(colx::to_string(colx::type_id::empty)) == "empty");
  for (auto const& info : all_ids) {
    CAPTURE(info.name);
    CHECK(std::string(colx::to_string(info.id)) == info.name);
  }
  CHECK(std::string(colx::to_string(colx::type_id::num_type_ids)) == "invalid");
  CHECK(std::string(colx::to_string(static_cast<colx::type_id>(200))) == "invalid");
}

TEST_CASE("types: data_type", "[types]") {
  constexpr colx::data_type none;
  STATIC_REQUIRE(none.id() == colx::type_id::empty);
  STATIC_REQUIRE(none.scale() == 0);
  STATIC_REQUIRE(colx::data_type(colx::type_id::int32) == colx::data_type(colx::type_id::int32));
  STATIC_REQUIRE(colx::data_type(colx::type_id::int32) != colx::data_type(colx::type_id::int64));
  // The scale matters for decimals only.
  STATIC_REQUIRE(colx::data_type(colx::type_id::int32, 3) == colx::data_type(colx::type_id::int32));
  STATIC_REQUIRE(colx::data_type(colx::type_id::decimal64, -2) == colx::data_type(colx::type_id::decimal64, -2));
  STATIC_REQUIRE(colx::data_type(colx::type_id::decimal64, -2) != colx::data_type(colx::type_id::decimal64, -3));
  STATIC_REQUIRE(colx::data_type(colx::type_id::decimal32, -2) != colx::data_type(colx::type_id::decimal64, -2));
  STATIC_REQUIRE(colx::data_type(colx::type_id::decimal128, 0) == colx::data_type(colx::type_id::decimal128));

  CHECK(colx::data_type(colx::type_id::float64).to_string() == "float64");
  CHECK(colx::data_type(colx::type_id::decimal64, -2).to_string() == "decimal64(scale -2)");
  CHECK(colx::data_type(colx::type_id::decimal128, 4).to_string() == "decimal128(scale 4)");
  CHECK(colx::data_type(colx::type_id::int8, 4).to_string() == "int8");
  CHECK(none.to_string() == "empty");

  STATIC_REQUIRE(colx::data_type::is_decimal(colx::type_id::decimal32));
  STATIC_REQUIRE_FALSE(colx::data_type::is_decimal(colx::type_id::int32));
  STATIC_REQUIRE(colx::is_fixed_width(colx::type_id::bool8));
  STATIC_REQUIRE(colx::is_fixed_width(colx::type_id::decimal128));
  STATIC_REQUIRE_FALSE(colx::is_fixed_width(colx::type_id::string));
  STATIC_REQUIRE_FALSE(colx::is_fixed_width(colx::type_id::empty));
}

TEST_CASE("types: type_to_id and id_to_type", "[types]") {
  STATIC_REQUIRE(colx::type_to_id<bool> == colx::type_id::bool8);
  STATIC_REQUIRE(colx::type_to_id<std::int8_t> == colx::type_id::int8);
  STATIC_REQUIRE(colx::type_to_id<std::uint64_t> == colx::type_id::uint64);
  STATIC_REQUIRE(colx::type_to_id<double> == colx::type_id::float64);
  STATIC_REQUIRE(colx::type_to_id<colx::date32> == colx::type_id::timestamp_days);
  STATIC_REQUIRE(colx::type_to_id<colx::timestamp_ns> == colx::type_id::timestamp_nanoseconds);
  STATIC_REQUIRE(colx::type_to_id<colx::duration_ms> == colx::type_id::duration_milliseconds);
  STATIC_REQUIRE(colx::type_to_id<colx::decimal128> == colx::type_id::decimal128);
  STATIC_REQUIRE(colx::type_to_id<colx::string_view> == colx::type_id::string);

  STATIC_REQUIRE(std::is_same_v<colx::id_to_type<colx::type_id::int16>, std::int16_t>);
  STATIC_REQUIRE(std::is_same_v<colx::id_to_type<colx::type_id::float32>, float>);
  STATIC_REQUIRE(std::is_same_v<colx::id_to_type<colx::type_id::timestamp_days>, colx::date32>);
  STATIC_REQUIRE(std::is_same_v<colx::id_to_type<colx::type_id::duration_days>, colx::duration_days>);
  STATIC_REQUIRE(std::is_same_v<colx::id_to_type<colx::type_id::decimal32>, colx::decimal32>);
  STATIC_REQUIRE(std::is_same_v<colx::id_to_type<colx::type_id::string>, colx::string_view>);
  STATIC_REQUIRE(std::is_void_v<colx::id_to_type<colx::type_id::empty>>);

  STATIC_REQUIRE(colx::column_element<colx::timestamp_us>);
  STATIC_REQUIRE(colx::fixed_width_element<colx::decimal64>);
  STATIC_REQUIRE(colx::column_element<colx::string_view>);
  STATIC_REQUIRE_FALSE(colx::fixed_width_element<colx::string_view>);
  STATIC_REQUIRE_FALSE(colx::column_element<void>);
  STATIC_REQUIRE_FALSE(colx::column_element<std::string>);
  STATIC_REQUIRE_FALSE(colx::column_element<int*>);
  STATIC_REQUIRE_FALSE(colx::column_element<colx::civil_date>);
  using flags = colx::dictionary<colx::string_view, std::uint8_t>;
  STATIC_REQUIRE(colx::column_element<flags>);
  STATIC_REQUIRE_FALSE(colx::fixed_width_element<flags>);
  STATIC_REQUIRE(colx::type_to_id<flags> == colx::type_id::dictionary);
  STATIC_REQUIRE(colx::data_type_of<flags>().codes() == colx::type_id::uint8);
  STATIC_REQUIRE(std::is_same_v<colx::value_of_t<flags>, colx::string_view>);
  STATIC_REQUIRE(std::is_same_v<colx::stored_t<flags>, std::uint8_t>);
  STATIC_REQUIRE(std::is_same_v<colx::stored_t<double>, double>);
  STATIC_REQUIRE(colx::data_type_of<flags>() != colx::data_type::dictionary_of(colx::type_id::int32));
  CHECK(colx::data_type_of<flags>().to_string() == "dictionary(codes uint8)");
  CHECK(colx::size_of(colx::data_type_of<flags>()) == 1);

  STATIC_REQUIRE(colx::data_type_of<float>() == colx::data_type(colx::type_id::float32));
  STATIC_REQUIRE(colx::data_type_of<colx::decimal64>(-2) == colx::data_type(colx::type_id::decimal64, -2));
  STATIC_REQUIRE(colx::data_type_of<colx::decimal64>(-2).scale() == -2);
}

// ---- type_dispatch and size_of -------------------------------------------------------------------

TEST_CASE("types: type_dispatch calls the functor with the element type", "[types]") {
  int calls = 0;
  for (auto const& info : all_ids) {
    CAPTURE(info.name);
    auto const [id, size] = colx::type_dispatch(colx::data_type(info.id), report_type{}, calls, 10);
    CHECK(id == info.id);
    if (info.size != 0) { CHECK(size == info.size); }
  }
  CHECK(calls == 10 * static_cast<int>(all_ids.size()));
  // A decimal's scale does not change the type dispatched on.
  CHECK(colx::type_dispatch(colx::data_type(colx::type_id::decimal64, -4), report_type{}, calls, 0).first ==
        colx::type_id::decimal64);
  // The functor is forwarded: an rvalue-only call operator works.
  CHECK(colx::type_dispatch(colx::data_type(colx::type_id::int64), move_only_functor{}) == 13);
}

TEST_CASE("types: type_dispatch on a type without elements throws schema_error", "[types]") {
  int calls = 0;
  CHECK_THROWS_AS(colx::type_dispatch(colx::data_type(), report_type{}, calls, 1), colx::schema_error);
  CHECK_THROWS_WITH(colx::type_dispatch(colx::data_type(), report_type{}, calls, 1),
                    Catch::Contains("cannot dispatch on type empty"));
  CHECK_THROWS_WITH(colx::type_dispatch(colx::data_type(static_cast<colx::type_id>(99)), report_type{}, calls, 1),
                    Catch::Contains("cannot dispatch on type invalid"));
  CHECK_THROWS_AS(colx::type_dispatch(colx::data_type(colx::type_id::num_type_ids), report_type{}, calls, 1),
                  colx::schema_error);
  CHECK(calls == 0);
}

TEST_CASE("types: size_of", "[types]") {
  for (auto const& info : all_ids) {
    if (info.size == 0) { continue; }
    CAPTURE(info.name);
    CHECK(colx::size_of(colx::data_type(info.id)) == info.size);
  }
  CHECK(colx::size_of(colx::data_type(colx::type_id::decimal32, -3)) == 4);
  CHECK_THROWS_AS(colx::size_of(colx::data_type(colx::type_id::string)), colx::logic_error);
  CHECK_THROWS_WITH(colx::size_of(colx::data_type(colx::type_id::string)),
                    Catch::Contains("size_of needs a fixed-width type, not string"));
  CHECK_THROWS_WITH(colx::size_of(colx::data_type()), Catch::Contains("size_of needs a fixed-width type, not empty"));
}

// ---- dates and times -----------------------------------------------------------------------------

static_assert(colx::date(1970, 1, 1).ticks == 0);
static_assert(sizeof(colx::date32) == 4 && sizeof(colx::duration_days) == 4);
static_assert(sizeof(colx::timestamp_ns) == 8 && sizeof(colx::duration_s) == 8);
static_assert(std::is_trivially_copyable_v<colx::date32> && std::is_trivially_copyable_v<colx::timestamp_ms>);
static_assert(std::is_same_v<colx::date32::rep, std::int32_t> && std::is_same_v<colx::timestamp_us::rep, std::int64_t>);
static_assert(colx::timestamp_ms::unit == colx::time_unit::milliseconds);

TEST_CASE("types: date against known day counts", "[types]") {
  struct known {
    int year;
    unsigned month;
    unsigned day;
    std::int32_t days;
  };
  // From Python's datetime.date.toordinal() - 719163, and for years <= 0 from the proleptic rule.
  constexpr known cases[] = {
      {1970, 1, 1, 0},         {1969, 12, 31, -1},      {1970, 1, 2, 1},       {1972, 2, 29, 789},
      {1972, 3, 1, 790},       {1994, 1, 1, 8766},      {1995, 1, 1, 9131},    {1998, 9, 2, 10471},
      {2000, 1, 1, 10957},     {2000, 2, 29, 11016},    {2000, 3, 1, 11017},   {1900, 2, 28, -25509},
      {1900, 3, 1, -25508},    {2024, 2, 29, 19782},    {2038, 1, 19, 24855},  {1600, 2, 29, -135081},
      {1, 1, 1, -719162},      {9999, 12, 31, 2932896}, {0, 3, 1, -719468},    {0, 1, 1, -719528},
      {-1, 12, 31, -719529},
  };
  for (auto const& c : cases) {
    CAPTURE(c.year, c.month, c.day);
    CHECK(colx::date(c.year, c.month, c.day).ticks == c.days);
    auto const civil = colx::to_civil(colx::date32(c.days));
    CHECK(civil.year == c.year);
    CHECK(civil.month == c.month);
    CHECK(civil.day == c.day);
  }
}

TEST_CASE("types: date and to_civil agree with counting days, 1600 to 2400", "[types]") {
  // Walk forwards and backwards from the epoch one day at a time.
  std::int32_t days = 0;
  int mismatches = 0;
  for (int y = 1970; y <= 2400; ++y) {
    for (unsigned m = 1; m <= 12; ++m) {
      for (unsigned d = 1; d <= days_in_month(y, m); ++d, ++days) {
        auto const c = colx::to_civil(colx::date32(days));
        mismatches += colx::date(y, m, d).ticks != days || c.year != y || c.month != m || c.day != d;
      }
    }
  }
  days = -1;
  for (int y = 1969; y >= 1600; --y) {
    for (unsigned m = 12; m >= 1; --m) {
      for (unsigned d = days_in_month(y, m); d >= 1; --d, --days) {
        auto const c = colx::to_civil(colx::date32(days));
        mismatches += colx::date(y, m, d).ticks != days || c.year != y || c.month != m || c.day != d;
      }
    }
  }
  CHECK(mismatches == 0);
  CHECK(days == colx::date(1600, 1, 1).ticks - 1);
}

TEST_CASE("types: date round trip on the backend", "[types]") {
  colx::test::tracked_resource mr;
  {
    colx::size_type const n = 200003;  // about 550 years either side of the epoch
    colx::size_type const first = -100000;
    colx::uvector<colx::date32> out(n, colx::stream_ref{}, mr.ref());
    auto const mismatches = colx::on_backend(out.kind(), out.stream(), [&](auto const& exec) {
      exec.for_each_n(n, civil_round_trip{out.data(), first});
      return exec.transform_reduce(n, std::int64_t{0}, mismatch_count{out.data(), first}, plus{});
    });
    CHECK(mismatches == 0);
    CHECK(out.element(100000, colx::stream_ref{}) == colx::date32(0));
  }
  CHECK(mr.outstanding_bytes() == 0);
}

TEST_CASE("types: timestamp and duration arithmetic and order", "[types]") {
  constexpr colx::date32 a = colx::date(1994, 1, 1);
  constexpr colx::date32 b = colx::date(1995, 1, 1);
  STATIC_REQUIRE(b - a == colx::duration_days(365));
  STATIC_REQUIRE(a + colx::duration_days(365) == b);
  STATIC_REQUIRE(a < b);
  STATIC_REQUIRE(a <= b);
  STATIC_REQUIRE(b > a);
  STATIC_REQUIRE(b >= a);
  STATIC_REQUIRE(a != b);
  STATIC_REQUIRE(a <= a);
  STATIC_REQUIRE(a >= a);
  STATIC_REQUIRE_FALSE(a < a);

  constexpr colx::timestamp_ns t(1'000'000'000LL * 86'400 * 20'000);  // beyond 32 bits
  STATIC_REQUIRE(t.ticks == 1'728'000'000'000'000'000LL);
  STATIC_REQUIRE(t + colx::duration_ns(1) > t);
  STATIC_REQUIRE((t - colx::timestamp_ns(0)).ticks == t.ticks);
  STATIC_REQUIRE(colx::duration_s(5) + colx::duration_s(-7) == colx::duration_s(-2));
  STATIC_REQUIRE(colx::duration_ms(3) - colx::duration_ms(3) == colx::duration_ms(0));
  STATIC_REQUIRE(colx::timestamp_s() == colx::timestamp_s(0));
  STATIC_REQUIRE(colx::duration_us(-1) < colx::duration_us(0));

  CHECK(std::string(colx::to_string(colx::time_unit::days)) == "days");
  CHECK(std::string(colx::to_string(colx::time_unit::seconds)) == "s");
  CHECK(std::string(colx::to_string(colx::time_unit::milliseconds)) == "ms");
  CHECK(std::string(colx::to_string(colx::time_unit::microseconds)) == "us");
  CHECK(std::string(colx::to_string(colx::time_unit::nanoseconds)) == "ns");

  std::vector<colx::date32> dates{colx::date(2001, 5, 5), colx::date(1950, 1, 1), colx::date(2001, 5, 4)};
  std::sort(dates.begin(), dates.end());
  CHECK(dates == std::vector<colx::date32>{colx::date(1950, 1, 1), colx::date(2001, 5, 4), colx::date(2001, 5, 5)});
}

// ---- decimals ------------------------------------------------------------------------------------

TEST_CASE("types: decimal ordering", "[types]") {
  STATIC_REQUIRE(sizeof(colx::decimal32) == 4);
  STATIC_REQUIRE(sizeof(colx::decimal64) == 8);
  STATIC_REQUIRE(sizeof(colx::decimal128) == 16);
  STATIC_REQUIRE(std::is_trivially_copyable_v<colx::decimal128>);

  STATIC_REQUIRE(colx::decimal32{-5} < colx::decimal32{3});
  STATIC_REQUIRE(colx::decimal32{3} > colx::decimal32{-5});
  STATIC_REQUIRE(colx::decimal32{3} >= colx::decimal32{3});
  STATIC_REQUIRE(colx::decimal32{3} <= colx::decimal32{3});
  STATIC_REQUIRE(colx::decimal32{3} == colx::decimal32{3});
  STATIC_REQUIRE(colx::decimal32{3} != colx::decimal32{4});
  STATIC_REQUIRE(colx::decimal64{INT64_MIN} < colx::decimal64{INT64_MAX});

  // 128-bit values beyond 64 bits, both signs.
  constexpr colx::int128_t big = colx::int128_t{1} << 100;
  STATIC_REQUIRE(colx::decimal128{big} > colx::decimal128{big - 1});
  STATIC_REQUIRE(colx::decimal128{-big} < colx::decimal128{-big + 1});
  STATIC_REQUIRE(colx::decimal128{-big} < colx::decimal128{INT64_MIN});
  STATIC_REQUIRE(colx::decimal128{big} > colx::decimal128{INT64_MAX});

  std::vector<colx::decimal128> values{{big}, {-1}, {0}, {-big}, {colx::int128_t{INT64_MAX} + 1}, {1}};
  std::sort(values.begin(), values.end());
  std::vector<colx::decimal128> const sorted{{-big}, {-1}, {0}, {1}, {colx::int128_t{INT64_MAX} + 1}, {big}};
  CHECK(values == sorted);
}

// ---- string_view ---------------------------------------------------------------------------------

TEST_CASE("types: string_view size and length with UTF-8", "[types]") {
  constexpr colx::string_view empty;
  STATIC_REQUIRE(empty.empty());
  STATIC_REQUIRE(empty.size_bytes() == 0);
  STATIC_REQUIRE(empty.length() == 0);
  STATIC_REQUIRE(empty.data() == nullptr);

  CHECK(sv("hello").size_bytes() == 5);
  CHECK(sv("hello").length() == 5);
  CHECK(sv("caf\xC3\xA9").size_bytes() == 5);  // café: é is two bytes
  CHECK(sv("caf\xC3\xA9").length() == 4);
  CHECK(sv("\xE6\x97\xA5\xE6\x9C\xAC\xE8\xAA\x9E").length() == 3);  // 日本語: three bytes each
  CHECK(sv("\xE6\x97\xA5\xE6\x9C\xAC\xE8\xAA\x9E").size_bytes() == 9);
  CHECK(sv("a\xF0\x9F\x98\x80z").length() == 3);  // a😀z: four-byte emoji
  CHECK(colx::string_view("a\0b", 3).length() == 3);  // an embedded NUL is a code point
  CHECK(colx::string_view("abc", 0).empty());
  CHECK(sv("").length() == 0);
}

TEST_CASE("types: string_view comparison is byte-wise, which is code-point order", "[types]") {
  CHECK(sv("abc").compare(sv("abc")) == 0);
  CHECK(sv("abc").compare(sv("abd")) < 0);
  CHECK(sv("abd").compare(sv("abc")) > 0);
  CHECK(sv("ab").compare(sv("abc")) < 0);  // a prefix comes first
  CHECK(sv("abc").compare(sv("ab")) > 0);
  CHECK(sv("").compare(sv("a")) < 0);
  CHECK(colx::string_view().compare(sv("")) == 0);

  // Compared eight bytes at a time, then byte by byte: a difference in either part, at each
  // position of a word, and prefixes across the boundary, against std::string's order.
  std::string const base = "Supplier#000006757xy";  // 20 bytes: two words and a tail
  for (std::size_t len = 0; len <= base.size(); ++len) {
    for (std::size_t at = 0; at < len; ++at) {
      for (char const c : {'\x01', '7', '\xFF'}) {
        std::string other = base.substr(0, len);
        other[at] = c;
        std::string const mine = base.substr(0, len);
        int const want = mine.compare(other) < 0 ? -1 : mine.compare(other) > 0 ? 1 : 0;
        int const got = sv(mine.c_str()).compare(colx::string_view(other.data(), static_cast<colx::size_type>(other.size())));
        INFO("len " << len << ", byte " << at);
        CHECK((got < 0 ? -1 : got > 0 ? 1 : 0) == want);
      }
    }
    CHECK(sv(base.substr(0, len).c_str()).compare(sv(base.c_str())) == (len < base.size() ? -1 : 0));
  }

  // Bytes >= 0x80 compare as unsigned: every multi-byte character sorts after ASCII.
  CHECK(sv("z") < sv("\xC3\xA9"));                         // z < é
  CHECK(sv("\xC3\xA9") < sv("\xE6\x97\xA5"));              // é (U+00E9) < 日 (U+65E5)
  CHECK(sv("\xE6\x97\xA5") < sv("\xF0\x9F\x98\x80"));      // 日 < 😀 (U+1F600)
  CHECK(sv("\xEF\xBF\xBF") < sv("\xF0\x90\x80\x80"));      // U+FFFF < U+10000
  CHECK(sv("caf\xC3\xA9") > sv("cafe"));

  // Embedded NULs are bytes like any other; sizes decide equality, not terminators.
  colx::string_view const a0b("a\0b", 3);
  colx::string_view const a0c("a\0c", 3);
  CHECK(a0b < a0c);
  CHECK(a0b != a0c);
  CHECK(colx::string_view("a\0b", 3) == colx::string_view("a\0bXYZ", 3));
  CHECK(colx::string_view("a", 1) != colx::string_view("a\0", 2));
  CHECK(colx::string_view("a", 1) < colx::string_view("a\0", 2));

  CHECK(sv("x") == sv("x"));
  CHECK(sv("x") <= sv("x"));
  CHECK(sv("x") >= sv("x"));
  CHECK_FALSE(sv("x") < sv("x"));
  CHECK(sv("y") > sv("x"));
  CHECK(sv("y") >= sv("x"));
  CHECK(sv("x") <= sv("y"));

  std::vector<colx::string_view> words{sv("\xC3\xA9t\xC3\xA9"), sv("zoo"), sv("Zoo"), sv(""), sv("zo"), sv("apple")};
  std::sort(words.begin(), words.end());
  std::vector<colx::string_view> const sorted{sv(""), sv("Zoo"), sv("apple"), sv("zo"), sv("zoo"), sv("\xC3\xA9t\xC3\xA9")};
  CHECK(words == sorted);
}
