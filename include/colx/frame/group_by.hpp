// SPDX-License-Identifier: Apache-2.0
#pragma once
// Group-by with aggregation, fused: `f | filter(p) | group_by("k"_c) | aggregate(sum(e).as<"s">())`
// evaluates the predicate, the keys and every aggregated expression inside one pass over the rows.
//
// One global open-addressing hash table (linear probing) maps a group to a slot; a slot holds the
// group's keys packed into one word when they fit 64 bits, else the row number of the group's
// first-inserted row (keys are then compared by evaluating the key expressions at that row, so
// any key type works, strings included), and the group's cells (shared between aggregations where
// they keep the same thing: see cell_sharing). With a handful of groups each thread keeps the
// cells of the last few groups it saw privately (registers, or shared memory when wide) and
// merges them into its block's shared-memory table only to make room: a thread touches the tables
// a handful of times in all. With up to a few thousand groups (the few-groups path) each GPU row
// goes straight to its block's shared-memory table, merged once per block into the global one.
// With many groups each row goes to the global table (the many-groups path); on the GPU, a table
// of packed keys larger than L2 is filled partition by partition (gpu/aggregate_rows.cuh). The
// table's size comes from the number of groups estimated on a sample of the rows; an estimate
// that proves too small is detected and the pass rerun. nunique keeps, beside the table, a set of
// (group, value) pairs: a row counts for its group where its pair is new to the set.
#include <colx/exec/aggregate_pass.hpp>
#include <colx/exec/group_cells.hpp>
#include <colx/exec/packed_keys.hpp>
#include <colx/exec/row_keys.hpp>
#include <colx/frame/explain.hpp>
#include <colx/frame/gather.hpp>
#include <colx/frame/pipeline.hpp>
#include <colx/frame/sort.hpp>

#include <array>
#include <cmath>
#include <optional>
#include <string>
#include <tuple>
#include <type_traits>
#include <vector>

namespace colx {

struct group_by_options {
  bool sorted = false;          // result rows in ascending key order (else in an unspecified order)
  bool drop_null_keys = false;  // skip rows with a null key (pandas' dropna); else nulls form a group, as SQL
};

template <class Source, class... Keys>
struct grouped;

// A source (a frame, or a filtered frame) and its keys: group_by(...) waits for aggregate(...).
template <class... Keys>
struct group_by_stage {
  using stage_tag = void;
  std::tuple<Keys...> keys;
  group_by_options options;

  template <class Source>
    requires requires(Source const& s) { detail::unfiltered_source(s).inputs(); }
  grouped<Source, Keys...> apply(Source const& source, stream_ref, resource_ref) const {
    return {source, *this};
  }
};

// Keys are column references ("k"_c) or named expressions ((e).as<"k">()).
template <class... Keys>
  requires(!std::same_as<Keys, group_by_options> && ...)
[[nodiscard]] constexpr auto group_by(Keys const&... keys) {
  static_assert(sizeof...(Keys) > 0, "colx::group_by needs at least one key");
  return group_by_stage<Keys...>{{keys...}, {}};
}
template <class... Keys>
[[nodiscard]] constexpr auto group_by(group_by_options options, Keys const&... keys) {
  static_assert(sizeof...(Keys) > 0, "colx::group_by needs at least one key");
  return group_by_stage<Keys...>{{keys...}, options};
}

template <class Source, class... Keys>
struct grouped {
  Source source;
  group_by_stage<Keys...> stage;
};
template <class Source, class... Keys>
inline constexpr bool is_pipeline_source<grouped<Source, Keys...>> = true;

// One pass over the grouped rows: one result row per group, the keys then the aggregations.
template <class... Named>
struct aggregate_stage {
  using stage_tag = void;
  std::tuple<Named...> aggs;

  template <class Source, class... Keys>
  auto apply(grouped<Source, Keys...> const& g, stream_ref stream, resource_ref mr) const;
};
namespace detail {
// A stand-in name ("?0", "?1", ...) for an aggregation the user did not name: the static_assert in
// aggregate() says what is wrong, and the pipeline after it still compiles, so that the message is
// the only error.
template <std::size_t I>
inline constexpr fixed_string<4> unnamed_aggregation = [] {
  fixed_string<4> name;
  name.chars[0] = '?';
  name.chars[1] = static_cast<char>('0' + I / 10 % 10);
  name.chars[2] = static_cast<char>('0' + I % 10);
  return name;
}();
template <std::size_t I, class A>
constexpr auto named_or_stand_in(A const& a) {
  if constexpr (requires { A::name; }) {
    return a;
  } else {
    return a.template as<unnamed_aggregation<I>>();
  }
}
}  // namespace detail

// aggregate(sum("x"_c).as<"total">(), count().as<"n">(), ...): each named.
template <class... Named>
[[nodiscard]] constexpr auto aggregate(Named const&... aggs) {
  static_assert(sizeof...(Named) > 0, "colx::aggregate needs at least one aggregation");
  static_assert((requires { Named::name; } && ...),
                "colx::aggregate: name each aggregation, as in sum(\"x\"_c).as<\"total\">()");
  return [&]<std::size_t... I>(std::index_sequence<I...>) {
    return aggregate_stage<decltype(detail::named_or_stand_in<I>(aggs))...>{{detail::named_or_stand_in<I>(aggs)...}};
  }(std::index_sequence_for<Named...>{});
}

namespace detail {


// ---- keys and aggregations: names, bound expressions, output fields --------------------------------

// A key's output name and expression. (Read through members: nvcc cannot match a partial
// specialisation on named_expr's fixed_string.)
template <class K>
struct group_key {
  static_assert(expr::column_ref<K> || requires(K const& k) { K::name; k.expr; },
                "colx::group_by: a key is a column (\"k\"_c) or a named expression (e.as<\"k\">())");
  static constexpr auto name = K::name;
  static auto expr_of(K const& k) {
    if constexpr (expr::column_ref<K>) {
      return k;
    } else {
      return k.expr;
    }
  }
};

template <class Agg, class Inputs>
struct bound_aggregation_traits;
template <class Kind, class E, class Inputs>
struct bound_aggregation_traits<expr::aggregation<Kind, E>, Inputs> {
  using result = expr::result_t<E, Inputs>;
  using value_type = typename result::value_type;
  using expr_type = E;
  using cell = group_cell<Kind, value_type, result::nullable>;
  static constexpr bool counts_nulls = [] {
    if constexpr (requires { Kind::counts_nulls; }) {
      return Kind::counts_nulls;
    } else {
      return false;
    }
  }();
  static constexpr bool output_nullable =
      !cell::always_valid && (result::nullable || std::is_same_v<Kind, expr::kinds::moment<1>> ||
                              std::is_same_v<Kind, expr::kinds::moment<2>>);
};

// ---- which aggregations keep cells ---------------------------------------------------------------

// Aggregations share what they keep, so that a group's cells stay small (the few-groups pass
// holds several groups' cells per thread, and the many-groups table is read at random): the
// group's row count is kept once for all that need it (count(), and means and variances of
// never-null values), and a sum of a column once for every aggregation keeping that very sum
// (sum("x") and mean("x") of a float64 column). TPC-H Q1's eight aggregations then keep five sums
// and a row count: 48 bytes a group instead of 88.
struct group_row_count {
  size_type n;
};
template <class... Traits>
struct cell_sharing {
  static constexpr std::size_t size = sizeof...(Traits);
  static constexpr bool group_rows = (Traits::cell::uses_group_rows || ...);
  template <std::size_t K>
  using traits = std::tuple_element_t<K, std::tuple<Traits...>>;

