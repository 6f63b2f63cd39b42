// SPDX-License-Identifier: Apache-2.0
#pragma once
// The functors fused pipelines hand to an executor: bound expressions over a frame's input
// views, name-free, trivially copyable, the same on host and device.
#include <colx/column/bitmask.hpp>
#include <colx/column/column_device_view.hpp>
#include <colx/core/tuple.hpp>
#include <colx/expr/aggregate.hpp>
#include <colx/expr/filter_stages.hpp>

#include <array>
#include <type_traits>
#include <utility>

namespace colx::detail {

// keep(i): the predicate is valid and true (filters drop null predicates, as SQL's WHERE).
template <class Inputs, class Pred>
struct keep_fn {
  Inputs in;
  Pred pred;
  COLX_HOST_DEVICE bool operator()(size_type const& i) const {
    auto const p = pred(in, i);
    return p.valid && static_cast<bool>(p.value);
  }
};

// ---- reduce -------------------------------------------------------------------------------------

template <class Agg, class Inputs>
struct aggregation_traits;
template <class Kind, class E, class Inputs>
struct aggregation_traits<expr::aggregation<Kind, E>, Inputs> {
  using value_type = typename expr::result_t<E, Inputs>::value_type;
  using state = typename Kind::template state<value_type>;
  using kind = Kind;
};

template <class Inputs, class... Aggs>
using reduce_state = tuple<typename aggregation_traits<Aggs, Inputs>::state...>;

template <class Inputs, class Pred, class... Aggs>
struct accumulate_fn {
  using state = reduce_state<Inputs, Aggs...>;
  Inputs in;
  Pred pred;
  tuple<Aggs...> aggs;

  COLX_HOST_DEVICE void operator()(state& s, size_type i) const {
    auto const p = pred(in, i);
    if (!(p.valid && static_cast<bool>(p.value))) { return; }
    add(s, i, std::index_sequence_for<Aggs...>{});
  }
  // The filter in stages (expr/filter_stages.hpp), for the GPU's reduction, which tests several rows
  // stage by stage and adds those that passed them all with add_kept. No filter, no stages.
  static constexpr int filter_stages = std::is_same_v<Pred, expr::row_marker> ? 0 : expr::stage_count_v<Pred>;
  static constexpr int rows_ahead = expr::fold_rows_ahead_v<Pred>;
  // Whether adding a kept row computes a value (an aggregation of more than a column as it is, or
  // count()).
  static constexpr bool adds_computed = ((!std::is_same_v<decltype(Aggs::expr), expr::row_marker> &&
                                          !expr::is_bound_column<decltype(Aggs::expr)>) ||
                                         ...);
  template <int K>
  COLX_HOST_DEVICE bool passes(size_type i) const {
    return expr::detail::stage_at<K>(expr::stages_of(pred))(in, i);
  }
  // Stage K as a load and a test of the loaded value, where its column allows
  // (expr::detail::takes_values_v).
  template <int K>
  using stage_type = std::remove_cvref_t<decltype(expr::detail::stage_at<K>(expr::stages_of(std::declval<Pred const&>())))>;
  template <int K>
  static constexpr bool stage_takes_values = expr::detail::takes_values_v<stage_type<K>::column, Inputs>;
  template <int K>
  COLX_HOST_DEVICE auto load(size_type i) const {
    return expr::detail::stage_at<K>(expr::stages_of(pred)).load(in, i);
  }
  template <int K, class T>
  COLX_HOST_DEVICE bool test(size_type i, T v) const {
    return expr::detail::stage_at<K>(expr::stages_of(pred)).test(in, i, v);
  }
  COLX_HOST_DEVICE void add_kept(state& s, size_type i) const { add(s, i, std::index_sequence_for<Aggs...>{}); }
  // Whether the first stage may test R consecutive rows by one search of their bytes (a constant
  // LIKE '%literal%': expr::detail::stage_one::passes_rows); where spans_searchable(), a launch's
  // rows can.
  static constexpr bool searches_spans = [] {
    if constexpr (filter_stages > 0) {
      return stage_type<0>::searches_spans;
    } else {
      return false;
    }
  }();
#if defined(__CUDACC__)
  COLX_HOST_DEVICE bool spans_searchable() const { return expr::detail::stage_at<0>(expr::stages_of(pred)).spans_searchable(in); }
  template <int R>
  __device__ std::uint32_t passes_rows(size_type first) const {
    return expr::detail::stage_at<0>(expr::stages_of(pred)).template passes_rows<R>(in, first);
  }
#endif

