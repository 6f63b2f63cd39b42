// SPDX-License-Identifier: Apache-2.0
#include "support/world.hpp"

#include <colx/dist/self_communicator.hpp>
#include <colx/memory/current_resource.hpp>

namespace colx::test {
// Made on first use, after main has chosen the memory the tests run in.
dist::communicator& world() {
  static dist::self_communicator one(get_default_memory_kind());
  return one;
}
}  // namespace colx::test
