// SPDX-License-Identifier: Apache-2.0
// Exception safety (issue 15): for each pipeline below, the k-th allocation it makes fails, for
// every k. Each run must throw colx::out_of_memory (or, where the pipeline made fewer allocations
// this time, finish with the right answer), return every byte it took (the statistics resource
// under it goes back to zero) and leave its inputs as they were.
#include "support/columns.hpp"

#include <catch2/catch.hpp>

#include <cstdint>
#include <functional>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

using namespace colx::literals;

namespace {

using colx::size_type;
using namespace colx::test;

// Passes allocations to its upstream, and fails the one numbered `fail_at` (from 0; -1: none).
class failing_resource {
 public:
  explicit failing_resource(colx::resource_ref upstream) : _upstream(upstream) {}
  failing_resource(failing_resource const&) = delete;
  failing_resource& operator=(failing_resource const&) = delete;

  [[nodiscard]] void* allocate_async(std::size_t bytes, std::size_t alignment, colx::stream_ref stream) {
    count();
    return _upstream.allocate_async(bytes, alignment, stream);
  }
  void deallocate_async(void* p, std::size_t bytes, std::size_t alignment, colx::stream_ref stream) noexcept {
    _upstream.deallocate_async(p, bytes, alignment, stream);
  }
  [[nodiscard]] void* allocate(std::size_t bytes, std::size_t alignment) {
    count();
    return _upstream.allocate(bytes, alignment);
  }
  void deallocate(void* p, std::size_t bytes, std::size_t alignment) noexcept { _upstream.deallocate(p, bytes, alignment); }
  [[nodiscard]] colx::memory_kind kind() const noexcept { return _upstream.kind(); }
  friend bool operator==(failing_resource const& a, failing_resource const& b) noexcept { return &a == &b; }

  std::int64_t fail_at = -1;
  std::int64_t made = 0;

 private:
  void count() {
    if (made++ == fail_at) { COLX_FAIL_AS(colx::out_of_memory, "injected failure of allocation ", fail_at); }
  }
  colx::resource_ref _upstream;
};

// Makes `r` the current resource of the backend's memory for its lifetime.
class current_resource_scope {
 public:
  explicit current_resource_scope(colx::resource_ref r) : _kind(backend_kind()), _old(set(_kind, r)) {}
  ~current_resource_scope() { set(_kind, _old); }
  current_resource_scope(current_resource_scope const&) = delete;
  current_resource_scope& operator=(current_resource_scope const&) = delete;

 private:
  static colx::resource_ref set(colx::memory_kind kind, colx::resource_ref r) {
#if COLX_HAS_CUDA
    if (kind == colx::memory_kind::device) { return colx::set_current_device_resource(r); }
#endif
    (void)kind;
    return colx::set_current_host_resource(r);
  }
  colx::memory_kind _kind;
  colx::resource_ref _old;
};

using S = colx::schema<colx::field<"k", std::int32_t>, colx::field<"s", colx::string_view>, colx::field<"x", double>>;
using R = colx::schema<colx::field<"k", std::int64_t>, colx::field<"y", std::int32_t>>;

struct inputs {
  optionals<std::int32_t> k;
  strings s;
  optionals<double> x;
  optionals<std::int64_t> rk;
  optionals<std::int32_t> ry;
};

// Runs `pipeline` (which returns a printable summary of its result) with the k-th allocation
// failing, for every k up to the number it makes, and checks the three promises.
void every_failure(char const* name, colx::frame<S> const& f, colx::frame<R> const& g, inputs const& in,
                   std::function<std::string()> const& pipeline) {
  CAPTURE(name);
  tracked_resource stats;
  failing_resource failing(stats.ref());
  std::string want;
  {
    current_resource_scope const scope{colx::resource_ref(failing)};
    want = pipeline();
  }
  std::int64_t const allocations = failing.made;
  CAPTURE(allocations);
  CHECK(allocations > 0);
  for (std::int64_t k = 0; k < allocations; ++k) {
    CAPTURE(k);
    failing.made = 0;
    failing.fail_at = k;
    {
      current_resource_scope const scope{colx::resource_ref(failing)};
      try {
        std::string const got = pipeline();
        CHECK(failing.made <= k);  // finished only if it made fewer allocations this time
        CHECK(got == want);
      } catch (colx::out_of_memory const&) {
        // the promise: this exception and nothing else
      }
    }
    colx::stream_ref{}.synchronize();
    CHECK(stats.outstanding_allocations() == 0);
    CHECK(stats.outstanding_bytes() == 0);
  }
  // The inputs are as they were.
  CHECK(colx::to_optional_vector(f["k"_c].view()) == in.k);
  CHECK(colx::to_strings(f["s"_c].view()) == in.s);
  CHECK(colx::to_optional_vector(f["x"_c].view()) == in.x);
  CHECK(colx::to_optional_vector(g["k"_c].view()) == in.rk);
  CHECK(colx::to_optional_vector(g["y"_c].view()) == in.ry);
}

template <class Frame>
std::string summary(Frame const& r) {
  std::ostringstream out;
  out << r.num_rows() << " rows\n" << r;
  return out.str();
}

}  // namespace

TEST_CASE("faults: an allocation failing anywhere in a pipeline throws out_of_memory and leaks nothing", "[memory]") {
  for (size_type const n : {size_type{1}, size_type{257}, size_type{5000}}) {
    CAPTURE(n);
    auto const nn = static_cast<std::size_t>(n);
    inputs in{random_optionals<std::int32_t>(nn, 1, 0.1, 0, 20), {}, random_optionals<double>(nn, 3, 0.1, -5.0, 5.0),
              random_optionals<std::int64_t>(nn / 2 + 1, 4, 0.1, 0, 30), random_optionals<std::int32_t>(nn / 2 + 1, 5, 0.0, -9, 9)};
    for (std::size_t i = 0; i < nn; ++i) { in.s.push_back(i % 7 == 0 ? std::nullopt : std::optional<std::string>("v" + std::to_string(i % 13))); }
    colx::frame<S> const f(column_of(in.k), strings_of(in.s), column_of(in.x));
    colx::frame<R> const g(column_of(in.rk), column_of(in.ry));

    every_failure("filter | with_columns | collect", f, g, in, [&] {
      return summary(f | colx::filter("x"_c > 0.0) | colx::with_columns(("x"_c * 2).as<"x2">()));
    });
    every_failure("group_by | aggregate", f, g, in, [&] {
      return summary(f | colx::group_by(colx::group_by_options{.sorted = true}, "k"_c) |
                     colx::aggregate(colx::sum("x"_c).as<"sx">(), colx::nunique("s"_c).as<"u">(), colx::count().as<"n">()));
    });
    every_failure("join", f, g, in, [&] {
      return summary(f | colx::join<colx::join_kind::left>(g, colx::on("k"_c)) | colx::sort_by("k"_c, "x"_c, "y"_c));
    });
    every_failure("sort_by strings", f, g, in, [&] { return summary(f | colx::sort_by(colx::desc("s"_c), "x"_c)); });
  }
}
