// SPDX-License-Identifier: Apache-2.0
#pragma once
// A group-by's result: its schema (the keys, then the aggregations, each under its name; a key
// read from a column keeps that column's type details), and one output row per occupied slot of
// the table, written by one compaction pass.
#include <colx/frame/gather.hpp>
#include <colx/frame/group_by/table.hpp>
#include <colx/types/schema.hpp>

#include <cstddef>
#include <cstdint>
#include <tuple>
#include <type_traits>
#include <utility>

namespace colx::detail {

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

// The result's schema: the keys, then the aggregations, each under its name.
template <class Bound, class Value>
struct key_element {
  using type = Value;
};
template <std::size_t I, class T, bool Nullable, class Value>
struct key_element<expr::bound_codes<I, T, Nullable>, Value> {
  using type = T;  // codes written as a dictionary column
};
template <class Key, class Bound, class Inputs>
struct key_field {
  using result = expr::result_t<Bound, Inputs>;
  using type = field<group_key<Key>::name, typename key_element<Bound, typename result::value_type>::type,
                     result::nullable ? nullable : not_null>;
};
template <class Named, class Bound, class Inputs>
struct aggregation_field {
  using traits = bound_aggregation_traits<Bound, Inputs>;
  static_assert(traits::cell::supported,
                "colx::aggregate: this aggregation does not apply to the type of its expression (sum, mean, var and "
                "std need numbers; min and max need strings or fixed-width values of at most 8 bytes); the context names the "
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
// A key that is a column gives result keys of its layout (a fixed-width strings column's width,
// a dictionary column's dictionary).
template <class Frame>
any_column const* output_like_of(Frame const& f, std::size_t position_if_column) {
  any_column const* like = nullptr;
  visit_column_at(f, position_if_column, [&](auto const& c) { like = &c.untyped(); });
  return like;
}
template <class E>
constexpr std::size_t column_position() {
  if constexpr (expr::is_bound_column<E>) {  // not a node that merely reads a column (s == "lit")
    return E::position;
  } else {
    return not_found;
  }
}

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
    if (m.valid) { item.valid.set(position, true); }
  }
  template <class To, class From>
  static COLX_HOST_DEVICE void assign(To& to, From const& from) {
    if constexpr (std::is_convertible_v<From, To>) { to = static_cast<To>(from); }
  }
};

}  // namespace colx::detail
