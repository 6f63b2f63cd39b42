// SPDX-License-Identifier: Apache-2.0
// on_backend and the executors' primitives (for_each_n, transform_reduce, exclusive_scan) on the
// backend's memory, checked against plain host loops.
#include "support/backend.hpp"

#include <catch2/catch.hpp>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <type_traits>
#include <vector>

#if !COLX_HAS_CUDA && defined(_OPENMP)
#  include <omp.h>
#endif

namespace {

using colx::size_type;
constexpr colx::stream_ref default_stream{};

// The sizes every primitive is tried at: empty, one, around a block of 256, around one host
// reduction chunk (2^14), and large and odd.
constexpr size_type sizes[] = {0, 1, 255, 256, 257, (size_type{1} << 14) + 3, 1'000'007};

// ---- functors: named, trivially copyable, callable on host and device ----------------------------

template <class T>
struct affine {  // out[i] = i * scale + offset
  T* out;
  T scale;
  T offset;
  COLX_HOST_DEVICE void operator()(size_type i) const { out[i] = static_cast<T>(i) * scale + offset; }
};

struct increment {
  std::int32_t* out;
  COLX_HOST_DEVICE void operator()(size_type i) const { out[i] += 1; }
};

template <class T>
struct load {
  T const* in;
  COLX_HOST_DEVICE T operator()(size_type i) const { return in[i]; }
};

struct plus {
  template <class A, class B>
  COLX_HOST_DEVICE auto operator()(A a, B b) const {
    return a + b;
  }
};

struct maximum {
  template <class A>
  COLX_HOST_DEVICE A operator()(A a, A b) const {
    return a < b ? b : a;
  }
};

// 1 where out[i] differs from i ^ 0x5555, else 0.
struct xor_mismatch {
  std::int32_t const* out;
  COLX_HOST_DEVICE std::int64_t operator()(size_type i) const {
    return out[i] != (static_cast<std::int32_t>(i) ^ 0x5555) ? 1 : 0;
  }
};
struct xor_fill {
  std::int32_t* out;
  COLX_HOST_DEVICE void operator()(size_type i) const { out[i] = static_cast<std::int32_t>(i) ^ 0x5555; }
};

// ---- host reference data -------------------------------------------------------------------------

// Signed integers in [-1000, 1000], scrambled.
std::vector<std::int32_t> mixed_ints(size_type n) {
  std::vector<std::int32_t> out(static_cast<std::size_t>(n));
  for (size_type i = 0; i < n; ++i) { out[static_cast<std::size_t>(i)] = static_cast<std::int32_t>((i * 2654435761LL) % 2001) - 1000; }
  return out;
}

// Floats in [-1, 1) of many magnitudes, from a fixed linear congruential sequence.
std::vector<float> mixed_floats(size_type n) {
  std::vector<float> out(static_cast<std::size_t>(n));
  std::uint64_t state = 88172645463325252ULL;
  for (auto& x : out) {
    state = state * 6364136223846793005ULL + 1442695040888963407ULL;
    double const unit = static_cast<double>(state >> 11) / static_cast<double>(std::uint64_t{1} << 53);
    x = static_cast<float>((unit * 2 - 1) * std::ldexp(1.0, -static_cast<int>(state % 13)));
  }
  return out;
}

template <class F>
decltype(auto) on_backend_of(colx::uvector<std::int32_t> const& v, F&& f) {
  return colx::on_backend(v.kind(), v.stream(), std::forward<F>(f));
}

}  // namespace

// ---- on_backend ----------------------------------------------------------------------------------

TEST_CASE("executor: on_backend picks the backend of the memory", "[exec]") {
  // 1 for the host executor, 2 for the CUDA one.
  auto which = [](auto const& exec) {
    if constexpr (std::is_same_v<std::decay_t<decltype(exec)>, colx::host::executor>) {
      return 1;
    } else {
      return 2;
    }
  };
  CHECK(colx::on_backend(colx::memory_kind::host, default_stream, which) == 1);
  CHECK(colx::on_backend(colx::memory_kind::pinned, default_stream, which) == 1);
  CHECK(colx::on_backend(colx::test::backend_kind(), default_stream, which) == (colx::test::on_device() ? 2 : 1));
  if constexpr (colx::has_cuda) {
    CHECK(colx::on_backend(colx::memory_kind::device, default_stream, which) == 2);
  }
}

