// SPDX-License-Identifier: Apache-2.0
// partition_positions on the backend's memory against a naive stable partition on the host:
// sizes around the GPU's 4096-row tiles and the host's 2^16-row chunks, 1 to 64 destinations,
// every row in one destination, and destinations in runs.
#include "support/backend.hpp"

#include <colx/exec/partition.hpp>

#include <catch2/catch.hpp>

#include <cstdint>
#include <vector>

namespace {

using colx::size_type;

template <class I>
void check(std::vector<std::uint32_t> const& dest, int parts) {
  auto const n = static_cast<size_type>(dest.size());
  colx::uvector<std::uint32_t> const d(std::span<std::uint32_t const>(dest), {}, colx::test::backend_resource());
  colx::uvector<I> positions(n, {}, colx::test::backend_resource());
  auto const bounds = colx::on_backend(colx::test::backend_kind(), {}, [&](auto const& exec) {
    return partition_positions(exec, n, d.data(), parts, positions.data());
  });
  std::vector<I> got(dest.size());
  colx::detail::copy_bytes(got.data(), colx::memory_kind::host, positions.data(), colx::test::backend_kind(),
                           got.size() * sizeof(I), {});
  // The naive stable partition: destination by destination, rows in order.
  std::vector<size_type> expected_bounds{0};
  std::vector<I> expected(dest.size());
  size_type next = 0;
  for (int p = 0; p < parts; ++p) {
    for (std::size_t i = 0; i < dest.size(); ++i) {
      if (dest[i] == static_cast<std::uint32_t>(p)) { expected[i] = static_cast<I>(next++); }
    }
    expected_bounds.push_back(next);
  }
  CHECK(bounds == expected_bounds);
  CHECK(got == expected);
}

}  // namespace

TEST_CASE("partition_positions places rows by destination, stably", "[partition]") {
  for (size_type n : {size_type{0}, size_type{1}, size_type{31}, size_type{4095}, size_type{4097}, size_type{65537},
                      size_type{100003}}) {
    for (int parts : {1, 2, 3, 7, 64}) {
      std::vector<std::uint32_t> dest(static_cast<std::size_t>(n));
      std::uint64_t x = 88172645463325252ull + static_cast<std::uint64_t>(n * parts);
      for (auto& d : dest) {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        d = static_cast<std::uint32_t>(x % static_cast<std::uint64_t>(parts));
      }
      check<std::int32_t>(dest, parts);
      check<std::int64_t>(dest, parts);
      // Every row to the last destination; then destinations in runs of 1000.
      std::vector<std::uint32_t> last(dest.size(), static_cast<std::uint32_t>(parts - 1));
      check<std::int32_t>(last, parts);
      for (std::size_t i = 0; i < dest.size(); ++i) { dest[i] = static_cast<std::uint32_t>(i / 1000 % static_cast<std::size_t>(parts)); }
      check<std::int32_t>(dest, parts);
    }
  }
}
