// SPDX-License-Identifier: Apache-2.0
// colx/memory/resource.hpp, host_resource.hpp, current_resource.hpp, stream.hpp; with CUDA the
// device and pinned resources and their libcu++ cuda::mr conformance.
#include "support/backend.hpp"

#include <catch2/catch.hpp>

#include <cstdint>
#include <cstring>
#include <limits>
#include <vector>

#if COLX_HAS_CUDA
#  include <colx/cuda.cuh>
#endif

namespace {

bool aligned(void const* p, std::size_t alignment) { return reinterpret_cast<std::uintptr_t>(p) % alignment == 0; }

// Resources that only declare where their memory lives (they hand out host memory, so that a
// host-only build can still ask them for their kind; nothing here touches their memory on a device).
template <bool OnHost, bool OnDevice>
struct declared_resource {
  colx::host_resource upstream;
  int id = 0;
  void* allocate(std::size_t bytes, std::size_t alignment) { return upstream.allocate(bytes, alignment); }
  void deallocate(void* p, std::size_t bytes, std::size_t alignment) noexcept { upstream.deallocate(p, bytes, alignment); }
  void* allocate_async(std::size_t bytes, std::size_t alignment, colx::stream_ref) { return allocate(bytes, alignment); }
  void deallocate_async(void* p, std::size_t bytes, std::size_t alignment, colx::stream_ref) noexcept {
    deallocate(p, bytes, alignment);
  }
  // Equal when they have the same id: lets a test tell identity from equality.
  friend bool operator==(declared_resource const& a, declared_resource const& b) noexcept { return a.id == b.id; }
  friend void get_property(declared_resource const&, colx::mr::host_accessible) noexcept
    requires OnHost
  {}
  friend void get_property(declared_resource const&, colx::mr::device_accessible) noexcept
    requires OnDevice
  {}
};
using fake_host_resource = declared_resource<true, false>;
using fake_pinned_resource = declared_resource<true, true>;
using fake_device_resource = declared_resource<false, true>;

// Restores the current host resource however a test ends.
class host_resource_guard {
 public:
  host_resource_guard() : _previous(colx::get_current_host_resource()) {}
  host_resource_guard(host_resource_guard const&) = delete;
  host_resource_guard& operator=(host_resource_guard const&) = delete;
  ~host_resource_guard() { colx::set_current_host_resource(_previous); }

 private:
  colx::resource_ref _previous;
};

}  // namespace

// ---- properties and kinds ------------------------------------------------------------------------

static_assert(colx::mr::resource<colx::host_resource>);
static_assert(colx::mr::async_resource<colx::host_resource>);
static_assert(colx::mr::has_property<colx::host_resource, colx::mr::host_accessible>);
static_assert(!colx::mr::has_property<colx::host_resource, colx::mr::device_accessible>);
static_assert(colx::mr::async_resource<fake_device_resource>);
static_assert(colx::mr::has_property<fake_pinned_resource, colx::mr::device_accessible>);
static_assert(!colx::mr::has_property<fake_device_resource, colx::mr::host_accessible>);
// resource_ref itself is copyable and small: two pointers.
static_assert(std::is_trivially_copyable_v<colx::resource_ref>);
static_assert(sizeof(colx::resource_ref) == 2 * sizeof(void*));
static_assert(colx::mr::default_alignment == 256);

