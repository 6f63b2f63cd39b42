// SPDX-License-Identifier: Apache-2.0
// The resource adaptors: statistics_adaptor, limiting_adaptor, failure_callback_adaptor, alone and
// stacked over the backend's resource.
#include "support/backend.hpp"

#include <catch2/catch.hpp>

#include <atomic>
#include <optional>
#include <string>
#include <thread>
#include <vector>

namespace {

constexpr std::size_t alignment = colx::mr::default_alignment;

// A resource that fails every allocation with the exception a test gives it.
template <class Exception>
struct throwing_resource {
  colx::host_resource host;
  int calls = 0;
  void* allocate(std::size_t, std::size_t) {
    ++calls;
    throw Exception("throwing_resource refuses");
  }
  void deallocate(void* p, std::size_t bytes, std::size_t align) noexcept { host.deallocate(p, bytes, align); }
  void* allocate_async(std::size_t bytes, std::size_t align, colx::stream_ref) { return allocate(bytes, align); }
  void deallocate_async(void* p, std::size_t bytes, std::size_t align, colx::stream_ref) noexcept {
    deallocate(p, bytes, align);
  }
  friend bool operator==(throwing_resource const& a, throwing_resource const& b) noexcept { return &a == &b; }
  friend void get_property(throwing_resource const&, colx::mr::host_accessible) noexcept {}
};

// One allocation held through a resource, freed by reset().
class held_allocation {
 public:
  held_allocation(colx::resource_ref mr, std::size_t bytes)
      : _mr(mr), _bytes(bytes), _p(mr.allocate_async(bytes, alignment, colx::stream_ref{})) {}
  held_allocation(held_allocation const&) = delete;
  held_allocation& operator=(held_allocation const&) = delete;
  ~held_allocation() { reset(); }
  void reset() noexcept {
    if (_p != nullptr) { _mr.deallocate_async(_p, _bytes, alignment, colx::stream_ref{}); }
    _p = nullptr;
  }
  [[nodiscard]] bool held() const noexcept { return _p != nullptr; }

 private:
  colx::resource_ref _mr;
  std::size_t _bytes;
  void* _p;
};

}  // namespace

// ---- statistics_adaptor --------------------------------------------------------------------------

TEST_CASE("adaptors: statistics_adaptor counts current, peak and total", "[memory]") {
  colx::statistics_adaptor stats(colx::test::backend_resource());
  CHECK(stats.kind() == colx::test::backend_kind());
  CHECK(stats.upstream() == colx::test::backend_resource());
  auto const s0 = stats.statistics();
  CHECK(s0.current_bytes == 0);
  CHECK(s0.peak_bytes == 0);
  CHECK(s0.total_bytes == 0);
  CHECK(s0.current_allocations == 0);
  CHECK(s0.peak_allocations == 0);
  CHECK(s0.total_allocations == 0);

  colx::stream_ref const stream{};
  void* a = stats.allocate_async(100, alignment, stream);
  void* b = stats.allocate_async(257, alignment, stream);
  auto s = stats.statistics();
  CHECK(s.current_bytes == 357);
  CHECK(s.peak_bytes == 357);
  CHECK(s.total_bytes == 357);
  CHECK(s.current_allocations == 2);
  CHECK(s.peak_allocations == 2);
  CHECK(s.total_allocations == 2);

  stats.deallocate_async(a, 100, alignment, stream);
  void* c = stats.allocate(31, alignment);  // the synchronous forms count the same
  s = stats.statistics();
  CHECK(s.current_bytes == 288);
  CHECK(s.peak_bytes == 357);
  CHECK(s.total_bytes == 388);
  CHECK(s.current_allocations == 2);
  CHECK(s.peak_allocations == 2);
  CHECK(s.total_allocations == 3);

  void* d = stats.allocate_async(1000, alignment, stream);
  s = stats.statistics();
  CHECK(s.current_bytes == 1288);
  CHECK(s.peak_bytes == 1288);
  CHECK(s.peak_allocations == 3);

  stats.deallocate(c, 31, alignment);
  stats.deallocate_async(b, 257, alignment, stream);
  stats.deallocate_async(d, 1000, alignment, stream);
  s = stats.statistics();
  CHECK(s.current_bytes == 0);
  CHECK(s.current_allocations == 0);
  CHECK(s.peak_bytes == 1288);
  CHECK(s.peak_allocations == 3);
  CHECK(s.total_bytes == 1388);
  CHECK(s.total_allocations == 4);
}