  // Whether aggregation K may read J's cell: both keep the same sum of the same column. (Only of
  // a column: an expression's type does not show the constants it holds.)
  template <std::size_t J, std::size_t K>
  static constexpr bool same_sum() {
    using a = traits<J>;
    using b = traits<K>;
    if constexpr (a::cell::shares_sum && b::cell::shares_sum && requires { a::expr_type::position; }) {
      return std::is_same_v<typename a::cell::type, typename b::cell::type> &&
             std::is_same_v<typename a::expr_type, typename b::expr_type>;
    } else {
      return false;
    }
  }
  // The aggregation whose cell K reads: the first with the same sum, else K; -1 for none.
  template <std::size_t K>
  static constexpr int owner_of() {
    if constexpr (std::is_same_v<typename traits<K>::cell::type, no_storage>) {
      return -1;
    } else {
      return []<std::size_t... J>(std::index_sequence<J...>) {
        int owner = static_cast<int>(K);
        (void)((same_sum<J, K>() ? (owner = static_cast<int>(J), true) : false) || ...);
        return owner;
      }(std::make_index_sequence<K>{});
    }
  }
  static constexpr std::array<int, size> owner = []<std::size_t... K>(std::index_sequence<K...>) {
    return std::array<int, size>{owner_of<K>()...};
  }(std::index_sequence_for<Traits...>{});
  static constexpr std::size_t kept = [] {
    std::size_t n = 0;
    for (std::size_t k = 0; k < size; ++k) { n += owner[k] == static_cast<int>(k) ? 1 : 0; }
    return n;
  }();
  // The cells: the row count first when kept, then the cell of each aggregation that keeps one.
  static constexpr std::array<std::size_t, kept> keepers = [] {
    std::array<std::size_t, kept> out{};
    std::size_t m = 0;
    for (std::size_t k = 0; k < size; ++k) {
      if (owner[k] == static_cast<int>(k)) { out[m++] = k; }
    }
    return out;
  }();
  // Where in the cells aggregation K's cell is; -1 for none.
  static constexpr std::array<int, size> place = [] {
    std::array<int, size> out{};
    int next = group_rows ? 1 : 0;
    for (std::size_t k = 0; k < size; ++k) { out[k] = owner[k] < 0 ? -1 : owner[k] == static_cast<int>(k) ? next++ : out[owner[k]]; }
    return out;
  }();
  // The same, read in device code without calling std::array's (host) operator[] there.
  template <std::size_t K>
  static constexpr int owner_v = owner[K];
  template <std::size_t K>
  static constexpr int place_v = place[K];
  template <std::size_t M>
  static constexpr std::size_t keeper_v = keepers[M];
  template <std::size_t... M>
  static auto cells_of(std::index_sequence<M...>)
      -> std::conditional_t<group_rows, tuple<group_row_count, typename traits<keeper_v<M>>::cell::type...>,
                            tuple<typename traits<keeper_v<M>>::cell::type...>>;
  using cells = decltype(cells_of(std::make_index_sequence<kept>{}));
  template <std::size_t... M>
  static constexpr COLX_HOST_DEVICE cells identity(std::index_sequence<M...>) {
    if constexpr (group_rows) {
      return cells(group_row_count{0}, traits<keeper_v<M>>::cell::identity()...);
    } else {
      return cells(traits<keeper_v<M>>::cell::identity()...);
    }
  }
  static constexpr COLX_HOST_DEVICE size_type rows(cells const& c) {
    if constexpr (group_rows) {
      return get<0>(c).n;
    } else {
      (void)c;
      return 0;
    }
  }
};

// ---- the table ----------------------------------------------------------------------------------

inline constexpr size_type empty_slot = -1;

// nunique keeps a set of (group, value) pairs beside the table (group_table_fn::first_of_pair),
// one per nunique aggregation: never shared (its cell's shares_sum is false), in the order of the
// aggregations.
template <class Agg>
inline constexpr bool keeps_pairs = false;
template <class E>
inline constexpr bool keeps_pairs<expr::aggregation<expr::kinds::distinct_count, E>> = true;
template <class... Aggs>
constexpr std::size_t pair_sets_before(std::size_t k) {
  bool const keeps[] = {keeps_pairs<Aggs>..., false};
  std::size_t n = 0;
  for (std::size_t j = 0; j < k; ++j) { n += keeps[j] ? 1 : 0; }
  return n;
}

template <class Inputs, class Pred, class Keys, class Aggs>
struct group_table_fn;


// What a cell's operations may ask about the group's other rows.
template <class Fn, std::size_t K>
struct aggregation_context {
  Fn const* fn;
  COLX_HOST_DEVICE auto value_at(size_type row) const { return get<K>(fn->aggs).expr(fn->in, row); }
  template <class T>
  COLX_HOST_DEVICE bool first_of_pair(T const& v, size_type row) const {
    return fn->template first_of_pair<K>(v, row);
  }
};

template <class Inputs, class Pred, class... Keys, class... Aggs>
struct group_table_fn<Inputs, Pred, tuple<Keys...>, tuple<Aggs...>> {
  using sharing = cell_sharing<bound_aggregation_traits<Aggs, Inputs>...>;
  using cells = typename sharing::cells;
  static constexpr std::size_t num_aggs = sizeof...(Aggs);