TEST_CASE("resource: memory kinds", "[memory]") {
  STATIC_REQUIRE(colx::memory_kind_of<colx::host_resource>() == colx::memory_kind::host);
  STATIC_REQUIRE(colx::memory_kind_of<fake_host_resource>() == colx::memory_kind::host);
  STATIC_REQUIRE(colx::memory_kind_of<fake_pinned_resource>() == colx::memory_kind::pinned);
  STATIC_REQUIRE(colx::memory_kind_of<fake_device_resource>() == colx::memory_kind::device);

  STATIC_REQUIRE(colx::is_host_accessible(colx::memory_kind::host));
  STATIC_REQUIRE(colx::is_host_accessible(colx::memory_kind::pinned));
  STATIC_REQUIRE_FALSE(colx::is_host_accessible(colx::memory_kind::device));
  CHECK(std::string(colx::to_string(colx::memory_kind::host)) == "host");
  CHECK(std::string(colx::to_string(colx::memory_kind::pinned)) == "pinned host");
  CHECK(std::string(colx::to_string(colx::memory_kind::device)) == "device");
  CHECK(std::string(colx::to_string(static_cast<colx::memory_kind>(9))) == "?");

  colx::host_resource host;
  fake_device_resource device;
  fake_pinned_resource pinned;
  CHECK(colx::kind_of(host) == colx::memory_kind::host);
  CHECK(colx::kind_of(device) == colx::memory_kind::device);
  CHECK(colx::kind_of(pinned) == colx::memory_kind::pinned);
  CHECK(colx::resource_ref(host).kind() == colx::memory_kind::host);
  CHECK(colx::resource_ref(device).kind() == colx::memory_kind::device);
  CHECK(colx::resource_ref(pinned).kind() == colx::memory_kind::pinned);

  // Adaptors answer at run time with their upstream's kind, through a ref too.
  colx::statistics_adaptor over_device(device);
  colx::limiting_adaptor over_stats(over_device, 100);
  CHECK(colx::kind_of(over_device) == colx::memory_kind::device);
  CHECK(colx::resource_ref(over_stats).kind() == colx::memory_kind::device);

  CHECK(colx::test::backend_resource().kind() == colx::test::backend_kind());
  CHECK(colx::test::backend_kind() == colx::get_default_memory_kind());
}

// ---- host_resource -------------------------------------------------------------------------------

TEST_CASE("resource: host_resource allocates aligned, writable memory", "[memory]") {
  colx::host_resource mr;
  for (std::size_t bytes : {std::size_t{1}, std::size_t{31}, std::size_t{255}, std::size_t{257}, std::size_t{100003}}) {
    CAPTURE(bytes);
    void* p = mr.allocate(bytes);
    REQUIRE(p != nullptr);
    CHECK(aligned(p, colx::mr::default_alignment));
    std::memset(p, 0xAB, bytes);
    CHECK(static_cast<unsigned char*>(p)[bytes - 1] == 0xAB);
    mr.deallocate(p, bytes);
  }
  for (std::size_t alignment : {std::size_t{8}, std::size_t{64}, std::size_t{4096}}) {
    CAPTURE(alignment);
    void* p = mr.allocate_async(100, alignment, colx::stream_ref{});
    CHECK(aligned(p, alignment));
    mr.deallocate_async(p, 100, alignment, colx::stream_ref{});
  }
}

TEST_CASE("resource: host_resource with zero bytes", "[memory]") {
  colx::host_resource mr;
  CHECK(mr.allocate(0) == nullptr);
  CHECK(mr.allocate_async(0, 256, colx::stream_ref{}) == nullptr);
  mr.deallocate(nullptr, 0);  // a no-op
  mr.deallocate_async(nullptr, 0, 256, colx::stream_ref{});
}

TEST_CASE("resource: host_resource throws out_of_memory for an impossible size", "[memory]") {
#if defined(__SANITIZE_ADDRESS__)
  // AddressSanitizer aborts on an allocation this size instead of letting operator new throw.
  WARN("skipped under AddressSanitizer");
#else
  colx::host_resource mr;
  std::size_t const impossible = std::numeric_limits<std::size_t>::max() / 4;
  CHECK_THROWS_AS(mr.allocate(impossible), colx::out_of_memory);
  CHECK_THROWS_WITH(mr.allocate(impossible),
                    Catch::Contains("host allocation of " + std::to_string(impossible) + " bytes failed"));
#endif
}

// ---- resource_ref --------------------------------------------------------------------------------

