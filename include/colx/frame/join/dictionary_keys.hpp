// SPDX-License-Identifier: Apache-2.0
#pragma once
// A dictionary key joins on its codes, not on its values. A build side's dictionary key is hashed,
// compared and packed into the table as its code (an int32). A probe side's key against it is read
// as the build side's code of the same value:
// - a dictionary key, through a map from its dictionary's entries to the build side's codes, made
//   by one small join of the two dictionaries' values (no map when both share one dictionary);
// - a key of plain values, through each row's build code, looked up once before the probe.
// A value the build side lacks reads as -1, which no build code equals. The probe then never reads
// a string: a key compare is an integer compare, and a key of one word sits in the table's slot.
#include <colx/column/dictionary_column.hpp>
#include <colx/core/tuple.hpp>
#include <colx/expr/expression.hpp>
#include <colx/memory/uvector.hpp>

#include <array>
#include <cstdint>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

namespace colx::detail {

// A key column as a join reads it when the build side keys on codes: row i's code, as an int32;
// with `to_build`, the build side's code for that entry (-1: the build side lacks the value). A null
// row reads -1, and its code (which may be anything) is not looked up.
template <class Code>
struct join_codes_view {
  Code const* codes = nullptr;
  bitmask_type const* mask = nullptr;
  size_type mask_offset = 0;
  size_type size = 0;
  std::int32_t const* to_build = nullptr;

  [[nodiscard]] COLX_HOST_DEVICE bool is_valid(size_type i) const noexcept {
    return mask == nullptr || bit_is_set(mask, mask_offset + i);
  }
  [[nodiscard]] COLX_HOST_DEVICE std::int32_t value(size_type i) const noexcept {
    if (!is_valid(i)) { return -1; }
    auto const c = static_cast<std::int32_t>(codes[i]);
    return to_build == nullptr ? c : to_build[c];
  }
};

// colx::tuple<Ts...>'s types as a std::tuple, for std::tuple_element.
template <class T>
struct tuple_types;
template <class... Ts>
struct tuple_types<tuple<Ts...>> {
  using type = std::tuple<Ts...>;
};
template <class T>
using tuple_types_t = typename tuple_types<T>::type;

// What a key column reads as codes: a dictionary's own codes, or each row's looked-up code.
template <class View>
struct codes_view_of {
  using type = join_codes_view<std::int32_t>;
};
template <class Code, class Values>
struct codes_view_of<dictionary_input_view<Code, Values>> {
  using type = join_codes_view<Code>;
};

// Whether a key leaf (expr::bound_col) reads a dictionary column.
template <class Key>
inline constexpr bool dictionary_key_v = dictionary_type<typename Key::element_type>;

// A key leaf that reads codes: the same position, an int32 value.
template <class Key, bool Coded>
struct key_leaf {
  using type = Key;
};
template <std::size_t I, class T, bool Nullable>
struct key_leaf<expr::bound_col<I, T, Nullable>, true> {
  using type = expr::bound_col<I, std::int32_t, Nullable>;
};

// Which input positions a side's keys read as codes: key k's position where coded[k].
template <std::size_t Inputs, class Keys, std::size_t... K>
constexpr std::array<bool, Inputs> coded_positions(std::array<bool, sizeof...(K)> const& coded, std::index_sequence<K...>) {
  std::array<bool, Inputs> out{};
  ((out[std::tuple_element_t<K, Keys>::position] = out[std::tuple_element_t<K, Keys>::position] || coded[K]), ...);
  return out;
}

// A side's keys as a join reads them: the inputs with every coded key's column replaced by a codes
// view, the key leaves with every coded leaf reading int32. Coded: one flag a key. (The flags are a
// pack, not a std::array parameter, which nvcc does not deduce in a partial specialisation.)
template <class Inputs, class Keys, class Coded>
struct side_keys;
template <class... Views, class... Keys, bool... Coded>
struct side_keys<tuple<Views...>, tuple<Keys...>, std::integer_sequence<bool, Coded...>> {
  static constexpr std::array<bool, sizeof...(Keys)> coded{Coded...};
  static constexpr auto positions = coded_positions<sizeof...(Views), std::tuple<Keys...>>(coded, std::index_sequence_for<Keys...>{});
  // A column read as codes holds one key's codes: it may not be a second key.
  static constexpr bool one_key_a_coded_column = [] {
    std::array<std::size_t, sizeof...(Keys)> const at{Keys::position...};
    for (std::size_t k = 0; k < at.size(); ++k) {
      for (std::size_t j = 0; j < at.size(); ++j) {
        if (j != k && at[j] == at[k] && positions[at[k]]) { return false; }
      }
    }
    return true;
  }();
  static_assert(one_key_a_coded_column,
                "colx::join: one column is two keys of this join, and one of them is matched to a dictionary key, which "
                "reads the column as codes; copy the column under a second name for the second key");
  template <std::size_t J, class View>
  using view_at = std::conditional_t<positions[J], typename codes_view_of<View>::type, View>;
  template <class Seq>
  struct inputs_of;
  template <std::size_t... J>
  struct inputs_of<std::index_sequence<J...>> {
    using type = tuple<view_at<J, Views>...>;
  };
  using inputs = typename inputs_of<std::index_sequence_for<Views...>>::type;
  template <class Seq>
  struct leaves_of;
  template <std::size_t... K>
  struct leaves_of<std::index_sequence<K...>> {
    using type = tuple<typename key_leaf<Keys, coded[K]>::type...>;
  };
  using leaves = typename leaves_of<std::index_sequence_for<Keys...>>::type;