 private:
  template <std::size_t... K>
  COLX_HOST_DEVICE void add(state& s, size_type i, std::index_sequence<K...>) const {
    (add_one<K>(s, i), ...);
  }
  template <std::size_t K>
  COLX_HOST_DEVICE void add_one(state& s, size_type i) const {
    auto const& agg = get<K>(aggs);
    using traits = aggregation_traits<std::remove_cvref_t<decltype(agg)>, Inputs>;
    auto const v = agg.expr(in, i);
    if constexpr (requires { traits::kind::counts_nulls; }) {
      if (traits::kind::counts_nulls || v.valid) { traits::kind::template add<typename traits::value_type>(get<K>(s), v.value, i); }
    } else {
      if (v.valid) { traits::kind::template add<typename traits::value_type>(get<K>(s), v.value, i); }
    }
  }
};

template <class Inputs, class... Aggs>
struct merge_fn {
  using state = reduce_state<Inputs, Aggs...>;
  COLX_HOST_DEVICE state operator()(state const& a, state const& b) const {
    return merge(a, b, std::index_sequence_for<Aggs...>{});
  }

 private:
  template <std::size_t... K>
  COLX_HOST_DEVICE state merge(state const& a, state const& b, std::index_sequence<K...>) const {
    return state(aggregation_traits<Aggs, Inputs>::kind::template merge<typename aggregation_traits<Aggs, Inputs>::value_type>(
        get<K>(a), get<K>(b))...);
  }
};

// ---- evaluate -----------------------------------------------------------------------------------

// Positions of the outputs that can be null, in order.
template <bool... Nullable>
constexpr auto masked_positions() {
  constexpr std::size_t count = (std::size_t{0} + ... + (Nullable ? 1 : 0));
  std::array<std::size_t, count == 0 ? 1 : count> out{};
  std::size_t k = 0;
  std::size_t i = 0;
  ((Nullable ? (out[k++] = i++) : i++), ...);
  return out;
}

// Where with_columns writes a row's result: a fixed-width value in place; a string's bytes at its
// offset, which the sizes pass computed (int32 or int64 offsets, a flag rather than a template
// parameter so a pass is instantiated once).
struct strings_write_view {
  void const* offsets = nullptr;
  bool large = false;
  char* chars = nullptr;
  bitmask_type* mask = nullptr;
};
template <class T, class R>
COLX_HOST_DEVICE void store_result(mutable_column_device_view<T> const& out, size_type i, R const& r) {
  out.data[i] = r.value;
}
COLX_HOST_DEVICE inline std::int64_t offset_at(strings_write_view const& out, size_type i) {
  return out.large ? static_cast<std::int64_t const*>(out.offsets)[i]
                   : static_cast<std::int64_t>(static_cast<std::int32_t const*>(out.offsets)[i]);
}
template <class R>
COLX_HOST_DEVICE void store_result(strings_write_view const& out, size_type i, R const& r) {
  if (r.valid) { r.value.write_to(out.chars + offset_at(out, i)); }
}

// Evaluates every output of a row into registers first, then stores them: loads shared by several
// outputs (common subexpressions) are then evaluated once by the compiler, since nothing is
// stored in between.
template <class Inputs, class Outputs, class... Exprs>
struct evaluate_fn {
  using row_type = tuple<expr::result_t<Exprs, Inputs>...>;
  static constexpr auto positions = masked_positions<expr::result_t<Exprs, Inputs>::nullable...>();
  static constexpr std::size_t masked = (std::size_t{0} + ... + (expr::result_t<Exprs, Inputs>::nullable ? 1 : 0));
  // A constant, so device code never calls std::array's (host) operator[].
  template <std::size_t K>
  static constexpr std::size_t position = positions[K];

  Inputs in;
  tuple<Exprs...> exprs;
  Outputs out;  // tuple of mutable_column_device_view

  COLX_HOST_DEVICE row_type row(size_type i) const { return eval(i, std::index_sequence_for<Exprs...>{}); }
  COLX_HOST_DEVICE void store(size_type i, row_type const& r) const { store(i, r, std::index_sequence_for<Exprs...>{}); }
  // For a kernel that writes the strings itself (gpu::evaluate_rows stages a tile's strings in
  // shared memory, then writes them coalesced): the other outputs only.
  template <std::size_t K>
  static constexpr bool is_string_output = std::is_same_v<std::remove_cvref_t<decltype(get<K>(std::declval<Outputs const&>()))>, strings_write_view>;
  static constexpr bool writes_strings = []<std::size_t... K>(std::index_sequence<K...>) {
    return (is_string_output<K> || ...);
  }(std::index_sequence_for<Exprs...>{});
  COLX_HOST_DEVICE void store_fixed_width(size_type i, row_type const& r) const {
    [&]<std::size_t... K>(std::index_sequence<K...>) {
      ((is_string_output<K> ? void() : store_result(get<K>(out), i, get<K>(r))), ...);
    }(std::index_sequence_for<Exprs...>{});
  }
  template <std::size_t K>
  static COLX_HOST_DEVICE bool valid(row_type const& r) {
    return static_cast<bool>(get<position<K>>(r).valid);
  }
  template <std::size_t K>
  COLX_HOST_DEVICE void store_mask(size_type word, bitmask_type bits) const {
    get<position<K>>(out).mask[word] = bits;
  }

