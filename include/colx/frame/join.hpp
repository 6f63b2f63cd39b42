// SPDX-License-Identifier: Apache-2.0
#pragma once
// Hash joins on one or more key columns: inner, left, right, full, semi and anti.
//
// The build side (the right frame) goes into an open-addressing multimap with one entry per row,
// so duplicate keys take several entries. Keys that pack into one 64-bit word (exec/packed_keys.hpp)
// are kept in the entry beside the row and compared there; other keys leave a 32-bit tag of their
// hash beside the row, so most non-matches are rejected without reading the build keys. Inserting
// notes whether two build rows share their keys. Where each probe row has at most one output row
// (semi and anti joins; inner and left joins against unique build keys), the probe is one
// compaction pass that carries each kept row's build partner to where it is written. Otherwise
// the probe side (with its pending filter) is walked twice: once counting each row's output rows
// (a scan gives where each row's output starts), once writing them. Either way every output column
// is gathered in the pass that writes. Output rows come in probe order; a probe row's matches come
// in an unspecified order. Null keys match nothing unless join_options::nulls_equal.
//
// Output columns, as pandas' merge: the left's columns, then the right's. A key named alike on
// both sides (on("k"_c), or on("k"_c), on("k"_c)) is one column "k" in every kind: in right and
// full joins it holds the right row's key where there is no left row, so a right join's "k" is
// nullable only where the right key is. (Polars' full join keeps both, "k" and "k_right", unless
// coalesce=True; pandas and SQL's USING keep one, and which side a row came from still shows in
// the other columns.) Other columns of the same name on both sides, keys of different names
// included, get suffixes: "_x" on the left's and "_y" on the right's, or those of
// suffixes<"_l", "_r">(); a suffixed name that is still taken is a compile error. Semi and anti
// joins write only the left's columns.
#include <colx/exec/atomics.hpp>
#include <colx/exec/packed_keys.hpp>
#include <colx/exec/row_keys.hpp>
#include <colx/frame/gather.hpp>
#include <colx/frame/pipeline.hpp>

#include <limits>
#include <memory>

