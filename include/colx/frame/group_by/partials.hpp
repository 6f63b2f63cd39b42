// SPDX-License-Identifier: Apache-2.0
#pragma once
// A thread's private cells in narrow form, for the per-thread caches of the few-groups pass
// (exec/aggregate_rows.hpp) where they live in the GPU's shared memory, and on the host: a decimal
// of at most 18 digits sums in 64 bits there, and the group's row count in 32, where the table's
// cells keep 128 and 64. A row the narrow cells cannot take (a sum would overflow, a
// count would wrap) makes the thread flush them to the table, widened, and start afresh; with
// real data that is never. TPC-H Q1's private cells of four groups so take 64 bytes a group
// instead of 104, in shared memory, and three blocks of 256 threads fit a multiprocessor
// instead of two. Every other cell is its own private form.
#include <colx/frame/group_by/cells.hpp>

#include <cstdint>
#include <type_traits>

namespace colx::detail {

// A cell's private form: by default the cell itself. T is the aggregated value's type.
template <class Cell, class T>
struct cell_partial {
  using type = typename Cell::type;
  static constexpr COLX_HOST_DEVICE type identity() { return Cell::identity(); }
  static constexpr COLX_HOST_DEVICE bool fits(type const&, T const&) { return true; }
  template <class Ctx>
  static COLX_HOST_DEVICE void add(type& p, T const& v, size_type row, Ctx const& ctx) {
    Cell::add(p, v, row, ctx);
  }
  static constexpr COLX_HOST_DEVICE type const& widen(type const& p) { return p; }
};

struct narrow_decimal_sum {
  std::int64_t total;
};
struct counted_narrow_decimal_sum {
  std::int64_t total;
  std::uint32_t n;
};
struct narrow_row_count {
  std::uint32_t n;
};
inline constexpr std::uint32_t most_narrow_count = 0xffffffffu;

// The sum of a decimal of at most 18 digits, and the mean that keeps the same cell
// (group_by/cells_moments.hpp): both add the value and count it.
template <class Cell, class T>
  requires(dec_type<T> && sizeof(typename T::rep) <= 8 &&
           (std::is_same_v<typename Cell::type, decimal_sum> || std::is_same_v<typename Cell::type, counted_decimal_sum>))
struct cell_partial<Cell, T> {
  static constexpr bool counted = std::is_same_v<typename Cell::type, counted_decimal_sum>;
  using type = std::conditional_t<counted, counted_narrow_decimal_sum, narrow_decimal_sum>;
  static constexpr COLX_HOST_DEVICE type identity() { return type{}; }
  // Whether p + v stays in 64 bits: a signed sum overflows exactly when both operands' signs
  // differ from the wrapped result's.
  static constexpr COLX_HOST_DEVICE bool fits(type const& p, T const& v) {
    auto const x = static_cast<std::int64_t>(v.unscaled);
    auto const s = static_cast<std::int64_t>(static_cast<std::uint64_t>(p.total) + static_cast<std::uint64_t>(x));
    bool const in_range = ((p.total ^ s) & (x ^ s)) >= 0;
    if constexpr (counted) {
      return in_range & (p.n != most_narrow_count);
    } else {
      return in_range;
    }
  }
  template <class Ctx>
  static COLX_HOST_DEVICE void add(type& p, T const& v, size_type, Ctx const&) {
    p.total = static_cast<std::int64_t>(static_cast<std::uint64_t>(p.total) + static_cast<std::uint64_t>(v.unscaled));
    if constexpr (counted) { ++p.n; }
  }
  static constexpr COLX_HOST_DEVICE typename Cell::type widen(type const& p) {
    typename Cell::type c{};
    c.total = words_of_value(int128_t{p.total});
    if constexpr (counted) { c.n = static_cast<size_type>(p.n); }
    return c;
  }
};

}  // namespace colx::detail
