// SPDX-License-Identifier: Apache-2.0
#pragma once
// What the file readers' libFuzzer targets share: a host memory cap (256 MiB: a small input may
// legitimately ask for much, and the cap's out_of_memory is an accepted outcome), and a digest that
// reads every byte a column owns, so a buffer too short for its column shows under ASan.
#include <colx/column/any_column.hpp>
#include <colx/memory/current_resource.hpp>
#include <colx/memory/limiting_adaptor.hpp>

#include <cstdint>

namespace colx::test {

inline limiting_adaptor& capped_host_memory() {
  static limiting_adaptor cap(colx::detail::default_host_resource(), std::size_t{256} << 20);
  return cap;
}

inline std::uint64_t digest(any_column const& c) {
  std::uint64_t h = 0;
  auto const add = [&](shared_buffer const& b) {
    auto const* p = static_cast<unsigned char const*>(b.read());
    for (std::size_t i = 0; i < b.size(); ++i) { h = h * 31 + p[i]; }
  };
  add(c.data());
  add(c.mask());
  for (auto const& child : c.children()) { h += digest(child); }
  return h;
}

}  // namespace colx::test