namespace colx {

enum class join_kind { inner, left, right, full, semi, anti };

struct join_options {
  bool nulls_equal = false;  // SQL: a null key equals nothing; true: null keys match each other
};

// The key columns of one side: on("a"_c, "b"_c).
template <class... Cols>
struct join_keys {
  static_assert(sizeof...(Cols) > 0, "colx::on needs at least one key column");
  static_assert((expr::column_ref<Cols> && ...), "colx::on takes key columns: on(\"key\"_c, ...)");
};
template <class... Cols>
[[nodiscard]] constexpr join_keys<Cols...> on(Cols const&...) {
  return {};
}

// What is appended to the names of a left and a right column of the same name that are not one
// shared key: suffixes<"_l", "_r">(); without it "_x" and "_y", as in pandas. A suffix may be
// empty: suffixes<"", "_right">() is Polars' spelling.
template <fixed_string Left, fixed_string Right>
struct join_suffixes {
  static constexpr auto left = Left;
  static constexpr auto right = Right;
};
template <fixed_string Left, fixed_string Right>
[[nodiscard]] constexpr join_suffixes<Left, Right> suffixes() {
  return {};
}
using default_join_suffixes = join_suffixes<"_x", "_y">;
// Matched by their static members, never by deducing the names (nvcc cannot deduce a
// fixed_string template argument).
template <class S>
concept join_suffix_pair = requires {
  S::left.view();
  S::right.view();
};

namespace detail {

inline constexpr std::uint64_t empty_entry = ~std::uint64_t{0};
// Keys that do not pack: an entry is the top 32 bits of the keys' hash (the tag), then the row.
inline constexpr std::uint64_t tag_bits = 0xffffffff00000000ull;

template <class Schema, class... Cols>
using bound_keys_t = tuple<decltype(expr::bind<Schema>(Cols{}))...>;

// Hash and equality of a side's key columns.
template <class Inputs, class Keys>
struct key_columns;
template <class Inputs, class... Keys>
struct key_columns<Inputs, tuple<Keys...>> {
  // Keys that fit one word are kept in the table beside the row and compared there.
  static constexpr bool packed = keys_pack_v<Inputs, Keys...>;
  using inputs_type = Inputs;
  Inputs in;
  COLX_HOST_DEVICE std::uint64_t pack(size_type i) const { return pack_keys(in, i, Keys{}...); }
  // Row i's keys packed as `Layout` (the build side's keys) packs its own; ok becomes false for a
  // null key that the build side cannot match.
  template <class Layout>
  COLX_HOST_DEVICE std::uint64_t pack_as(size_type i, bool& ok) const {
    return pack_as<Layout>(i, ok, std::index_sequence_for<Keys...>{});
  }
  template <class Layout, std::size_t... K>
  COLX_HOST_DEVICE std::uint64_t pack_as(size_type i, bool& ok, std::index_sequence<K...>) const {
    std::uint64_t w = 0;
    ((w = append_packed_key_as<std::tuple_element_t<K, typename Layout::key_list>, typename Layout::inputs_type>(
          w, std::tuple_element_t<K, std::tuple<Keys...>>{}, in, i, ok)),
     ...);
    return w;
  }
  COLX_HOST_DEVICE std::uint64_t hash(size_type i) const {
    std::uint64_t h = 0x2545f4914f6cdd1dull;
    ((h = hash_combine(h, hash_key(Keys{}(in, i)))), ...);
    return h;
  }
  COLX_HOST_DEVICE bool all_valid(size_type i) const { return (static_cast<bool>(Keys{}(in, i).valid) && ...); }
  template <class Other>
  COLX_HOST_DEVICE bool equal(size_type i, Other const& other, size_type j) const {
    return equal(i, other, j, std::index_sequence_for<Keys...>{});
  }
  template <class Other, std::size_t... K>
  COLX_HOST_DEVICE bool equal(size_type i, Other const& other, size_type j, std::index_sequence<K...>) const {
    return (keys_equal(std::tuple_element_t<K, std::tuple<Keys...>>{}(in, i),
                       std::tuple_element_t<K, typename Other::key_list>{}(other.in, j)) &&
            ...);
  }
  using key_list = std::tuple<Keys...>;
};

// Slot p of a packed table: words 2p (the keys) and 2p + 1 (the row), read together.
struct alignas(16) packed_slot {
  std::uint64_t keys;
  std::uint64_t row;
};
COLX_HOST_DEVICE inline packed_slot read_slot(std::uint64_t const* slots, std::uint64_t p) {
#if COLX_IN_DEVICE_CODE
  return *reinterpret_cast<packed_slot const*>(slots + 2 * p);  // one 16-byte load
#else
  return {slots[2 * p], slots[2 * p + 1]};
#endif
}

// Inserts build row r. A slot taken by another row with the same keys sets *duplicates: two rows
// with equal keys walk the same slots, so the later to claim passes the earlier one's slot, and
// the row its failed claim returns names the keys to compare. No second pass looks for them.
template <class Keys>
struct build_entries_fn {
  Keys keys;
  std::uint64_t* slots;
  std::uint64_t mask;
  bool nulls_equal;
  unsigned* duplicates;
  COLX_HOST_DEVICE void operator()(size_type r) const {
    if (!nulls_equal && !keys.all_valid(r)) { return; }  // can never match
    bool seen = false;  // a duplicate of row r's keys: flagged once, then not looked for
    if constexpr (Keys::packed) {
      std::uint64_t const w = keys.pack(r);
      for (std::uint64_t p = mix64(w) & mask;; p = (p + 1) & mask) {
        std::uint64_t const held = atomic_cas(slots + 2 * p + 1, empty_entry, static_cast<std::uint64_t>(r));
        if (held == empty_entry) {
          slots[2 * p] = w;  // read only by probes, after this pass
          return;
        }
        if (!seen && keys.pack(static_cast<size_type>(held)) == w) {
          seen = true;
          atomic_or(duplicates, 1u);
        }
      }
    } else {
      std::uint64_t const h = keys.hash(r);
      std::uint64_t const tag = h & tag_bits;
      std::uint64_t const entry = tag | static_cast<std::uint64_t>(r);
      for (std::uint64_t p = h & mask;; p = (p + 1) & mask) {
        std::uint64_t const held = atomic_cas(slots + p, empty_entry, entry);
        if (held == empty_entry) { return; }
        if (!seen && (held & tag_bits) == tag && keys.equal(r, keys, static_cast<size_type>(held & ~tag_bits))) {
          seen = true;
          atomic_or(duplicates, 1u);
        }
      }
    }
  }
};

// Twice the rows, a power of two: probes stay short at a load factor of at most one half.
inline size_type next_table_size(size_type rows) {
  size_type p = 64;
  while (p < 2 * rows) { p <<= 1; }
  return p;
}

// Words of the table: one per slot (tag and row), two with packed keys (keys, row).
template <class Keys>
inline constexpr std::size_t words_per_slot = Keys::packed ? 2 : 1;

struct fill_entries_fn {
  std::uint64_t* slots;
  COLX_HOST_DEVICE void operator()(size_type s) const { slots[s] = empty_entry; }
};

}  // namespace detail

// A build side, hashed once and probed by any number of joins. Copies share the table.
template <class Frame, class... Keys>
class join_build {
 public:
  using frame_type = Frame;
  using keys_type = join_keys<Keys...>;
  using bound_keys = detail::bound_keys_t<typename Frame::schema_type, Keys...>;
  using key_columns = detail::key_columns<typename Frame::inputs_type, bound_keys>;

