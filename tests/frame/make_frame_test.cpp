// SPDX-License-Identifier: Apache-2.0
// make_frame(values<"name">(...), ...) on the backend under test: the schema it deduces
// (not_null from plain elements, nullable from std::optional, strings from std::string, string_view
// and char const*), the rows it holds at sizes 0, 1 and odd, and where it puts them.
#include "support/backend.hpp"

#include <catch2/catch.hpp>

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

using namespace colx::literals;

namespace {
using colx::size_type;
using colx::test::backend_kind;
using strings = std::vector<std::optional<std::string>>;
}  // namespace

TEST_CASE("make_frame: the brief's example", "[frame][make_frame]") {
  auto const df = colx::make_frame(colx::values<"id">(std::vector<int>{1, 2, 3}),
                                   colx::values<"name">(std::vector<std::string>{"a", "b", "c"}),
                                   colx::values<"x">(std::vector<std::optional<double>>{1.5, std::nullopt, 2}));
  using want = colx::frame<colx::schema<colx::field<"id", int, colx::not_null>,
                                        colx::field<"name", colx::string_view, colx::not_null>,
                                        colx::field<"x", double, colx::nullable>>>;
  STATIC_REQUIRE(std::is_same_v<std::remove_cvref_t<decltype(df)>, want>);
  CHECK(df.size() == 3);
  CHECK(df.kind() == backend_kind());
  CHECK(colx::to_vector(df["id"_c].view()) == std::vector<int>{1, 2, 3});
  CHECK(colx::to_strings(df["name"_c].view()) == strings{"a", "b", "c"});
  CHECK(colx::to_optional_vector(df["x"_c].view()) == std::vector<std::optional<double>>{1.5, std::nullopt, 2.0});
  CHECK(df["x"_c].null_count() == 1);
  CHECK(colx::to_string(df) ==
        "  id name     x\n"
        "0  1    a   1.5\n"
        "1  2    b  <NA>\n"
        "2  3    c   2.0");
}

TEST_CASE("make_frame: braced lists, every kind of string, and nulls", "[frame][make_frame]") {
  auto const f = colx::make_frame(colx::values<"b">({true, false, true}), colx::values<"c">({"x", "yy", ""}),
                                  colx::values<"s", std::optional<std::string>>({"p", std::nullopt, "r"}),
                                  colx::values<"v", std::string_view>({"α", "β", "γ"}),
                                  colx::values<"n", std::optional<std::int64_t>>({std::nullopt, 7, std::nullopt}));
  using s = typename std::remove_cvref_t<decltype(f)>::schema_type;
  STATIC_REQUIRE(std::is_same_v<s::field_at<0>, colx::field<"b", bool, colx::not_null>>);
  STATIC_REQUIRE(std::is_same_v<s::field_at<1>, colx::field<"c", colx::string_view, colx::not_null>>);
  STATIC_REQUIRE(std::is_same_v<s::field_at<2>, colx::field<"s", colx::string_view, colx::nullable>>);
  STATIC_REQUIRE(std::is_same_v<s::field_at<3>, colx::field<"v", colx::string_view, colx::not_null>>);
  STATIC_REQUIRE(std::is_same_v<s::field_at<4>, colx::field<"n", std::int64_t, colx::nullable>>);
  CHECK(colx::to_vector(f["b"_c].view()) == std::vector<bool>{true, false, true});
  CHECK(colx::to_strings(f["c"_c].view()) == strings{"x", "yy", ""});
  CHECK(colx::to_strings(f["s"_c].view()) == strings{"p", std::nullopt, "r"});
  CHECK(colx::to_strings(f["v"_c].view()) == strings{"α", "β", "γ"});
  CHECK(colx::to_optional_vector(f["n"_c].view()) == std::vector<std::optional<std::int64_t>>{std::nullopt, 7, std::nullopt});
}

TEST_CASE("make_frame: 0, 1 and odd numbers of rows", "[frame][make_frame]") {
  for (size_type n : {0, 1, 7, 65}) {
    CAPTURE(n);
    std::vector<std::optional<float>> x;
    std::vector<std::string> s;
    for (size_type i = 0; i < n; ++i) {
      x.push_back(i % 2 == 1 ? std::nullopt : std::optional<float>(static_cast<float>(i)));
      s.push_back(std::string("r").append(std::to_string(i)));
    }
    auto const f = colx::make_frame(colx::values<"x">(x), colx::values<"s">(s));
    CHECK(f.size() == n);
    CHECK(colx::to_optional_vector(f["x"_c].view()) == x);
    CHECK(f["x"_c].null_count() == n / 2);
    CHECK(colx::to_strings(f["s"_c].view()) == strings(s.begin(), s.end()));
  }
}

TEST_CASE("make_frame: a stream, a resource or a memory kind after the columns", "[frame][make_frame]") {
  colx::test::tracked_resource mr;
  {
    auto const f = colx::make_frame(colx::values<"a">({1, 2, 3}), colx::values<"t">({"u", "v", "w"}), colx::stream_ref{}, mr.ref());
    CHECK(f.size() == 3);
    CHECK(mr.outstanding_bytes() > 0);
    auto const on_host = colx::make_frame(colx::values<"a">({1.5}), colx::memory_kind::host);
    CHECK(on_host.kind() == colx::memory_kind::host);
    CHECK(colx::to_vector(on_host["a"_c].view()) == std::vector<double>{1.5});
    auto const streamed = colx::make_frame(colx::values<"a">({4}), colx::stream_ref{});
    CHECK(streamed.kind() == backend_kind());
    auto const both = colx::make_frame(colx::values<"a">({4}), colx::stream_ref{}, colx::memory_kind::host);
    CHECK(both.kind() == colx::memory_kind::host);
  }
  CHECK(mr.outstanding_bytes() == 0);
}
