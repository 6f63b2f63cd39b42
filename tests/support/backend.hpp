// SPDX-License-Identifier: Apache-2.0
#pragma once
// What a test needs to run on "the backend under test": the CUDA backend in an nvcc build (the
// test binary exits as skipped before this is used when there is no GPU), the host backend in a
// g++ build. Tests are written once against these.
#include <colx/colx.hpp>

#include <string>

namespace colx::test {

// The memory new columns get by default in this build.
[[nodiscard]] inline memory_kind backend_kind() { return has_cuda ? memory_kind::device : memory_kind::host; }
[[nodiscard]] inline resource_ref backend_resource() { return get_current_resource(); }
[[nodiscard]] inline char const* backend_name() { return has_cuda ? "cuda" : "host"; }

// Counts everything allocated through it on the backend, so a test can assert that all of it
// came back: `{ tracked_resource mr; ... use mr.ref() ...; } CHECK(mr.outstanding() == 0)`.
class tracked_resource {
 public:
  tracked_resource() : _stats(backend_resource()) {}
  [[nodiscard]] resource_ref ref() { return _stats; }
  [[nodiscard]] std::int64_t outstanding_bytes() const { return _stats.statistics().current_bytes; }
  [[nodiscard]] std::int64_t outstanding_allocations() const { return _stats.statistics().current_allocations; }
  [[nodiscard]] memory_statistics statistics() const { return _stats.statistics(); }

 private:
  statistics_adaptor _stats;
};

}  // namespace colx::test
