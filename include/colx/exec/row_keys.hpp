// SPDX-License-Identifier: Apache-2.0
#pragma once
// What sort, group-by, join and distinct need of a key value, on host and device alike: a hash,
// an equality under which groups form (NaN equals NaN, -0.0 equals 0.0, as pandas and SQL group
// them), and an order-preserving unsigned encoding for radix sort.
#include <colx/core/config.hpp>
#include <colx/core/integer_values.hpp>
#include <colx/types/chrono.hpp>
#include <colx/types/decimal.hpp>
#include <colx/types/string_view.hpp>

#include <colx/core/bit_cast.hpp>
#include <cstdint>
#include <type_traits>

namespace colx::detail {

// The number a value is stored as: ticks of a date or time, the unscaled integer of a decimal.
template <class T>
[[nodiscard]] constexpr COLX_HOST_DEVICE auto raw_value(T v) noexcept {
  if constexpr (requires { v.ticks; }) {
    return v.ticks;
  } else if constexpr (requires { v.unscaled; }) {
    return v.unscaled;
  } else {
    return v;
  }
}
template <class T>
using raw_t = decltype(raw_value(T{}));

// ---- hashing ------------------------------------------------------------------------------------

// A 64-bit finaliser (splitmix64's): every input bit affects every output bit.
[[nodiscard]] constexpr COLX_HOST_DEVICE std::uint64_t mix64(std::uint64_t x) noexcept {
  x ^= x >> 30;
  x *= 0xbf58476d1ce4e5b9ull;
  x ^= x >> 27;
  x *= 0x94d049bb133111ebull;
  x ^= x >> 31;
  return x;
}
[[nodiscard]] constexpr COLX_HOST_DEVICE std::uint64_t hash_combine(std::uint64_t seed, std::uint64_t h) noexcept {
  return mix64(seed ^ (h + 0x9e3779b97f4a7c15ull + (seed << 6) + (seed >> 2)));
}

template <class T>
[[nodiscard]] constexpr COLX_HOST_DEVICE std::uint64_t hash_value(T v) noexcept {
  if constexpr (std::is_same_v<T, string_view>) {
    std::uint64_t h = 0xcbf29ce484222325ull;  // FNV-1a, then mixed
    for (size_type i = 0; i < v.size_bytes(); ++i) { h = (h ^ static_cast<unsigned char>(v.data()[i])) * 0x100000001b3ull; }
    return mix64(h);
  } else {
    auto const raw = raw_value(v);
    using R = decltype(raw);
    if constexpr (std::is_floating_point_v<R>) {
      if (raw != raw) { return 0x7ff8dead7ff8deadull; }  // every NaN alike
      double const d = raw == R{0} ? 0.0 : static_cast<double>(raw);  // -0.0 as 0.0
      return mix64(colx::bit_cast<std::uint64_t>(d));
    } else if constexpr (sizeof(R) > 8) {  // decimal128
      __extension__ using u128 = unsigned __int128;
      auto const u = static_cast<u128>(raw);
      return hash_combine(mix64(static_cast<std::uint64_t>(u)), mix64(static_cast<std::uint64_t>(u >> 64)));
    } else {
      return mix64(static_cast<std::uint64_t>(static_cast<std::int64_t>(raw)));
    }
  }
}

// A key of a row as an expression yields it: maybe<T> with a value and a validity.
template <class M>
[[nodiscard]] constexpr COLX_HOST_DEVICE std::uint64_t hash_key(M const& m) noexcept {
  return m.valid ? hash_value(m.value) : 0x5bd1e9955bd1e995ull;
}

// Equality as grouping sees it: two nulls are one group; NaN equals NaN; -0.0 equals 0.0.
template <class T>
[[nodiscard]] constexpr COLX_HOST_DEVICE bool values_equal(T a, T b) noexcept {
  if constexpr (std::is_floating_point_v<decltype(raw_value(a))>) {
    return a == b || (a != a && b != b);
  } else {
    return a == b;
  }
}
// Join keys of two integer types (int32 against int64, uint32 against int32) compare by value.
template <class A, class B>
  requires(!std::is_same_v<A, B> && plain_integer<A> && plain_integer<B>)
[[nodiscard]] constexpr COLX_HOST_DEVICE bool values_equal(A a, B b) noexcept {
  return equal_by_value(a, b);
}
template <class M, class N>
[[nodiscard]] constexpr COLX_HOST_DEVICE bool keys_equal(M const& a, N const& b) noexcept {
  if (!a.valid || !b.valid) { return !a.valid && !b.valid; }
  return values_equal(a.value, b.value);
}

// ---- ordering -----------------------------------------------------------------------------------

// a before b in ascending order; NaN after every number (as pandas and Arrow sort).
template <class T>
[[nodiscard]] constexpr COLX_HOST_DEVICE bool value_less(T a, T b) noexcept {
  if constexpr (std::is_floating_point_v<decltype(raw_value(a))>) {
    if (b != b) { return a == a; }
    if (a != a) { return false; }
  }
  return a < b;
}

// -1, 0 or 1 as a sorts before, with or after b (value_less's order). A string is compared once,
// where two value_less calls would walk it twice.
template <class T>
[[nodiscard]] constexpr COLX_HOST_DEVICE int value_compare(T a, T b) noexcept {
  if constexpr (std::is_same_v<T, string_view>) {
    return a.compare(b);
  } else {
    return value_less(a, b) ? -1 : value_less(b, a) ? 1 : 0;
  }
}

// An unsigned integer of `bits` bits that orders like the value (ascending): for radix sort.
template <class T>
struct radix_encoding {
  static constexpr bool exists = false;
};
template <class T>
  requires(sizeof(raw_t<T>) <= 8 && !std::is_same_v<T, string_view>)
struct radix_encoding<T> {
  using raw = raw_t<T>;
  static constexpr bool exists = true;
  static constexpr int bits = std::is_same_v<raw, bool> ? 1 : static_cast<int>(sizeof(raw) * 8);
  [[nodiscard]] static constexpr COLX_HOST_DEVICE std::uint64_t encode(T v) noexcept {
    raw const r = raw_value(v);
    if constexpr (std::is_same_v<raw, bool>) {
      return r ? 1u : 0u;
    } else if constexpr (std::is_floating_point_v<raw>) {
      using U = std::conditional_t<sizeof(raw) == 4, std::uint32_t, std::uint64_t>;
      constexpr U sign = U{1} << (sizeof(raw) * 8 - 1);
      // NaN above +inf, one NaN; -0.0 as 0.0 so that equal values stay in input order.
      U const u = r != r ? static_cast<U>(~U{0} >> 1) : colx::bit_cast<U>(r == raw{0} ? raw{0} : r);
      return (u & sign) ? static_cast<U>(~u) : static_cast<U>(u | sign);
    } else if constexpr (std::is_signed_v<raw>) {
      using U = std::make_unsigned_t<raw>;
      return static_cast<U>(static_cast<U>(r) ^ (U{1} << (sizeof(raw) * 8 - 1)));
    } else {
      return static_cast<std::uint64_t>(r);
    }
  }
  // The value encode() made u from (one NaN; -0.0 comes back as 0.0).
  [[nodiscard]] static constexpr COLX_HOST_DEVICE T decode(std::uint64_t u) noexcept {
    raw r{};
    if constexpr (std::is_same_v<raw, bool>) {
      r = u != 0;
    } else if constexpr (std::is_floating_point_v<raw>) {
      using U = std::conditional_t<sizeof(raw) == 4, std::uint32_t, std::uint64_t>;
      constexpr U sign = U{1} << (sizeof(raw) * 8 - 1);
      auto const e = static_cast<U>(u);
      r = colx::bit_cast<raw>((e & sign) ? static_cast<U>(e & ~sign) : static_cast<U>(~e));
    } else if constexpr (std::is_signed_v<raw>) {
      using U = std::make_unsigned_t<raw>;
      r = static_cast<raw>(static_cast<U>(static_cast<U>(u) ^ (U{1} << (sizeof(raw) * 8 - 1))));
    } else {
      r = static_cast<raw>(u);
    }
    if constexpr (std::is_same_v<raw, T>) {
      return r;
    } else {
      return T{r};
    }
  }
};

}  // namespace colx::detail
