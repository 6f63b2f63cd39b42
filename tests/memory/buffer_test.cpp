// SPDX-License-Identifier: Apache-2.0
// colx::buffer and colx::uvector<T> on the backend's memory, and the byte copies beneath them.
#include "support/backend.hpp"

#include <catch2/catch.hpp>

#include <cstdint>
#include <cstring>
#include <numeric>
#include <type_traits>
#include <vector>

namespace {

using bytes_t = std::vector<unsigned char>;
constexpr colx::stream_ref default_stream{};

// n bytes of a pattern that differs from its neighbours and does not repeat every 256 bytes.
bytes_t pattern(std::size_t n, unsigned seed = 1) {
  bytes_t out(n);
  for (std::size_t i = 0; i < n; ++i) { out[i] = static_cast<unsigned char>((i * 7 + i / 251 + seed) & 0xFF); }
  return out;
}

bytes_t read(colx::buffer const& b, std::size_t bytes) {
  bytes_t out(bytes);
  colx::detail::copy_bytes(out.data(), colx::memory_kind::host, b.data(), b.kind(), bytes, b.stream());
  return out;
}
bytes_t read(colx::buffer const& b) { return read(b, b.size()); }

colx::buffer make_buffer(bytes_t const& contents, colx::resource_ref mr) {
  return colx::buffer(contents.data(), colx::memory_kind::host, contents.size(), default_stream, mr);
}

bytes_t prefix(bytes_t const& b, std::size_t n) { return bytes_t(b.begin(), b.begin() + static_cast<std::ptrdiff_t>(n)); }

bool aligned(void const* p) { return reinterpret_cast<std::uintptr_t>(p) % colx::mr::default_alignment == 0; }

struct pair16 {
  std::int64_t a;
  double b;
  friend bool operator==(pair16 const&, pair16 const&) = default;
};

}  // namespace

static_assert(!std::is_copy_constructible_v<colx::buffer>);
static_assert(!std::is_copy_assignable_v<colx::buffer>);
static_assert(std::is_nothrow_move_constructible_v<colx::buffer>);
static_assert(std::is_nothrow_move_assignable_v<colx::buffer>);
static_assert(!std::is_copy_constructible_v<colx::uvector<int>>);
static_assert(std::is_nothrow_move_constructible_v<colx::uvector<int>>);
static_assert(std::is_nothrow_move_assignable_v<colx::uvector<int>>);

// ---- buffer: construction ------------------------------------------------------------------------

TEST_CASE("buffer: a default buffer is empty host memory", "[memory]") {
  colx::buffer const b;
  CHECK(b.empty());
  CHECK(b.size() == 0);
  CHECK(b.capacity() == 0);
  CHECK(b.data() == nullptr);
  CHECK(b.kind() == colx::memory_kind::host);
  CHECK(b.stream() == colx::stream_ref{});
}

TEST_CASE("buffer: zero bytes allocate nothing", "[memory]") {
  colx::test::tracked_resource mr;
  {
    colx::buffer b(0, default_stream, mr.ref());
    CHECK(b.empty());
    CHECK(b.data() == nullptr);
    CHECK(b.kind() == colx::test::backend_kind());
    colx::buffer copy(b, default_stream, mr.ref());
    CHECK(copy.empty());
    colx::buffer from_null(nullptr, colx::memory_kind::host, 0, default_stream, mr.ref());
    CHECK(from_null.empty());
  }
  CHECK(mr.statistics().total_allocations == 0);
}

TEST_CASE("buffer: allocates the asked size from the given resource", "[memory]") {
  colx::test::tracked_resource mr;
  for (std::size_t bytes : {std::size_t{1}, std::size_t{31}, std::size_t{255}, std::size_t{257}, std::size_t{1000003}}) {
    CAPTURE(bytes);
    {
      colx::buffer b(bytes, default_stream, mr.ref());
      CHECK(b.size() == bytes);
      CHECK(b.capacity() == bytes);
      CHECK_FALSE(b.empty());
      CHECK(b.data() != nullptr);
      CHECK(aligned(b.data()));
      CHECK(b.kind() == colx::test::backend_kind());
      CHECK(b.memory_resource() == mr.ref());
      CHECK(mr.outstanding_bytes() == static_cast<std::int64_t>(bytes));
      CHECK(mr.outstanding_allocations() == 1);
    }
    CHECK(mr.outstanding_bytes() == 0);
  }
}

