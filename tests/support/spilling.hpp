// SPDX-License-Identifier: Apache-2.0
#pragma once
// Spilling on for a test's scope, put back after: shared by the spill and stress tests.
#include "support/backend.hpp"

#include <optional>

namespace colx::test {

// Spilling on for the test's lifetime: the backend's memory spills (to a host resource of the
// test's own in a host build, to pinned memory in a CUDA build); everything is put back after.
class spilling {
 public:
  explicit spilling(std::optional<std::size_t> soft_limit = std::nullopt, bool on_demand = true) {
    auto& m = colx::spill_manager::get();
    m.set_statistics_level(1);
    m.reset_statistics();
    m.set_device_limit(soft_limit);
    m.set_on_demand(on_demand);
    m.set_spill_target(colx::test::backend_kind(), colx::test::on_device() ? std::nullopt
                                                                   : std::optional<colx::resource_ref>(_away));
    m.set_enabled(true);
  }
  spilling(spilling const&) = delete;
  spilling& operator=(spilling const&) = delete;
  ~spilling() {
    auto& m = colx::spill_manager::get();
    m.set_enabled(false);
    m.set_device_limit(std::nullopt);
    m.set_spill_target(colx::memory_kind::device, std::nullopt);  // also removes the on-demand hook
    m.set_statistics_level(0);
  }

 private:
  // Host build: where spilled memory goes, outside any limit a test puts on the current resource.
  colx::statistics_adaptor _away{colx::detail::default_host_resource()};
};

}  // namespace colx::test
