// SPDX-License-Identifier: Apache-2.0
// frame<Schema>'s own members on the backend under test: size() and num_rows(), and the pandas
// spellings f.head(n), f.tail(n) and f.slice(begin, end), at sizes 0, 1 and odd, with nulls and
// strings, against the free functions of frame/gather.hpp and host copies of the rows.
#include "support/backend.hpp"

#include <catch2/catch.hpp>

#include <algorithm>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace {

using colx::size_type;
using colx::test::backend_resource;

using schema = colx::schema<colx::field<"k", std::int32_t, colx::not_null>, colx::field<"v", double>,
                            colx::field<"s", colx::string_view>>;

struct rows {
  std::vector<std::int32_t> k;
  std::vector<std::optional<double>> v;
  std::vector<std::optional<std::string>> s;
};

// Row i: k = i, v = i / 2 (null every third row), s = "s<i>" (null every fifth).
rows make_rows(size_type n) {
  rows r;
  for (size_type i = 0; i < n; ++i) {
    r.k.push_back(static_cast<std::int32_t>(i));
    r.v.push_back(i % 3 == 1 ? std::nullopt : std::optional<double>(static_cast<double>(i) / 2));
    r.s.push_back(i % 5 == 4 ? std::nullopt : std::optional<std::string>(std::string("s").append(std::to_string(i))));
  }
  return r;
}

colx::frame<schema> make(rows const& r) {
  auto const mr = backend_resource();
  return colx::frame<schema>(colx::make_column(r.k, {}, mr), colx::make_column(r.v, {}, mr),
                             colx::make_strings_column(r.s, colx::type_id::int32, {}, mr));
}

// Rows [begin, end) of r.
rows sub(rows const& r, size_type begin, size_type end) {
  auto const b = static_cast<std::size_t>(begin);
  auto const e = static_cast<std::size_t>(end);
  return {{r.k.begin() + b, r.k.begin() + e}, {r.v.begin() + b, r.v.begin() + e}, {r.s.begin() + b, r.s.begin() + e}};
}

void check_rows(colx::frame<schema> const& f, rows const& want) {
  using namespace colx::literals;
  REQUIRE(f.size() == static_cast<size_type>(want.k.size()));
  CHECK(f.num_rows() == f.size());
  CHECK(colx::to_vector(f["k"_c].view()) == want.k);
  CHECK(colx::to_optional_vector(f["v"_c].view()) == want.v);
  CHECK(colx::to_strings(f["s"_c].view()) == want.s);
}

}  // namespace

TEST_CASE("frame: size, head, tail and slice as members", "[frame]") {
  for (size_type n : {0, 1, 2, 5, 7, 33, 67}) {
    CAPTURE(n);
    rows const r = make_rows(n);
    auto const f = make(r);
    CHECK(f.size() == n);
    for (size_type k : {0, 1, 3, 5, 40}) {
      CAPTURE(k);
      size_type const m = std::min(k, n);
      auto const h = f.head(k);
      check_rows(h, sub(r, 0, m));
      CHECK(h.index().start == 0);
      auto const t = f.tail(k);
      check_rows(t, sub(r, n - m, n));
      CHECK(t.index().start == n - m);  // the rows keep their labels
      // The members and the free functions agree.
      CHECK(colx::head(f, k).size() == h.size());
      CHECK(colx::tail(f, k).index() == t.index());
    }
    check_rows(f.head(), sub(r, 0, std::min<size_type>(5, n)));  // pandas' default: 5 rows
    check_rows(f.tail(), sub(r, n - std::min<size_type>(5, n), n));
    if (n >= 3) {
      auto const mid = f.slice(1, n - 1);
      check_rows(mid, sub(r, 1, n - 1));
      CHECK(mid.index().start == 1);
      check_rows(mid.tail(1), sub(r, n - 2, n - 1));
      CHECK(mid.tail(1).index().start == n - 2);
    }
    check_rows(f.slice(n, n), rows{});
  }
}

TEST_CASE("frame: head, tail and slice reject bad arguments", "[frame][errors]") {
  auto const f = make(make_rows(3));
  CHECK_THROWS_AS(f.head(-1), colx::logic_error);
  CHECK_THROWS_WITH(f.tail(-2), Catch::Contains("tail: n must not be negative"));
  CHECK_THROWS_AS(f.slice(2, 1), colx::out_of_range);
  CHECK_THROWS_AS(f.slice(0, 4), colx::out_of_range);
}