TEST_CASE("resource: resource_ref forwards to the resource", "[memory]") {
  colx::test::tracked_resource tracked;
  colx::resource_ref ref = tracked.ref();
  void* p = ref.allocate_async(300, 256, colx::stream_ref{});
  CHECK(p != nullptr);
  CHECK(aligned(p, 256));
  CHECK(tracked.outstanding_bytes() == 300);
  ref.deallocate_async(p, 300, 256, colx::stream_ref{});
  CHECK(tracked.outstanding_bytes() == 0);

  void* q = ref.allocate(77, 256);
  CHECK(tracked.outstanding_bytes() == 77);
  ref.deallocate(q, 77, 256);
  CHECK(tracked.outstanding_bytes() == 0);
  CHECK(tracked.statistics().total_allocations == 2);
  CHECK(ref.kind() == colx::test::backend_kind());
}

TEST_CASE("resource: resource_ref equality", "[memory]") {
  colx::host_resource h1;
  colx::host_resource h2;
  fake_host_resource f1;
  fake_host_resource f2;
  fake_host_resource f3;
  f1.id = f2.id = 1;
  f3.id = 3;

  colx::resource_ref const r1(h1);
  colx::resource_ref const copy = r1;
  CHECK(r1 == copy);
  CHECK(r1 == colx::resource_ref(h1));
  // Host resources can free each other's memory: different objects, equal references.
  CHECK(r1 == colx::resource_ref(h2));
  // Same type: equal exactly when the resources compare equal.
  CHECK(colx::resource_ref(f1) == colx::resource_ref(f2));
  CHECK_FALSE(colx::resource_ref(f1) == colx::resource_ref(f3));
  CHECK(colx::resource_ref(f1) != colx::resource_ref(f3));
  // Different types never compare equal, even if both hand out host memory.
  CHECK(colx::resource_ref(h1) != colx::resource_ref(f1));

  // Adaptors are equal only to themselves.
  colx::statistics_adaptor s1(r1);
  colx::statistics_adaptor s2(r1);
  CHECK(colx::resource_ref(s1) == colx::resource_ref(s1));
  CHECK(colx::resource_ref(s1) != colx::resource_ref(s2));
  CHECK(colx::resource_ref(s1) != r1);
  CHECK(s1.upstream() == r1);
}

// ---- stream_ref ----------------------------------------------------------------------------------

TEST_CASE("resource: stream_ref", "[memory]") {
  STATIC_REQUIRE(std::is_trivially_copyable_v<colx::stream_ref>);
  STATIC_REQUIRE_FALSE(std::is_convertible_v<int, colx::stream_ref>);
  STATIC_REQUIRE_FALSE(std::is_convertible_v<std::nullptr_t, colx::stream_ref>);
  constexpr colx::stream_ref legacy{};
  STATIC_REQUIRE(legacy.value() == nullptr);
  STATIC_REQUIRE(legacy == colx::stream_ref{});
  legacy.synchronize();  // nothing to wait for; must not throw
  CHECK_NOTHROW(legacy.synchronize());

#if COLX_HAS_CUDA
  cudaStream_t raw = nullptr;
  REQUIRE(cudaStreamCreateWithFlags(&raw, cudaStreamNonBlocking) == cudaSuccess);
  colx::stream_ref const s = raw;
  CHECK(s.value() == raw);
  CHECK(s != legacy);
  // Interchangeable with libcu++'s stream_ref, both ways.
  ::cuda::stream_ref const theirs = s;
  CHECK(theirs.get() == raw);
  colx::stream_ref const back = ::cuda::stream_ref{raw};
  CHECK(back.value() == raw);
  CHECK_NOTHROW(s.synchronize());
  REQUIRE(cudaStreamDestroy(raw) == cudaSuccess);
#endif
}

// ---- current resources ---------------------------------------------------------------------------

TEST_CASE("resource: the default host resource", "[memory]") {
  colx::resource_ref const current = colx::get_current_host_resource();
  CHECK(current.kind() == colx::memory_kind::host);
  CHECK(colx::get_current_resource(colx::memory_kind::host) == current);
  void* p = current.allocate(64, 256);
  CHECK(aligned(p, 256));
  current.deallocate(p, 64, 256);
}

