// SPDX-License-Identifier: Apache-2.0
#pragma once
// Forces the group-by's path while it lives (a test hook, detail::forced_group_by_path), so that
// small inputs take each path a large one would.
#include <colx/colx.hpp>

namespace colx::test {

struct forced_path {
  explicit forced_path(detail::group_by_path p) { detail::forced_group_by_path().store(p); }
  forced_path(forced_path const&) = delete;
  forced_path& operator=(forced_path const&) = delete;
  ~forced_path() { detail::forced_group_by_path().store(detail::group_by_path::by_sample); }
};

}  // namespace colx::test
