// SPDX-License-Identifier: Apache-2.0
#pragma once
// Running aggregates in row order, over a frame or per group: cumsum, cummin, cummax and
// cumcount, each a column as long as the frame. `cumsum(f, "x"_c)`; per group
// `cumsum(f | group_by("k"_c), "x"_c)`, as pandas' df.groupby("k")["x"].cumsum().
//
// Nulls are skipped as pandas does: a null value gives a null result and the running value
// carries past it. NaN orders after every number (cummax stays NaN after one, cummin passes it).
//
// A frame's scan is one device-wide scan. Per group, each row first gets its group's slot in a
// hash table of the keys; a stable radix sort of the slots lines each group's rows up in row order,
// a scan by key runs over the groups at once, and the results go back to their rows.
#include <colx/column/bitmask_ops.hpp>
#include <colx/exec/dispatch.hpp>
#include <colx/exec/row_keys.hpp>
#include <colx/exec/sort.hpp>
#include <colx/exec/scan_ops.hpp>
#include <colx/frame/group_by.hpp>

#include <cstdint>
#include <limits>
#include <optional>

namespace colx {
namespace detail {

// The scan's input k: the value of row order[k] (row k without an order), the identity if null.
template <class Inputs, class E, class T, class Op>
struct scan_input_fn {
  Inputs in;
  E e;
  std::int32_t const* order;
  COLX_HOST_DEVICE T operator()(size_type k) const {
    auto const v = e(in, order != nullptr ? static_cast<size_type>(order[k]) : k);
    return v.valid ? static_cast<T>(v.value) : Op::identity();
  }
};

// Result k goes to row order[k], valid where the value is and the row has a group.
template <class Inputs, class E, class T>
struct scatter_scan_fn {
  Inputs in;
  E e;
  std::int32_t const* order;
  std::uint32_t const* sorted_slots;  // null without groups
  std::uint32_t no_group;             // the slot of a row left out (a null key, dropped)
  T const* scanned;
  T bias;
  T* out;
  bitmask_type* mask;  // null when the result has no nulls
  COLX_HOST_DEVICE void operator()(size_type k) const {
    size_type const i = order != nullptr ? static_cast<size_type>(order[k]) : k;
    out[i] = static_cast<T>(scanned[k] + bias);
    bool const valid = e(in, i).valid && (sorted_slots == nullptr || sorted_slots[k] != no_group);
    if (mask != nullptr && valid) { set_bit_atomic(mask, i); }
  }
};

// Row i's group slot, or no_group for a row left out.
template <class Fn>
struct group_slot_fn {
  Fn fn;
  std::uint32_t* slots;
  std::int32_t* rows;
  std::uint32_t no_group;
  COLX_HOST_DEVICE void operator()(size_type i) const {
    size_type const slot = fn.keep(i) ? fn.locate(i) : -1;
    slots[i] = slot < 0 ? no_group : static_cast<std::uint32_t>(slot);
    rows[i] = static_cast<std::int32_t>(i);
  }
};

// The rows of f ordered by group (groups in slot order, rows within a group ascending), with the
// slot of each: what a per-group scan walks.
struct rows_by_group {
  uvector<std::int32_t> order;
  uvector<std::uint32_t> slots;
  std::uint32_t no_group = 0;
};
template <class Frame, class... Keys>
rows_by_group group_rows(Frame const& f, std::tuple<Keys...> const& unbound_keys, group_by_options options,
                         stream_ref stream) {
  using schema_type = typename Frame::schema_type;
  using inputs = typename Frame::inputs_type;
  auto const keys = [&]<std::size_t... K>(std::index_sequence<K...>) {
    return tuple(expr::bind<schema_type>(group_key<Keys>::expr_of(std::get<K>(unbound_keys)))...);
  }(std::index_sequence_for<Keys...>{});
  using fn_t = group_table_fn<inputs, expr::row_marker, std::remove_cvref_t<decltype(keys)>, tuple<>>;
  size_type const n = f.num_rows();
  COLX_EXPECTS(n < (size_type{1} << 30), "per-group scans: ", n, " rows; at most 2^30 - 1 rows");
  resource_ref const work = get_current_resource(f.kind());
  // At least twice as many slots as rows: every row may be its own group, the table never fills.
  size_type const capacity = next_power_of_two(std::max<size_type>(64, 2 * n));
  size_type const slots_in_table = fn_t::table_slots(capacity);  // slot numbers below this; no_group is it
  int bits = 1;
  while ((size_type{1} << bits) <= slots_in_table) { ++bits; }
  buffer table(static_cast<std::size_t>(slots_in_table) * fn_t::sample_entry_bytes, stream, work);
  uvector<size_type> groups(1, stream, work);
  uvector<std::uint32_t> slots(n, stream, work);
  uvector<std::int32_t> rows(n, stream, work);
  rows_by_group result{uvector<std::int32_t>(n, stream, work), uvector<std::uint32_t>(n, stream, work),
                       static_cast<std::uint32_t>(slots_in_table)};
  fill_bytes(groups.data(), f.kind(), 0, sizeof(size_type), stream);
  fn_t fn{f.inputs(), expr::row_marker{}, keys, tuple<>{}, options.drop_null_keys};
  fn.entries = static_cast<unsigned char*>(table.data());
  fn.entry_bytes = fn_t::sample_entry_bytes;
  fn.slot_mask = static_cast<std::uint64_t>(capacity - 1);
  fn.groups = groups.data();
  fn.max_groups = capacity;
  fn.overflow = reinterpret_cast<unsigned*>(groups.data());  // cannot happen: the table has room for every row
  on_backend(f.kind(), stream, [&](auto const& exec) {
    clear_table<fn_t::sample_entry_bytes>(exec, fn, slots_in_table);
    exec.for_each_n(n, group_slot_fn<fn_t>{fn, slots.data(), rows.data(), result.no_group});
    sort_pairs(exec, n, slots.data(), result.slots.data(), rows.data(), result.order.data(), 0, bits);
  });
  return result;
}

template <class Source>
auto const& frame_of_scan(Source const& s) {
  if constexpr (requires { s.stage.keys; }) {
    static_assert(!requires { s.source.predicate(); }, "colx: per-group scans run over a frame: collect() a filtered one first");
    return s.source;
  } else {
    static_assert(!requires { s.predicate(); }, "colx: scans run over a frame: collect() a filtered one first");
    return s;
  }
}

// The scan of e (bound to the frame) under Op, per group when the source is grouped; `bias` is
// added to every result (cumcount counts from 0).
template <class T, class Op, class Source, class E>
column<T> scan_column(Source const& source, E const& unbound, T bias, stream_ref stream) {
  spill_lock_scope const spill_lock(stream);  // the columns read here stay put until the work is done
  auto const& f = frame_of_scan(source);
  using schema_type = typename std::remove_cvref_t<decltype(f)>::schema_type;
  using inputs = typename std::remove_cvref_t<decltype(f)>::inputs_type;
  auto const e = expr::bind<schema_type>(unbound);
  using bound_t = std::remove_cvref_t<decltype(e)>;
  constexpr bool grouped = requires { source.stage.keys; };
  constexpr bool nullable = expr::result_t<bound_t, inputs>::nullable || grouped;
  size_type const n = f.num_rows();
  memory_kind const kind = f.kind();
  resource_ref const mr = get_current_resource(kind);
  std::optional<rows_by_group> by_group;
  if constexpr (grouped) { by_group.emplace(group_rows(f, source.stage.keys, source.stage.options, stream)); }
  std::int32_t const* order = by_group ? by_group->order.data() : nullptr;
  std::uint32_t const* sorted_slots = by_group ? by_group->slots.data() : nullptr;

  uvector<T> scanned(n, stream, mr);
  uvector<T> out(n, stream, mr);
  buffer mask = nullable ? create_bitmask(n, false, stream, mr) : buffer(0, stream, mr);
  on_backend(kind, stream, [&](auto const& exec) {
    exec.inclusive_scan(n, scan_input_fn<inputs, bound_t, T, Op>{f.inputs(), e, order}, scanned.data(), Op{}, sorted_slots);
    exec.for_each_n(n, scatter_scan_fn<inputs, bound_t, T>{f.inputs(), e, order, sorted_slots,
                                                           by_group ? by_group->no_group : 0u, scanned.data(), bias,
                                                           out.data(), static_cast<bitmask_type*>(mask.data())});
  });
  size_type const nulls = nullable ? count_unset_bits(static_cast<bitmask_type const*>(mask.data()), 0, n, kind, stream) : 0;
  if (!nullable || nulls == 0) { mask = buffer(0, stream, mr); }
  return column<T>(std::move(out), std::move(mask), nulls);
}

template <class Source, class E>
struct scan_value {
  using frame_t = std::remove_cvref_t<decltype(frame_of_scan(std::declval<Source const&>()))>;
  using bound_t = decltype(expr::bind<typename frame_t::schema_type>(std::declval<E const&>()));
  using type = typename expr::result_t<bound_t, typename frame_t::inputs_type>::value_type;
};
template <class Source, class E>
using scan_value_t = typename scan_value<Source, E>::type;

}  // namespace detail

// Running sum of e in row order (per group when the source is `f | group_by(...)`); integers sum
// as int64 (wrapping), floats as double, as sum() does.
template <class Source, expr::expression E>
[[nodiscard]] auto cumsum(Source const& source, E const& e, stream_ref stream = {}) {
  using T = detail::scan_value_t<Source, E>;
  static_assert(std::is_arithmetic_v<T>, "colx::cumsum needs a number (not a string, date or decimal)");
  using acc = expr::kinds::sum_t<T>;
  return detail::scan_column<acc, detail::running_sum<acc>>(source, e, acc{}, stream);
}
template <class Source, expr::expression E>
[[nodiscard]] auto cummin(Source const& source, E const& e, stream_ref stream = {}) {
  using T = detail::scan_value_t<Source, E>;
  static_assert(std::is_arithmetic_v<T>, "colx::cummin needs a number (not a string, date or decimal)");
  return detail::scan_column<T, detail::running_extremum<T, true>>(source, e, T{}, stream);
}
template <class Source, expr::expression E>
[[nodiscard]] auto cummax(Source const& source, E const& e, stream_ref stream = {}) {
  using T = detail::scan_value_t<Source, E>;
  static_assert(std::is_arithmetic_v<T>, "colx::cummax needs a number (not a string, date or decimal)");
  return detail::scan_column<T, detail::running_extremum<T, false>>(source, e, T{}, stream);
}
// The row's position within its group, from 0 (pandas' cumcount); over a frame, 0 to n - 1.
// Null only for a row whose null key the group-by drops (drop_null_keys).
template <class Source>
[[nodiscard]] column<std::int64_t> cumcount(Source const& source, stream_ref stream = {}) {
  return detail::scan_column<std::int64_t, detail::running_sum<std::int64_t>>(
      source, expr::literal<std::int64_t>(1), std::int64_t{-1}, stream);
}

}  // namespace colx
