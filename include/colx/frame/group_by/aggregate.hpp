// SPDX-License-Identifier: Apache-2.0
#pragma once
// A group-by with aggregation, run: the sample that sizes the table, the pass over the rows (the
// hash aggregation's pass of the backend the memory picks, exec/aggregate_pass.hpp), and the
// compaction that writes the result; sorted by the keys when asked.
#include <colx/exec/aggregate_pass.hpp>
#include <colx/exec/dispatch.hpp>
#include <colx/frame/gather.hpp>
#include <colx/frame/group_by/output.hpp>
#include <colx/frame/group_by/plan.hpp>
#include <colx/frame/group_by/clear.hpp>
#include <colx/frame/group_by/sorted_groups.hpp>
#include <colx/frame/group_by/table.hpp>
#include <colx/frame/resolve_literals.hpp>
#include <colx/frame/sort.hpp>
#include <colx/memory/buffer.hpp>
#include <colx/memory/copy_bytes.hpp>

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

namespace colx::detail {

// Groups f's rows that pass the predicate by the keys and aggregates each group: the keys' bound
// on the groups or else a sample sizes the table (group_by/plan.hpp), one pass over the rows fills
// it (rerun four times larger if the groups overflow it), one compaction writes a result row per
// group.
template <class Frame, class Pred, class... Keys, class... Named>
auto aggregate_impl(Frame const& f, Pred const& unbound_pred, std::tuple<Keys...> const& unbound_keys,
                    group_by_options options, std::tuple<Named...> const& named, stream_ref stream, resource_ref mr) {
  spill_lock_scope const spill_lock(stream);  // the columns read here stay put until the work is done
  using binding = group_by_binding<Frame, Pred, std::tuple<Keys...>, std::tuple<Named...>>;
  std::vector<buffer> scratch;  // what resolved nodes read, kept until the kernels below have run
  auto const pred = resolve_literals(binding::bind_pred(unbound_pred), f, stream, &scratch);
  auto const keys = binding::bind_keys(unbound_keys);
  auto const aggs = binding::bind_aggs(named);
  // Spelled from the bound values, not as binding::fn_t: nvcc names a kernel's template arguments
  // as written, and the binding's own arguments hold the frame's names (fixed_string), which the
  // host code nvcc generates to launch a kernel cannot spell.
  using fn_t = group_table_fn<typename Frame::inputs_type, std::remove_cvref_t<decltype(pred)>, std::remove_cvref_t<decltype(keys)>,
                              std::remove_cvref_t<decltype(aggs)>>;
  using cells = typename fn_t::cells;
  using out_schema = typename binding::out_schema;
  using item = row_item_t<out_schema>;
  constexpr std::size_t num_keys = binding::num_keys;

  size_type const n = f.num_rows();
  memory_kind const kind = f.kind();
  resource_ref const work = get_current_resource(kind);
  fn_t fn{f.inputs(), pred, keys, aggs, options.drop_null_keys};

  // Counters and flags the passes update, each in a cache line of its own: the group counters
  // (see group_table_fn::groups), sampled kept rows, overflow, then each pair set's counters; then
  // a word per output column, its nulls where the sorted pass writes the rows (sorted_groups.hpp).
  constexpr std::uint64_t most_shards = 64;
  constexpr std::size_t stride = fn_t::counter_stride;
  constexpr std::size_t counter_words = (most_shards * (1 + fn_t::pair_sets) + 2) * stride + out_schema::size;
  uvector<size_type> counters(static_cast<size_type>(counter_words), stream, work);
  size_type* const kept_counter = counters.data() + most_shards * stride;
  size_type* const null_counters = counters.data() + counter_words - out_schema::size;
  auto const reset_counters = [&] { fill_bytes(counters.data(), kind, 0, counter_words * sizeof(size_type), stream); };
  struct counts {
    size_type groups = 0, kept = 0, overflow = 0;
    std::array<size_type, out_schema::size> nulls{};
  };
  auto const read_counters = [&] {
    std::vector<size_type> host(counter_words);
    copy_bytes(host.data(), memory_kind::host, counters.data(), kind, counter_words * sizeof(size_type), stream);  // (waits)
    counts c{0, host[most_shards * stride], host[(most_shards + 1) * stride], {}};
    for (std::uint64_t s = 0; s < most_shards; ++s) { c.groups += host[s * stride]; }
    std::copy(host.end() - out_schema::size, host.end(), c.nulls.begin());
    return c;
  };
  fn.groups = counters.data();
  fn.overflow = reinterpret_cast<unsigned*>(counters.data() + (most_shards + 1) * stride);
  if constexpr (fn_t::pair_sets > 0) { fn.pair.counts = counters.data() + (most_shards + 2) * stride; }
  // One counter for small tables, whose share per counter would be too small to judge fullness
  // by; many for large ones (a counter's share then strays a few percent at most).
  auto const shards_for = [](size_type slots) { return slots >= (size_type{1} << 16) ? most_shards : std::uint64_t{1}; };
  auto const set_capacity = [&](fn_t& t, size_type slots, size_type most_groups) {
    t.slot_mask = static_cast<std::uint64_t>(slots - 1);
    t.group_shards = shards_for(slots);
    t.max_groups = most_groups / static_cast<size_type>(t.group_shards);
  };
  auto const set_pair_capacity = [&](auto& pair, size_type slots) {
    pair.mask = static_cast<std::uint64_t>(slots - 1);
    pair.shards = shards_for(slots);
    pair.most = (slots - slots / 4) / static_cast<size_type>(pair.shards);
  };

  std::array<bool, out_schema::size> masked{};
  std::array<data_type, out_schema::size> types{};
  [&]<std::size_t... P>(std::index_sequence<P...>) {
    ((masked[P] = out_schema::template field_at<P>::is_nullable), ...);
  }(std::make_index_sequence<out_schema::size>{});
  [&]<std::size_t... K>(std::index_sequence<K...>) {
    ((types[K] = output_type_of<Frame, typename out_schema::template field_at<K>::type>(
          f, column_position<std::remove_cvref_t<decltype(get<K>(keys))>>())),
     ...);
  }(std::make_index_sequence<num_keys>{});
  column_likes<out_schema::size> likes{};
  [&]<std::size_t... K>(std::index_sequence<K...>) {
    ((likes[K] = output_like_of(f, column_position<std::remove_cvref_t<decltype(get<K>(keys))>>())), ...);
  }(std::make_index_sequence<num_keys>{});
  [&]<std::size_t... A>(std::index_sequence<A...>) {
    ((types[num_keys + A] = output_type_of<Frame, typename out_schema::template field_at<num_keys + A>::type>(
          f, column_position<std::remove_cvref_t<decltype(get<A>(aggs).expr)>>())),
     ...);
  }(std::index_sequence_for<Named...>{});
  // Table size: from the keys where they bound the groups to fewer than the per-thread caches'
  // path takes (a dictionary's entries, say: group/plan.hpp's groups_bound), else from the number
  // of groups in a sample of the rows (all of them when few). (A larger bound would choose the
  // pass's path by itself, where a sample may show fewer groups and choose the caches.)
  size_type capacity = 64;
  double estimated_groups = 0;
  double kept_rows = 0;
  double const bound = fn_t::pair_sets == 0 ? groups_bound(std::span(likes.data(), num_keys)) : 0;
  bool const bounded = n > 0 && bound > 0 && use_private_caches(bound);
  bool counters_clear = false;    // no pass has touched them since they were cleared
  // Where the keys can be written in key order by the pass (sorted_groups.hpp): their dictionaries'
  // entries ranked, while the host prepares the pass.
  constexpr bool in_place_keys = fn_t::packed && keys_sort_in_place<std::remove_cvref_t<decltype(keys)>>;
  std::optional<uvector<std::uint64_t>> entry_ranks;
  size_type filter_sampled = 0;   // rows of a bounded group-by's filter sample whose count is not read yet
  if (bounded) {
    estimated_groups = bound;
    capacity = table_capacity<fn_t>(n, bound);
    // Only the filter's share of rows is judged, on fewer rows, without a table. The count is read
    // once the table is allocated and cleared (below): the wait then finds it done, where waiting
    // here took a round trip to the GPU of its own. (A sorted result's key ranks are found meanwhile.)
    reset_counters();
    counters_clear = true;
    if constexpr (!std::is_same_v<Pred, expr::row_marker>) {
      filter_sampled = std::min(n, most_filter_sampled_rows);
      sample_groups_fn<fn_t> const draw{fn, n, filter_sampled == n, kept_counter};
      on_backend(kind, stream, [&](auto const& exec) { exec.for_each_n(filter_sampled, sample_kept_fn<fn_t>{draw}); });
    } else {
      fn.eager_loads = true;  // no filter: every row is kept (but those of null keys, with drop_null_keys)
    }
    if constexpr (in_place_keys) {
      if (options.sorted) { entry_ranks.emplace(rank_key_entries<num_keys>(fn, kind, stream, work)); }
    }
  } else if (n > 0) {
    size_type const sampled = std::min(n, most_sampled_rows);
    size_type const sample_capacity = next_power_of_two(4 * sampled);
    size_type const sample_slots = fn_t::table_slots(sample_capacity);
    buffer sample_table(static_cast<std::size_t>(sample_slots) * fn_t::sample_entry_bytes, stream, work);
    reset_counters();
    fn_t sample = fn;
    sample.entries = static_cast<unsigned char*>(sample_table.data());
    sample.entry_bytes = fn_t::sample_entry_bytes;
    set_capacity(sample, sample_capacity, sample_capacity);
    on_backend(kind, stream, [&](auto const& exec) {
      clear_table<fn_t::sample_entry_bytes>(exec, sample, sample_slots);
      exec.for_each_n(sampled, sample_groups_fn<fn_t>{sample, n, sampled == n, kept_counter});
    });
    counts const c = read_counters();
    kept_rows = static_cast<double>(n) * static_cast<double>(c.kept) / static_cast<double>(sampled);
    estimated_groups = c.kept == 0 ? 1.0 : estimate_groups(static_cast<double>(c.groups), static_cast<double>(c.kept), kept_rows);
    fn.eager_loads = 2 * c.kept >= sampled;  // at least half the sampled rows pass the filter
    capacity = table_capacity<fn_t>(n, estimated_groups);
  }
  size_type pair_slots = pair_capacity<fn_t>(kept_rows);
  aggregate_pass_options const pass = pass_options<cells>(estimated_groups);
  while (true) {
    size_type const slots = fn_t::table_slots(capacity);
    std::size_t const bytes = static_cast<std::size_t>(slots) * fn_t::table_entry_bytes;
    std::optional<buffer> table;
    try {
      table.emplace(bytes, stream, work);
    } catch (out_of_memory const& e) {
      COLX_FAIL_AS(out_of_memory, "group_by: a hash table of ", capacity, " slots for up to ", capacity / 2,
                   " groups needs ", bytes, " bytes of ", to_string(kind), " memory, which could not be allocated (",
                   e.what(), "); the input is unchanged");
    }
    fn.entries = static_cast<unsigned char*>(table->data());
    fn.entry_bytes = fn_t::table_entry_bytes;
    set_capacity(fn, capacity, capacity - capacity / 4);
    std::optional<buffer> pair_table;
    if constexpr (fn_t::pair_sets > 0) {
      std::size_t const pair_bytes = fn_t::pair_sets * static_cast<std::size_t>(pair_slots) * sizeof(size_type);
      try {
        pair_table.emplace(pair_bytes, stream, work);
      } catch (out_of_memory const& e) {
        COLX_FAIL_AS(out_of_memory, "group_by: nunique's ", fn_t::pair_sets, " set(s) of (group, value) pairs of ", pair_slots,
                     " slots each need ", pair_bytes, " bytes of ", to_string(kind), " memory, which could not be allocated (",
                     e.what(), "); the input is unchanged");
      }
      fn.pair.rows = static_cast<size_type*>(pair_table->data());
      set_pair_capacity(fn.pair, pair_slots);
      fill_bytes(fn.pair.rows, kind, 0xFF, pair_bytes, stream);  // every slot empty_slot (-1)
    }
    // The pass: the counters cleared (where a pass used them), the table cleared, the bounded
    // sample's verdict read (loads eager or not), the rows aggregated.
    if (!counters_clear) { reset_counters(); }
    counters_clear = false;
    on_backend(kind, stream, [&](auto const& exec) { clear_table<fn_t::table_entry_bytes>(exec, fn, slots); });
    if (filter_sampled > 0) {
      size_type kept = 0;
      copy_bytes(&kept, memory_kind::host, kept_counter, kind, sizeof kept, stream);  // (waits)
      fn.eager_loads = 2 * kept >= filter_sampled;  // at least half the sampled rows pass the filter
      filter_sampled = 0;
    }
    // Few groups: each block first merges into its own shared-memory table.
    on_backend(kind, stream, [&](auto const& exec) { aggregate_rows(exec, n, fn, pass); });
    if constexpr (in_place_keys) {
      if (entry_ranks.has_value() && slots <= most_slots_sorted_in_place) {
        // The groups and their null counts are read in one wait, after the rows are written.
        auto const read_groups = [&] {
          counts const c = read_counters();
          return sorted_group_counts<out_schema::size>{c.overflow != 0 ? size_type{-1} : c.groups, c.nulls};
        };
        auto sorted = write_sorted_groups<out_schema, item, num_keys>(fn, kind, slots, masked, types, likes, entry_ranks->data(),
                                                                      null_counters, stream, mr, read_groups);
        if (sorted.has_value()) { return std::move(*sorted); }
        capacity *= 4;  // too many groups for this table (the bound was wrong): again, four times larger
        continue;
      }
    }
    counts const c = read_counters();
    if (c.overflow != 0) {  // too many groups (or pairs) for this table: again, four times larger
      capacity *= 4;
      pair_slots *= 4;
      continue;
    }
    size_type const groups = c.groups;
    auto result = write_frame<out_schema>(groups, masked, types, likes, stream, mr, [&](auto const& views) {
      using store_t = store_row_fn<std::remove_cvref_t<decltype(views)>>;
      return on_backend(kind, stream, [&](auto const& exec) {
        return exec.select_rows(slots, group_row_fn<fn_t>{fn}, load_group_fn<fn_t, item, num_keys>{fn}, store_t{views}, groups);
      });
    });
    if (!options.sorted) { return result; }
    return [&]<std::size_t... K>(std::index_sequence<K...>) {
      return run(result, sort_by(col<out_schema::template field_at<K>::name>{}...), stream, mr);
    }(std::make_index_sequence<num_keys>{});
  }
}

}  // namespace colx::detail
