// SPDX-License-Identifier: Apache-2.0
#pragma once
// What a test needs to run on "the backend under test": the memory new columns get by default
// (get_default_memory_kind), which decides the backend. In a g++ build that is host memory; the
// CUDA test binary runs twice, over device frames and, with COLX_TEST_MEMORY=host, over host
// frames processed by the nvcc build (support/default_memory.cpp). (It exits as skipped before
// this is used when there is no GPU.) Tests are written once against these.
#include <colx/colx.hpp>

#include <string>

namespace colx::test {

// The memory new columns get by default in this build.
[[nodiscard]] inline memory_kind backend_kind() { return get_default_memory_kind(); }
// Whether the frames under test live in device memory (the CUDA backend runs them).
[[nodiscard]] inline bool on_device() { return backend_kind() == memory_kind::device; }
[[nodiscard]] inline resource_ref backend_resource() { return get_current_resource(); }
[[nodiscard]] inline char const* backend_name() { return on_device() ? "cuda" : "host"; }

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
