// SPDX-License-Identifier: Apache-2.0
#pragma once
// Sorting frames by one or more key expressions: ascending or descending, nulls first or last,
// always stable. Keys that together encode into 128 bits are packed into one unsigned radix key
// (one CUB radix sort, as few passes as the bits need); other keys (strings, decimal128, wider
// combinations) use a stable merge sort with a row comparator. The permutation then gathers
// every column in one kernel. One integer column without nulls, ascending, is sorted as it is,
// and its sorted values are the result's column: only the other columns are gathered.
#include <colx/exec/row_keys.hpp>
#include <colx/exec/sort.hpp>
#include <colx/exec/varying_bits.hpp>
#include <colx/frame/gather.hpp>
#include <colx/frame/sort_keys.hpp>
#include <colx/frame/sort_dictionary.hpp>
#include <colx/frame/stage.hpp>
#include <colx/frame/top_rows.hpp>

#include <limits>

namespace colx {
namespace detail {

inline constexpr size_type radix_narrowing_rows = size_type{1} << 16;

// The stable sorted order of f's rows under the (bound) keys, as int32 row numbers.
template <class Frame, class... Keys>
uvector<std::int32_t> sorted_rows(Frame const& f, tuple<Keys...> const& keys, stream_ref stream) {
  spill_lock_scope const spill_lock(stream);  // the columns read here stay put until the work is done
  if constexpr ((dictionary_key<std::remove_cvref_t<decltype(std::declval<Keys const&>().expr)>>::value || ...)) {
    std::vector<buffer> ranks;  // freed in stream order after the sort below
    auto const ranked = [&]<std::size_t... K>(std::index_sequence<K...>) {
      return tuple(rank_dictionary_key(get<K>(keys), f, stream, ranks)...);
    }(std::index_sequence_for<Keys...>{});
    return sorted_rows(f, ranked, stream);
  } else {
    using inputs = typename Frame::inputs_type;
    size_type const n = f.num_rows();
    COLX_EXPECTS(n <= std::numeric_limits<std::int32_t>::max(), "sort: ", n, " rows; at most 2^31 - 1 rows can be sorted");
    resource_ref const mr = get_current_resource(f.kind());
    uvector<std::int32_t> order(n, stream, mr);
    constexpr int bits = total_packed_bits<inputs, Keys...>;
    on_backend(f.kind(), stream, [&](auto const& exec) {
      if constexpr (bits <= 128) {
        using word = packed_word_t<bits>;
        uvector<word> packed(n, stream, mr);
        uvector<word> sorted(n, stream, mr);
        uvector<std::int32_t> rows(n, stream, mr);
        exec.for_each_n(n, pack_keys_fn<inputs, word, Keys...>{f.inputs(), keys, packed.data(), rows.data()});
        // Only the bits in which the keys differ are sorted by (exec/varying_bits.hpp); for a few
        // rows the pass that finds them costs more than the radix passes it saves.
        bit_range range{0, bits};
        if (n >= radix_narrowing_rows) { range = varying_bits(exec, n, packed.data()); }
        if (range.begin == range.end) {
          order = std::move(rows);  // every key alike: the stable order is the input's
          return;
        }
        sort_pairs(exec, n, packed.data(), sorted.data(), rows.data(), order.data(), range.begin, range.end);
      } else {
        exec.for_each_n(n, iota_fn{order.data()});
        sort_by_comparator(exec, order.data(), n, row_less_fn<inputs, Keys...>{f.inputs(), keys});
      }
    });
    return order;
  }
}

template <class Schema, class... Keys>
auto bind_sort_keys(Keys const&... keys) {
  return tuple(as_sort_key(keys).map(expr::bind_fn<Schema>{})...);
}

}  // namespace detail

// The row numbers of f in sorted order (a stable sort): argsort(f, "a"_c, desc("b"_c)).
template <class Schema, class... Keys>
[[nodiscard]] column<std::int32_t> argsort(frame<Schema> const& f, Keys const&... keys) {
  static_assert(sizeof...(Keys) > 0, "colx::argsort needs at least one key");
  return column<std::int32_t>(detail::sorted_rows(f, detail::bind_sort_keys<Schema>(keys...), stream_ref{}));
}

template <class... Keys>
struct sort_by_stage {
  using stage_tag = void;
  tuple<Keys...> keys;

