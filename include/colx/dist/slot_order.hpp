// SPDX-License-Identifier: Apache-2.0
#pragma once
// A broadcast join's right rows, each rank's own put in the order of the hash-table slots they
// will be inserted at. Every rank builds the same table of all the right rows (join/table.hpp):
// work that more ranks do not share. Its inserts are random writes over a table of 32 bytes a
// row, where rows that come in slot order sweep it through L2 instead. The sort is of each rank's
// own rows, so it does shrink with more ranks; the all-gather then brings one sorted run a rank.
// (2 × H200, bench_dist's join of 10^9 × 10^8 rows: each rank's local join 64.3 → 57.9 ms, for
// a sort of 3 ms; 16-bit bands beat 8-bit ones, whose sort is one pass: 64.9 against 66.9 ms.)
//
// Only the rows' order changes, so answers do not (a probe row's matches come in no set order).
// Inner and left joins only, on keys that are not dictionaries (dist/join.hpp): a semi or anti
// join may keep bits instead of a table, and the all-gather recodes dictionaries.
// A band of slots is enough for locality, and what a banded build takes a block at a time
// (join/banded_build.hpp): the home slot's bits above the band's 2^12 slots, sorted by radix.
#include <colx/exec/dispatch.hpp>
#include <colx/exec/sort.hpp>
#include <colx/frame/gather.hpp>
#include <colx/frame/join/table.hpp>
#include <colx/memory/spill_lock_scope.hpp>
#include <colx/memory/uvector.hpp>

#include <bit>
#include <cstdint>

namespace colx::dist::detail {

// Row r's band (join/banded_build.hpp: rows that never enter the table after every band).
template <class Keys>
struct slot_band_fn {
  Keys keys;
  std::uint64_t mask;
  bool nulls_equal;
  std::uint32_t* bands;
  std::uint32_t* rows;
  COLX_HOST_DEVICE void operator()(size_type r) const {
    bands[r] = static_cast<std::uint32_t>(colx::detail::band_of(keys, r, nulls_equal, mask));
    rows[r] = static_cast<std::uint32_t>(r);
  }
};
struct row_at_fn {
  std::uint32_t const* rows;
  COLX_HOST_DEVICE size_type operator()(size_type k) const { return static_cast<size_type>(rows[k]); }
};

// f's rows sorted by the band of their slot in a join's table of `table_rows` rows keyed on R...
template <class Schema, class... R>
frame<Schema> in_slot_order(frame<Schema> const& f, join_keys<R...>, size_type table_rows, join_options options,
                            stream_ref stream) {
  using build_t = join_build<frame<Schema>, R...>;
  using keys_t = typename build_t::key_columns;
  size_type const n = f.num_rows();
  if (n < 2 || n >= (size_type{1} << 32)) { return f; }
  auto const slots = static_cast<std::uint64_t>(colx::detail::next_table_size(table_rows));
  int const band_bits = std::countr_zero(slots) - colx::detail::band_slot_bits;
  if (band_bits <= 0) { return f; }
  // Null keys that match nothing go after every band, which takes a bit more (a radix pass, at
  // some table sizes) only where there are some.
  bool const skipped_rows = !options.nulls_equal && ((f[R{}].null_count() > 0) || ...);
  spill_lock_scope const spill_lock(stream);  // the columns read here stay put until the work is done
  resource_ref const mr = get_current_resource(f.kind());
  uvector<std::uint32_t> bands(n, stream, mr), sorted_bands(n, stream, mr), rows(n, stream, mr), order(n, stream, mr);
  on_backend(f.kind(), stream, [&](auto const& exec) {
    exec.for_each_n(n, slot_band_fn<keys_t>{keys_t{build_t::key_side::make(f.inputs(), {})}, slots - 1, options.nulls_equal,
                                            bands.data(), rows.data()});
    sort_pairs(exec, n, bands.data(), sorted_bands.data(), rows.data(), order.data(), 0, band_bits + (skipped_rows ? 1 : 0));
  });
  return colx::detail::gather_frame(f, row_at_fn{order.data()}, n, false, stream, mr, true);
}

}  // namespace colx::dist::detail