TEST_CASE("resource: set_current_host_resource round trip", "[memory]") {
  colx::resource_ref const original = colx::get_current_host_resource();
  colx::statistics_adaptor stats(original);
  {
    host_resource_guard restore;
    colx::resource_ref const previous = colx::set_current_host_resource(stats);
    CHECK(previous == original);
    CHECK(colx::get_current_host_resource() == colx::resource_ref(stats));
    CHECK(colx::get_current_resource(colx::memory_kind::host) == colx::resource_ref(stats));

    // Allocations that take the current host resource now go through the adaptor.
    {
      colx::buffer b(123, colx::stream_ref{}, colx::get_current_host_resource());
      CHECK(stats.statistics().current_bytes == 123);
    }
    CHECK(stats.statistics().current_bytes == 0);
    CHECK(stats.statistics().total_allocations == 1);

    // Setting again returns the adaptor as the previous one.
    colx::host_resource other;
    CHECK(colx::set_current_host_resource(other) == colx::resource_ref(stats));
    CHECK(colx::get_current_host_resource() == colx::resource_ref(other));
  }
  CHECK(colx::get_current_host_resource() == original);
}

TEST_CASE("resource: the current host resource must be host-accessible", "[memory]") {
  host_resource_guard restore;
  colx::resource_ref const before = colx::get_current_host_resource();
  fake_device_resource device;
  CHECK_THROWS_AS(colx::set_current_host_resource(device), colx::logic_error);
  CHECK_THROWS_WITH(colx::set_current_host_resource(device),
                    Catch::Contains("must allocate host memory, not device memory"));
  CHECK(colx::get_current_host_resource() == before);

  // Pinned memory is host memory too.
  fake_pinned_resource pinned;
  CHECK_NOTHROW(colx::set_current_host_resource(pinned));
  CHECK(colx::get_current_host_resource() == colx::resource_ref(pinned));
}

TEST_CASE("resource: current resource by kind", "[memory]") {
  if constexpr (colx::has_cuda) {
    CHECK(colx::get_current_resource(colx::memory_kind::device).kind() == colx::memory_kind::device);
    CHECK(colx::get_current_resource(colx::memory_kind::pinned).kind() == colx::memory_kind::pinned);
    CHECK(colx::get_current_resource() == colx::get_current_resource(colx::get_default_memory_kind()));
  } else {
    CHECK(colx::get_current_resource() == colx::get_current_host_resource());
    CHECK_THROWS_AS(colx::get_current_resource(colx::memory_kind::device), colx::logic_error);
    CHECK_THROWS_WITH(colx::get_current_resource(colx::memory_kind::device),
                      Catch::Contains("device memory needs the CUDA backend"));
    CHECK_THROWS_WITH(colx::get_current_resource(colx::memory_kind::pinned),
                      Catch::Contains("pinned host memory needs the CUDA backend"));
  }
}

TEST_CASE("resource: the default memory kind decides where new columns go", "[memory]") {
  auto const before = colx::get_default_memory_kind();
  CHECK(before == colx::test::backend_kind());
  auto const previous = colx::set_default_memory_kind(colx::memory_kind::host);
  CHECK(previous == before);
  CHECK(colx::get_current_resource() == colx::get_current_host_resource());
  auto const c = colx::make_column(std::vector<std::int32_t>{1, 2, 3});
  CHECK(c.kind() == colx::memory_kind::host);
  colx::set_default_memory_kind(previous);
  if constexpr (!colx::has_cuda) {
    CHECK_THROWS_WITH(colx::set_default_memory_kind(colx::memory_kind::device),
                      Catch::Contains("cannot be device memory in a build without CUDA"));
  }
  CHECK(colx::get_default_memory_kind() == before);
}

// ---- CUDA resources ------------------------------------------------------------------------------