TEST_CASE("adaptors: statistics_adaptor counts nothing for a failed allocation", "[memory]") {
  throwing_resource<colx::out_of_memory> refuses;
  colx::statistics_adaptor stats(refuses);
  CHECK_THROWS_AS(stats.allocate_async(64, alignment, colx::stream_ref{}), colx::out_of_memory);
  CHECK_THROWS_AS(stats.allocate(64, alignment), colx::out_of_memory);
  CHECK(refuses.calls == 2);
  auto const s = stats.statistics();
  CHECK(s.current_bytes == 0);
  CHECK(s.total_allocations == 0);
  CHECK(s.peak_bytes == 0);
}

TEST_CASE("adaptors: statistics_adaptor equality and stacking", "[memory]") {
  colx::statistics_adaptor outer_upstream(colx::test::backend_resource());
  // Spelled through resource_ref: a bare `outer(outer_upstream)` would pick the deleted copy constructor.
  colx::statistics_adaptor outer(colx::resource_ref{outer_upstream});
  CHECK(outer == outer);
  CHECK_FALSE(outer == outer_upstream);
  void* p = outer.allocate_async(40, alignment, colx::stream_ref{});
  CHECK(outer.statistics().current_bytes == 40);
  CHECK(outer_upstream.statistics().current_bytes == 40);
  outer.deallocate_async(p, 40, alignment, colx::stream_ref{});
  CHECK(outer_upstream.statistics().current_bytes == 0);
  CHECK(outer.kind() == colx::test::backend_kind());
}

TEST_CASE("adaptors: statistics_adaptor from several threads", "[memory]") {
  colx::statistics_adaptor stats(colx::get_current_host_resource());
  constexpr int threads = 4;
  constexpr int rounds = 500;
  std::vector<std::thread> workers;
  for (int t = 0; t < threads; ++t) {
    workers.emplace_back([&stats, t] {
      for (int i = 0; i < rounds; ++i) {
        std::size_t const bytes = static_cast<std::size_t>(1 + t + i % 7);
        void* p = stats.allocate(bytes, alignment);
        stats.deallocate(p, bytes, alignment);
      }
    });
  }
  for (auto& w : workers) { w.join(); }
  auto const s = stats.statistics();
  CHECK(s.current_bytes == 0);
  CHECK(s.current_allocations == 0);
  CHECK(s.total_allocations == threads * rounds);
  CHECK(s.peak_allocations >= 1);
  CHECK(s.peak_allocations <= threads);
}

// ---- limiting_adaptor ----------------------------------------------------------------------------

TEST_CASE("adaptors: limiting_adaptor allows up to its limit", "[memory]") {
  colx::test::tracked_resource tracked;
  colx::limiting_adaptor limited(tracked.ref(), 1000);
  CHECK(limited.limit() == 1000);
  CHECK(limited.used() == 0);
  CHECK(limited.kind() == colx::test::backend_kind());
  CHECK(limited.upstream() == tracked.ref());

  void* a = limited.allocate_async(600, alignment, colx::stream_ref{});
  CHECK(limited.used() == 600);
  void* b = limited.allocate(400, alignment);  // exactly at the limit
  CHECK(limited.used() == 1000);
  CHECK(tracked.outstanding_bytes() == 1000);
  limited.deallocate_async(a, 600, alignment, colx::stream_ref{});
  CHECK(limited.used() == 400);
  limited.deallocate(b, 400, alignment);
  CHECK(limited.used() == 0);
  CHECK(tracked.outstanding_bytes() == 0);
}