TEST_CASE("buffer: the default resource is the backend's", "[memory]") {
  colx::buffer b(64);
  CHECK(b.kind() == colx::test::backend_kind());
  CHECK(b.memory_resource() == colx::test::backend_resource());
}

TEST_CASE("buffer: a copy of host bytes round-trips", "[memory]") {
  colx::test::tracked_resource mr;
  for (std::size_t bytes : {std::size_t{1}, std::size_t{255}, std::size_t{256}, std::size_t{257}, std::size_t{70001}}) {
    CAPTURE(bytes);
    auto const source = pattern(bytes);
    colx::buffer b = make_buffer(source, mr.ref());
    CHECK(b.size() == bytes);
    CHECK(read(b) == source);
  }
  CHECK(mr.outstanding_bytes() == 0);
}

TEST_CASE("buffer: deep copy", "[memory]") {
  colx::test::tracked_resource mr;
  {
    auto const source = pattern(1001);
    colx::buffer original = make_buffer(source, mr.ref());
    colx::buffer copy(original, default_stream, mr.ref());
    CHECK(copy.size() == original.size());
    CHECK(copy.data() != original.data());
    CHECK(read(copy) == source);
    CHECK(mr.outstanding_bytes() == 2002);

    // Independent: overwriting the original leaves the copy as it was.
    colx::buffer other = make_buffer(pattern(1001, 99), mr.ref());
    colx::detail::copy_bytes(original.data(), original.kind(), other.data(), other.kind(), 1001, default_stream);
    CHECK(read(original) == pattern(1001, 99));
    CHECK(read(copy) == source);

    // Into host memory, whatever the backend.
    colx::buffer on_host(original, default_stream, colx::get_current_host_resource());
    CHECK(on_host.kind() == colx::memory_kind::host);
    bytes_t direct(1001);
    std::memcpy(direct.data(), on_host.data(), 1001);
    CHECK(direct == pattern(1001, 99));

    // And from host memory back to the backend.
    colx::buffer back(on_host, default_stream, mr.ref());
    CHECK(back.kind() == colx::test::backend_kind());
    CHECK(read(back) == pattern(1001, 99));
  }
  CHECK(mr.outstanding_bytes() == 0);
  CHECK(mr.outstanding_allocations() == 0);
}

TEST_CASE("buffer: move construction and assignment", "[memory]") {
  colx::test::tracked_resource mr;
  {
    auto const source = pattern(500);
    colx::buffer a = make_buffer(source, mr.ref());
    void* const data = a.data();

    colx::buffer b(std::move(a));
    CHECK(b.data() == data);
    CHECK(b.size() == 500);
    CHECK(b.capacity() == 500);
    CHECK(b.memory_resource() == mr.ref());
    CHECK(a.data() == nullptr);  // NOLINT(bugprone-use-after-move): the moved-from state is specified
    CHECK(a.size() == 0);
    CHECK(a.capacity() == 0);
    CHECK(a.empty());
    CHECK(mr.outstanding_allocations() == 1);

    // Assigning over a buffer frees what it held.
    colx::buffer c = make_buffer(pattern(300, 5), mr.ref());
    CHECK(mr.outstanding_bytes() == 800);
    c = std::move(b);
    CHECK(mr.outstanding_bytes() == 500);
    CHECK(mr.outstanding_allocations() == 1);
    CHECK(c.data() == data);
    CHECK(read(c) == source);
    CHECK(b.empty());  // NOLINT(bugprone-use-after-move)

    // Self-assignment keeps the contents.
    colx::buffer& alias = c;
    c = std::move(alias);
    CHECK(c.data() == data);
    CHECK(read(c) == source);

    // A moved-from buffer is usable again.
    a = colx::buffer(10, default_stream, mr.ref());
    CHECK(a.size() == 10);
    CHECK(mr.outstanding_bytes() == 510);
  }
  CHECK(mr.outstanding_bytes() == 0);
}

// ---- buffer: size and capacity -------------------------------------------------------------------