TEST_CASE("executor: on_backend passes the stream and the result", "[exec]") {
  colx::stream_ref const stream{};
  auto stream_of = [](auto const& exec) { return exec.stream; };
  CHECK(colx::on_backend(colx::test::backend_kind(), stream, stream_of) == stream);
  CHECK(colx::on_backend(colx::memory_kind::host, stream, stream_of) == stream);

  // decltype(auto): a reference comes back as the same reference.
  int target = 0;
  int* const pointer = &target;
  int& ref = colx::on_backend(colx::memory_kind::host, stream, [pointer](auto const&) -> int& { return *pointer; });
  CHECK(&ref == &target);

  int calls = 0;
  colx::on_backend(colx::test::backend_kind(), stream, [&](auto const&) { ++calls; });
  CHECK(calls == 1);
}

TEST_CASE("executor: on_backend without the CUDA backend refuses device memory", "[exec]") {
  if constexpr (!colx::has_cuda) {
    int calls = 0;
    auto count = [&](auto const&) { return ++calls; };
    CHECK_THROWS_AS(colx::on_backend(colx::memory_kind::device, default_stream, count), colx::logic_error);
    CHECK_THROWS_WITH(colx::on_backend(colx::memory_kind::device, default_stream, count),
                      Catch::Contains("device memory needs the CUDA backend"));
    CHECK(calls == 0);
  }
}

// ---- for_each_n ----------------------------------------------------------------------------------

TEST_CASE("executor: for_each_n writes every index", "[exec]") {
  colx::test::tracked_resource mr;
  for (size_type n : sizes) {
    CAPTURE(n);
    colx::uvector<std::int64_t> out(n, default_stream, mr.ref());
    colx::on_backend(out.kind(), out.stream(), [&](auto const& exec) {
      exec.for_each_n(n, affine<std::int64_t>{out.data(), 3, -11});
    });
    auto const host = out.to_host();
    std::vector<std::int64_t> expected(static_cast<std::size_t>(n));
    for (size_type i = 0; i < n; ++i) { expected[static_cast<std::size_t>(i)] = i * 3 - 11; }
    CHECK(host == expected);
  }
  CHECK(mr.outstanding_bytes() == 0);
}

TEST_CASE("executor: for_each_n visits each index exactly once", "[exec]") {
  colx::test::tracked_resource mr;
  for (size_type n : sizes) {
    CAPTURE(n);
    colx::uvector<std::int32_t> counts(std::vector<std::int32_t>(static_cast<std::size_t>(n), 0), default_stream,
                                       mr.ref());
    on_backend_of(counts, [&](auto const& exec) {
      exec.for_each_n(n, increment{counts.data()});
      exec.for_each_n(n, increment{counts.data()});
      exec.for_each_n(0, increment{counts.data()});   // no work
      exec.for_each_n(-1, increment{counts.data()});  // no work either
    });
    CHECK(counts.to_host() == std::vector<std::int32_t>(static_cast<std::size_t>(n), 2));
  }
  CHECK(mr.outstanding_bytes() == 0);
}

TEST_CASE("executor: for_each_n over more rows than one pass of the grid", "[exec]") {
  // The CUDA executor caps its grid at 2^16 blocks of 256: beyond 2^24 rows threads loop.
  colx::test::tracked_resource mr;
  {
    size_type const n = (size_type{1} << 24) + 3;
    colx::uvector<std::int32_t> out(n, default_stream, mr.ref());
    auto const mismatches = on_backend_of(out, [&](auto const& exec) {
      exec.for_each_n(n, xor_fill{out.data()});
      return exec.transform_reduce(n, std::int64_t{0}, xor_mismatch{out.data()}, plus{});
    });
    CHECK(mismatches == 0);
    CHECK(out.element(n - 1, default_stream) == (static_cast<std::int32_t>(n - 1) ^ 0x5555));
    CHECK(out.element(size_type{1} << 24, default_stream) == ((1 << 24) ^ 0x5555));
  }
  CHECK(mr.outstanding_bytes() == 0);
}

// ---- transform_reduce ----------------------------------------------------------------------------

