// SPDX-License-Identifier: Apache-2.0
// At the end of a CUDA test run, unpins the blocks the default pinned pool caches (spilling and
// pinned-memory tests fill it). The pool lives for the process and is never destroyed (unpinning
// after the CUDA context is gone fails), so compute-sanitizer's leak check counted its cached
// blocks as 16 leaks; released while the context lives, they are returned.
#include <colx/memory/current_resource.hpp>

// TestEventListenerBase is declared only with the external interfaces.
#define CATCH_CONFIG_EXTERNAL_INTERFACES
#include <catch2/catch.hpp>

namespace {

struct release_pinned_pool : Catch::TestEventListenerBase {
  using TestEventListenerBase::TestEventListenerBase;
  void testRunEnded(Catch::TestRunStats const& stats) override {
    colx::gpu::default_pinned_pool().release();
    TestEventListenerBase::testRunEnded(stats);
  }
};

}  // namespace

CATCH_REGISTER_LISTENER(release_pinned_pool)