TEST_CASE("buffer: resize keeps contents", "[memory]") {
  colx::test::tracked_resource mr;
  {
    auto const source = pattern(257);
    colx::buffer b = make_buffer(source, mr.ref());

    SECTION("growing past the capacity reallocates and keeps every byte") {
      b.resize(1000, default_stream);
      CHECK(b.size() == 1000);
      CHECK(b.capacity() >= 1000);
      CHECK(aligned(b.data()));
      CHECK(prefix(read(b), 257) == source);
      CHECK(mr.outstanding_allocations() == 1);
      CHECK(mr.outstanding_bytes() == static_cast<std::int64_t>(b.capacity()));
    }
    SECTION("shrinking keeps the capacity and the first bytes") {
      void* const data = b.data();
      b.resize(100, default_stream);
      CHECK(b.size() == 100);
      CHECK(b.capacity() == 257);
      CHECK(b.data() == data);
      CHECK(read(b) == prefix(source, 100));
      // Growing back within the capacity does not reallocate either.
      std::int64_t const allocations = mr.statistics().total_allocations;
      b.resize(200, default_stream);
      CHECK(b.data() == data);
      CHECK(mr.statistics().total_allocations == allocations);
      CHECK(prefix(read(b), 100) == prefix(source, 100));
    }
    SECTION("to zero and back") {
      b.resize(0, default_stream);
      CHECK(b.empty());
      CHECK(b.capacity() == 257);
      b.resize(300, default_stream);
      CHECK(b.size() == 300);
    }
  }
  CHECK(mr.outstanding_bytes() == 0);
}

TEST_CASE("buffer: reserve grows the capacity only", "[memory]") {
  colx::test::tracked_resource mr;
  {
    auto const source = pattern(255);
    colx::buffer b = make_buffer(source, mr.ref());
    b.reserve(4097, default_stream);
    CHECK(b.size() == 255);
    CHECK(b.capacity() == 4097);
    CHECK(read(b) == source);
    CHECK(mr.outstanding_bytes() == 4097);

    void* const data = b.data();
    b.reserve(10, default_stream);  // smaller than the capacity: nothing happens
    CHECK(b.capacity() == 4097);
    CHECK(b.data() == data);

    b.resize(4097, default_stream);  // within the reservation
    CHECK(b.data() == data);
    CHECK(prefix(read(b), 255) == source);
  }
  CHECK(mr.outstanding_bytes() == 0);
}

TEST_CASE("buffer: shrink_to_fit", "[memory]") {
  colx::test::tracked_resource mr;
  {
    auto const source = pattern(1000);
    colx::buffer b = make_buffer(source, mr.ref());
    b.resize(333, default_stream);
    b.shrink_to_fit(default_stream);
    CHECK(b.size() == 333);
    CHECK(b.capacity() == 333);
    CHECK(read(b) == prefix(source, 333));
    CHECK(mr.outstanding_bytes() == 333);

    void* const data = b.data();
    b.shrink_to_fit(default_stream);  // already tight: nothing happens
    CHECK(b.data() == data);

    b.resize(0, default_stream);
    b.shrink_to_fit(default_stream);
    CHECK(b.capacity() == 0);
    CHECK(b.data() == nullptr);
    CHECK(mr.outstanding_bytes() == 0);
    CHECK(mr.outstanding_allocations() == 0);
  }
  CHECK(mr.outstanding_bytes() == 0);
}

TEST_CASE("buffer: set_stream and the stream of the last resize", "[memory]") {
  colx::buffer b(8, default_stream, colx::test::backend_resource());
  CHECK(b.stream() == default_stream);
  b.resize(4, default_stream);
  CHECK(b.stream() == default_stream);
  b.set_stream(colx::stream_ref{});
  CHECK(b.stream() == colx::stream_ref{});
}

// ---- buffer: error paths -------------------------------------------------------------------------

TEST_CASE("buffer: allocation past a limit throws and leaks nothing", "[memory]") {
  colx::test::tracked_resource mr;
  colx::limiting_adaptor limited(mr.ref(), 1000);

  CHECK_THROWS_AS(colx::buffer(1001, default_stream, limited), colx::out_of_memory);
  CHECK_THROWS_WITH(colx::buffer(pattern(2000).data(), colx::memory_kind::host, 2000, default_stream, limited),
                    Catch::Contains("allocation of 2000 bytes exceeds the limit of 1000 bytes"));
  CHECK(limited.used() == 0);
  CHECK(mr.statistics().total_allocations == 0);

  SECTION("a failed resize leaves the buffer as it was") {
    auto const source = pattern(600);
    colx::buffer b = make_buffer(source, limited);
    void* const data = b.data();
    // Growing needs the old and the new allocation at once: 600 + 700 > 1000.
    CHECK_THROWS_AS(b.resize(700, default_stream), colx::out_of_memory);
    CHECK(b.size() == 600);
    CHECK(b.capacity() == 600);
    CHECK(b.data() == data);
    CHECK(read(b) == source);
    CHECK_THROWS_AS(b.reserve(5000, default_stream), colx::out_of_memory);
    CHECK(b.capacity() == 600);
    CHECK(read(b) == source);
    CHECK(limited.used() == 600);
  }
  CHECK(limited.used() == 0);
  CHECK(mr.outstanding_bytes() == 0);
}

