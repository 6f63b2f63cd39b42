// SPDX-License-Identifier: Apache-2.0
#pragma once
// A counter-based generator for the TPC-H tables: every random value is a pure function of
// (column, row), so any thread on any backend can compute any value in any order and get the
// same bits. No state is carried from one row to the next, which is what makes the host and
// device tables identical and lets one kernel write a row without looking at its neighbours.
#include <colx/core/config.hpp>

#include <cstdint>

namespace colx::tpch::detail {

// Which random stream a value comes from. Each column that needs randomness has its own, so
// adding a column never shifts the values of another. The numbers are part of the generated
// data: renumbering them changes every table.
enum class stream_id : std::uint64_t {
  c_nationkey = 1,
  c_acctbal,
  c_mktsegment,
  o_custkey,
  o_orderdate,
  o_line_count,
  l_partkey,
  l_quantity,
  l_discount,
  l_tax,
  l_ship_days,
  l_commit_days,
  l_receipt_days,
  l_returnflag,
};

inline constexpr std::uint64_t seed = 0x7c5f'0a1d'3e29'b461ull;

// Steele, Lea and Flood's SplitMix64 finaliser: a bijection on 64 bits that passes BigCrush
// when fed a counter, which is all a counter-based generator needs.
[[nodiscard]] constexpr COLX_HOST_DEVICE std::uint64_t mix64(std::uint64_t x) noexcept {
  x += 0x9e37'79b9'7f4a'7c15ull;
  x = (x ^ (x >> 30)) * 0xbf58'476d'1ce4'e5b9ull;
  x = (x ^ (x >> 27)) * 0x94d0'49bb'1331'11ebull;
  return x ^ (x >> 31);
}

// 64 random bits for row `counter` of stream `id`. Mixing the counter before combining it with
// the stream's key keeps nearby rows of different streams unrelated.
[[nodiscard]] constexpr COLX_HOST_DEVICE std::uint64_t random_bits(stream_id id, std::uint64_t counter) noexcept {
  std::uint64_t const key = mix64(seed ^ (static_cast<std::uint64_t>(id) * 0xd1b5'4a32'd192'ed03ull));
  return mix64(key ^ mix64(counter));
}

// The high 64 bits of a 64 x 64-bit product, from 32-bit halves: the same integer arithmetic on
// every compiler, without __int128 or a device intrinsic.
[[nodiscard]] constexpr COLX_HOST_DEVICE std::uint64_t mul_high(std::uint64_t a, std::uint64_t b) noexcept {
  std::uint64_t const a_lo = a & 0xffff'ffffu;
  std::uint64_t const a_hi = a >> 32;
  std::uint64_t const b_lo = b & 0xffff'ffffu;
  std::uint64_t const b_hi = b >> 32;
  std::uint64_t const lo_lo = a_lo * b_lo;
  std::uint64_t const hi_lo = a_hi * b_lo;
  std::uint64_t const lo_hi = a_lo * b_hi;
  std::uint64_t const cross = (lo_lo >> 32) + (hi_lo & 0xffff'ffffu) + lo_hi;
  return a_hi * b_hi + (hi_lo >> 32) + (cross >> 32);
}

// An integer in [lo, hi], by scaling the bits (Lemire's multiply-shift) rather than by a modulo:
// no division, and a bias of at most (hi - lo + 1) / 2^64, far below anything a test can see.
[[nodiscard]] constexpr COLX_HOST_DEVICE std::int64_t uniform(std::uint64_t bits, std::int64_t lo, std::int64_t hi) noexcept {
  auto const range = static_cast<std::uint64_t>(hi - lo) + 1;
  return lo + static_cast<std::int64_t>(mul_high(bits, range));
}

[[nodiscard]] constexpr COLX_HOST_DEVICE std::int64_t uniform(stream_id id, std::uint64_t counter, std::int64_t lo,
                                                              std::int64_t hi) noexcept {
  return uniform(random_bits(id, counter), lo, hi);
}

}  // namespace colx::tpch::detail