TEST_CASE("adaptors: limiting_adaptor throws out_of_memory past its limit without touching upstream", "[memory]") {
  colx::test::tracked_resource tracked;
  colx::limiting_adaptor limited(tracked.ref(), 1000);

  SECTION("one allocation larger than the limit") {
    CHECK_THROWS_AS(limited.allocate_async(1001, alignment, colx::stream_ref{}), colx::out_of_memory);
    CHECK_THROWS_WITH(limited.allocate(5000, alignment),
                      Catch::Contains("allocation of 5000 bytes exceeds the limit of 1000 bytes") &&
                          Catch::Contains("0 in use, 1000 free"));
    CHECK(limited.used() == 0);
    CHECK(tracked.statistics().total_allocations == 0);
  }
  SECTION("an allocation that would cross the limit") {
    void* a = limited.allocate_async(700, alignment, colx::stream_ref{});
    CHECK_THROWS_WITH(limited.allocate_async(301, alignment, colx::stream_ref{}),
                      Catch::Contains("allocation of 301 bytes exceeds the limit of 1000 bytes (700 in use, 300 free)"));
    CHECK(limited.used() == 700);
    CHECK(tracked.statistics().total_allocations == 1);
    CHECK(tracked.outstanding_bytes() == 700);
    // What is left can still be had.
    void* b = limited.allocate_async(300, alignment, colx::stream_ref{});
    limited.deallocate_async(b, 300, alignment, colx::stream_ref{});
    limited.deallocate_async(a, 700, alignment, colx::stream_ref{});
  }
  SECTION("a bad_alloc is catchable generically") {
    CHECK_THROWS_AS(limited.allocate(2000, alignment), std::bad_alloc);
  }
  CHECK(limited.used() == 0);
  CHECK(tracked.outstanding_bytes() == 0);
}

TEST_CASE("adaptors: limiting_adaptor with a zero limit", "[memory]") {
  colx::test::tracked_resource tracked;
  colx::limiting_adaptor limited(tracked.ref(), 0);
  CHECK_THROWS_AS(limited.allocate_async(1, alignment, colx::stream_ref{}), colx::out_of_memory);
  CHECK(limited.used() == 0);
  CHECK(tracked.statistics().total_allocations == 0);
}

TEST_CASE("adaptors: limiting_adaptor gives back its reservation when upstream fails", "[memory]") {
  colx::test::tracked_resource tracked;
  colx::limiting_adaptor inner(tracked.ref(), 100);
  colx::limiting_adaptor outer(inner, 1000);
  CHECK_THROWS_WITH(outer.allocate_async(500, alignment, colx::stream_ref{}),
                    Catch::Contains("exceeds the limit of 100 bytes"));
  CHECK(outer.used() == 0);
  CHECK(inner.used() == 0);
  CHECK_THROWS_AS(outer.allocate(500, alignment), colx::out_of_memory);
  CHECK(outer.used() == 0);

  throwing_resource<colx::logic_error> broken;
  colx::limiting_adaptor over_broken(broken, 1000);
  CHECK_THROWS_AS(over_broken.allocate(10, alignment), colx::logic_error);
  CHECK(over_broken.used() == 0);
  CHECK(tracked.outstanding_bytes() == 0);
}

TEST_CASE("adaptors: limiting_adaptor from several threads never exceeds its limit", "[memory]") {
  colx::statistics_adaptor stats(colx::get_current_host_resource());
  colx::limiting_adaptor limited(stats, 1000);
  std::atomic<int> refused{0};
  std::atomic<bool> over{false};
  std::vector<std::thread> workers;
  for (int t = 0; t < 4; ++t) {
    workers.emplace_back([&] {
      for (int i = 0; i < 500; ++i) {
        try {
          void* p = limited.allocate(300, alignment);
          if (stats.statistics().current_bytes > 1000) { over = true; }
          limited.deallocate(p, 300, alignment);
        } catch (colx::out_of_memory const&) {
          ++refused;
        }
      }
    });
  }
  for (auto& w : workers) { w.join(); }
  CHECK_FALSE(over.load());
  CHECK(stats.statistics().peak_bytes <= 900);
  CHECK(limited.used() == 0);
  CHECK(stats.statistics().current_bytes == 0);
  CHECK(stats.statistics().total_allocations + refused.load() == 2000);
}

// ---- failure_callback_adaptor --------------------------------------------------------------------

TEST_CASE("adaptors: failure_callback_adaptor retries after the callback frees memory", "[memory]") {
  colx::test::tracked_resource tracked;
  colx::limiting_adaptor limited(tracked.ref(), 1000);
  std::optional<held_allocation> held;
  held.emplace(limited, 800);

  std::vector<std::size_t> requests;
  colx::failure_callback_adaptor on_failure(limited, [&](std::size_t bytes) {
    requests.push_back(bytes);
    if (!held || !held->held()) { return false; }
    held->reset();  // "spill" what we hold
    return true;
  });
  CHECK(on_failure.kind() == colx::test::backend_kind());
  CHECK(on_failure.upstream() == colx::resource_ref(limited));
  CHECK(on_failure == on_failure);

  // Fits beside the held allocation: no callback.
  void* small = on_failure.allocate_async(150, alignment, colx::stream_ref{});
  CHECK(requests.empty());

  SECTION("stream-ordered") {
    void* p = on_failure.allocate_async(600, alignment, colx::stream_ref{});
    REQUIRE(p != nullptr);
    CHECK(requests == std::vector<std::size_t>{600});
    CHECK_FALSE(held->held());
    CHECK(limited.used() == 750);
    on_failure.deallocate_async(p, 600, alignment, colx::stream_ref{});
  }
  SECTION("synchronous") {
    void* p = on_failure.allocate(600, alignment);
    CHECK(requests == std::vector<std::size_t>{600});
    CHECK(limited.used() == 750);
    on_failure.deallocate(p, 600, alignment);
  }
  on_failure.deallocate_async(small, 150, alignment, colx::stream_ref{});
  held.reset();
  CHECK(limited.used() == 0);
  CHECK(tracked.outstanding_bytes() == 0);
}

