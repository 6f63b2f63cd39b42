// SPDX-License-Identifier: Apache-2.0
// Shared buffers under copy-on-write: shallow copies share memory, a write copies only the slice
// that writes, exposure copies shared memory first and is never shared again; with the option
// off, shallow copies are views of one memory. cuDF's walk-through (s1, s2 = shallow copy of s1,
// s3 of s2, write s2, then write s1) is the first test.
#include "support/backend.hpp"

#include <catch2/catch.hpp>

#include <cstdint>
#include <optional>
#include <vector>

using namespace colx::literals;

namespace {

using colx::column;
using values = std::vector<std::optional<std::int64_t>>;

values read(column<std::int64_t> const& c) { return colx::to_optional_vector(c.view()); }

}  // namespace

TEST_CASE("copy-on-write: cuDF's walk-through of three shallow copies", "[cow]") {
  colx::scoped_option const cow(colx::set_copy_on_write, true);
  column<std::int64_t> s1 = colx::make_column(values{1, 2, 3, 4});
  column<std::int64_t> s2 = s1;  // shallow
  column<std::int64_t> s3 = s2;  // shallow
  auto const& b1 = s1.untyped().data();
  CHECK(b1.shares_memory_with(s2.untyped().data()));
  CHECK(b1.shares_memory_with(s3.untyped().data()));
  CHECK(s1.data() == s2.data());

  s2.set_element(0, 10);  // s2 gets a copy; s1 and s3 still share
  CHECK(read(s2) == values{10, 2, 3, 4});
  CHECK(read(s1) == values{1, 2, 3, 4});
  CHECK(read(s3) == values{1, 2, 3, 4});
  CHECK_FALSE(s2.untyped().data().shares_memory_with(s1.untyped().data()));
  CHECK(s1.untyped().data().shares_memory_with(s3.untyped().data()));

  s1.set_element(1, 20);  // s1 shares with s3: it copies, s3 keeps the original
  CHECK(read(s1) == values{1, 20, 3, 4});
  CHECK(read(s2) == values{10, 2, 3, 4});
  CHECK(read(s3) == values{1, 2, 3, 4});
  CHECK_FALSE(s1.untyped().data().shares_memory_with(s3.untyped().data()));

  auto const* before = s3.data();  // s3 is now alone: its write needs no copy
  s3.set_element(3, 40);
  CHECK(s3.data() == before);
  CHECK(read(s3) == values{1, 2, 3, 40});
  CHECK(read(s1) == values{1, 20, 3, 4});
}

TEST_CASE("copy-on-write off: shallow copies are views of one memory", "[cow]") {
  colx::scoped_option const cow(colx::set_copy_on_write, false);
  column<std::int64_t> s1 = colx::make_column(values{1, 2, 3});
  column<std::int64_t> s2 = s1;
  s2.set_element(0, 7);
  CHECK(read(s1) == values{7, 2, 3});
  CHECK(s1.data() == s2.data());
}

TEST_CASE("copy-on-write: nulls written through one copy stay in it", "[cow]") {
  colx::scoped_option const cow(colx::set_copy_on_write, true);
  column<std::int64_t> a = colx::make_column(values{1, std::nullopt, 3});
  column<std::int64_t> b = a;
  b.set_element(1, 5);
  b.set_element(0, std::nullopt);
  CHECK(read(b) == values{std::nullopt, 5, 3});
  CHECK(read(a) == values{1, std::nullopt, 3});
  CHECK(a.null_count() == 1);
  CHECK(b.null_count() == 1);
  column<std::int64_t> no_mask = colx::make_column(std::vector<std::int64_t>{1, 2});
  CHECK_THROWS_AS(no_mask.set_element(0, std::nullopt), colx::logic_error);
  CHECK_THROWS_AS(no_mask.set_element(2, 1), colx::out_of_range);
}

TEST_CASE("copy-on-write: only the slice that writes gets a copy", "[cow]") {
  colx::scoped_option const cow(colx::set_copy_on_write, true);
  std::vector<std::int64_t> const host{10, 11, 12, 13, 14, 15, 16, 17};
  colx::shared_buffer whole(colx::buffer(host.data(), colx::memory_kind::host, host.size() * 8, {}, colx::test::backend_resource()));
  colx::shared_buffer low = whole.slice(0, 32);
  colx::shared_buffer high = whole.slice(32, 32);
  CHECK(whole.is_shared());
  auto* p = static_cast<std::int64_t*>(high.write());  // high moves to a copy of its 32 bytes
  CHECK(high.size() == 32);
  CHECK_FALSE(high.shares_memory_with(whole));
  CHECK(low.shares_memory_with(whole));
  std::int64_t const v = 99;
  colx::detail::copy_bytes(p, high.kind(), &v, colx::memory_kind::host, 8, {});
  std::vector<std::int64_t> out(8);
  colx::detail::copy_bytes(out.data(), colx::memory_kind::host, whole.read(), whole.kind(), 64, {});
  CHECK(out == host);
  std::vector<std::int64_t> hi(4);
  colx::detail::copy_bytes(hi.data(), colx::memory_kind::host, high.read(), high.kind(), 32, {});
  CHECK(hi == std::vector<std::int64_t>{99, 15, 16, 17});
  CHECK_THROWS_AS((void)whole.slice(60, 8), colx::out_of_range);
}

TEST_CASE("copy-on-write: exposing shared memory copies it, and an exposed buffer is never shared again", "[cow]") {
  colx::scoped_option const cow(colx::set_copy_on_write, true);
  column<std::int64_t> a = colx::make_column(values{1, 2, 3});
  column<std::int64_t> b = a;
  auto const* shared = a.data();
  b.untyped().expose();  // b leaves for code we do not control
  CHECK(b.data() != shared);
  CHECK(b.untyped().data().is_exposed());
  CHECK_FALSE(a.untyped().data().is_exposed());
  column<std::int64_t> c = b;  // a shallow copy of an exposed buffer is a deep one
  CHECK(c.data() != b.data());
  CHECK(read(c) == values{1, 2, 3});
  c.set_element(0, 9);
  CHECK(read(b) == values{1, 2, 3});
}

TEST_CASE("copy-on-write: a frame and a table converted from it share columns until one writes", "[cow]") {
  colx::scoped_option const cow(colx::set_copy_on_write, true);
  using s = colx::schema<colx::field<"x", std::int64_t>>;
  colx::frame<s> const f(colx::make_column(values{1, 2}));
  colx::any_table t = colx::to_table(f);
  CHECK(t["x"].data().shares_memory_with(f["x"_c].untyped().data()));
  column<std::int64_t> x{colx::any_column{t["x"]}};
  x.set_element(0, 5);
  CHECK(read(f["x"_c]) == values{1, 2});
  CHECK(read(x) == values{5, 2});
}

TEST_CASE("foreign memory is released once, when the last slice is gone, and never written in place under copy-on-write",
          "[cow]") {
  colx::scoped_option const cow(colx::set_copy_on_write, true);
  int releases = 0;
  std::vector<std::int64_t> producer{1, 2, 3};
  {
    auto adopted = colx::shared_buffer::adopt(producer.data(), 24, colx::memory_kind::host, [&] { ++releases; });
    auto copy = adopted.slice(8, 16);
    CHECK(adopted.is_foreign());
    auto* w = static_cast<std::int64_t*>(copy.write());
    CHECK(static_cast<void*>(w) != static_cast<void*>(producer.data() + 1));
    CHECK(releases == 0);
  }
  CHECK(releases == 1);
  CHECK(producer == std::vector<std::int64_t>{1, 2, 3});
}