  Inputs in;
  Pred pred;
  tuple<Keys...> keys;
  tuple<Aggs...> aggs;
  bool drop_null_keys = false;
  bool eager_loads = false;  // see load()
  // nunique's sets of (group, value) pairs (see first_of_pair): set j is mask + 1 slots at
  // rows + j * (mask + 1), each the first row seen of a pair or empty_slot. Pairs are counted as
  // groups are, set j's in `shards` counters from counts + j * shards * counter_stride, and a set
  // too full flags overflow: the rerun grows the sets with the table. Without a nunique the
  // member is empty and sits in the bools' padding: this struct is every kernel's parameter, and
  // NVVM kept the 1M-group row loop's fields in registers at 128 bytes but not at 168 (that pass
  // took 4.07 ms instead of 3.26 on the H100).
  struct pair_sets_state {
    size_type* rows = nullptr;
    std::uint64_t mask = 0;
    size_type* counts = nullptr;
    std::uint64_t shards = 1;
    size_type most = 0;
  };
  struct no_pair_sets {};
  static constexpr std::size_t pair_sets = pair_sets_before<Aggs...>(sizeof...(Aggs));
  template <std::size_t K>
  static constexpr std::size_t pair_set_v = pair_sets_before<Aggs...>(K);
  std::conditional_t<(pair_sets > 0), pair_sets_state, no_pair_sets> pair{};
  // Slot s is entry_bytes bytes at entries + s * entry_bytes: a header of 8 bytes, then (in the
  // aggregation's table) the group's cells, so that one row's lookup and update touch one place.
  // The header is the keys' word when they pack (or empty_word), else the group's first-inserted
  // row (or empty_slot). The sample's table has the headers only.
  unsigned char* entries = nullptr;
  std::size_t entry_bytes = sizeof(size_type);
  std::uint64_t slot_mask = 0;  // slots - 1 (a power of two)
  // Groups inserted so far, counted in group_shards counters (a power of two) a cache line apart,
  // by slot: with millions of groups, one counter would take millions of atomics on one address.
  size_type* groups = nullptr;
  std::uint64_t group_shards = 1;
  size_type max_groups = 0;  // per counter: beyond this the table is too full, and the pass is rerun larger
  unsigned* overflow = nullptr;

  COLX_HOST_DEVICE bool keep(size_type i) const {
    auto const p = pred(in, i);
    if (!(p.valid && static_cast<bool>(p.value))) { return false; }
    if (drop_null_keys) {
      bool all_valid = true;
      [&]<std::size_t... K>(std::index_sequence<K...>) {
        ((all_valid = all_valid && static_cast<bool>(get<K>(keys)(in, i).valid)), ...);
      }(std::index_sequence_for<Keys...>{});
      return all_valid;
    }
    return true;
  }
  COLX_HOST_DEVICE std::uint64_t hash(size_type i) const {
    std::uint64_t h = 0x2545f4914f6cdd1dull;
    [&]<std::size_t... K>(std::index_sequence<K...>) {
      ((h = hash_combine(h, hash_key(get<K>(keys)(in, i)))), ...);
    }(std::index_sequence_for<Keys...>{});
    return h;
  }
  COLX_HOST_DEVICE bool same_keys(size_type a, size_type b) const {
    bool same = true;
    [&]<std::size_t... K>(std::index_sequence<K...>) {
      (void)((same = keys_equal(get<K>(keys)(in, a), get<K>(keys)(in, b))) && ...);
    }(std::index_sequence_for<Keys...>{});
    return same;
  }
  // Keys that fit one 64-bit word together (fixed-width keys, 8 bytes in all at most, plus a bit
  // per nullable key) are compared as that word, which the slot keeps: no input row is read
  // again to compare keys (nor to write the result's keys: they are decoded from the word), and
  // the caches and block tables know a group by its word without looking it up in the global
  // table. Keys with strings may pack row by row when the strings are short (short_packed): the
  // caches and block tables then know such a group by its tagged word, and only their flushes
  // look it up in the global table, which compares keys at rows.
  static constexpr bool packed = keys_pack_v<Inputs, Keys...>;
  static constexpr bool short_packed = keys_pack_short_v<Inputs, Keys...>;
  static constexpr std::uint64_t empty_word = ~std::uint64_t{0};
  static_assert(sizeof(size_type) == sizeof(std::uint64_t) && alignof(cells) <= sizeof(std::uint64_t),
                "a slot's header is one 8-byte word, and its cells follow it");

  COLX_HOST_DEVICE size_type* rep_at(std::uint64_t s) const {
    return reinterpret_cast<size_type*>(entries + s * entry_bytes);
  }
  COLX_HOST_DEVICE std::uint64_t* word_at(std::uint64_t s) const {
    return reinterpret_cast<std::uint64_t*>(entries + s * entry_bytes);
  }
  COLX_HOST_DEVICE cells* cells_at(size_type s) const {
    return reinterpret_cast<cells*>(entries + static_cast<std::uint64_t>(s) * entry_bytes + sizeof(std::uint64_t));
  }
  // With packed keys one slot more than slot_mask + 1 holds the group whose word is empty_word
  // itself; its header is 0 while unused and 1 once used.
  static constexpr std::size_t table_entry_bytes = sizeof(std::uint64_t) + sizeof(cells);
  static constexpr std::size_t sample_entry_bytes = sizeof(std::uint64_t);
  [[nodiscard]] static constexpr size_type table_slots(size_type capacity) { return capacity + (packed ? 1 : 0); }
  COLX_HOST_DEVICE bool occupied(std::uint64_t s) const {
    if constexpr (packed) {
      return s > slot_mask ? *word_at(s) != 0 : *word_at(s) != empty_word;
    } else {
      return *rep_at(s) != empty_slot;
    }
  }
  COLX_HOST_DEVICE void clear(std::uint64_t s) const {
    if constexpr (packed) {
      *word_at(s) = s > slot_mask ? 0 : empty_word;
    } else {
      *rep_at(s) = empty_slot;
    }
  }