  join_build(Frame f, join_options options, stream_ref stream)
      : _frame(std::move(f)), _options(options),
        _slots(std::make_shared<uvector<std::uint64_t>>(
            detail::next_table_size(_frame.num_rows()) * static_cast<size_type>(detail::words_per_slot<key_columns>), stream,
            get_current_resource(_frame.kind()))) {
    COLX_EXPECTS(_frame.num_rows() < (size_type{1} << 32) - 1, "join: the build side has ", _frame.num_rows(),
                 " rows; at most 2^32 - 2 are supported");
    _mask = static_cast<std::uint64_t>(detail::next_table_size(_frame.num_rows()) - 1);
    spill_lock_scope const spill_lock(stream);
    // Unique keys (a primary key, the usual build side) let inner and left joins find each probe
    // row's one partner in a single pass (see probe_in_one_pass); the insertion notes duplicates.
    uvector<unsigned> duplicates(1, stream, get_current_resource(_frame.kind()));
    detail::fill_bytes(duplicates.data(), _frame.kind(), 0, sizeof(unsigned), stream);
    on_backend(_frame.kind(), stream, [&](auto const& exec) {
      exec.for_each_n(_slots->size(), detail::fill_entries_fn{_slots->data()});
      exec.for_each_n(_frame.num_rows(), detail::build_entries_fn<key_columns>{key_columns{_frame.inputs()}, _slots->data(),
                                                                              _mask, _options.nulls_equal, duplicates.data()});
    });
    _unique_keys = duplicates.element(0, stream) == 0u;
  }

  [[nodiscard]] Frame const& frame() const noexcept { return _frame; }
  [[nodiscard]] join_options options() const noexcept { return _options; }
  [[nodiscard]] std::uint64_t const* slots() const noexcept { return _slots->data(); }
  [[nodiscard]] std::uint64_t mask() const noexcept { return _mask; }
  // No two build rows share their keys (false where unknown).
  [[nodiscard]] bool unique_keys() const noexcept { return _unique_keys; }

 private:
  Frame _frame;
  join_options _options;
  std::shared_ptr<uvector<std::uint64_t>> _slots;
  std::uint64_t _mask = 0;
  bool _unique_keys = false;
};

// Hashes `right` on its key columns for reuse: build(orders, on("o_orderkey"_c)).
template <class Schema, class... Keys>
[[nodiscard]] auto build(frame<Schema> const& right, join_keys<Keys...>, join_options options = {}, stream_ref stream = {}) {
  static_assert(((sizeof(typename field_of<Schema, Keys>::type) > 0) && ...));
  return join_build<frame<Schema>, Keys...>(right, options, stream);
}

namespace detail {

// ---- the probe ----------------------------------------------------------------------------------

template <join_kind How, class ProbeInputs, class Pred, class ProbeKeys, class BuildKeys>
struct probe_fn {
  ProbeInputs in;
  Pred pred;
  BuildKeys build;
  std::uint64_t const* slots;
  std::uint64_t mask;
  bool nulls_equal;

