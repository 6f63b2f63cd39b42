// SPDX-License-Identifier: Apache-2.0
#pragma once
// rank(f, keys...): each row's rank under sort keys, from 1, as pandas' rank: ties share the
// average of their positions, or the lowest, the highest, their order of appearance (first), or
// consecutive ranks (dense). A row with a null key has a null rank and takes no place from others.
//
// One sort (rows with a null key last, whatever the keys say), a scan that numbers the runs of
// equal keys, and one pass that writes each row's rank from where its run starts and ends.
#include <colx/exec/scan_ops.hpp>
#include <colx/frame/sort.hpp>

#include <cstdint>

namespace colx {

enum class rank_method { average, min, max, first, dense };

namespace detail {

// Row order[k] starts a run of equal keys.
template <class Less>
struct run_start_fn {
  Less less;
  std::int32_t const* order;
  COLX_HOST_DEVICE std::int64_t operator()(size_type k) const { return k == 0 || less(order[k - 1], order[k]) ? 1 : 0; }
};
template <class Less>
struct mark_run_start_fn {
  run_start_fn<Less> starts_run;
  std::int64_t const* run;  // run[k]: the 1-based number of position k's run
  std::int64_t* run_start;  // run_start[r]: the first position of run r
  COLX_HOST_DEVICE void operator()(size_type k) const {
    if (starts_run(k) != 0) { run_start[run[k]] = k; }
  }
};
struct fill_int64_fn {
  std::int64_t* out;
  std::int64_t value;
  COLX_HOST_DEVICE void operator()(size_type k) const { out[k] = value; }
};
template <class Inputs, class NullKey>
struct write_rank_fn {
  Inputs in;
  NullKey null_key;
  std::int32_t const* order;
  std::int64_t const* run;
  std::int64_t const* run_start;
  rank_method method;
  double* out;
  bitmask_type* mask;
  COLX_HOST_DEVICE void operator()(size_type k) const {
    size_type const i = order[k];
    std::int64_t const r = run[k];
    double const lowest = static_cast<double>(run_start[r] + 1);
    double const highest = static_cast<double>(run_start[r + 1]);
    double rank = 0;
    switch (method) {
      case rank_method::average: rank = (lowest + highest) / 2; break;
      case rank_method::min: rank = lowest; break;
      case rank_method::max: rank = highest; break;
      case rank_method::first: rank = static_cast<double>(k + 1); break;
      case rank_method::dense: rank = static_cast<double>(r); break;
    }
    out[i] = rank;
    auto const has_null = null_key(in, i);
    if (!(has_null.valid && has_null.value)) { set_bit_atomic(mask, i); }
  }
};

template <class Inputs, class... Keys>
row_less_fn<Inputs, Keys...> make_row_less(Inputs const& in, tuple<Keys...> const& keys) {
  return {in, keys};
}

template <class Schema, class... Keys>
column<double> rank_impl(frame<Schema> const& f, rank_method method, stream_ref stream, Keys const&... unbound) {
  spill_lock_scope const spill_lock(stream);  // the columns read here stay put until the work is done
  using inputs = typename frame<Schema>::inputs_type;
  // The leading key puts rows with a null key last, so they take no place from the others.
  auto const null_key = (is_null(unbound.expr) || ...);
  auto const keys = bind_sort_keys<Schema>(asc(null_key), unbound.nulls_last()...);
  auto const bound_null_key = expr::bind<Schema>(null_key);
  size_type const n = f.num_rows();
  memory_kind const kind = f.kind();
  resource_ref const mr = get_current_resource(kind);
  auto const order = sorted_rows(f, keys, stream);
  auto const less = make_row_less(f.inputs(), keys);
  using less_t = std::remove_cvref_t<decltype(less)>;
  uvector<std::int64_t> run(n, stream, mr);
  uvector<std::int64_t> run_start(n + 2, stream, mr);
  uvector<double> out(n, stream, mr);
  buffer mask = create_bitmask(n, false, stream, mr);
  on_backend(kind, stream, [&](auto const& exec) {
    run_start_fn<less_t> const starts_run{less, order.data()};
    exec.inclusive_scan(n, starts_run, run.data(), running_sum<std::int64_t>{});
    exec.for_each_n(n + 2, fill_int64_fn{run_start.data(), static_cast<std::int64_t>(n)});
    exec.for_each_n(n, mark_run_start_fn<less_t>{starts_run, run.data(), run_start.data()});
    exec.for_each_n(n, write_rank_fn<inputs, std::remove_cvref_t<decltype(bound_null_key)>>{
                           f.inputs(), bound_null_key, order.data(), run.data(), run_start.data(), method, out.data(),
                           static_cast<bitmask_type*>(mask.data())});
  });
  size_type const nulls = count_unset_bits(static_cast<bitmask_type const*>(mask.data()), 0, n, kind, stream);
  if (nulls == 0) { mask = buffer(0, stream, mr); }
  return column<double>(std::move(out), std::move(mask), nulls);
}

}  // namespace detail

// rank(f, rank_method::dense, desc("x"_c), "y"_c): a double per row, null where a key is null.
template <class Schema, class... Keys>
[[nodiscard]] column<double> rank(frame<Schema> const& f, rank_method method, Keys const&... keys) {
  static_assert(sizeof...(Keys) > 0, "colx::rank needs at least one key");
  return detail::rank_impl(f, method, stream_ref{}, detail::as_sort_key(keys)...);
}
// The average rank (pandas' default).
template <class Schema, class... Keys>
  requires(!std::same_as<Keys, rank_method> && ...)
[[nodiscard]] column<double> rank(frame<Schema> const& f, Keys const&... keys) {
  return rank(f, rank_method::average, keys...);
}

}  // namespace colx