  COLX_HOST_DEVICE std::uint64_t pack(size_type i) const {
    return [&]<std::size_t... K>(std::index_sequence<K...>) { return pack_keys(in, i, get<K>(keys)...); }(
        std::index_sequence_for<Keys...>{});
  }
  template <std::size_t K>
  COLX_HOST_DEVICE auto unpack(std::uint64_t word) const {
    return unpack_key<K, Inputs, Keys...>(word);
  }
  COLX_HOST_DEVICE std::uint64_t pack_short(size_type i) const {
    return [&]<std::size_t... K>(std::index_sequence<K...>) { return pack_short_keys(in, i, get<K>(keys)...); }(
        std::index_sequence_for<Keys...>{});
  }

  static constexpr std::uint64_t counter_stride = 128 / sizeof(size_type);
  // A new entry took a slot of a table counted in `shards` counters from `counts`: count it, and
  // flag the pass for a rerun when the table is too full.
  COLX_HOST_DEVICE void count_entry(size_type* counts, std::uint64_t shards, size_type most, std::uint64_t slot) const {
    size_type const before = atomic_fetch_add(counts + (slot & (shards - 1)) * counter_stride, size_type{1});
    if (before >= most) { atomic_or(overflow, 1u); }
  }
  COLX_HOST_DEVICE void count_group(std::uint64_t slot) const { count_entry(groups, group_shards, max_groups, slot); }

  // The slot of row i's group, inserting the group if it is new; -1 when the table is full. A
  // slot's row (word) never changes once set, so a plain (cached) read is safe: a stale read can
  // only see it empty, and the compare-and-swap then returns what is there.
  COLX_HOST_DEVICE size_type locate(size_type i) const {
    if constexpr (packed) {
      return locate_word(pack(i));
    } else {
      std::uint64_t p = hash(i) & slot_mask;
      for (std::uint64_t probe = 0; probe <= slot_mask; ++probe) {
        size_type* const rep = rep_at(p);
        size_type held = *rep;
        if (held == empty_slot) {
          held = atomic_cas(rep, empty_slot, i);
          if (held == empty_slot) {
            count_group(p);
            return static_cast<size_type>(p);
          }
        }
        if (held == i || same_keys(held, i)) { return static_cast<size_type>(p); }
        p = (p + 1) & slot_mask;
      }
      atomic_or(overflow, 1u);
      return -1;
    }
  }
  // The slot of the group whose keys pack to w.
  COLX_HOST_DEVICE size_type locate_word(std::uint64_t w) const {
    if (w == empty_word) {  // the extra slot
      std::uint64_t* const used = word_at(slot_mask + 1);
      if (*used == 0 && atomic_cas(used, std::uint64_t{0}, std::uint64_t{1}) == 0) { count_group(slot_mask + 1); }
      return static_cast<size_type>(slot_mask + 1);
    }
    std::uint64_t p = mix64(w) & slot_mask;
    for (std::uint64_t probe = 0; probe <= slot_mask; ++probe) {
      std::uint64_t* const word = word_at(p);
      std::uint64_t held = *word;
      if (held == empty_word) {
        held = atomic_cas(word, empty_word, w);
        if (held == empty_word) {
          count_group(p);
          return static_cast<size_type>(p);
        }
      }
      if (held == w) { return static_cast<size_type>(p); }
      p = (p + 1) & slot_mask;
    }
    atomic_or(overflow, 1u);
    return -1;
  }

  // Whether row i, whose value of nunique aggregation K is v (valid), is the first row of its
  // (group, value) pair to get here: inserted into K's set by compare-and-swap as locate inserts
  // groups compared at rows, so that of all the rows of a pair, added by any thread, cache or
  // block table and in any order, exactly one finds it new. Pairs are equal when their keys are
  // (same_keys) and their values are as keys are (values_equal: NaN to NaN, -0.0 to 0.0).
  template <std::size_t K, class T>
  COLX_HOST_DEVICE bool first_of_pair(T const& v, size_type i) const {
    constexpr std::size_t j = pair_set_v<K>;
    size_type* const set = pair.rows + j * (pair.mask + 1);
    std::uint64_t p = hash_combine(hash(i), hash_value(v)) & pair.mask;
    for (std::uint64_t probe = 0; probe <= pair.mask; ++probe) {
      size_type held = set[p];
      if (held == empty_slot) {
        held = atomic_cas(set + p, empty_slot, i);
        if (held == empty_slot) {
          count_entry(pair.counts + j * pair.shards * counter_stride, pair.shards, pair.most, p);
          return true;
        }
      }
      if (values_equal(get<K>(aggs).expr(in, held).value, v) && same_keys(held, i)) { return false; }
      p = (p + 1) & pair.mask;
    }
    atomic_or(overflow, 1u);  // full: the pass is rerun, whatever this returns
    return false;
  }

  COLX_HOST_DEVICE bool found(std::uint64_t id) const { return packed || id != no_group_id; }
  COLX_HOST_DEVICE size_type slot_of(std::uint64_t id, size_type row) const {
    if constexpr (packed) {
      (void)row;
      return locate_word(id);
    } else if constexpr (short_packed) {
      return (id & short_pack_tag) != 0 ? locate(row) : static_cast<size_type>(id);
    } else {
      return static_cast<size_type>(id);
    }
  }

  static COLX_HOST_DEVICE cells identity() { return sharing::identity(std::make_index_sequence<sharing::kept>{}); }