  COLX_HOST_DEVICE bool kept(size_type i) const {
    auto const p = pred(in, i);
    return p.valid && static_cast<bool>(p.value);
  }
  // visit(build_row, k) for the k-th match of probe row i; returns the number of matches.
  template <class Visit>
  COLX_HOST_DEVICE size_type for_each_match(size_type i, Visit const& visit) const {
    ProbeKeys const keys{in};
    if (!nulls_equal && !keys.all_valid(i)) { return 0; }
    size_type matches = 0;
    if constexpr (BuildKeys::packed) {
      bool ok = true;
      std::uint64_t const w = keys.template pack_as<BuildKeys>(i, ok);
      if (!ok) { return 0; }
      for (std::uint64_t p = mix64(w) & mask;; p = (p + 1) & mask) {
        packed_slot const e = read_slot(slots, p);
        if (e.row == empty_entry) { break; }
        if (e.keys == w) { visit(static_cast<size_type>(e.row), matches++); }
      }
    } else {
      std::uint64_t const h = keys.hash(i);
      std::uint64_t const tag = h & tag_bits;
      for (std::uint64_t p = h & mask;; p = (p + 1) & mask) {
        std::uint64_t const e = slots[p];
        if (e == empty_entry) { break; }
        if ((e & tag_bits) == tag) {
          auto const r = static_cast<size_type>(e & ~tag_bits);
          if (keys.equal(i, build, r)) { visit(r, matches++); }
        }
      }
    }
    return matches;
  }
  struct ignore {
    COLX_HOST_DEVICE void operator()(size_type, size_type) const {}
  };
  // Output rows of probe row i.
  COLX_HOST_DEVICE size_type output_rows(size_type i) const {
    if (!kept(i)) { return 0; }
    size_type const m = for_each_match(i, ignore{});
    if constexpr (How == join_kind::semi) {
      return m > 0 ? 1 : 0;
    } else if constexpr (How == join_kind::anti) {
      return m == 0 ? 1 : 0;
    } else if constexpr (How == join_kind::left || How == join_kind::full) {
      return m > 0 ? m : 1;
    } else {
      return m;
    }
  }
};

// ---- one pass, where each probe row has at most one output row ----------------------------------
// Semi and anti joins always, inner and left joins against unique build keys: the output is a
// compaction of the probe rows (select_rows), each probe row probed once, in probe order.
template <join_kind How>
inline constexpr bool at_most_one_output_row = How == join_kind::semi || How == join_kind::anti;

struct probe_match {
  size_type probe_row;
  size_type build_row;  // -1 for none
};
template <class Probe>
COLX_HOST_DEVICE size_type only_match(Probe const& probe, size_type i) {
  struct keep_last {
    size_type* r;
    COLX_HOST_DEVICE void operator()(size_type b, size_type) const { *r = b; }
  };
  size_type r = -1;
  (void)probe.for_each_match(i, keep_last{&r});
  return r;
}
// Inner and left joins keep a probe row with the build row it found (exec/select_verdict.hpp), so
// the row is not looked up again to be written.
struct probe_verdict {
  size_type build_row = -1;
  bool keep = false;
  COLX_HOST_DEVICE explicit operator bool() const { return keep; }
};
template <join_kind How, class Probe>
struct single_match_keep_fn {
  Probe probe;
  COLX_HOST_DEVICE auto operator()(size_type i) const {
    if constexpr (How == join_kind::semi || How == join_kind::anti) {
      if (!probe.kept(i)) { return false; }
      return (only_match(probe, i) >= 0) == (How == join_kind::semi);
    } else {
      if (!probe.kept(i)) { return probe_verdict{}; }
      size_type const r = only_match(probe, i);
      return probe_verdict{r, How == join_kind::left || r >= 0};
    }
  }
};
struct single_match_load_fn {
  COLX_HOST_DEVICE probe_match operator()(size_type i) const { return {i, -1}; }  // semi and anti
  COLX_HOST_DEVICE probe_match operator()(size_type i, probe_verdict v) const { return {i, v.build_row}; }
};
template <class Sink>
struct single_match_store_fn {
  Sink sink;
  COLX_HOST_DEVICE void operator()(size_type k, probe_match const& m) const { sink(k, m.probe_row, m.build_row); }
};
// Whether this probe takes the one-pass path.
template <join_kind How, class Build>
bool single_pass_probe(Build const& built) {
  return at_most_one_output_row<How> ||
         ((How == join_kind::inner || How == join_kind::left) && built.unique_keys());
}
// The one-pass probe: each output row to `sink`; returns how many were written.
template <join_kind How, class Probe, class Sink>
size_type probe_in_one_pass(memory_kind kind, stream_ref stream, size_type n, Probe const& probe, Sink const& sink) {
  return on_backend(kind, stream, [&](auto const& exec) {
    return exec.select_rows(n, single_match_keep_fn<How, Probe>{probe}, single_match_load_fn{},
                            single_match_store_fn<Sink>{sink});
  });
}

template <class Probe>
struct output_rows_fn {
  Probe probe;
  COLX_HOST_DEVICE size_type operator()(size_type i) const { return probe.output_rows(i); }
};

// Writes probe row i's output rows from offsets[i]; marks matched build rows for right/full joins.
template <join_kind How, class Probe, class Sink>
struct emit_fn {
  Probe probe;
  size_type const* offsets;
  Sink sink;
  unsigned* matched;  // right and full joins: build rows that found a partner

  struct write_match {
    emit_fn const* self;
    size_type i;
    size_type base;
    COLX_HOST_DEVICE void operator()(size_type r, size_type k) const {
      self->sink(base + k, i, r);
      if constexpr (How == join_kind::right || How == join_kind::full) { atomic_or(self->matched + r, 1u); }
    }
  };