TEST_CASE("executor: transform_reduce sums integers exactly", "[exec]") {
  colx::test::tracked_resource mr;
  for (size_type n : sizes) {
    CAPTURE(n);
    auto const values = mixed_ints(n);
    std::int64_t expected = 12345;
    for (auto v : values) { expected += v; }

    colx::uvector<std::int32_t> in(values, default_stream, mr.ref());
    auto const sum = on_backend_of(in, [&](auto const& exec) {
      return exec.transform_reduce(n, std::int64_t{12345}, load<std::int32_t>{in.data()}, plus{});
    });
    STATIC_REQUIRE(std::is_same_v<std::remove_const_t<decltype(sum)>, std::int64_t>);
    CHECK(sum == expected);
  }
  CHECK(mr.outstanding_bytes() == 0);
}

TEST_CASE("executor: transform_reduce accumulates in the type of init", "[exec]") {
  // Each value fits 32 bits; their sum needs 64.
  colx::test::tracked_resource mr;
  for (size_type n : sizes) {
    CAPTURE(n);
    std::vector<std::int32_t> values(static_cast<std::size_t>(n));
    std::int64_t expected = 0;
    for (size_type i = 0; i < n; ++i) {
      values[static_cast<std::size_t>(i)] = std::numeric_limits<std::int32_t>::max() - static_cast<std::int32_t>(i % 3);
      expected += values[static_cast<std::size_t>(i)];
    }
    colx::uvector<std::int32_t> in(values, default_stream, mr.ref());
    auto const sum = on_backend_of(in, [&](auto const& exec) {
      return exec.transform_reduce(n, std::int64_t{0}, load<std::int32_t>{in.data()}, plus{});
    });
    CHECK(sum == expected);
  }
  CHECK(mr.outstanding_bytes() == 0);
}

TEST_CASE("executor: transform_reduce with max", "[exec]") {
  colx::test::tracked_resource mr;
  for (size_type n : sizes) {
    CAPTURE(n);
    auto values = mixed_ints(n);
    if (n > 0) { values[static_cast<std::size_t>(n * 2 / 3)] = 5000; }  // one clear maximum, not at an end
    colx::uvector<std::int32_t> in(values, default_stream, mr.ref());
    auto const largest = on_backend_of(in, [&](auto const& exec) {
      return exec.transform_reduce(n, std::numeric_limits<std::int32_t>::min(), load<std::int32_t>{in.data()}, maximum{});
    });
    CHECK(largest == (n > 0 ? 5000 : std::numeric_limits<std::int32_t>::min()));
  }
  CHECK(mr.outstanding_bytes() == 0);
}

TEST_CASE("executor: transform_reduce of floats is deterministic and accurate", "[exec]") {
  colx::test::tracked_resource mr;
  for (size_type n : sizes) {
    CAPTURE(n);
    auto const values = mixed_floats(n);
    double reference = 0.25;
    double magnitude = 0.25;
    for (float v : values) {
      reference += v;
      magnitude += std::fabs(v);
    }
    colx::uvector<float> in(values, default_stream, mr.ref());
    auto reduce = [&] {
      return colx::on_backend(in.kind(), in.stream(), [&](auto const& exec) {
        return exec.transform_reduce(n, 0.25f, load<float>{in.data()}, plus{});
      });
    };
    float const first = reduce();
    float const second = reduce();
    // Bit for bit the same, run after run.
    CHECK(std::memcmp(&first, &second, sizeof(float)) == 0);
    CHECK(first == Approx(reference).margin(1e-6 * magnitude));
    if (n == 0) { CHECK(first == 0.25f); }
    if (n == 1) { CHECK(first == 0.25f + values[0]); }
  }
  CHECK(mr.outstanding_bytes() == 0);
}

#if !COLX_HAS_CUDA && defined(_OPENMP)
TEST_CASE("executor: host transform_reduce does not depend on the number of threads", "[exec]") {
  size_type const n = 1'000'007;
  auto const values = mixed_floats(n);
  // The documented order: fixed chunks reduced left to right, then the chunks in order after init.
  float expected = 0.5f;
  for (size_type begin = 0; begin < n; begin += colx::host::executor::reduce_chunk) {
    size_type const end = std::min(n, begin + colx::host::executor::reduce_chunk);
    float chunk = values[static_cast<std::size_t>(begin)];
    for (size_type i = begin + 1; i < end; ++i) { chunk += values[static_cast<std::size_t>(i)]; }
    expected += chunk;
  }
  int const saved = omp_get_max_threads();
  std::vector<float> results;
  for (int threads : {1, 2, 3, 8}) {
    omp_set_num_threads(threads);
    results.push_back(colx::host::executor{}.transform_reduce(n, 0.5f, load<float>{values.data()}, plus{}));
  }
  omp_set_num_threads(saved);
  for (float r : results) { CHECK(std::memcmp(&r, &expected, sizeof(float)) == 0); }
}
#endif

