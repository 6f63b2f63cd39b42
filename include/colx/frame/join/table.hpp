// SPDX-License-Identifier: Apache-2.0
#pragma once
// A join's build side: the right frame hashed on its key columns into an open-addressing multimap
// (the walks of exec/open_addressing.hpp) with one entry per row, so duplicate keys take several entries. Keys
// that pack into one 64-bit word (expr/packed_keys.hpp) are kept in the entry beside the row and
// compared there; other keys leave a 32-bit tag of their hash beside the row, so most
// non-matches are rejected without reading the build keys. The table has twice as many slots as
// rows, so probes stay short.
//
// A null key matches nothing (unless nulls_equal), so its row never enters the table and the word
// needs no null bits: a nullable int64 key packs (64 bits, 65 with a null bit), where the tag
// sent the probe to each candidate's build row for its key. Parquet files declare most columns
// nullable (H200, bench_dist's join of 10^9 × 10^8 rows on nullable int64 keys: 163.8 → 152.9
// ms). Where null bits do not fit and nulls are equal, the word holds the keys' hash, and rows
// whose hashes agree are compared.
#include <colx/exec/dispatch.hpp>
#include <colx/frame/frame.hpp>
#include <colx/frame/join/banded_build.hpp>
#include <colx/frame/join/dictionary_keys.hpp>
#include <colx/frame/join/entries.hpp>
#include <colx/frame/join/membership.hpp>
#include <colx/frame/join/options.hpp>
#include <colx/memory/copy_bytes.hpp>
#include <colx/memory/uvector.hpp>

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <memory>
#include <mutex>
#include <span>
#include <utility>

namespace colx {

// A build side, hashed once and probed by any number of joins. Copies share the table.
template <class Frame, class... Keys>
class join_build {
 public:
  using frame_type = Frame;
  using keys_type = join_keys<Keys...>;
  using bound_keys = detail::bound_keys_t<typename Frame::schema_type, Keys...>;
  // A dictionary key is keyed on its codes (join/dictionary_keys.hpp).
  using key_side = detail::build_side_keys<typename Frame::inputs_type, bound_keys>;
  using key_columns = detail::key_columns<typename key_side::inputs, typename key_side::leaves>;

  // `membership` (a semi or anti join's own build): keep only which keys occur, as bits, where
  // the key allows it and its values are dense (see detail::membership); else the hash table.
  join_build(Frame f, join_options options, stream_ref stream, bool membership = false)
      : _frame(std::move(f)), _options(options) {
    spill_lock_scope const spill_lock(stream);
    if constexpr (detail::membership_keys_v<key_columns> && !detail::dictionary_key_v<std::tuple_element_t<0, detail::tuple_types_t<bound_keys>>>) {
      if (membership && !_options.nulls_equal && build_membership(stream)) { return; }
    }
    make_table(stream);
    fill_table(stream);
    insert(0, _frame.num_rows(), stream);
  }
  // A table of f's rows, which come in runs [runs[k], runs[k + 1]) each in the order of the bands
  // of slots their walks start in (dist/slot_order.hpp: a broadcast's run a rank), built a band at
  // a time (join/banded_build.hpp) where the table is large enough and no band too full; else
  // as the constructor above builds it. Reads the fullest band's rows back (a wait).
  join_build(Frame f, join_options options, stream_ref stream, std::span<size_type const> runs)
      : _frame(std::move(f)), _options(options) {
    COLX_EXPECTS(!runs.empty() && runs.front() == 0 && runs.back() == _frame.num_rows() &&
                     std::is_sorted(runs.begin(), runs.end()),
                 "join_build: runs of rows must go from 0 to the frame's ", _frame.num_rows(), " rows in order");
    spill_lock_scope const spill_lock(stream);
    make_table(stream);
    if (detail::build_in_bands(key_columns{key_inputs()}, _slots->data(), _mask, _options.nulls_equal, _flags->bits.data(), runs,
                               _frame.kind(), stream)) {
      _wrap = detail::band_slots - 1;
      return;
    }
    fill_table(stream);
    insert(0, _frame.num_rows(), stream);
  }
  // A table of every row of `f` into which only rows [first, first + count) go now: the others
  // may not have arrived yet (a distributed broadcast inserts a rank's own rows while the other
  // ranks' come in). insert_rest() puts the others in, before any probe.
  join_build(Frame f, join_options options, stream_ref stream, size_type first, size_type count)
      : _frame(std::move(f)), _options(options) {
    COLX_EXPECTS(0 <= first && 0 <= count && first + count <= _frame.num_rows(), "join_build: rows [", first, ", ",
                 first + count, ") are not rows of a build side of ", _frame.num_rows());
    spill_lock_scope const spill_lock(stream);
    make_table(stream);
    fill_table(stream);
    insert(first, count, stream);
    _staged = std::make_shared<staging>(first, count);
  }
  // The rows a staged build (above) left out; once, whichever copy asks (copies share the table).
  void insert_rest(stream_ref stream) {
    if (!_staged) { return; }
    std::call_once(_staged->once, [&] {
      spill_lock_scope const spill_lock(stream);
      insert(0, _staged->first, stream);
      insert(_staged->first + _staged->count, _frame.num_rows() - _staged->first - _staged->count, stream);
      _staged->done = true;
    });
  }