TEST_CASE("buffer: a copy from memory the build cannot reach throws", "[memory]") {
  if constexpr (!colx::has_cuda) {
    colx::test::tracked_resource mr;
    auto const source = pattern(64);
    CHECK_THROWS_AS(colx::buffer(source.data(), colx::memory_kind::device, 64, default_stream, mr.ref()),
                    colx::logic_error);
    CHECK_THROWS_WITH(colx::buffer(source.data(), colx::memory_kind::device, 64, default_stream, mr.ref()),
                      Catch::Contains("copying device to host memory needs the CUDA backend"));
    // The allocation made before the copy failed was given back.
    CHECK(mr.statistics().total_allocations == 2);
    CHECK(mr.outstanding_bytes() == 0);
    CHECK(mr.outstanding_allocations() == 0);
  }
}

// ---- copy_bytes and fill_bytes -------------------------------------------------------------------

TEST_CASE("buffer: copy_bytes and fill_bytes on the backend", "[memory]") {
  colx::test::tracked_resource mr;
  {
    for (std::size_t bytes : {std::size_t{0}, std::size_t{1}, std::size_t{257}, std::size_t{65537}}) {
      CAPTURE(bytes);
      colx::buffer b(bytes, default_stream, mr.ref());
      colx::detail::fill_bytes(b.data(), b.kind(), 0xC3, bytes, default_stream);
      CHECK(read(b) == bytes_t(bytes, 0xC3));
      // Backend to backend.
      colx::buffer c(bytes, default_stream, mr.ref());
      colx::detail::copy_bytes(c.data(), c.kind(), b.data(), b.kind(), bytes, default_stream);
      CHECK(read(c) == bytes_t(bytes, 0xC3));
    }
    // A part of a buffer, at an odd offset.
    colx::buffer b = make_buffer(bytes_t(100, 0), mr.ref());
    colx::detail::fill_bytes(static_cast<char*>(b.data()) + 3, b.kind(), 1, 5, default_stream);
    auto const back = read(b);
    CHECK(std::accumulate(back.begin(), back.end(), 0) == 5);
    CHECK(back[2] == 0);
    CHECK(back[3] == 1);
    CHECK(back[7] == 1);
    CHECK(back[8] == 0);
  }
  CHECK(mr.outstanding_bytes() == 0);
  if constexpr (!colx::has_cuda) {
    unsigned char byte = 0;
    CHECK_THROWS_WITH(colx::detail::fill_bytes(&byte, colx::memory_kind::device, 1, 1, default_stream),
                      Catch::Contains("device memory needs the CUDA backend"));
  }
}

// ---- uvector -------------------------------------------------------------------------------------

TEST_CASE("uvector: construction and to_host", "[memory]") {
  colx::test::tracked_resource mr;
  for (colx::size_type n : {colx::size_type{0}, colx::size_type{1}, colx::size_type{255}, colx::size_type{257},
                            colx::size_type{100003}}) {
    CAPTURE(n);
    std::vector<std::int32_t> values(static_cast<std::size_t>(n));
    std::iota(values.begin(), values.end(), -7);
    {
      colx::uvector<std::int32_t> v(values, default_stream, mr.ref());
      CHECK(v.size() == n);
      CHECK(v.empty() == (n == 0));
      CHECK(v.kind() == colx::test::backend_kind());
      CHECK(v.memory_resource() == mr.ref());
      CHECK(mr.outstanding_bytes() == n * 4);
      CHECK(v.to_host() == values);

      colx::uvector<std::int32_t> uninitialised(n, default_stream, mr.ref());
      CHECK(uninitialised.size() == n);
      CHECK(mr.outstanding_bytes() == n * 8);
    }
    CHECK(mr.outstanding_bytes() == 0);
  }
  colx::uvector<double> const empty;
  CHECK(empty.size() == 0);
  CHECK(empty.empty());
  CHECK(empty.data() == nullptr);
  CHECK(empty.to_host().empty());
}