  // For the GPU's partitioned many-groups pass (gpu/aggregate_rows.cuh), which first sorts rows
  // into partitions by their group's home slot: packed keys only (other keys find their slot
  // while a row is loaded); rows are kept beside the values only where a cell reads them.
  static constexpr bool partitionable = packed;
  static constexpr bool reads_rows = (requires { bound_aggregation_traits<Aggs, Inputs>::cell::reads_rows; } || ...);
  COLX_HOST_DEVICE std::uint64_t home_slot(std::uint64_t id) const { return mix64(id) & slot_mask; }
  [[nodiscard]] std::size_t table_bytes() const { return static_cast<std::size_t>(table_slots(static_cast<size_type>(slot_mask + 1))) * entry_bytes; }

  // A row as the row loop takes it (exec/aggregate_rows.hpp): whether it counts (it passes the
  // filter and its group has a slot), its group id (what the caches know a group by: the packed
  // keys' word, else the group's slot in the table), and each aggregation's value.
  using values = tuple<std::remove_cvref_t<decltype(std::declval<Aggs const&>().expr(std::declval<Inputs const&>(), size_type{}))>...>;
  struct loaded {
    bool counts = false;
    std::uint64_t id = 0;
    values v{};
  };
  // With eager_loads (most rows pass the filter, by the sample), a row's values and packed keys
  // are read without waiting for the filter's verdict, so that their loads are in flight with the
  // filter's own (expressions are total: evaluating one at a dropped row is harmless). The test is
  // of the flag alone, which is uniform: a test of `kept || eager_loads` made every load wait for
  // the filter's. A lookup that inserts a group waits for the verdict in any case.
  COLX_HOST_DEVICE loaded load(size_type i) const {
    loaded r;
    bool kept = false;
    if (eager_loads) {
      kept = keep(i);
      read_values(r, i);
    } else {
      kept = keep(i);
      if (kept) { read_values(r, i); }
    }
    if (kept) {
      if constexpr (!packed) {
        if (!short_packed || r.id == 0) {
          size_type const slot = locate(i);
          r.id = slot < 0 ? no_group_id : static_cast<std::uint64_t>(slot);
        }
      }
      r.counts = found(r.id);
    }
    return r;
  }
  // Row i's aggregated values and, where the keys pack, its packed keys.
  COLX_HOST_DEVICE void read_values(loaded& r, size_type i) const {
    r.v = [&]<std::size_t... K>(std::index_sequence<K...>) { return values(get<K>(aggs).expr(in, i)...); }(
        std::index_sequence_for<Aggs...>{});
    if constexpr (packed) {
      r.id = pack(i);
    } else if constexpr (short_packed) {
      r.id = pack_short(i);  // 0: the strings are too long, the group is looked up in load()
    }
  }
  COLX_HOST_DEVICE void add(cells& c, loaded const& r, size_type i) const {
    if constexpr (sharing::group_rows) { ++get<0>(c).n; }
    [&]<std::size_t... K>(std::index_sequence<K...>) { (add_one<K>(c, get<K>(r.v), i), ...); }(std::index_sequence_for<Aggs...>{});
  }
  // Merges c into *dst: the table's cells or a block's.
  COLX_HOST_DEVICE void merge(cells* dst, cells const& c) const {
    if constexpr (sharing::group_rows) { atomic_add(&get<0>(*dst).n, get<0>(c).n); }
    [&]<std::size_t... K>(std::index_sequence<K...>) { (merge_one<K>(dst, c), ...); }(std::index_sequence_for<Aggs...>{});
  }

  template <std::size_t K>
  using traits = bound_aggregation_traits<std::remove_cvref_t<decltype(get<K>(std::declval<tuple<Aggs...> const&>()))>, Inputs>;

  // Aggregation K's part of a row, merge and result; only an aggregation that keeps its cell
  // adds to it and merges it (see cell_sharing).
  template <std::size_t K>
  static constexpr bool keeps = sharing::template owner_v<K> == static_cast<int>(K);
  template <std::size_t K, class V>
  COLX_HOST_DEVICE void add_one(cells& c, V const& v, size_type i) const {
    if constexpr (keeps<K>) {
      if (traits<K>::counts_nulls || v.valid) {
        traits<K>::cell::add(get<sharing::template place_v<K>>(c), v.value, i, aggregation_context<group_table_fn, K>{this});
      }
    }
  }
  template <std::size_t K>
  COLX_HOST_DEVICE void merge_one(cells* dst, cells const& c) const {
    if constexpr (keeps<K>) {
      constexpr auto p = static_cast<std::size_t>(sharing::template place_v<K>);
      traits<K>::cell::merge(&get<p>(*dst), get<p>(c), sharing::rows(c), aggregation_context<group_table_fn, K>{this});
    }
  }
  template <std::size_t K>
  COLX_HOST_DEVICE auto finish(cells const& c) const {
    aggregation_context<group_table_fn, K> const ctx{this};
    if constexpr (sharing::template place_v<K> < 0) {
      return traits<K>::cell::finish(no_storage{}, sharing::rows(c), ctx);
    } else {
      return traits<K>::cell::finish(get<static_cast<std::size_t>(sharing::template place_v<K>)>(c), sharing::rows(c), ctx);
    }
  }
};

// Inserts the groups of every step-th row only (rows 0, step, 2 step, ...), counting kept rows:
// the sample the table size is estimated from.
template <class Fn>
struct sample_groups_fn {
  Fn fn;
  size_type step;
  size_type* kept;
  COLX_HOST_DEVICE void operator()(size_type k) const {
    size_type const i = k * step;
    if (!fn.keep(i)) { return; }
    atomic_add(kept, size_type{1});
    (void)fn.locate(i);
  }
};

template <class Fn>
struct init_table_fn {
  Fn fn;
  COLX_HOST_DEVICE void operator()(size_type s) const {
    fn.clear(static_cast<std::uint64_t>(s));
    if (fn.entry_bytes > Fn::sample_entry_bytes) { *fn.cells_at(s) = Fn::identity(); }
  }
};

// One output row per occupied slot: the keys at the group's first row, then each finished cell.
template <class Fn>
struct group_row_fn {
  Fn fn;
  COLX_HOST_DEVICE bool operator()(size_type s) const { return fn.occupied(static_cast<std::uint64_t>(s)); }
};
template <class Fn, class Item, std::size_t NumKeys>
struct load_group_fn {
  Fn fn;
  COLX_HOST_DEVICE Item operator()(size_type s) const {
    Item item{};
    auto const slot = static_cast<std::uint64_t>(s);
    if constexpr (Fn::packed) {
      std::uint64_t const word = slot > fn.slot_mask ? Fn::empty_word : *fn.word_at(slot);
      put_keys(item, [&]<std::size_t K>() { return fn.template unpack<K>(word); }, std::make_index_sequence<NumKeys>{});
    } else {
      size_type const row = *fn.rep_at(slot);
      put_keys(item, [&]<std::size_t K>() { return get<K>(fn.keys)(fn.in, row); }, std::make_index_sequence<NumKeys>{});
    }
    [&]<std::size_t... A>(std::index_sequence<A...>) {
      (put(item, NumKeys + A, fn.template finish<A>(*fn.cells_at(s))), ...);
    }(std::make_index_sequence<Fn::num_aggs>{});
    return item;
  }