  [[nodiscard]] Frame const& frame() const noexcept { return _frame; }
  // What the table's keys were read from: the frame's inputs, dictionary keys as their codes.
  [[nodiscard]] typename key_side::inputs key_inputs() const { return key_side::make(_frame.inputs(), {}); }
  [[nodiscard]] join_options options() const noexcept { return _options; }
  // The hash table's slots; null where the build side is a membership.
  [[nodiscard]] std::uint64_t const* slots() const {
    expect_complete();
    return _slots ? _slots->data() : nullptr;
  }
  [[nodiscard]] std::uint64_t mask() const noexcept { return _mask; }
  // Walks wrap within bands of wrap() + 1 slots: the whole table, or a banded build's bands.
  [[nodiscard]] std::uint64_t wrap() const noexcept { return _wrap; }
  // The keys as bits (detail::membership), where a semi or anti join built them instead of the table.
  [[nodiscard]] detail::membership members() const noexcept {
    return _members;
  }
  // No two build rows share their keys (false where unknown, as for a membership). The first call
  // (of any copy: they share the flags) reads the insertion's flags, a wait, and checks that the
  // table did not fill (it cannot: it has twice the rows' slots; the check is for bugs, made where
  // the flags are read anyway). Probes on another stream than the build's must wait for it first.
  [[nodiscard]] bool unique_keys(stream_ref stream = {}) const {
    if (!_flags) { return false; }
    expect_complete();
    std::call_once(_flags->read, [&] {
      unsigned const raised = _flags->bits.element(0, stream);
      COLX_EXPECTS((raised & detail::table_full_flag) == 0u, "join: the build side's hash table of ", _mask + 1,
                   " slots is full with ", _frame.num_rows(), " rows; it is sized at twice the rows, so this is a bug");
      _flags->unique = (raised & detail::duplicate_keys_flag) == 0u;
    });
    return _flags->unique;
  }