TEST_CASE("uvector: element and set_element", "[memory]") {
  colx::test::tracked_resource mr;
  {
    std::vector<double> values{0.5, -1.25, 3.0, 1e300, -0.0};
    colx::uvector<double> v(values, default_stream, mr.ref());
    for (colx::size_type i = 0; i < v.size(); ++i) {
      CHECK(v.element(i, default_stream) == values[static_cast<std::size_t>(i)]);
    }
    v.set_element(0, 42.0, default_stream);
    v.set_element(4, -7.5, default_stream);
    CHECK(v.element(0, default_stream) == 42.0);
    CHECK(v.element(4, default_stream) == -7.5);
    CHECK(v.to_host() == std::vector<double>{42.0, -1.25, 3.0, 1e300, -7.5});

    // Sixteen-byte elements, and the date and decimal types columns hold.
    colx::uvector<pair16> pairs(3, default_stream, mr.ref());
    pairs.set_element(2, pair16{-9, 0.25}, default_stream);
    CHECK(pairs.element(2, default_stream) == pair16{-9, 0.25});
    colx::uvector<colx::date32> dates(std::vector<colx::date32>{colx::date(2024, 2, 29)}, default_stream, mr.ref());
    CHECK(dates.element(0, default_stream) == colx::date32(19782));
    colx::uvector<colx::decimal128> decimals(2, default_stream, mr.ref());
    colx::decimal128 const big{colx::int128_t{1} << 100};
    decimals.set_element(1, big, default_stream);
    CHECK(decimals.element(1, default_stream) == big);
  }
  CHECK(mr.outstanding_bytes() == 0);
}

TEST_CASE("uvector: out-of-range index throws out_of_range", "[memory]") {
  colx::test::tracked_resource mr;
  {
    colx::uvector<std::int64_t> v(std::vector<std::int64_t>{1, 2, 3, 4, 5}, default_stream, mr.ref());
    CHECK_THROWS_AS(v.element(5, default_stream), colx::out_of_range);
    CHECK_THROWS_WITH(v.element(5, default_stream), Catch::Contains("index 5 is outside a uvector of 5 elements"));
    CHECK_THROWS_AS(v.element(-1, default_stream), colx::out_of_range);
    CHECK_THROWS_WITH(v.element(-1, default_stream), Catch::Contains("index -1 is outside"));
    CHECK_THROWS_AS(v.set_element(5, 0, default_stream), colx::out_of_range);
    CHECK_THROWS_AS(v.set_element(-3, 0, default_stream), colx::out_of_range);
    CHECK(v.to_host() == std::vector<std::int64_t>{1, 2, 3, 4, 5});  // nothing was written

    colx::uvector<std::int64_t> const empty(0, default_stream, mr.ref());
    CHECK_THROWS_WITH(empty.element(0, default_stream), Catch::Contains("index 0 is outside a uvector of 0 elements"));
  }
  CHECK(mr.outstanding_bytes() == 0);
}

TEST_CASE("uvector: a negative count throws logic_error", "[memory]") {
  colx::test::tracked_resource mr;
  CHECK_THROWS_AS(colx::uvector<float>(-1, default_stream, mr.ref()), colx::logic_error);
  CHECK_THROWS_WITH(colx::uvector<float>(-5, default_stream, mr.ref()),
                    Catch::Contains("a negative element count (-5)"));
  {
    colx::uvector<float> v(std::vector<float>{1.f, 2.f}, default_stream, mr.ref());
    CHECK_THROWS_AS(v.resize(-2, default_stream), colx::logic_error);
    CHECK_THROWS_AS(v.reserve(-2, default_stream), colx::logic_error);
    CHECK(v.to_host() == std::vector<float>{1.f, 2.f});
  }
  CHECK(mr.statistics().total_allocations == 1);
  CHECK(mr.outstanding_bytes() == 0);
}

TEST_CASE("uvector: an element count whose byte size overflows size_t throws out_of_memory", "[memory]") {
  // 2^61 + 1 eight-byte elements are 2^64 + 8 bytes: the byte count must not wrap around to 8.
  colx::test::tracked_resource mr;
  colx::size_type const too_many = (colx::size_type{1} << 61) + 1;
  CHECK_THROWS_AS(colx::uvector<std::int64_t>(too_many, default_stream, mr.ref()), colx::out_of_memory);
  {
    colx::uvector<std::int64_t> v(1, default_stream, mr.ref());
    CHECK_THROWS_AS(v.resize(too_many, default_stream), colx::out_of_memory);
    CHECK(v.size() == 1);
  }
  CHECK(mr.outstanding_bytes() == 0);
}

