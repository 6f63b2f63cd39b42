// SPDX-License-Identifier: Apache-2.0
#pragma once
// The contract between colx's algorithms and its two backends. An algorithm is written once, as a
// generic lambda over `auto const& exec` (exec/dispatch.hpp picks the executor from the memory the
// data lives in), and uses only these primitives, which host::executor (OpenMP, host/executor.hpp)
// and gpu::executor (CUDA, gpu/executor.cuh) both provide and assert beside their definitions:
//
//   exec.stream                                      the stream the work is ordered on
//   exec.for_each_n(n, f)                            f(i) for every i in [0, n)
//   exec.for_each_strided(n, f)                      f(first, last, step) per worker, covering [0, n)
//   exec.transform_reduce(n, init, f, op) -> T       op-fold of init, f(0), ..., f(n-1), to the host
//   exec.reduce_rows(n, init, acc, merge) -> State   acc(state&, i) per row, states merged in a fixed order
//   exec.evaluate_rows(n, f)                         rows in 32-row tiles: values and validity words
//   exec.select_rows(n, keep, load, store[, known]) -> n   store(k, load(i)) for the k-th kept row i
//   exec.exclusive_scan(n, init, f, out) -> total    out[i] = init + f(0) + ... + f(i-1), i in [0, n]
//   exec.exclusive_scan_async(n, init, f, out)       the same, the total left in out[n]: nothing waits
//   exec.inclusive_scan(n, f, out, op[, keys])       out[i] = f(0) op ... op f(i), by runs of keys
//
// Functors passed to them are trivially copyable named types with COLX_HOST_DEVICE call
// operators (a host lambda cannot run on the device). Reductions are deterministic on both.
//
// Operator-specific passes are overloads on the executor type, next to the kernels they launch,
// and included only by the operators that use them: sorting (exec/sort.hpp) and the hash
// aggregation's pass (exec/aggregate_pass.hpp).
#include <colx/core/config.hpp>
#include <colx/memory/stream.hpp>

#include <concepts>
#include <cstdint>

namespace colx {
namespace detail::executor_probe {
// Stand-ins with the shapes the primitives take, for the concept below only.
struct index_fn {
  COLX_HOST_DEVICE void operator()(size_type) const {}
};
struct range_fn {
  COLX_HOST_DEVICE void operator()(size_type, size_type, size_type) const {}
};
struct value_fn {
  COLX_HOST_DEVICE std::int64_t operator()(size_type) const { return 0; }
};
struct plus_fn {
  COLX_HOST_DEVICE std::int64_t operator()(std::int64_t a, std::int64_t b) const { return a + b; }
};
struct fold_fn {
  COLX_HOST_DEVICE void operator()(std::int64_t&, size_type) const {}
};
struct keep_fn {
  COLX_HOST_DEVICE bool operator()(size_type) const { return true; }
};
struct store_fn {
  COLX_HOST_DEVICE void operator()(size_type, std::int64_t) const {}
};
struct rows_fn {
  static constexpr int masked = 0;
  COLX_HOST_DEVICE int row(size_type) const { return 0; }
  COLX_HOST_DEVICE void store(size_type, int) const {}
};
}  // namespace detail::executor_probe

template <class E>
concept executor = requires(E const& e, size_type n, std::int64_t* out, std::uint32_t const* keys) {
  { e.stream } -> std::convertible_to<stream_ref>;
  e.for_each_n(n, detail::executor_probe::index_fn{});
  e.for_each_strided(n, detail::executor_probe::range_fn{});
  { e.transform_reduce(n, std::int64_t{0}, detail::executor_probe::value_fn{}, detail::executor_probe::plus_fn{}) }
      -> std::same_as<std::int64_t>;
  { e.reduce_rows(n, std::int64_t{0}, detail::executor_probe::fold_fn{}, detail::executor_probe::plus_fn{}) }
      -> std::same_as<std::int64_t>;
  e.evaluate_rows(n, detail::executor_probe::rows_fn{});
  { e.select_rows(n, detail::executor_probe::keep_fn{}, detail::executor_probe::value_fn{}, detail::executor_probe::store_fn{}) }
      -> std::same_as<size_type>;
  { e.exclusive_scan(n, std::int64_t{0}, detail::executor_probe::value_fn{}, out) } -> std::same_as<std::int64_t>;
  e.exclusive_scan_async(n, std::int64_t{0}, detail::executor_probe::value_fn{}, out);
  e.inclusive_scan(n, detail::executor_probe::value_fn{}, out, detail::executor_probe::plus_fn{});
  e.inclusive_scan(n, detail::executor_probe::value_fn{}, out, detail::executor_probe::plus_fn{}, keys);
};

}  // namespace colx
