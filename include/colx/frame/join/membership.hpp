// SPDX-License-Identifier: Apache-2.0
#pragma once
// A semi or anti join's build side kept as bits, one per value of its one integer key, where the
// values are dense (join/table.hpp keeps it so in place of the hash table).
#include <colx/core/config.hpp>
#include <colx/exec/atomics.hpp>

#include <cstdint>
#include <tuple>
#include <type_traits>
#include <utility>

namespace colx::detail {

// Semi and anti joins on one dense integer key.
// A semi or anti join asks only whether a probe key occurs on the build side. Where the build
// side's key is one integer column whose values span at most 64 times as many values as it has
// rows (order keys, customer keys: TPC-H's keys are dense), a bit per value of the span answers
// that: at most 8 bytes a build row where the hash table takes 32, so a span of millions of
// keys stays in L2 (TPC-H SF 10's 60M order keys: 7.5 MB), and a probe is one cached read where
// a table larger than L2 costs a random read from memory (Q21's three semi joins on order keys
// took 3 ms so on the H200).
inline constexpr std::uint64_t membership_span_per_row = 64;

template <class T>
inline constexpr bool plain_integer_value_v = std::is_integral_v<T> && !std::is_same_v<T, bool>;
// A build key's values a membership holds: as int64s, every one.
template <class T>
inline constexpr bool membership_value_v = plain_integer_value_v<T> && (std::is_signed_v<T> || sizeof(T) < sizeof(std::int64_t));

// A side's (key_columns') first key's value type.
template <class Keys>
using first_key_value_t = std::remove_cvref_t<decltype(std::tuple_element_t<0, typename Keys::key_list>{}(
                                                           std::declval<typename Keys::inputs_type const&>(), size_type{})
                                                           .value)>;
template <class Keys>
inline constexpr bool one_key_v = std::tuple_size_v<typename Keys::key_list> == 1;
// Whether a build side's keys are one key of integers that a membership can hold. (Variables, not
// constexpr functions: device code may not call a host function, constexpr or not.)
template <class Keys>
inline constexpr bool membership_keys_v = one_key_v<Keys> && membership_value_v<first_key_value_t<Keys>>;
// Whether a probe side's keys can be looked up in a membership: one key of any integers (a
// uint64 probe key joins a narrower unsigned build key; its values past 2^63 are no build value).
template <class Keys>
inline constexpr bool membership_probe_keys_v = one_key_v<Keys> && plain_integer_value_v<first_key_value_t<Keys>>;

// The build keys' values as bits: value v is bit v - low, for v in [low, low + span).
struct membership {
  std::uint32_t const* bits = nullptr;  // none: the build side is hashed
  std::int64_t low = 0;
  std::uint64_t span = 0;
  COLX_HOST_DEVICE bool contains(std::int64_t v) const {
    if (v < low) { return false; }
    std::uint64_t const at = static_cast<std::uint64_t>(v) - static_cast<std::uint64_t>(low);  // no wrap: v >= low
    return at < span && ((bits[at / 32] >> (at % 32)) & 1u) != 0;
  }
};

// The least and greatest valid key of the build rows, by a reduction (each row's key as both,
// a null key as none). Not by atomic min and max on one word: every thread then updated the
// same two words, and TPC-H Q21's three semi joins spent 22 ms there (H200).
struct key_bounds {
  std::int64_t low = INT64_MAX;  // (not numeric_limits: device code builds these, and its max() is host-only)
  std::int64_t high = INT64_MIN;
};
template <class Keys>
struct key_bounds_fn {
  Keys keys;
  COLX_HOST_DEVICE key_bounds operator()(size_type r) const {
    auto const k = std::tuple_element_t<0, typename Keys::key_list>{}(keys.in, r);
    if (!k.valid) { return {}; }
    auto const v = static_cast<std::int64_t>(k.value);
    return {v, v};
  }
};
struct merge_key_bounds_fn {
  COLX_HOST_DEVICE key_bounds operator()(key_bounds a, key_bounds b) const {
    return {a.low < b.low ? a.low : b.low, a.high > b.high ? a.high : b.high};
  }
};
template <class Keys>
struct mark_members_fn {
  Keys keys;
  std::uint32_t* bits;
  std::int64_t low;
  COLX_HOST_DEVICE void operator()(size_type r) const {
    auto const k = std::tuple_element_t<0, typename Keys::key_list>{}(keys.in, r);
    if (!k.valid) { return; }  // a null key never matches (nulls_equal is hashed)
    std::uint64_t const at = static_cast<std::uint64_t>(static_cast<std::int64_t>(k.value)) - static_cast<std::uint64_t>(low);
    atomic_or(bits + at / 32, std::uint32_t{1} << (at % 32));
  }
};

}  // namespace colx::detail
