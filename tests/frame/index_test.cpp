// SPDX-License-Identifier: Apache-2.0
// Indexes on the backend under test: the range index every frame has (slices, heads and tails
// keep their rows' labels, select and with_columns keep them, other operations number from 0,
// printing shows them); set_index with one key and with two (a multi-index), loc by full and
// partial key against a plain loop, reset_index, and a group-by result indexed by its keys.
#include "support/backend.hpp"

#include <colx/frame/index.hpp>

#include <catch2/catch.hpp>

#include <cstdint>
#include <optional>
#include <random>
#include <string>
#include <vector>

using namespace colx::literals;

namespace {

using colx::size_type;
using S = colx::schema<colx::field<"a", std::int32_t, colx::not_null>, colx::field<"b", std::int32_t>, colx::field<"v", double, colx::not_null>>;

struct rows {
  std::vector<std::int32_t> a;
  std::vector<std::optional<std::int32_t>> b;
  std::vector<double> v;
};

rows random_rows(std::size_t n, unsigned seed) {
  std::mt19937 rng(seed);
  rows r;
  for (std::size_t i = 0; i < n; ++i) {
    r.a.push_back(static_cast<std::int32_t>(rng() % 5));
    r.b.push_back(rng() % 6 == 0 ? std::nullopt : std::optional<std::int32_t>(static_cast<std::int32_t>(rng() % 3)));
    r.v.push_back(static_cast<double>(i));
  }
  return r;
}

colx::frame<S> make_frame(rows const& r) {
  auto const mr = colx::test::backend_resource();
  return colx::frame<S>(colx::make_column<std::int32_t>(r.a, {}, mr), colx::make_column<std::int32_t>(r.b, {}, mr),
                        colx::make_column<double>(r.v, {}, mr));
}

}  // namespace

TEST_CASE("index: a range index that slices keep and prints", "[frame]") {
  auto const r = random_rows(40, 1);
  auto const f = make_frame(r);
  CHECK(f.index() == colx::range_index{0, 1});
  auto const s = colx::slice(f, 7, 12);
  CHECK(s.index() == colx::range_index{7, 1});
  CHECK(colx::slice(s, 2, 4).index() == colx::range_index{9, 1});
  CHECK(colx::head(f, 3).index().start == 0);
  CHECK(colx::tail(f, 3).index().start == 37);
  CHECK((s | colx::select("v"_c)).index().start == 7);
  CHECK((s | colx::with_columns(("v"_c * 2).as<"w">())).index().start == 7);
  CHECK((s | colx::filter("v"_c > 0.0)).collect().index().start == 0);  // a new frame: numbered from 0
  auto const text = colx::to_string(s | colx::select("v"_c));
  CHECK(text.find("\n7 ") != std::string::npos);
  CHECK(text.find("\n11 ") != std::string::npos);
  CHECK(text.find("\n0 ") == std::string::npos);
  CHECK(colx::to_string(f.with_index({100, 10})).find("\n390 ") != std::string::npos);
}

TEST_CASE("index: set_index, loc by full and partial key, reset_index", "[frame]") {
  for (std::size_t const n : {0, 1, 500, 3000}) {
    CAPTURE(n);
    auto const r = random_rows(n, static_cast<unsigned>(n) + 2);
    auto const f = make_frame(r);
    auto const by_a = f | colx::set_index("a"_c);
    auto const by_ab = f | colx::set_index("a"_c, "b"_c);
    STATIC_REQUIRE(decltype(by_ab)::levels == 2);
    CHECK(by_ab.names() == "a, b");
    for (std::int32_t a = 0; a < 6; ++a) {
      std::vector<double> want_a;
      std::vector<double> want_ab;
      for (std::size_t i = 0; i < n; ++i) {
        if (r.a[i] == a) { want_a.push_back(r.v[i]); }
        if (r.a[i] == a && r.b[i] == std::optional<std::int32_t>(1)) { want_ab.push_back(r.v[i]); }
      }
      CHECK(colx::to_vector(by_a.loc(a)["v"_c].view()) == want_a);
      CHECK(colx::to_vector(by_ab.loc(a)["v"_c].view()) == want_a);  // the leading level only
      CHECK(colx::to_vector(by_ab.loc(a, 1)["v"_c].view()) == want_ab);
    }
    auto const back = colx::slice(f, 0, static_cast<size_type>(n / 2)) | colx::set_index("b"_c);
    CHECK(back.reset_index().index() == colx::range_index{});
    CHECK(colx::to_vector(back.reset_index()["v"_c].view()) == colx::to_vector(colx::slice(f, 0, static_cast<size_type>(n / 2))["v"_c].view()));
  }
}

TEST_CASE("index: a group-by result indexed by its keys", "[frame]") {
  auto const r = random_rows(2000, 3);
  auto const f = make_frame(r);
  auto const g = f | colx::group_by("a"_c, "b"_c) | colx::aggregate(colx::count().as<"n">()) | colx::set_index("a"_c, "b"_c);
  size_type want = 0;
  for (std::size_t i = 0; i < r.a.size(); ++i) { want += r.a[i] == 2 && r.b[i] == std::optional<std::int32_t>(0) ? 1 : 0; }
  auto const hit = g.loc(2, 0);
  REQUIRE(hit.num_rows() == 1);
  CHECK(colx::to_vector(hit["n"_c].view())[0] == want);
  CHECK(colx::to_string(g).rfind("index: a, b\n", 0) == 0);
}