// ---- exclusive_scan ------------------------------------------------------------------------------

TEST_CASE("executor: exclusive_scan writes n + 1 outputs, the last the total", "[exec]") {
  colx::test::tracked_resource mr;
  for (size_type n : sizes) {
    CAPTURE(n);
    auto const values = mixed_ints(n);
    std::vector<std::int64_t> expected(static_cast<std::size_t>(n) + 1);
    std::int64_t running = -77;
    for (size_type i = 0; i < n; ++i) {
      expected[static_cast<std::size_t>(i)] = running;
      running += values[static_cast<std::size_t>(i)];
    }
    expected.back() = running;

    colx::uvector<std::int32_t> in(values, default_stream, mr.ref());
    colx::uvector<std::int64_t> out(n + 1, default_stream, mr.ref());
    auto const total = on_backend_of(in, [&](auto const& exec) {
      return exec.exclusive_scan(n, std::int64_t{-77}, load<std::int32_t>{in.data()}, out.data());
    });
    CHECK(total == running);
    CHECK(out.to_host() == expected);
  }
  CHECK(mr.outstanding_bytes() == 0);
}

TEST_CASE("executor: exclusive_scan of sizes into 64-bit offsets", "[exec]") {
  // How a strings column builds its offsets: sizes near 2^31 each, offsets past 2^32.
  colx::test::tracked_resource mr;
  {
    size_type const n = 257;
    std::vector<std::int32_t> sizes_in(static_cast<std::size_t>(n), std::numeric_limits<std::int32_t>::max());
    colx::uvector<std::int32_t> in(sizes_in, default_stream, mr.ref());
    colx::uvector<std::int64_t> offsets(n + 1, default_stream, mr.ref());
    auto const total = on_backend_of(in, [&](auto const& exec) {
      return exec.exclusive_scan(n, std::int64_t{0}, load<std::int32_t>{in.data()}, offsets.data());
    });
    std::int64_t const max32 = std::numeric_limits<std::int32_t>::max();
    CHECK(total == n * max32);
    CHECK(offsets.element(0, default_stream) == 0);
    CHECK(offsets.element(3, default_stream) == 3 * max32);
    CHECK(offsets.element(n, default_stream) == n * max32);
  }
  CHECK(mr.outstanding_bytes() == 0);
}

#if COLX_HAS_CUDA
TEST_CASE("executor: primitives on a stream of the caller's", "[exec][cuda]") {
  cudaStream_t raw = nullptr;
  REQUIRE(cudaStreamCreateWithFlags(&raw, cudaStreamNonBlocking) == cudaSuccess);
  colx::stream_ref const stream = raw;
  colx::test::tracked_resource mr;
  {
    size_type const n = 100'003;
    colx::uvector<std::int32_t> in(n, stream, mr.ref());
    colx::uvector<std::int64_t> offsets(n + 1, stream, mr.ref());
    std::int64_t const expected = n * (n - 1) / 2;
    auto const [sum, total] = colx::on_backend(in.kind(), stream, [&](auto const& exec) {
      CHECK(exec.stream == stream);
      exec.for_each_n(n, affine<std::int32_t>{in.data(), 1, 0});
      auto const s = exec.transform_reduce(n, std::int64_t{0}, load<std::int32_t>{in.data()}, plus{});
      auto const t = exec.exclusive_scan(n, std::int64_t{0}, load<std::int32_t>{in.data()}, offsets.data());
      return std::pair{s, t};
    });
    CHECK(sum == expected);
    CHECK(total == expected);
    CHECK(offsets.element(n, stream) == expected);
    CHECK(offsets.element(10, stream) == 45);
  }
  REQUIRE(cudaStreamSynchronize(raw) == cudaSuccess);
  CHECK(mr.outstanding_bytes() == 0);
  REQUIRE(cudaStreamDestroy(raw) == cudaSuccess);
}
#endif
