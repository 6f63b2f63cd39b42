// SPDX-License-Identifier: Apache-2.0
#pragma once
// Stable partitioning by destination on the host: chunks count their destinations in parallel,
// a prefix in (destination, chunk) order gives each chunk its first position in each
// destination, and each chunk then places its rows in order. The GPU's version is
// gpu/partition.cuh; exec/partition.hpp picks one.
#include <colx/host/executor.hpp>

#include <cstdint>
#include <vector>

namespace colx::host {

template <class I>
std::vector<size_type> partition_positions(executor const&, size_type n, std::uint32_t const* destination, int parts,
                                           I* positions) {
  std::vector<size_type> bounds(static_cast<std::size_t>(parts) + 1, 0);
  if (n == 0) { return bounds; }
  constexpr size_type chunk = size_type{1} << 16;
  size_type const chunks = (n + chunk - 1) / chunk;
  auto const at = [&](size_type c, int p) { return static_cast<std::size_t>(p) * static_cast<std::size_t>(chunks) + static_cast<std::size_t>(c); };
  std::vector<size_type> first(static_cast<std::size_t>(chunks) * static_cast<std::size_t>(parts), 0);
#pragma omp parallel for schedule(static) if (chunks > 1)
  for (size_type c = 0; c < chunks; ++c) {
    size_type const end = c * chunk + chunk < n ? c * chunk + chunk : n;
    for (size_type i = c * chunk; i < end; ++i) { ++first[at(c, static_cast<int>(destination[i]))]; }
  }
  size_type total = 0;
  for (int p = 0; p < parts; ++p) {
    bounds[static_cast<std::size_t>(p)] = total;
    for (size_type c = 0; c < chunks; ++c) {
      size_type const count = first[at(c, p)];
      first[at(c, p)] = total;
      total += count;
    }
  }
  bounds.back() = total;
#pragma omp parallel for schedule(static) if (chunks > 1)
  for (size_type c = 0; c < chunks; ++c) {
    std::vector<size_type> next(static_cast<std::size_t>(parts));
    for (int p = 0; p < parts; ++p) { next[static_cast<std::size_t>(p)] = first[at(c, p)]; }
    size_type const end = c * chunk + chunk < n ? c * chunk + chunk : n;
    for (size_type i = c * chunk; i < end; ++i) { positions[i] = static_cast<I>(next[destination[i]]++); }
  }
  return bounds;
}

}  // namespace colx::host