TEST_CASE("uvector: resize, reserve and shrink_to_fit keep contents", "[memory]") {
  colx::test::tracked_resource mr;
  {
    std::vector<std::uint16_t> values(300);
    std::iota(values.begin(), values.end(), std::uint16_t{1000});
    colx::uvector<std::uint16_t> v(values, default_stream, mr.ref());

    v.resize(1000, default_stream);
    CHECK(v.size() == 1000);
    auto grown = v.to_host();
    CHECK(std::vector<std::uint16_t>(grown.begin(), grown.begin() + 300) == values);

    v.resize(17, default_stream);
    v.shrink_to_fit(default_stream);
    CHECK(v.size() == 17);
    CHECK(mr.outstanding_bytes() == 34);
    CHECK(v.to_host() == std::vector<std::uint16_t>(values.begin(), values.begin() + 17));

    v.reserve(5000, default_stream);
    CHECK(v.size() == 17);
    CHECK(mr.outstanding_bytes() == 10000);
    CHECK(v.to_host() == std::vector<std::uint16_t>(values.begin(), values.begin() + 17));
  }
  CHECK(mr.outstanding_bytes() == 0);
}

TEST_CASE("uvector: deep copy and move", "[memory]") {
  colx::test::tracked_resource mr;
  {
    std::vector<std::int32_t> values{3, 1, 4, 1, 5, 9, 2, 6};
    colx::uvector<std::int32_t> v(values, default_stream, mr.ref());
    colx::uvector<std::int32_t> copy(v, default_stream, mr.ref());
    CHECK(copy.data() != v.data());
    v.set_element(0, -1, default_stream);
    CHECK(copy.to_host() == values);
    CHECK(v.element(0, default_stream) == -1);

    colx::uvector<std::int32_t> on_host(v, default_stream, colx::get_current_host_resource());
    CHECK(on_host.kind() == colx::memory_kind::host);
    CHECK(on_host.data()[0] == -1);  // host memory: readable directly
    CHECK(on_host.data()[7] == 6);

    std::int32_t const* data = copy.data();
    colx::uvector<std::int32_t> moved(std::move(copy));
    CHECK(moved.data() == data);
    CHECK(copy.empty());  // NOLINT(bugprone-use-after-move)
    CHECK(mr.outstanding_bytes() == 64);
  }
  CHECK(mr.outstanding_bytes() == 0);
}

TEST_CASE("uvector: release and adopt a buffer", "[memory]") {
  colx::test::tracked_resource mr;
  {
    colx::uvector<std::int32_t> v(std::vector<std::int32_t>{7, 8, 9}, default_stream, mr.ref());
    void const* data = v.data();
    colx::buffer storage = std::move(v).release();
    CHECK(storage.size() == 12);
    CHECK(storage.data() == data);
    CHECK(v.empty());  // NOLINT(bugprone-use-after-move)

    colx::uvector<std::int32_t> again(std::move(storage));
    CHECK(again.to_host() == std::vector<std::int32_t>{7, 8, 9});
    // The same bytes seen as a different element type.
    colx::uvector<std::uint8_t> as_bytes(std::move(again).release());
    CHECK(as_bytes.size() == 12);
    CHECK(as_bytes.element(0, default_stream) == 7);
    CHECK(mr.outstanding_allocations() == 1);
  }
  CHECK(mr.outstanding_bytes() == 0);
}

TEST_CASE("uvector: adopting a buffer of a partial element throws and frees it", "[memory]") {
  colx::test::tracked_resource mr;
  CHECK_THROWS_AS(colx::uvector<std::int32_t>(colx::buffer(6, default_stream, mr.ref())), colx::logic_error);
  CHECK_THROWS_WITH(colx::uvector<std::int64_t>(colx::buffer(12, default_stream, mr.ref())),
                    Catch::Contains("a buffer of 12 bytes does not hold a whole number of 8-byte elements"));
  CHECK(mr.statistics().total_allocations == 2);
  CHECK(mr.outstanding_bytes() == 0);
  CHECK(mr.outstanding_allocations() == 0);
}

TEST_CASE("uvector: out of memory through a limit", "[memory]") {
  colx::test::tracked_resource mr;
  colx::limiting_adaptor limited(mr.ref(), 1024);
  CHECK_THROWS_AS(colx::uvector<double>(129, default_stream, limited), colx::out_of_memory);
  CHECK_THROWS_WITH(colx::uvector<double>(129, default_stream, limited), Catch::Contains("1032 bytes"));
  {
    colx::uvector<double> v(128, default_stream, limited);
    CHECK(limited.used() == 1024);
  }
  CHECK(limited.used() == 0);
  CHECK(mr.outstanding_bytes() == 0);
}