#if COLX_HAS_CUDA
namespace {
// A resource written against libcu++ alone (as RMM's are): it takes ::cuda::stream_ref.
struct libcu_resource {
  colx::gpu::async_resource upstream;
  void* allocate(std::size_t bytes, std::size_t alignment) { return upstream.allocate(bytes, alignment); }
  void deallocate(void* p, std::size_t bytes, std::size_t alignment) noexcept { upstream.deallocate(p, bytes, alignment); }
  void* allocate_async(std::size_t bytes, std::size_t alignment, ::cuda::stream_ref s) {
    return upstream.allocate_async(bytes, alignment, s);
  }
  void deallocate_async(void* p, std::size_t bytes, std::size_t alignment, ::cuda::stream_ref s) noexcept {
    upstream.deallocate_async(p, bytes, alignment, s);
  }
  friend bool operator==(libcu_resource const&, libcu_resource const&) noexcept { return true; }
  friend void get_property(libcu_resource const&, ::cuda::mr::device_accessible) noexcept {}
};

// Restores the current device resource however a test ends.
class device_resource_guard {
 public:
  device_resource_guard() : _previous(colx::get_current_device_resource()) {}
  device_resource_guard(device_resource_guard const&) = delete;
  device_resource_guard& operator=(device_resource_guard const&) = delete;
  ~device_resource_guard() { colx::set_current_device_resource(_previous); }

 private:
  colx::resource_ref _previous;
};

std::vector<unsigned char> device_bytes(void const* p, std::size_t bytes, cudaStream_t stream) {
  std::vector<unsigned char> out(bytes);
  REQUIRE(cudaMemcpyAsync(out.data(), p, bytes, cudaMemcpyDeviceToHost, stream) == cudaSuccess);
  REQUIRE(cudaStreamSynchronize(stream) == cudaSuccess);
  return out;
}
}  // namespace

// colx's resources model libcu++'s concepts, so RMM and CCCL accept them.
static_assert(::cuda::mr::async_resource_with<colx::gpu::pool_resource, ::cuda::mr::device_accessible>);
static_assert(::cuda::mr::async_resource_with<colx::gpu::async_resource, ::cuda::mr::device_accessible>);
static_assert(::cuda::mr::async_resource_with<colx::gpu::pinned_resource, ::cuda::mr::host_accessible,
                                              ::cuda::mr::device_accessible>);
static_assert(::cuda::mr::async_resource_with<colx::host_resource, ::cuda::mr::host_accessible>);
static_assert(!::cuda::mr::async_resource_with<colx::host_resource, ::cuda::mr::device_accessible>);
static_assert(::cuda::mr::async_resource<colx::statistics_adaptor>);
static_assert(::cuda::mr::async_resource<colx::limiting_adaptor>);
static_assert(::cuda::mr::async_resource<colx::failure_callback_adaptor>);
// ...and a libcu++-only resource is a colx resource.
static_assert(colx::mr::async_resource<libcu_resource>);

TEST_CASE("resource: pool_resource allocates stream-ordered device memory", "[memory][cuda]") {
  cudaStream_t stream = nullptr;
  REQUIRE(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking) == cudaSuccess);
  {
    colx::gpu::pool_resource pool;
    int device = -1;
    REQUIRE(cudaGetDevice(&device) == cudaSuccess);
    CHECK(pool.device() == device);
    CHECK(pool.pool() != nullptr);
    CHECK(colx::kind_of(pool) == colx::memory_kind::device);

    for (std::size_t bytes : {std::size_t{1}, std::size_t{255}, std::size_t{257}, std::size_t{1} << 20}) {
      CAPTURE(bytes);
      void* p = pool.allocate_async(bytes, 256, stream);
      REQUIRE(p != nullptr);
      CHECK(aligned(p, 256));
      cudaPointerAttributes attributes{};
      REQUIRE(cudaPointerGetAttributes(&attributes, p) == cudaSuccess);
      CHECK(attributes.type == cudaMemoryTypeDevice);
      REQUIRE(cudaMemsetAsync(p, 0x5A, bytes, stream) == cudaSuccess);
      auto const back = device_bytes(p, bytes, stream);
      CHECK(back.front() == 0x5A);
      CHECK(back.back() == 0x5A);
      pool.deallocate_async(p, bytes, 256, stream);
    }
    CHECK(pool.allocate_async(0, 256, stream) == nullptr);
    pool.deallocate_async(nullptr, 0, 256, stream);

    void* sync = pool.allocate(100, 256);
    CHECK(sync != nullptr);
    pool.deallocate(sync, 100, 256);

    colx::gpu::pool_resource other;
    CHECK(pool == pool);
    CHECK_FALSE(pool == other);
    CHECK(colx::resource_ref(pool) != colx::resource_ref(other));
    REQUIRE(cudaStreamSynchronize(stream) == cudaSuccess);
  }
  REQUIRE(cudaStreamDestroy(stream) == cudaSuccess);
}