  COLX_HOST_DEVICE void operator()(size_type i) const {
    size_type const base = offsets[i];
    if (offsets[i + 1] == base) { return; }
    if constexpr (How == join_kind::semi || How == join_kind::anti) {
      sink(base, i, -1);
    } else {
      size_type const m = probe.for_each_match(i, write_match{this, i, base});
      if ((How == join_kind::left || How == join_kind::full) && m == 0) { sink(base, i, -1); }
    }
  }
};

// Right and full joins: the build rows no probe row matched, after the probe's rows.
struct unmatched_fn {
  unsigned const* matched;
  COLX_HOST_DEVICE bool operator()(size_type r) const { return matched[r] == 0u; }
};
struct row_number_fn {
  COLX_HOST_DEVICE size_type operator()(size_type r) const { return r; }
};
template <class Sink>
struct emit_unmatched_fn {
  Sink sink;
  size_type base;
  COLX_HOST_DEVICE void operator()(size_type k, size_type r) const { sink(base + k, -1, r); }
};

// Sinks: where an output row (probe row i, build row r; -1 for none) goes.
struct index_pairs_sink {
  size_type* left;
  size_type* right;
  COLX_HOST_DEVICE void operator()(size_type k, size_type i, size_type r) const {
    left[k] = i;
    right[k] = r;
  }
};
// Writes the values of `in`'s columns at row r to the item's columns Pos..., in order.
template <std::size_t... Pos, class Item, class Inputs>
COLX_HOST_DEVICE void load_at(Item& item, Inputs const& in, size_type r, std::index_sequence<Pos...>) {
  [&]<std::size_t... C>(std::index_sequence<C...>) {
    ((get<Pos>(item.values) = get<C>(in).value(r), item.valid |= static_cast<std::uint64_t>(get<C>(in).is_valid(r)) << Pos),
     ...);
  }(std::make_index_sequence<sizeof...(Pos)>{});
}
// SharedKeys: right and full joins, the build side's columns of the keys named alike on both
// sides, written where the probe side's key is (KeyPositions) for a build row no probe row found.
template <class Item, class ProbeInputs, class BuildInputs, class Store, class SharedKeys = tuple<>,
          class KeyPositions = std::index_sequence<>>
struct gather_sink {
  ProbeInputs probe;
  BuildInputs build;  // only the build columns the output keeps
  Store store;
  SharedKeys shared_keys{};
  COLX_HOST_DEVICE void operator()(size_type k, size_type i, size_type r) const {
    Item item{};
    if (i >= 0) {
      load_into<0>(item, probe, i);
    } else if constexpr (SharedKeys::size > 0) {
      if (r >= 0) { load_at(item, shared_keys, r, KeyPositions{}); }
    }
    if constexpr (BuildInputs::size > 0) {
      if (r >= 0) { load_into<ProbeInputs::size>(item, build, r); }
    }
    store(k, item);
  }
};

// ---- the output schema ------------------------------------------------------------------------------

template <class Field, bool MakeNullable>
using maybe_nullable_field = field<Field::name, typename Field::type, (MakeNullable || Field::is_nullable) ? nullable : not_null>;

// Both sides' key columns agree in number and, pair by pair, in type (join_rows checks only this).
template <class ProbeSchema, class BuildSchema, class LeftKeys, class RightKeys>
struct join_key_check;
template <class... P, class... B, class... L, class... R>
struct join_key_check<schema<P...>, schema<B...>, join_keys<L...>, join_keys<R...>> {
  static_assert(sizeof...(L) == sizeof...(R), "colx::join: both sides need the same number of key columns");
  static_assert((std::is_same_v<typename field_of<schema<P...>, L>::type::type, typename field_of<schema<B...>, R>::type::type> && ...),
                "colx::join: a left key and its right key have different types; the context shows both schemas "
                "and the key columns");
  static constexpr bool ok = true;
};

// Positions of the elements of `flags` that are set, padded to one element.
template <std::size_t Count, std::size_t N>
constexpr auto positions_of(std::array<bool, N> const& flags) {
  std::array<std::size_t, Count == 0 ? 1 : Count> out{};
  std::size_t k = 0;
  for (std::size_t j = 0; j < N; ++j) {
    if (flags[j]) { out[k++] = j; }
  }
  return out;
}

template <join_kind How, class ProbeSchema, class BuildSchema, class LeftKeys, class RightKeys, class Suffixes>
struct join_layout;
template <join_kind How, class... P, class... B, class... L, class... R, class Suffixes>
struct join_layout<How, schema<P...>, schema<B...>, join_keys<L...>, join_keys<R...>, Suffixes> {
  static_assert(join_key_check<schema<P...>, schema<B...>, join_keys<L...>, join_keys<R...>>::ok);
  using probe_schema = schema<P...>;
  using build_schema = schema<B...>;
  template <std::size_t I>
  using build_at = typename build_schema::template field_at<I>;
  static constexpr bool keeps_build = How != join_kind::semi && How != join_kind::anti;
  // Right and full joins write a shared key from the build row where there is no probe row.
  static constexpr bool coalesces = How == join_kind::right || How == join_kind::full;

  // A column that is a right key paired with a left key of its own name: written once.
  template <class F>
  static constexpr bool shared_key = ((F::name.view() == R::name.view() && R::name.view() == L::name.view()) || ...);
  template <class F>
  static constexpr bool kept = keeps_build && !shared_key<F>;

  static constexpr std::size_t build_count = (std::size_t{0} + ... + (kept<B> ? 1 : 0));
  static constexpr std::size_t shared_count = (std::size_t{0} + ... + (shared_key<B> ? 1 : 0));
  struct positions {
    static constexpr auto kept_columns = positions_of<build_count>(std::array<bool, sizeof...(B)>{kept<B>...});
    static constexpr auto shared_columns = positions_of<shared_count>(std::array<bool, sizeof...(B)>{shared_key<B>...});
  };
  template <class Seq>
  struct sequences_of;
  template <std::size_t... I>
  struct sequences_of<std::index_sequence<I...>> {
    using kept = std::index_sequence<positions::kept_columns[I]...>;
  };
  template <std::size_t... I>
  struct shared_sequences_of {
    using build = std::index_sequence<positions::shared_columns[I]...>;
    // Where the probe side holds each of those keys (of the same name).
    using probe = std::index_sequence<probe_schema::template index_of<build_at<positions::shared_columns[I]>>...>;
  };
  template <std::size_t... I>
  static auto shared_sequences(std::index_sequence<I...>) -> shared_sequences_of<I...>;
  using kept_build = typename sequences_of<std::make_index_sequence<build_count>>::kept;
  using shared = decltype(shared_sequences(std::make_index_sequence<coalesces ? shared_count : 0>{}));
  using shared_build = typename shared::build;  // right and full joins only; else empty
  using shared_probe = typename shared::probe;