  // The inputs from a frame's: `codes[j]` is where coded column j's int32 codes are (a map of its
  // dictionary's entries for a dictionary column, each row's code for plain values), null for a
  // dictionary column read as its own codes.
  static inputs make(tuple<Views...> const& in, std::array<std::int32_t const*, sizeof...(Views)> const& codes) {
    return make(in, codes, std::index_sequence_for<Views...>{});
  }
  template <std::size_t... J>
  static inputs make(tuple<Views...> const& in, std::array<std::int32_t const*, sizeof...(Views)> const& codes,
                     std::index_sequence<J...>) {
    return inputs(convert<J>(get<J>(in), codes[J])...);
  }
  template <std::size_t J, class View>
  static view_at<J, View> convert(View const& v, std::int32_t const* codes) {
    if constexpr (!positions[J]) {
      return v;
    } else if constexpr (requires { v.code(0); }) {  // a dictionary column: its codes, mapped where `codes` is given
      return {v.codes, v.mask, v.mask_offset, v.size, codes};
    } else {  // plain values: each row's code, looked up before
      return {codes, v.mask, v.mask_offset, v.size, nullptr};
    }
  }
};

// The build side keys on codes where its key column is a dictionary.
template <class Inputs, class Keys>
struct build_side;
template <class Inputs, class... Keys>
struct build_side<Inputs, tuple<Keys...>> {
  using type = side_keys<Inputs, tuple<Keys...>, std::integer_sequence<bool, dictionary_key_v<Keys>...>>;
};
template <class Inputs, class Keys>
using build_side_keys = typename build_side<Inputs, Keys>::type;

// The probe side reads codes where the build side keys on them.
template <class Inputs, class ProbeKeys, class BuildKeys>
struct probe_side;
template <class Inputs, class... L, class... B>
struct probe_side<Inputs, tuple<L...>, tuple<B...>> {
  static_assert(sizeof...(L) == sizeof...(B));
  using type = side_keys<Inputs, tuple<L...>, std::integer_sequence<bool, dictionary_key_v<B>...>>;
};
template <class Inputs, class ProbeKeys, class BuildKeys>
using probe_side_keys = typename probe_side<Inputs, ProbeKeys, BuildKeys>::type;

// Whether two dictionaries are one: the same buffers sliced alike, children too, of one type. (Not
// only the same chars: two slices of one imported Arrow string array share those, each with
// offsets of its own.)
inline bool same_dictionary(any_column const& a, any_column const& b) {
  auto const same = [](shared_buffer const& x, shared_buffer const& y) {
    return x.size() == y.size() && (x.empty() || (x.shares_memory_with(y) && x.read() == y.read()));
  };
  if (!(a.type() == b.type()) || a.size() != b.size() || !same(a.data(), b.data()) || a.children().size() != b.children().size()) {
    return false;
  }
  for (std::size_t i = 0; i < a.children().size(); ++i) {
    if (!same_dictionary(a.children()[i], b.children()[i])) { return false; }
  }
  return true;
}

// Arrays a probe's key inputs point into (maps of dictionaries, rows' codes): they live as long as
// the probe, which its caller holds beside it.
struct probe_key_codes {
  std::vector<uvector<std::int32_t>> arrays;
};

}  // namespace colx::detail