TEST_CASE("adaptors: failure_callback_adaptor rethrows when the callback gives up", "[memory]") {
  colx::test::tracked_resource tracked;
  colx::limiting_adaptor limited(tracked.ref(), 100);

  SECTION("callback returns false at once") {
    int calls = 0;
    colx::failure_callback_adaptor on_failure(limited, [&](std::size_t) {
      ++calls;
      return false;
    });
    CHECK_THROWS_AS(on_failure.allocate_async(200, alignment, colx::stream_ref{}), colx::out_of_memory);
    CHECK(calls == 1);
    // The upstream's own message comes through unchanged.
    CHECK_THROWS_WITH(on_failure.allocate(200, alignment), Catch::Contains("exceeds the limit of 100 bytes"));
    CHECK(calls == 2);
  }
  SECTION("callback claims to free memory three times, then gives up") {
    int calls = 0;
    colx::failure_callback_adaptor on_failure(limited, [&](std::size_t bytes) {
      CHECK(bytes == 200);
      return ++calls <= 3;
    });
    CHECK_THROWS_AS(on_failure.allocate_async(200, alignment, colx::stream_ref{}), colx::out_of_memory);
    CHECK(calls == 4);
  }
  SECTION("no callback at all") {
    colx::failure_callback_adaptor on_failure(limited, colx::failure_callback_adaptor::callback{});
    CHECK_THROWS_AS(on_failure.allocate_async(200, alignment, colx::stream_ref{}), colx::out_of_memory);
    void* p = on_failure.allocate_async(100, alignment, colx::stream_ref{});
    on_failure.deallocate_async(p, 100, alignment, colx::stream_ref{});
  }
  CHECK(limited.used() == 0);
  CHECK(tracked.outstanding_bytes() == 0);
  CHECK(tracked.statistics().total_allocations <= 1);
}

TEST_CASE("adaptors: failure_callback_adaptor does not call back for errors other than out_of_memory", "[memory]") {
  throwing_resource<colx::logic_error> broken;
  int calls = 0;
  colx::failure_callback_adaptor on_failure(broken, [&](std::size_t) {
    ++calls;
    return true;
  });
  CHECK_THROWS_AS(on_failure.allocate_async(8, alignment, colx::stream_ref{}), colx::logic_error);
  CHECK(calls == 0);
  CHECK(broken.calls == 1);
}

TEST_CASE("adaptors: a full stack returns every byte", "[memory]") {
  // failure_callback -> limiting -> statistics -> backend, used by a buffer.
  colx::test::tracked_resource tracked;
  colx::limiting_adaptor limited(tracked.ref(), 4096);
  std::optional<held_allocation> held;
  held.emplace(limited, 4000);
  colx::failure_callback_adaptor on_failure(limited, [&](std::size_t) {
    bool const had = held.has_value();
    held.reset();
    return had;
  });
  {
    colx::buffer b(3000, colx::stream_ref{}, on_failure);
    CHECK(b.size() == 3000);
    CHECK(b.kind() == colx::test::backend_kind());
    CHECK_FALSE(held.has_value());
    CHECK(tracked.outstanding_bytes() == 3000);
    CHECK_THROWS_AS(colx::buffer(2000, colx::stream_ref{}, on_failure), colx::out_of_memory);
    CHECK(tracked.outstanding_bytes() == 3000);
  }
  CHECK(limited.used() == 0);
  CHECK(tracked.outstanding_bytes() == 0);
  CHECK(tracked.outstanding_allocations() == 0);
  CHECK(tracked.statistics().total_allocations == 2);
  CHECK(tracked.statistics().peak_bytes == 4000);
}