  // Same-named columns that are not a shared key get the suffixes, as in pandas.
  template <class F>
  static constexpr bool probe_clashes = ((kept<B> && B::name.view() == F::name.view()) || ...);
  template <class F>
  static constexpr bool build_clashes = ((P::name.view() == F::name.view()) || ...);

  template <class F>
  struct probe_field {
    // A shared key in a right or full join: the probe key, or where there is no probe row the
    // build key, so null only where a null key can come from.
    static constexpr bool may_be_null = [] {
      if constexpr (coalesces && shared_key<F>) {
        using build_key = build_at<build_schema::template index_of<F>>;
        return build_key::is_nullable || (How == join_kind::full && F::is_nullable);
      } else {
        return F::is_nullable || coalesces;
      }
    }();
    using base = field<F::name, typename F::type, may_be_null ? nullable : not_null>;
    using type = std::conditional_t<probe_clashes<F>,
                                    field<F::name + Suffixes::left, typename F::type, may_be_null ? nullable : not_null>, base>;
  };
  template <class F>
  struct build_field {
    using base = maybe_nullable_field<F, How == join_kind::left || How == join_kind::full>;
    using type = std::conditional_t<build_clashes<F>,
                                    field<F::name + Suffixes::right, typename F::type, base::is_nullable ? nullable : not_null>, base>;
  };
  template <class Seq>
  struct out;
  template <std::size_t... I>
  struct out<std::index_sequence<I...>> {
    static constexpr bool unique =
        detail::names_unique<typename probe_field<P>::type..., typename build_field<build_at<I>>::type...>();
    static_assert(unique, "colx::join: a column name made with the join's suffixes is already the name of another column; "
                          "pass other suffixes, e.g. join(right, on(\"k\"_c), suffixes<\"_left\", \"_right\">()), or rename "
                          "a column first with select(\"x\"_c.as<\"new_name\">(), ...)");
    // Without unique names only the message above: no schema's own error beside it.
    using type =
        std::conditional_t<unique, schema<typename probe_field<P>::type..., typename build_field<build_at<I>>::type...>, probe_schema>;
  };
  using schema_type = typename out<kept_build>::type;
  static constexpr bool unique_names = out<kept_build>::unique;
};

template <class Inputs, std::size_t... I>
auto project(Inputs const& in, std::index_sequence<I...>) {
  return tuple(get<I>(in)...);
}

template <join_kind How, class Suffixes, class ProbeFrame, class Pred, class Build, class... L>
auto join_frames(ProbeFrame const& left, Pred const& unbound_pred, Build const& built, join_keys<L...>, stream_ref stream,
                 resource_ref mr) {
  spill_lock_scope const spill_lock(stream);  // the columns read here stay put until the work is done
  using probe_schema = typename ProbeFrame::schema_type;
  using build_frame = typename Build::frame_type;
  using build_schema = typename build_frame::schema_type;
  using layout = join_layout<How, probe_schema, build_schema, join_keys<L...>, typename Build::keys_type, Suffixes>;
  using out_schema = typename layout::schema_type;
  using probe_keys = key_columns<typename ProbeFrame::inputs_type, bound_keys_t<probe_schema, L...>>;
  auto const pred = expr::bind<probe_schema>(unbound_pred);
  using probe_t = probe_fn<How, typename ProbeFrame::inputs_type, std::remove_cvref_t<decltype(pred)>, probe_keys,
                           typename Build::key_columns>;
  build_frame const& right = built.frame();
  COLX_EXPECTS(is_host_accessible(left.kind()) == is_host_accessible(right.kind()), "join: the left frame lives in ",
               to_string(left.kind()), " memory, the right in ", to_string(right.kind()));
  probe_t const probe{left.inputs(), pred, typename Build::key_columns{right.inputs()}, built.slots(), built.mask(),
                      built.options().nulls_equal};
  size_type const n = left.num_rows();
  memory_kind const kind = left.kind();
  resource_ref const work = get_current_resource(kind);

  bool const single_pass = single_pass_probe<How>(built);
  uvector<size_type> offsets(single_pass ? 0 : n + 1, stream, work);
  size_type const probe_rows = single_pass ? n : on_backend(kind, stream, [&](auto const& exec) {
    return exec.exclusive_scan(n, size_type{0}, output_rows_fn<probe_t>{probe}, offsets.data());
  });
  constexpr bool adds_unmatched = How == join_kind::right || How == join_kind::full;
  uvector<unsigned> matched(adds_unmatched ? right.num_rows() : 0, stream, work);
  if (adds_unmatched) { fill_bytes(matched.data(), kind, 0, matched.size() * sizeof(unsigned), stream); }

  auto const types = [&]<std::size_t... I>(std::index_sequence<I...>) {
    auto const p = column_types(left);
    [[maybe_unused]] auto const b = column_types(right);
    std::array<data_type, out_schema::size> out{};
    std::size_t k = 0;
    for (auto const& t : p) { out[k++] = t; }
    ((out[k++] = b[I]), ...);
    return out;
  }(typename layout::kept_build{});
  std::array<bool, out_schema::size> masked{};
  [&]<std::size_t... C>(std::index_sequence<C...>) {
    ((masked[C] = out_schema::template field_at<C>::is_nullable), ...);
  }(std::make_index_sequence<out_schema::size>{});

  // Right and full joins append the unmatched build rows, known only after the probe: the
  // outputs are sized for all of them and trimmed.
  size_type const most = probe_rows + (adds_unmatched ? right.num_rows() : 0);
  return write_frame<out_schema>(most, masked, types, stream, mr, [&](auto const& views) {
    using store_t = store_row_fn<std::remove_cvref_t<decltype(views)>>;
    auto const build_columns = project(right.inputs(), typename layout::kept_build{});
    auto const shared_keys = project(right.inputs(), typename layout::shared_build{});
    using sink_t = gather_sink<row_item_t<out_schema>, typename ProbeFrame::inputs_type,
                               std::remove_cvref_t<decltype(build_columns)>, store_t,
                               std::remove_cvref_t<decltype(shared_keys)>, typename layout::shared_probe>;
    sink_t const sink{left.inputs(), build_columns, store_t{views}, shared_keys};
    if (single_pass) {  // probe_rows is then an upper bound: the frame is trimmed to what was written
      return probe_in_one_pass<How>(kind, stream, n, probe, sink);
    }
    return on_backend(kind, stream, [&](auto const& exec) {
      exec.for_each_n(n, emit_fn<How, probe_t, sink_t>{probe, offsets.data(), sink, matched.data()});
      size_type written = probe_rows;
      if constexpr (adds_unmatched) {
        written += exec.select_rows(right.num_rows(), unmatched_fn{matched.data()}, row_number_fn{},
                                    emit_unmatched_fn<sink_t>{sink, probe_rows});
      }
      return written;
    });
  });
}

// The join's output frame; where the output's names clash, only the layout's message.
template <join_kind How, class Suffixes, class ProbeFrame, class Pred, class Build, class Keys>
auto join_impl(ProbeFrame const& left, Pred const& pred, Build const& built, Keys keys, stream_ref stream, resource_ref mr) {
  if constexpr (join_layout<How, typename ProbeFrame::schema_type, typename Build::frame_type::schema_type, Keys,
                            typename Build::keys_type, Suffixes>::unique_names) {
    return join_frames<How, Suffixes>(left, pred, built, keys, stream, mr);
  } else {
    return left;
  }
}

// The matching (left row, right row) pairs alone, -1 where a side has no row.
template <join_kind How, class ProbeFrame, class Pred, class Build, class... L>
std::pair<uvector<size_type>, uvector<size_type>> join_rows_impl(ProbeFrame const& left, Pred const& unbound_pred,
                                                                 Build const& built, join_keys<L...>, stream_ref stream,
                                                                 resource_ref mr) {
  using probe_schema = typename ProbeFrame::schema_type;
  using probe_keys = key_columns<typename ProbeFrame::inputs_type, bound_keys_t<probe_schema, L...>>;
  static_assert(join_key_check<probe_schema, typename Build::frame_type::schema_type, join_keys<L...>,
                               typename Build::keys_type>::ok);
  auto const pred = expr::bind<probe_schema>(unbound_pred);
  using probe_t = probe_fn<How, typename ProbeFrame::inputs_type, std::remove_cvref_t<decltype(pred)>, probe_keys,
                           typename Build::key_columns>;
  auto const& right = built.frame();
  probe_t const probe{left.inputs(), pred, typename Build::key_columns{right.inputs()}, built.slots(), built.mask(),
                      built.options().nulls_equal};
  size_type const n = left.num_rows();
  memory_kind const kind = left.kind();
  if (single_pass_probe<How>(built)) {
    uvector<size_type> left_rows(n, stream, mr);
    uvector<size_type> right_rows(n, stream, mr);
    size_type const written =
        probe_in_one_pass<How>(kind, stream, n, probe, index_pairs_sink{left_rows.data(), right_rows.data()});
    left_rows.resize(written, stream);
    right_rows.resize(written, stream);
    return {std::move(left_rows), std::move(right_rows)};
  }
  uvector<size_type> offsets(n + 1, stream, get_current_resource(kind));
  size_type const probe_rows = on_backend(kind, stream, [&](auto const& exec) {
    return exec.exclusive_scan(n, size_type{0}, output_rows_fn<probe_t>{probe}, offsets.data());
  });
  constexpr bool adds_unmatched = How == join_kind::right || How == join_kind::full;
  size_type const most = probe_rows + (adds_unmatched ? right.num_rows() : 0);
  uvector<size_type> left_rows(most, stream, mr);
  uvector<size_type> right_rows(most, stream, mr);
  uvector<unsigned> matched(adds_unmatched ? right.num_rows() : 0, stream, get_current_resource(kind));
  if (adds_unmatched) { fill_bytes(matched.data(), kind, 0, matched.size() * sizeof(unsigned), stream); }
  index_pairs_sink const sink{left_rows.data(), right_rows.data()};
  size_type const written = on_backend(kind, stream, [&](auto const& exec) {
    exec.for_each_n(n, emit_fn<How, probe_t, index_pairs_sink>{probe, offsets.data(), sink, matched.data()});
    size_type w = probe_rows;
    if constexpr (adds_unmatched) {
      w += exec.select_rows(right.num_rows(), unmatched_fn{matched.data()}, row_number_fn{},
                            emit_unmatched_fn<index_pairs_sink>{sink, probe_rows});
    }
    return w;
  });
  left_rows.resize(written, stream);
  right_rows.resize(written, stream);
  return {std::move(left_rows), std::move(right_rows)};
}


template <class Right>
auto as_build(Right const& right, auto keys, join_options options, stream_ref stream) {
  if constexpr (requires { right.slots(); }) {
    return right;
  } else if constexpr (requires { right.predicate(); }) {
    return build(right.collect(stream, get_current_resource(right.source().kind())), keys, options, stream);
  } else {
    return build(right, keys, options, stream);
  }
}

}  // namespace detail

template <join_kind How, class Right, class LeftKeys, class RightKeys, class Suffixes = default_join_suffixes>
struct join_stage {
  using stage_tag = void;
  Right right;  // a frame, a filtered frame or a join_build
  join_options options;