 private:
  template <class KeyAt, std::size_t... K>
  static COLX_HOST_DEVICE void put_keys(Item& item, KeyAt const& key_at, std::index_sequence<K...>) {
    (put(item, K, key_at.template operator()<K>()), ...);
  }
  template <class M>
  static COLX_HOST_DEVICE void put(Item& item, std::size_t position, M const& m) {
    put_at(item, position, m, std::make_index_sequence<decltype(Item::values)::size>{});
  }
  template <class M, std::size_t... P>
  static COLX_HOST_DEVICE void put_at(Item& item, std::size_t position, M const& m, std::index_sequence<P...>) {
    (void)((P == position ? (assign(get<P>(item.values), m.value), true) : false) || ...);
    if (m.valid) { item.valid |= std::uint64_t{1} << position; }
  }
  template <class To, class From>
  static COLX_HOST_DEVICE void assign(To& to, From const& from) {
    if constexpr (std::is_convertible_v<From, To>) { to = static_cast<To>(from); }
  }
};

// The result's schema: the keys, then the aggregations, each under its name.
template <class Key, class Bound, class Inputs>
struct key_field {
  using result = expr::result_t<Bound, Inputs>;
  using type = field<group_key<Key>::name, typename result::value_type, result::nullable ? nullable : not_null>;
};
template <class Named, class Bound, class Inputs>
struct aggregation_field {
  using traits = bound_aggregation_traits<Bound, Inputs>;
  static_assert(traits::cell::supported,
                "colx::aggregate: this aggregation does not apply to the type of its expression (sum, mean, var and "
                "std need numbers; min and max need fixed-width values of at most 8 bytes); the context names the "
                "aggregation and its expression");
  using type = field<Named::name, typename traits::cell::value_type,
                     traits::output_nullable ? nullable : not_null>;
};
template <class Inputs, class Keys, class BoundKeys, class Named, class BoundAggs>
struct group_schema;
template <class Inputs, class... Keys, class... BoundKeys, class... Named, class... BoundAggs>
struct group_schema<Inputs, std::tuple<Keys...>, tuple<BoundKeys...>, std::tuple<Named...>, tuple<BoundAggs...>> {
  using type = schema<typename key_field<Keys, BoundKeys, Inputs>::type..., typename aggregation_field<Named, BoundAggs, Inputs>::type...>;
};

// Solves d = g (1 - exp(-s / g)) for g: the number of groups that makes s sampled rows show d
// distinct groups (rows drawn uniformly); at most `rows`.
inline double estimate_groups(double distinct, double sampled, double rows) {
  if (distinct >= sampled) { return rows; }
  double lo = distinct;
  double hi = rows;
  for (int it = 0; it < 100 && hi - lo > 1; ++it) {
    double const g = (lo + hi) / 2;
    (g * (1 - std::exp(-sampled / g)) < distinct ? lo : hi) = g;
  }
  return hi;
}

inline size_type next_power_of_two(size_type v) {
  size_type p = 1;
  while (p < v) { p <<= 1; }
  return p;
}

// visit(column) for the frame's column at a run-time position (none for not_found).
template <class Frame, class Visit>
void visit_column_at(Frame const& f, std::size_t position, Visit const& visit) {
  [&]<std::size_t... C>(std::index_sequence<C...>) {
    ((C == position ? visit(f.template column_at<C>()) : void()), ...);
  }(std::make_index_sequence<Frame::schema_type::size>{});
}
template <class Frame, class T>
data_type output_type_of(Frame const& f, std::size_t position_if_column) {
  data_type d{};
  visit_column_at(f, position_if_column, [&](auto const& c) { d = type_of(c); });
  return position_if_column != not_found && d.id() == type_to_id<T> ? d : data_type_of<T>();
}
// A key that is a fixed-width strings column gives result keys of the same width.
template <class Frame>
size_type output_width_of(Frame const& f, std::size_t position_if_column) {
  size_type w = -1;
  visit_column_at(f, position_if_column, [&](auto const& c) { w = uniform_bytes_of(c); });
  return w;
}
template <class E>
constexpr std::size_t column_position() {
  if constexpr (requires { E::position; }) {
    return E::position;
  } else {
    return not_found;
  }
}

// What a group-by decided from its sample: explain() shows it.
struct group_plan {
  size_type rows = 0;
  double estimated_groups = 0;
  size_type slots = 0;          // of the global table
  std::size_t entry_bytes = 0;  // per slot: the header (packed keys or the group's first row) and its cells
  std::size_t cell_bytes = 0;   // of the cells alone
  int shared_slots = 0;         // per block: not 0 on the few-groups path
  bool private_caches = false;  // a handful of groups: per-thread caches first
  char const* key_form = "";    // how rows' keys are compared
  bool partitionable = false;   // packed keys: the GPU may partition rows by slot first
  std::size_t pair_sets = 0;    // nunique's sets of (group, value) pairs, one per nunique
  size_type pair_slots = 0;     // per set
};

// With `plan` set, only samples and plans: returns an empty result.
template <class Frame, class Pred, class... Keys, class... Named>
auto aggregate_impl(Frame const& f, Pred const& unbound_pred, std::tuple<Keys...> const& unbound_keys,
                    group_by_options options, std::tuple<Named...> const& named, stream_ref stream, resource_ref mr,
                    group_plan* plan = nullptr) {
  spill_lock_scope const spill_lock(stream);  // the columns read here stay put until the work is done
  using schema_type = typename Frame::schema_type;
  using inputs = typename Frame::inputs_type;
  auto const pred = expr::bind<schema_type>(unbound_pred);
  auto const keys = [&]<std::size_t... K>(std::index_sequence<K...>) {
    return tuple(expr::bind<schema_type>(group_key<Keys>::expr_of(std::get<K>(unbound_keys)))...);
  }(std::index_sequence_for<Keys...>{});
  auto const aggs = [&]<std::size_t... A>(std::index_sequence<A...>) {
    return tuple(std::get<A>(named).expr.map(expr::bind_fn<schema_type>{})...);
  }(std::index_sequence_for<Named...>{});
  using keys_t = std::remove_cvref_t<decltype(keys)>;
  using aggs_t = std::remove_cvref_t<decltype(aggs)>;
  using fn_t = group_table_fn<inputs, std::remove_cvref_t<decltype(pred)>, keys_t, aggs_t>;
  using cells = typename fn_t::cells;

  using out_schema = typename group_schema<inputs, std::tuple<Keys...>, keys_t, std::tuple<Named...>, aggs_t>::type;
  using item = row_item_t<out_schema>;
  constexpr std::size_t num_keys = sizeof...(Keys);

  size_type const n = f.num_rows();
  memory_kind const kind = f.kind();
  resource_ref const work = get_current_resource(kind);
  fn_t fn{f.inputs(), pred, keys, aggs, options.drop_null_keys};

  // Counters and flags the passes update, each in a cache line of its own: the group counters
  // (see group_table_fn::groups), sampled kept rows, overflow, then each pair set's counters.
  constexpr std::uint64_t most_shards = 64;
  constexpr std::size_t stride = fn_t::counter_stride;
  constexpr std::size_t counter_words = (most_shards * (1 + fn_t::pair_sets) + 2) * stride;
  uvector<size_type> counters(static_cast<size_type>(counter_words), stream, work);
  size_type* const kept_counter = counters.data() + most_shards * stride;
  auto const reset_counters = [&] { fill_bytes(counters.data(), kind, 0, counter_words * sizeof(size_type), stream); };
  // [groups, sampled kept rows, overflow]
  auto const read_counters = [&] {
    std::vector<size_type> host(counter_words);
    copy_bytes(host.data(), memory_kind::host, counters.data(), kind, counter_words * sizeof(size_type), stream);
    stream.synchronize();
    size_type groups = 0;
    for (std::uint64_t s = 0; s < most_shards; ++s) { groups += host[s * stride]; }
    return std::array<size_type, 3>{groups, host[most_shards * stride], host[(most_shards + 1) * stride]};
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

  // Table size: from the number of groups in a sample of the rows (all of them when few).
  constexpr size_type most_sampled = size_type{1} << 16;
  size_type capacity = 64;
  double estimated_groups = 0;
  double kept_rows = 0;
  if (n > 0) {
    size_type const step = std::max<size_type>(1, n / most_sampled);
    size_type const sampled = std::min(n, most_sampled);
    size_type const sample_capacity = next_power_of_two(4 * sampled);
    size_type const sample_slots = fn_t::table_slots(sample_capacity);
    buffer sample_table(static_cast<std::size_t>(sample_slots) * fn_t::sample_entry_bytes, stream, work);
    reset_counters();
    fn_t sample = fn;
    sample.entries = static_cast<unsigned char*>(sample_table.data());
    sample.entry_bytes = fn_t::sample_entry_bytes;
    set_capacity(sample, sample_capacity, sample_capacity);
    on_backend(kind, stream, [&](auto const& exec) {
      exec.for_each_n(sample_slots, init_table_fn<fn_t>{sample});
      exec.for_each_n(sampled, sample_groups_fn<fn_t>{sample, step, kept_counter});
    });
    auto const c = read_counters();
    kept_rows = static_cast<double>(n) * static_cast<double>(c[1]) / static_cast<double>(sampled);
    estimated_groups = c[1] == 0 ? 1.0 : estimate_groups(static_cast<double>(c[0]), static_cast<double>(c[1]), kept_rows);
    // Slots per estimated group: packed keys probe cheaply (a word compare), so their table may
    // be fuller, and smaller tables stay in L2 longer; others compare keys at rows.
    fn.eager_loads = 2 * c[1] >= sampled;  // at least half the sampled rows pass the filter
    constexpr double load_factor = fn_t::packed ? 2.0 : 2.5;
    capacity = std::min(next_power_of_two(std::max<size_type>(64, 2 * n)),
                        next_power_of_two(std::max<size_type>(64, static_cast<size_type>(estimated_groups * load_factor))));
  }

  // A pair set (nunique) holds at most one pair per kept row: twice as many slots as the sample
  // estimates kept rows, so that it stays at most half full unless the estimate is low.
  size_type pair_capacity =
      fn_t::pair_sets == 0 ? 0 : next_power_of_two(std::max<size_type>(64, 2 * static_cast<size_type>(std::ceil(kept_rows))));

  bool const private_caches = estimated_groups < 2.0 * group_cache_size;
  // A handful of groups needs a small block table, which leaves shared memory to the threads'
  // private cells where those live there (gpu/aggregate_rows.cuh).
  int const shared_slots = estimated_groups > few_groups_limit<cells>() ? 0
                           : private_caches                            ? std::min(64, shared_table_slots<cells>())
                                                                       : shared_table_slots<cells>();
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
  auto widths = no_uniform_widths<out_schema::size>();
  [&]<std::size_t... K>(std::index_sequence<K...>) {
    ((widths[K] = output_width_of(f, column_position<std::remove_cvref_t<decltype(get<K>(keys))>>())), ...);
  }(std::make_index_sequence<num_keys>{});
  [&]<std::size_t... A>(std::index_sequence<A...>) {
    ((types[num_keys + A] = output_type_of<Frame, typename out_schema::template field_at<num_keys + A>::type>(
          f, column_position<std::remove_cvref_t<decltype(get<A>(aggs).expr)>>())),
     ...);
  }(std::index_sequence_for<Named...>{});
  if (plan != nullptr) {
    char const* const key_form = fn_t::packed         ? "packed into one 64-bit word"
                                 : fn_t::short_packed ? "packed into one word per row when their strings are short "
                                                        "(at most 6 bytes), else compared at rows"
                                                      : "compared at rows";
    *plan = group_plan{n, estimated_groups, capacity, fn_t::table_entry_bytes, sizeof(cells), shared_slots, private_caches,
                       key_form, fn_t::partitionable, fn_t::pair_sets, pair_capacity};
    return write_frame<out_schema>(0, masked, types, stream, mr, [](auto const&) { return size_type{0}; });
  }

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
      std::size_t const pair_bytes = fn_t::pair_sets * static_cast<std::size_t>(pair_capacity) * sizeof(size_type);
      try {
        pair_table.emplace(pair_bytes, stream, work);
      } catch (out_of_memory const& e) {
        COLX_FAIL_AS(out_of_memory, "group_by: nunique's ", fn_t::pair_sets, " set(s) of (group, value) pairs of ", pair_capacity,
                     " slots each need ", pair_bytes, " bytes of ", to_string(kind), " memory, which could not be allocated (",
                     e.what(), "); the input is unchanged");
      }
      fn.pair.rows = static_cast<size_type*>(pair_table->data());
      set_pair_capacity(fn.pair, pair_capacity);
      fill_bytes(fn.pair.rows, kind, 0xFF, pair_bytes, stream);  // every slot empty_slot (-1)
    }
    reset_counters();
    on_backend(kind, stream, [&](auto const& exec) {
      exec.for_each_n(slots, init_table_fn<fn_t>{fn});
      // Few groups: each block first merges into its own shared-memory table.
      aggregate_rows(exec, n, fn, shared_slots, private_caches);
    });
    auto const c = read_counters();
    if (c[2] != 0) {  // too many groups (or pairs) for this table: again, four times larger
      capacity *= 4;
      pair_capacity *= 4;
      continue;
    }
    size_type const groups = c[0];
    auto result = write_frame<out_schema>(groups, masked, types, widths, stream, mr, [&](auto const& views) {
      using store_t = store_row_fn<std::remove_cvref_t<decltype(views)>>;
      return on_backend(kind, stream, [&](auto const& exec) {
        return exec.select_rows(slots, group_row_fn<fn_t>{fn}, load_group_fn<fn_t, item, num_keys>{fn}, store_t{views});
      });
    });
    if (!options.sorted) { return result; }
    return [&]<std::size_t... K>(std::index_sequence<K...>) {
      return run(result, sort_by(col<out_schema::template field_at<K>::name>{}...), stream, mr);
    }(std::make_index_sequence<num_keys>{});
  }
}

}  // namespace detail