TEST_CASE("resource: pool_resource error paths", "[memory][cuda]") {
  colx::gpu::pool_resource pool;
  CHECK_THROWS_AS(pool.allocate_async(64, 512, colx::stream_ref{}), colx::logic_error);
  CHECK_THROWS_WITH(pool.allocate_async(64, 512, colx::stream_ref{}),
                    Catch::Contains("alignment is at most 256 bytes; asked for 512"));
  std::size_t const too_big = std::size_t{1} << 52;  // 4 PiB
  CHECK_THROWS_AS(pool.allocate_async(too_big, 256, colx::stream_ref{}), colx::out_of_memory);
  CHECK_THROWS_WITH(pool.allocate_async(too_big, 256, colx::stream_ref{}),
                    Catch::Contains("device pool allocation of " + std::to_string(too_big) + " bytes failed"));
  // The failure is not sticky: the next call works.
  CHECK(cudaGetLastError() == cudaSuccess);
  void* p = pool.allocate_async(64, 256, colx::stream_ref{});
  CHECK(p != nullptr);
  pool.deallocate_async(p, 64, 256, colx::stream_ref{});
  CHECK(cudaStreamSynchronize(nullptr) == cudaSuccess);
}

TEST_CASE("resource: async_resource", "[memory][cuda]") {
  colx::gpu::async_resource mr;
  CHECK(colx::kind_of(mr) == colx::memory_kind::device);
  void* p = mr.allocate_async(1000, 256, colx::stream_ref{});
  REQUIRE(p != nullptr);
  REQUIRE(cudaMemsetAsync(p, 7, 1000, nullptr) == cudaSuccess);
  CHECK(device_bytes(p, 1000, nullptr)[999] == 7);
  mr.deallocate_async(p, 1000, 256, colx::stream_ref{});
  CHECK(mr.allocate_async(0, 256, colx::stream_ref{}) == nullptr);
  CHECK_THROWS_AS(mr.allocate_async(std::size_t{1} << 52, 256, colx::stream_ref{}), colx::out_of_memory);
  CHECK(cudaGetLastError() == cudaSuccess);
  CHECK(cudaStreamSynchronize(nullptr) == cudaSuccess);
}

TEST_CASE("resource: pinned_resource", "[memory][cuda]") {
  colx::gpu::pinned_resource mr;
  CHECK(colx::kind_of(mr) == colx::memory_kind::pinned);
  CHECK(colx::resource_ref(mr).kind() == colx::memory_kind::pinned);
  auto* p = static_cast<unsigned char*>(mr.allocate(257, 256));
  REQUIRE(p != nullptr);
  CHECK(aligned(p, 256));
  cudaPointerAttributes attributes{};
  REQUIRE(cudaPointerGetAttributes(&attributes, p) == cudaSuccess);
  CHECK(attributes.type == cudaMemoryTypeHost);
  std::memset(p, 3, 257);  // host-accessible
  CHECK(p[256] == 3);
  mr.deallocate_async(p, 257, 256, colx::stream_ref{});
  CHECK(mr.allocate(0, 256) == nullptr);
  CHECK_THROWS_AS(mr.allocate(8, 1024), colx::logic_error);
  CHECK_THROWS_WITH(mr.allocate(8, 1024), Catch::Contains("pinned alignment is at most 256 bytes; asked for 1024"));
}