  // The left side is a frame or a filtered frame (its filter runs inside the probe).
  template <class Left>
    requires requires(Left const& l) { detail::unfiltered_source(l).inputs(); }
  auto apply(Left const& left, stream_ref stream, resource_ref mr) const {
    if constexpr (requires { right.slots(); }) {
      static_assert(std::is_same_v<typename Right::keys_type, RightKeys>,
                    "colx::join: a join_build is probed with the keys it was built on");
    }
    auto const built = detail::as_build(right, RightKeys{}, options, stream);
    return detail::join_impl<How, Suffixes>(detail::unfiltered_source(left), detail::predicate_of_source(left), built,
                                            LeftKeys{}, stream, mr);
  }
};

// left | join(right, on("k"_c)): the key columns named alike on both sides;
// left | join<join_kind::left>(right, on("a"_c), on("b"_c)): left key a matches right key b;
// then optionally suffixes<"_l", "_r">() (default "_x", "_y"), then optionally join_options.
// `right` may be a join_build (build(...)) hashed once for several joins.
template <join_kind How = join_kind::inner, class Right, class... L, class... R,
          join_suffix_pair Suffixes = default_join_suffixes>
[[nodiscard]] auto join(Right const& right, join_keys<L...>, join_keys<R...>, Suffixes = {}, join_options options = {}) {
  return join_stage<How, Right, join_keys<L...>, join_keys<R...>, Suffixes>{right, options};
}
template <join_kind How = join_kind::inner, class Right, class... L, class... R>
[[nodiscard]] auto join(Right const& right, join_keys<L...> left_on, join_keys<R...> right_on, join_options options) {
  return join<How>(right, left_on, right_on, default_join_suffixes{}, options);
}
template <join_kind How = join_kind::inner, class Right, class... K, join_suffix_pair Suffixes = default_join_suffixes>
[[nodiscard]] auto join(Right const& right, join_keys<K...> keys, Suffixes suffix = {}, join_options options = {}) {
  return join<How>(right, keys, keys, suffix, options);
}
template <join_kind How = join_kind::inner, class Right, class... K>
[[nodiscard]] auto join(Right const& right, join_keys<K...> keys, join_options options) {
  return join<How>(right, keys, keys, default_join_suffixes{}, options);
}

// The matching row pairs only: {left rows, right rows}, -1 where an outer join has no partner.
template <join_kind How = join_kind::inner, class Left, class Right, class... L, class... R>
[[nodiscard]] std::pair<uvector<size_type>, uvector<size_type>> join_rows(Left const& left, Right const& right,
                                                                           join_keys<L...> left_on, join_keys<R...> right_on,
                                                                           join_options options = {}, stream_ref stream = {},
                                                                           resource_ref mr = get_current_resource()) {
  auto const built = detail::as_build(right, right_on, options, stream);
  return detail::join_rows_impl<How>(detail::unfiltered_source(left), detail::predicate_of_source(left), built, left_on, stream, mr);
}
// The same on key columns named alike on both sides: join_rows(left, right, on("k"_c)).
template <join_kind How = join_kind::inner, class Left, class Right, class... K>
[[nodiscard]] std::pair<uvector<size_type>, uvector<size_type>> join_rows(Left const& left, Right const& right,
                                                                           join_keys<K...> keys, join_options options = {},
                                                                           stream_ref stream = {},
                                                                           resource_ref mr = get_current_resource()) {
  return join_rows<How>(left, right, keys, keys, options, stream, mr);
}

}  // namespace colx