 private:
  template <std::size_t... K>
  COLX_HOST_DEVICE row_type eval(size_type i, std::index_sequence<K...>) const {
    return row_type(get<K>(exprs)(in, i)...);
  }
  template <std::size_t... K>
  COLX_HOST_DEVICE void store(size_type i, row_type const& r, std::index_sequence<K...>) const {
    (store_result(get<K>(out), i, get<K>(r)), ...);
  }
};

// ---- compaction ---------------------------------------------------------------------------------

// One row of a frame as the compaction moves it: every column's value and validity. Loading kept
// rows into registers before storing any lets the loads of several rows be in flight together
// (a store could alias a later load, so the compiler cannot reorder them itself).
// Validity of a row's N columns, one bit each in as many 64-bit words as N needs: one word up to
// 64 columns, so the common frame pays nothing for wide ones. (A single word with bit c for column
// c overflowed its shift at column 64 and corrupted wider frames' null masks.)
template <std::size_t N>
struct validity_bits {
  static constexpr std::size_t words = N == 0 ? 1 : (N + 63) / 64;
  std::uint64_t word[words] = {};
  COLX_HOST_DEVICE void set(std::size_t c, bool valid) { word[c / 64] |= static_cast<std::uint64_t>(valid) << (c % 64); }
  [[nodiscard]] COLX_HOST_DEVICE bool test(std::size_t c) const { return ((word[c / 64] >> (c % 64)) & 1u) != 0; }
};

template <class... Ts>
struct row_item {
  tuple<Ts...> values;
  validity_bits<sizeof...(Ts)> valid{};  // bit c: column c is valid
};

template <class Inputs, class Item>
struct load_row_fn {
  Inputs in;
  COLX_HOST_DEVICE Item operator()(size_type i) const { return load(i, std::make_index_sequence<Inputs::size>{}); }

 private:
  template <std::size_t... C>
  COLX_HOST_DEVICE Item load(size_type i, std::index_sequence<C...>) const {
    Item item{decltype(Item::values)(stored_value(get<C>(in), i)...)};
    (item.valid.set(C, get<C>(in).is_valid(i)), ...);
    return item;
  }
};

// Where the compaction leaves a kept string: its length and where its bytes are. The chars are
// copied once the output offsets are known (a scan of the lengths).
struct strings_staging_view {
  std::int64_t* lengths = nullptr;
  char const** sources = nullptr;
  bitmask_type* mask = nullptr;
};

COLX_HOST_DEVICE inline void store_value(strings_staging_view const& out, size_type k, string_view s) {
  out.lengths[k] = s.size_bytes();
  out.sources[k] = s.data();
}
template <class T>
COLX_HOST_DEVICE void store_value(mutable_column_device_view<T> const& out, size_type k, T const& v) {
  out.data[k] = v;
}

// The kept strings as an expression over the staging: row k is sources[k], lengths[k] bytes.
struct staged_strings {
  char const* const* sources;
  std::int64_t const* lengths;
};
struct staged_string {
  COLX_HOST_DEVICE expr::maybe<string_view, false> operator()(staged_strings const& in, size_type k) const {
    return {string_view(in.sources[k], static_cast<size_type>(in.lengths[k]))};
  }
};

struct string_length_fn {
  std::int64_t const* lengths;
  COLX_HOST_DEVICE std::int64_t operator()(size_type k) const { return lengths[k]; }
};
// Output row k's bytes at k * width (fixed-width strings: every valid row has `width` bytes; a
// null or missing row's are zeros).
struct copy_fixed_chars_fn {
  char const* const* sources;
  std::int64_t const* lengths;
  char* chars;
  size_type width;
  COLX_HOST_DEVICE void operator()(size_type k) const {
    for (size_type b = 0; b < width; ++b) { chars[k * width + b] = b < lengths[k] ? sources[k][b] : '\0'; }
  }
};
struct narrow_offsets_fn {
  std::int64_t const* in;
  std::int32_t* out;
  COLX_HOST_DEVICE void operator()(size_type k) const { out[k] = static_cast<std::int32_t>(in[k]); }
};

// store(k, item): output row k gets the item; validity bits are set atomically, because
// neighbouring output rows may be written by different threads.
template <class Outputs>
struct store_row_fn {
  Outputs out;
  template <class Item>
  COLX_HOST_DEVICE void operator()(size_type k, Item const& item) const {
    store(k, item, std::make_index_sequence<Outputs::size>{});
  }

 private:
  template <class Item, std::size_t... C>
  COLX_HOST_DEVICE void store(size_type k, Item const& item, std::index_sequence<C...>) const {
    ((store_value(get<C>(out), k, get<C>(item.values)),
      (get<C>(out).mask != nullptr && item.valid.test(C)) ? set_bit_atomic(get<C>(out).mask, k) : void()),
     ...);
  }
};

}  // namespace colx::detail