template <class... Named>
template <class Source, class... Keys>
auto aggregate_stage<Named...>::apply(grouped<Source, Keys...> const& g, stream_ref stream, resource_ref mr) const {
  return detail::aggregate_impl(detail::unfiltered_source(g.source), detail::predicate_of_source(g.source), g.stage.keys,
                                g.stage.options, aggs, stream, mr);
}
// The plan of a group-by: the pass, the path a sample of its rows chose, and the least bytes.
template <class Source, class... Keys, class... Named>
[[nodiscard]] plan_cost plan(grouped<Source, Keys...> const& g, aggregate_stage<Named...> const& a,
                             std::ostringstream* text = nullptr) {
  auto const& f = detail::unfiltered_source(g.source);
  auto const pred = detail::predicate_of_source(g.source);
  detail::group_plan p;
  (void)detail::aggregate_impl(f, pred, g.stage.keys, g.stage.options, a.aggs, stream_ref{}, get_current_resource(f.kind()), &p);
  std::ostringstream out;
  out << "group_by + aggregate over " << p.rows << " rows, one pass\n  where " << pred.to_string() << "\n  keys:";
  std::apply([&](auto const&... k) { ((out << " " << detail::group_key<std::remove_cvref_t<decltype(k)>>::name.view()), ...); },
             g.stage.keys);
  out << " (" << p.key_form << ")\n";
  std::apply([&](auto const&... n) { ((out << "  " << n.name.view() << " = " << n.expr.to_string() << "\n"), ...); }, a.aggs);
  out << "  cells: " << p.cell_bytes << " bytes a group (a row count and sums of one column kept once)\n";
  out << "  about " << static_cast<size_type>(p.estimated_groups) << " groups (from a sample): ";
  if (p.shared_slots > 0) {
    out << "few-groups path: on the GPU, per-block shared-memory tables of " << p.shared_slots
        << " slots, merged once per block into a global table of " << p.slots << " slots";
  } else {
    out << "many-groups path: a global hash table of " << p.slots << " slots (" << p.slots * p.entry_bytes << " bytes)";
    if (p.partitionable) { out << "; on the GPU, rows go first into partitions by slot when the table is larger than L2"; }
  }
  out << (p.private_caches ? "; per-thread caches of 4 groups first\n" : "\n");
  if (p.pair_sets > 0) {
    out << "  nunique: " << (p.pair_sets == 1 ? std::string("a set") : std::to_string(p.pair_sets) + " sets (one per nunique)")
        << " of (group, value) pairs of " << p.pair_slots << " slots (" << static_cast<std::size_t>(p.pair_slots) * sizeof(size_type)
        << " bytes), where each row's pair is looked up as it is added\n";
  }
  auto const used = std::apply(
      [&](auto const&... k) {
        return std::apply(
            [&](auto const&... n) {
              return detail::used_columns<std::remove_cvref_t<decltype(f)>>(pred, detail::group_key<std::remove_cvref_t<decltype(k)>>::expr_of(k)...,
                                                                             n.expr.expr...);
            },
            a.aggs);
      },
      g.stage.keys);
  // sample, table, compaction (+ sort, + clearing the pair sets)
  plan_cost cost{1, 4 + (g.stage.options.sorted ? 3 : 0) + (p.pair_sets > 0 ? 1 : 0), 0, 0};
  cost.bytes_read = detail::read_bytes(f, used, out);
  if (text != nullptr) { *text << out.str(); }
  return cost;
}

}  // namespace colx