TEST_CASE("resource: pinned_pool_resource carves allocations from a reserved arena", "[memory][cuda]") {
  colx::gpu::pinned_pool_resource pool;
  constexpr std::size_t mib = std::size_t{1} << 20;
  pool.reserve(mib);
  CHECK(pool.reserved_bytes() == mib);
  CHECK(pool.largest_free_range() == mib);
  auto* const a = static_cast<char*>(pool.allocate(200000));
  auto* const b = static_cast<char*>(pool.allocate(300000));
  auto* const c = static_cast<char*>(pool.allocate(200000));
  REQUIRE((a != nullptr && b != nullptr && c != nullptr));
  CHECK(b == a + 200192);  // first fit, sizes rounded up to 256 bytes
  CHECK(c == b + 300032);
  CHECK(pool.largest_free_range() == mib - 200192 - 300032 - 200192);
  std::memset(b, 7, 300000);  // host-accessible pinned memory
  cudaPointerAttributes attributes{};
  REQUIRE(cudaPointerGetAttributes(&attributes, b) == cudaSuccess);
  CHECK(attributes.type == cudaMemoryTypeHost);
  // Freed neighbours merge: a and b make one range, which a larger block then fits.
  pool.deallocate(b, 300000);
  pool.deallocate(a, 200000);
  auto* const d = static_cast<char*>(pool.allocate(500000));
  CHECK(d == a);
  // More than the arenas hold comes from cudaMallocHost, outside them.
  auto* const big = static_cast<char*>(pool.allocate(2 * mib));
  REQUIRE(big != nullptr);
  CHECK((big + 2 * mib <= a || big >= a + mib));
  pool.deallocate(big, 2 * mib);
  pool.deallocate(d, 500000);
  pool.deallocate(c, 200000);
  CHECK(pool.largest_free_range() == mib);  // all of it one range again
  pool.reserve(mib);  // a second arena: its ranges never merge with the first's
  CHECK(pool.reserved_bytes() == 2 * mib);
  CHECK(pool.largest_free_range() == mib);
}

TEST_CASE("resource: libcu++ resource_ref and colx resources interoperate", "[memory][cuda]") {
  colx::gpu::pool_resource pool;
  ::cuda::mr::async_resource_ref<::cuda::mr::device_accessible> theirs{pool};
  void* p = theirs.allocate_async(512, 256, ::cuda::stream_ref{cudaStream_t{}});
  CHECK(p != nullptr);
  theirs.deallocate_async(p, 512, 256, ::cuda::stream_ref{cudaStream_t{}});

  libcu_resource foreign;
  colx::resource_ref ours(foreign);
  CHECK(ours.kind() == colx::memory_kind::device);
  colx::uvector<int> v(std::vector<int>{1, 2, 3}, colx::stream_ref{}, ours);
  CHECK(v.to_host() == std::vector<int>{1, 2, 3});
}

TEST_CASE("resource: current device and pinned resources", "[memory][cuda]") {
  // Device memory the default for this test, whichever memory the frames under test live in.
  struct default_device {
    colx::memory_kind previous = colx::set_default_memory_kind(colx::memory_kind::device);
    ~default_device() { colx::set_default_memory_kind(previous); }
  } const device_default;
  colx::resource_ref const device = colx::get_current_device_resource();
  CHECK(device.kind() == colx::memory_kind::device);
  CHECK(colx::get_current_device_resource() == device);  // one per device, made once
  CHECK(colx::get_current_resource() == device);
  colx::resource_ref const pinned = colx::get_current_pinned_resource();
  CHECK(pinned.kind() == colx::memory_kind::pinned);
  CHECK(colx::get_current_pinned_resource() == pinned);

  device_resource_guard restore;
  colx::statistics_adaptor stats(device);
  CHECK(colx::set_current_device_resource(stats) == device);
  CHECK(colx::get_current_resource() == colx::resource_ref(stats));
  {
    colx::buffer b(1000);  // the default resource is the current device resource
    CHECK(stats.statistics().current_bytes == 1000);
  }
  CHECK(stats.statistics().current_bytes == 0);

  colx::host_resource host;
  CHECK_THROWS_AS(colx::set_current_device_resource(host), colx::logic_error);
  CHECK_THROWS_WITH(colx::set_current_device_resource(host),
                    Catch::Contains("must allocate device memory, not host memory"));
  CHECK(colx::get_current_device_resource() == colx::resource_ref(stats));
}
#endif