 private:
  // A staged build is probed only once insert_rest() put in the rows it left out.
  void expect_complete() const {
    COLX_EXPECTS(!_staged || _staged->done, "join_build: probed before insert_rest() put in the rows a staged build left out");
  }
  // The hash table (its slots not yet filled) and the insertion's flags.
  void make_table(stream_ref stream) {
    COLX_EXPECTS(_frame.num_rows() < (size_type{1} << 32) - 1, "join: the build side has ", _frame.num_rows(),
                 " rows; at most 2^32 - 2 are supported");
    size_type const slots = detail::next_table_size(_frame.num_rows());
    _slots = std::make_shared<uvector<std::uint64_t>>(slots * static_cast<size_type>(detail::words_per_slot<key_columns>), stream,
                                                      get_current_resource(_frame.kind()));
    _mask = static_cast<std::uint64_t>(slots - 1);
    // Unique keys (a primary key, the usual build side) let inner and left joins find each probe
    // row's one partner in a single pass (see probe_in_one_pass); the insertion notes duplicates
    // in flags, read when a probe first asks (a semi or anti join never does: no wait for them).
    _flags = std::make_shared<insertion_flags>(uvector<unsigned>(1, stream, get_current_resource(_frame.kind())));
    detail::fill_bytes(_flags->bits.data(), _frame.kind(), 0, sizeof(unsigned), stream);
    _wrap = _mask;
  }
  // Every slot empty.
  void fill_table(stream_ref stream) {
    on_backend(_frame.kind(), stream, [&](auto const& exec) { exec.for_each_n(_slots->size(), detail::fill_entries_fn{_slots->data()}); });
  }
  // Rows [first, first + count) into the table.
  void insert(size_type first, size_type count, stream_ref stream) {
    if (count <= 0) { return; }
    on_backend(_frame.kind(), stream, [&](auto const& exec) {
      exec.for_each_n(count, detail::rows_from_fn<detail::build_entries_fn<key_columns>>{
                                 {key_columns{key_inputs()}, _slots->data(), _mask, _wrap, _options.nulls_equal, _flags->bits.data()}, first});
    });
  }
  // The build keys' bounds, then their bits where the span is dense enough; false (nothing kept)
  // where it is not, or no key is valid.
  bool build_membership(stream_ref stream) {
    size_type const n = _frame.num_rows();
    if (n == 0) { return false; }
    memory_kind const kind = _frame.kind();
    detail::key_bounds const bounds = on_backend(kind, stream, [&](auto const& exec) {
      return exec.transform_reduce(n, detail::key_bounds{}, detail::key_bounds_fn<key_columns>{key_columns{key_inputs()}},
                                   detail::merge_key_bounds_fn{});
    });
    std::int64_t const low = bounds.low;  // (plain locals: a lambda below captures low)
    std::int64_t const high = bounds.high;
    if (low > high) { return false; }  // every key null
    std::uint64_t const span = static_cast<std::uint64_t>(high) - static_cast<std::uint64_t>(low) + 1;  // 0: all 2^64
    if (span == 0 || span > detail::membership_span_per_row * static_cast<std::uint64_t>(n)) { return false; }
    auto const words = static_cast<size_type>((span + 31) / 32);
    _bits = std::make_shared<uvector<std::uint32_t>>(words, stream, get_current_resource(kind));
    detail::fill_bytes(_bits->data(), kind, 0, static_cast<std::size_t>(words) * sizeof(std::uint32_t), stream);
    on_backend(kind, stream, [&](auto const& exec) {
      exec.for_each_n(n, detail::mark_members_fn<key_columns>{key_columns{key_inputs()}, _bits->data(), low});
    });
    _members = detail::membership{_bits->data(), low, span};
    return true;
  }

  Frame _frame;
  join_options _options;
  std::shared_ptr<uvector<std::uint64_t>> _slots;
  std::uint64_t _mask = 0;
  std::uint64_t _wrap = 0;
  // The insertion's flags (detail::duplicate_keys_flag, ...), read once on demand, for all copies.
  struct insertion_flags {
    uvector<unsigned> bits;
    std::once_flag read;
    bool unique = false;
    explicit insertion_flags(uvector<unsigned>&& b) : bits(std::move(b)) {}
  };
  std::shared_ptr<insertion_flags> _flags;
  std::shared_ptr<uvector<std::uint32_t>> _bits;  // owns _members' bits
  detail::membership _members{};
  // A staged build's rows inserted first, and whether the others are in yet, for all copies.
  struct staging {
    size_type first, count;
    std::once_flag once;
    std::atomic<bool> done{false};
    staging(size_type f, size_type c) : first(f), count(c) {}
  };
  std::shared_ptr<staging> _staged;
};

// Hashes `right` on its key columns for reuse: build(orders, on("o_orderkey"_c)).
template <class Schema, class... Keys>
[[nodiscard]] auto build(frame<Schema> const& right, join_keys<Keys...>, join_options options = {}, stream_ref stream = {}) {
  static_assert(((sizeof(typename field_of<Schema, Keys>::type) > 0) && ...));
  return join_build<frame<Schema>, Keys...>(right, options, stream);
}
// The same of rows that come in runs [runs[k], runs[k + 1]), each in the order of the bands of
// slots their walks start in, built a band at a time where it can be (see join_build).
template <class Schema, class... Keys>
[[nodiscard]] auto build_from_runs(frame<Schema> const& right, join_keys<Keys...>, std::span<size_type const> runs, join_options options = {},
                         stream_ref stream = {}) {
  static_assert(((sizeof(typename field_of<Schema, Keys>::type) > 0) && ...));
  return join_build<frame<Schema>, Keys...>(right, options, stream, runs);
}

}  // namespace colx
