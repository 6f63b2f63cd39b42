// SPDX-License-Identifier: Apache-2.0
#pragma once
// Relaxed atomic read-modify-write on plain memory, the same call on host and device: CUDA's
// atomic intrinsics in device code, the GCC builtins (what std::atomic_ref compiles to) on the
// host. Group-by and join tables are plain arrays updated by many threads at once through these.
#include <colx/core/config.hpp>

#include <colx/core/bit_cast.hpp>
#include <colx/types/dec.hpp>
#include <cstdint>
#include <type_traits>

namespace colx::detail {

template <class T>
concept atomic_word = (sizeof(T) == 4 || sizeof(T) == 8) && std::is_trivially_copyable_v<T>;

template <class T>
using atomic_bits_t = std::conditional_t<sizeof(T) == 4, unsigned int, unsigned long long>;

// Replaces *address with desired if it holds expected; returns what it held.
template <atomic_word T>
COLX_HOST_DEVICE T atomic_cas(T* address, T expected, T desired) {
  using bits = atomic_bits_t<T>;
  bits const e = colx::bit_cast<bits>(expected);
  bits const d = colx::bit_cast<bits>(desired);
#if COLX_IN_DEVICE_CODE
  return colx::bit_cast<T>(atomicCAS(reinterpret_cast<bits*>(address), e, d));
#else
  bits held = e;
  __atomic_compare_exchange_n(reinterpret_cast<bits*>(address), &held, d, false, __ATOMIC_RELAXED, __ATOMIC_RELAXED);
  return colx::bit_cast<T>(held);
#endif
}

template <atomic_word T>
COLX_HOST_DEVICE T atomic_load(T const* address) {
  using bits = atomic_bits_t<T>;
#if COLX_IN_DEVICE_CODE
  return colx::bit_cast<T>(*reinterpret_cast<bits const volatile*>(address));
#else
  return colx::bit_cast<T>(__atomic_load_n(reinterpret_cast<bits const*>(address), __ATOMIC_RELAXED));
#endif
}

// *address = op(*address, value), by compare-and-swap: for the operations no intrinsic has.
template <atomic_word T, class Op>
COLX_HOST_DEVICE void atomic_update(T* address, T value, Op op) {
  T held = atomic_load(address);
  while (true) {
    T const next = op(held, value);
    if (colx::bit_cast<atomic_bits_t<T>>(next) == colx::bit_cast<atomic_bits_t<T>>(held)) { return; }
    T const seen = atomic_cas(address, held, next);
    if (colx::bit_cast<atomic_bits_t<T>>(seen) == colx::bit_cast<atomic_bits_t<T>>(held)) { return; }
    held = seen;
  }
}

template <class T>
COLX_HOST_DEVICE T atomic_fetch_add(T* address, T value);

// 128-bit integers (decimal sums): two 64-bit atomic adds, the low word's carry added to the high
// word. A reader while adds are under way may see the halves out of step; each add is counted
// exactly once, so the value is exact once they are done, which is when group-by reads it.
// `words` are the two halves, low first (little-endian), each 8-byte aligned.
COLX_HOST_DEVICE inline void atomic_add_128(unsigned long long* words, int128_t value) {
  auto const v = static_cast<uint128_t>(value);
  auto const lo = static_cast<unsigned long long>(v);
  auto const hi = static_cast<unsigned long long>(v >> 64);
  unsigned long long const before = atomic_fetch_add(words, lo);
  unsigned long long const high = hi + (before + lo < before ? 1ULL : 0ULL);
  if (high != 0) { atomic_fetch_add(words + 1, high); }
}

template <class T>
COLX_HOST_DEVICE void atomic_add(T* address, T value) {
  if constexpr (dec_type<T>) {
    static_assert(sizeof(T) == 16, "atomic_add: decimal sums are 128-bit (dec<38, S>)");
    atomic_add_128(reinterpret_cast<unsigned long long*>(&address->unscaled), value.unscaled);
  } else if constexpr (std::is_integral_v<T>) {
    static_assert(sizeof(T) == 4 || sizeof(T) == 8, "atomic_add: 32- or 64-bit integers");
    // Unsigned arithmetic: a sum wraps like the element-wise operations.
    using bits = atomic_bits_t<T>;
#if COLX_IN_DEVICE_CODE
    atomicAdd(reinterpret_cast<bits*>(address), static_cast<bits>(value));
#else
    __atomic_fetch_add(reinterpret_cast<bits*>(address), static_cast<bits>(value), __ATOMIC_RELAXED);
#endif
  } else {
#if COLX_IN_DEVICE_CODE
    atomicAdd(address, value);
#else
    atomic_update(address, value, [](T a, T b) { return a + b; });
#endif
  }
}

// Adds and returns what *address held before (integers).
template <class T>
COLX_HOST_DEVICE T atomic_fetch_add(T* address, T value) {
  static_assert(std::is_integral_v<T> && (sizeof(T) == 4 || sizeof(T) == 8), "atomic_fetch_add: 32- or 64-bit integers");
  using bits = atomic_bits_t<T>;
#if COLX_IN_DEVICE_CODE
  return static_cast<T>(atomicAdd(reinterpret_cast<bits*>(address), static_cast<bits>(value)));
#else
  return static_cast<T>(__atomic_fetch_add(reinterpret_cast<bits*>(address), static_cast<bits>(value), __ATOMIC_RELAXED));
#endif
}

template <class T>
COLX_HOST_DEVICE void atomic_or(T* address, T value) {
  static_assert(std::is_unsigned_v<T> && sizeof(T) == 4, "atomic_or: 32-bit unsigned words");
#if COLX_IN_DEVICE_CODE
  atomicOr(address, value);
#else
  __atomic_fetch_or(address, value, __ATOMIC_RELAXED);
#endif
}
template <class T>
COLX_HOST_DEVICE void atomic_and(T* address, T value) {
  static_assert(std::is_unsigned_v<T> && sizeof(T) == 4, "atomic_and: 32-bit unsigned words");
#if COLX_IN_DEVICE_CODE
  atomicAnd(address, value);
#else
  __atomic_fetch_and(address, value, __ATOMIC_RELAXED);
#endif
}

// *address = min (max) of itself and value, for 32- and 64-bit integers: one reduction the
// memory performs, where atomic_update reads the word and then swaps it.
template <class T>
concept atomic_integer = std::is_integral_v<T> && !std::is_same_v<T, bool> && (sizeof(T) == 4 || sizeof(T) == 8);
template <atomic_integer T>
using atomic_integer_t = std::conditional_t<sizeof(T) == 4, std::conditional_t<std::is_signed_v<T>, int, unsigned int>,
                                            std::conditional_t<std::is_signed_v<T>, long long, unsigned long long>>;

template <atomic_integer T>
COLX_HOST_DEVICE void atomic_min(T* address, T value) {
#if COLX_IN_DEVICE_CODE
  atomicMin(reinterpret_cast<atomic_integer_t<T>*>(address), static_cast<atomic_integer_t<T>>(value));
#else
  atomic_update(address, value, [](T a, T b) { return b < a ? b : a; });
#endif
}
template <atomic_integer T>
COLX_HOST_DEVICE void atomic_max(T* address, T value) {
#if COLX_IN_DEVICE_CODE
  atomicMax(reinterpret_cast<atomic_integer_t<T>*>(address), static_cast<atomic_integer_t<T>>(value));
#else
  atomic_update(address, value, [](T a, T b) { return b > a ? b : a; });
#endif
}

}  // namespace colx::detail