  template <class Schema>
  frame<Schema> apply(frame<Schema> const& f, stream_ref stream, resource_ref mr) const;
};
// f | sort_by("a"_c, desc("b"_c).nulls_first(), ...): every column reordered, stably.
template <class... Keys>
[[nodiscard]] constexpr auto sort_by(Keys const&... keys) {
  static_assert(sizeof...(Keys) > 0, "colx::sort_by needs at least one key");
  return sort_by_stage<decltype(detail::as_sort_key(keys))...>{tuple(detail::as_sort_key(keys)...)};
}

namespace detail {

// One non-null integer column sorted by itself: the radix sort alone, no permutation.
template <class Schema, class Key, class... More>
constexpr bool sorts_keys_only() {
  if constexpr (sizeof...(More) == 0 && Schema::size == 1 && expr::column_ref<decltype(std::declval<Key>().expr)>) {
    using T = typename Schema::template field_at<0>::type;
    return Schema::template index_of<decltype(std::declval<Key>().expr)> == 0 && std::is_integral_v<T> &&
           !std::is_same_v<T, bool> && (sizeof(T) == 4 || sizeof(T) == 8);
  } else {
    return false;
  }
}

// The index of the one integer column (4 or 8 bytes) a frame of several columns is sorted by,
// else -1: the frame then sorts by that column's own values (sort_by_integer_column).
template <class Schema, class Key, class... More>
constexpr int integer_key_column() {
  if constexpr (sizeof...(More) == 0 && Schema::size > 1 && expr::column_ref<decltype(std::declval<Key>().expr)>) {
    constexpr std::size_t k = Schema::template index_of<decltype(std::declval<Key>().expr)>;
    if constexpr (k < Schema::size) {  // (a misspelt name fails later, with field_of's message)
      using T = typename Schema::template field_at<k>::type;
      return std::is_integral_v<T> && !std::is_same_v<T, bool> && (sizeof(T) == 4 || sizeof(T) == 8) ? static_cast<int>(k) : -1;
    } else {
      return -1;
    }
  } else {
    return -1;
  }
}

// Schema without its K-th field.
template <class Schema, std::size_t K, class Seq = std::make_index_sequence<Schema::size - 1>>
struct without_field;
template <class Schema, std::size_t K, std::size_t... I>
struct without_field<Schema, K, std::index_sequence<I...>> {
  using type = schema<typename Schema::template field_at<(I < K ? I : I + 1)>...>;
};

// f sorted ascending by its integer column K, which has no nulls: CUB sorts the column's own
// values with the row numbers beside them, the sorted values are the result's column K, and only
// the other columns are gathered. The packed path (sorted_rows) copies the key into a packed word
// first and gathers column K back: 100M rows with three payloads took 18.9 ms there against 15.6
// ms for CUB's SortPairs and three gathers (H200). Keys alike in every row keep the input order.
template <std::size_t K, class Schema>
frame<Schema> sort_by_integer_column(frame<Schema> const& f, stream_ref stream, resource_ref mr) {
  using T = typename Schema::template field_at<K>::type;
  spill_lock_scope const spill_lock(stream);  // the columns read here stay put until the work is done
  COLX_EXPECTS(is_host_accessible(mr.kind()) == is_host_accessible(f.kind()), "sorting rows into ", to_string(mr.kind()),
               " memory from a frame in ", to_string(f.kind()), " memory: copy the frame there first");
  auto const& key = f.template column_at<K>();
  size_type const n = f.num_rows();
  COLX_EXPECTS(n <= std::numeric_limits<std::int32_t>::max(), "sort: ", n, " rows; at most 2^31 - 1 rows can be sorted");
  resource_ref const scratch = get_current_resource(f.kind());
  uvector<T> sorted(n, stream, mr);
  uvector<std::int32_t> order(n, stream, scratch);
  bool alike = false;
  on_backend(f.kind(), stream, [&](auto const& exec) {
    // (Signed keys differ in the same bits as the unsigned words CUB turns them into: it flips
    // the sign bit of every key.)
    bit_range range{0, static_cast<int>(sizeof(T) * 8)};
    if (n >= radix_narrowing_rows) { range = varying_bits(exec, n, reinterpret_cast<std::make_unsigned_t<T> const*>(key.data())); }
    if (n <= 1 || range.begin == range.end) {
      alike = true;
      return;
    }
    uvector<std::int32_t> rows(n, stream, scratch);
    exec.for_each_n(n, iota_fn{rows.data()});
    sort_pairs(exec, n, key.data(), sorted.data(), rows.data(), order.data(), range.begin, range.end);
  });
  if (alike) { return f.slice(0, n, stream, mr).with_index(range_index{}); }  // the stable order is the input's (a copy, in mr)
  using rest_schema = typename without_field<Schema, K>::type;
  auto const rest = [&]<std::size_t... I>(std::index_sequence<I...>) {
    return frame<rest_schema>(f.template shared_column_at<(I < K ? I : I + 1)>()...);
  }(std::make_index_sequence<Schema::size - 1>{});
  auto const gathered = gather_frame(rest, index_column_fn<std::int32_t>{order.data()}, n, false, stream, mr, true);
  auto const sorted_key = std::make_shared<column<T> const>(std::move(sorted));
  return [&]<std::size_t... I>(std::index_sequence<I...>) {
    auto const column_of = [&]<std::size_t J>(std::integral_constant<std::size_t, J>) {
      if constexpr (J == K) {
        return sorted_key;
      } else {
        return gathered.template shared_column_at<(J < K ? J : J - 1)>();
      }
    };
    return frame<Schema>(column_of(std::integral_constant<std::size_t, I>{})...);
  }(std::make_index_sequence<Schema::size>{});
}

template <class Schema, class... Keys>
frame<Schema> sort_frame(frame<Schema> const& f, tuple<Keys...> const& keys, stream_ref stream, resource_ref mr) {
  if constexpr (constexpr int k = integer_key_column<Schema, Keys...>(); k >= 0) {
    if (!get<0>(keys).descending && f.template column_at<k>().null_count() == 0) {
      return sort_by_integer_column<static_cast<std::size_t>(k)>(f, stream, mr);
    }
  }
  if constexpr (sorts_keys_only<Schema, Keys...>()) {
    auto const& c = f.template column_at<0>();
    if (c.null_count() == 0) {
      using T = typename Schema::template field_at<0>::type;
      uvector<T> out(c.size(), stream, mr);
      on_backend(f.kind(), stream, [&](auto const& exec) { sort_keys(exec, c.size(), c.data(), out.data(), get<0>(keys).descending); });
      return frame<Schema>(column<T>(std::move(out)));
    }
  }
  auto const bound = [&]<std::size_t... K>(std::index_sequence<K...>) {
    return bind_sort_keys<Schema>(get<K>(keys)...);
  }(std::index_sequence_for<Keys...>{});
  auto const order = sorted_rows(f, bound, stream);
  return gather_frame(f, index_column_fn<std::int32_t>{order.data()}, f.num_rows(), false, stream, mr, true);
}

}  // namespace detail

template <class... Keys>
template <class Schema>
frame<Schema> sort_by_stage<Keys...>::apply(frame<Schema> const& f, stream_ref stream, resource_ref mr) const {
  return detail::sort_frame(f, keys, stream, mr);
}

// The first k rows in the keys' order: the rows' order (of the candidates only, where
// detail::top_rows finds them), then a gather of its first k only. (A sort gathered every row and
// head copied the first k again: 24 of TPC-H Q2's 60 waits on the GPU were that copy's reads of
// string offsets.)
template <class Schema, class... Keys>
[[nodiscard]] frame<Schema> top_k(frame<Schema> const& f, size_type k, Keys const&... keys) {
  COLX_EXPECTS(k >= 0, "top_k: k must not be negative, got ", k);
  if (k >= f.num_rows()) { return f | sort_by(keys...); }
  stream_ref const stream{};
  spill_lock_scope const spill_lock(stream);  // the columns read here stay put until the work is done
  auto const bound = detail::bind_sort_keys<Schema>(keys...);
  auto candidates = detail::top_rows(f, k, bound, stream);
  auto const order = candidates ? std::move(*candidates) : detail::sorted_rows(f, bound, stream);
  return detail::gather_frame(f, detail::index_column_fn<std::int32_t>{order.data()}, k, false, stream,
                              get_current_resource(f.kind()));
}

}  // namespace colx
