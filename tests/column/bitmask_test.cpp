// SPDX-License-Identifier: Apache-2.0
// Validity bitmasks: the word helpers of bitmask.hpp (host), and count / create / copy / AND of
// bitmask_ops.hpp on the backend under test, checked against a plain loop over std::vector<bool>.
#include "support/backend.hpp"

#include <catch2/catch.hpp>

#include <algorithm>
#include <cstdint>
#include <memory>
#include <random>
#include <span>
#include <vector>

namespace {

using colx::bitmask_type;
using colx::size_type;
using colx::test::backend_kind;
using colx::test::backend_resource;
using colx::test::tracked_resource;

std::vector<bool> random_bits(std::size_t n, std::uint32_t seed, double p_valid = 0.5) {
  std::mt19937 rng(seed);
  std::bernoulli_distribution valid(p_valid);
  std::vector<bool> bits(n);
  for (std::size_t i = 0; i < n; ++i) { bits[i] = valid(rng); }
  return bits;
}

// Host words of `bits`, padded as colx pads masks; the padding bits are set, so any read of a
// bit outside the range shows up as a wrong count.
std::vector<bitmask_type> to_words(std::vector<bool> const& bits) {
  auto const n = static_cast<size_type>(bits.size());
  std::vector<bitmask_type> words(colx::bitmask_allocation_bytes(n) / sizeof(bitmask_type), ~bitmask_type{0});
  for (size_type i = 0; i < n; ++i) {
    if (!bits[static_cast<std::size_t>(i)]) { colx::clear_bit(words.data(), i); }
  }
  return words;
}

// A mask in the backend's memory.
colx::uvector<bitmask_type> upload(std::vector<bitmask_type> const& words, colx::resource_ref mr = backend_resource()) {
  return colx::uvector<bitmask_type>(std::span<bitmask_type const>(words), {}, mr);
}

std::vector<bitmask_type> download(colx::buffer&& mask) {
  return colx::uvector<bitmask_type>(std::move(mask)).to_host();
}

size_type reference_count(std::vector<bool> const& bits, size_type begin, size_type end) {
  size_type n = 0;
  for (size_type i = begin; i < end; ++i) { n += bits[static_cast<std::size_t>(i)] ? 1 : 0; }
  return n;
}

}  // namespace

TEST_CASE("bitmask: sizes and padding", "[column][bitmask]") {
  STATIC_REQUIRE(colx::bits_per_word == 32);
  CHECK(colx::bitmask_words(0) == 0);
  CHECK(colx::bitmask_words(1) == 1);
  CHECK(colx::bitmask_words(32) == 1);
  CHECK(colx::bitmask_words(33) == 2);
  CHECK(colx::bitmask_words(1000) == 32);
  CHECK(colx::bitmask_words(4097) == 129);

  CHECK(colx::bitmask_allocation_bytes(0) == 0);
  CHECK(colx::bitmask_allocation_bytes(1) == 64);
  CHECK(colx::bitmask_allocation_bytes(512) == 64);
  CHECK(colx::bitmask_allocation_bytes(513) == 128);
  CHECK(colx::bitmask_allocation_bytes(4097) == 576);
  for (size_type bits : {1, 31, 32, 33, 63, 64, 65, 511, 512, 513, 1000, 4097}) {
    INFO("bits " << bits);
    auto const bytes = colx::bitmask_allocation_bytes(bits);
    CHECK(bytes % 64 == 0);
    CHECK(bytes >= static_cast<std::size_t>(colx::bitmask_words(bits)) * sizeof(bitmask_type));
    CHECK(bytes < static_cast<std::size_t>(colx::bitmask_words(bits)) * sizeof(bitmask_type) + 64);
  }
}

TEST_CASE("bitmask: bit and word helpers", "[column][bitmask]") {
  std::vector<bitmask_type> words(3, 0);
  colx::set_bit(words.data(), 0);
  colx::set_bit(words.data(), 31);
  colx::set_bit(words.data(), 32);
  colx::set_bit(words.data(), 70);
  CHECK(words[0] == 0x80000001u);
  CHECK(words[1] == 0x00000001u);
  CHECK(words[2] == (1u << 6));
  for (size_type bit = 0; bit < 96; ++bit) {
    bool const expected = bit == 0 || bit == 31 || bit == 32 || bit == 70;
    CHECK(colx::bit_is_set(words.data(), bit) == expected);
  }
  colx::clear_bit(words.data(), 31);
  colx::clear_bit(words.data(), 30);  // already clear
  CHECK(words[0] == 0x00000001u);

  CHECK(colx::low_bits(0) == 0u);
  CHECK(colx::low_bits(1) == 1u);
  CHECK(colx::low_bits(31) == 0x7FFFFFFFu);
  CHECK(colx::low_bits(32) == 0xFFFFFFFFu);
  CHECK(colx::low_bits(33) == 0xFFFFFFFFu);
  CHECK(colx::low_bits(1000) == 0xFFFFFFFFu);

  CHECK(colx::popcount(0u) == 0);
  CHECK(colx::popcount(0xFFFFFFFFu) == 32);
  CHECK(colx::popcount(0x80000001u) == 2);
  CHECK(colx::popcount(0xF0F0u) == 8);
  // Not STATIC_REQUIRE: popcount is declared constexpr, but nvcc's device pass (which also
  // checks host functions) sees __popc, which is not constexpr, and rejects the assertion.
  STATIC_REQUIRE(colx::low_bits(4) == 0xFu);
}

TEST_CASE("bitmask: word_at reads a word at any bit offset", "[column][bitmask]") {
  auto const bits = random_bits(160, 7);
  auto const words = to_words(bits);
  for (size_type first = 0; first < 128; ++first) {
    for (size_type end : {first + 1, first + 31, first + 32, first + 33, size_type{160}}) {
      INFO("first " << first << " end " << end);
      bitmask_type const word = colx::word_at(words.data(), first, end);
      size_type const valid_bits = std::min<size_type>(32, end - first);
      for (size_type i = 0; i < valid_bits; ++i) {
        CHECK(((word >> i) & 1u) == (bits[static_cast<std::size_t>(first + i)] ? 1u : 0u));
      }
    }
  }
}

TEST_CASE("bitmask: word_at reads no word wholly past the end", "[column][bitmask]") {
  // One word and nothing after it: reading a second word would be out of bounds (ASan reports
  // it; on the heap, a read of a neighbour would likely still pass, so the mask is one word).
  auto const one = std::make_unique<bitmask_type[]>(1);
  one[0] = 0xA5A5A5A5u;
  for (size_type first = 0; first < 32; ++first) {
    INFO("first " << first);
    bitmask_type const word = colx::word_at(one.get(), first, 32);
    CHECK((word & colx::low_bits(32 - first)) == (0xA5A5A5A5u >> first));
  }
}

TEST_CASE("bitmask: count_set_bits and count_unset_bits at every offset", "[column][bitmask]") {
  auto const bits = random_bits(1200, 42);
  auto const mask = upload(to_words(bits));
  for (size_type offset = 0; offset <= 64; ++offset) {
    for (size_type length : {0, 1, 2, 31, 32, 33, 63, 64, 65, 127, 1000}) {
      INFO("offset " << offset << " length " << length);
      size_type const expected = reference_count(bits, offset, offset + length);
      CHECK(colx::count_set_bits(mask.data(), offset, offset + length, backend_kind()) == expected);
      CHECK(colx::count_unset_bits(mask.data(), offset, offset + length, backend_kind()) == length - expected);
    }
  }
}

TEST_CASE("bitmask: counting all-valid and all-null masks", "[column][bitmask]") {
  std::vector<bitmask_type> const ones(64, ~bitmask_type{0});
  std::vector<bitmask_type> const zeros(64, 0);
  auto const all_valid = upload(ones);
  auto const all_null = upload(zeros);
  for (size_type offset : {0, 1, 3, 31, 32, 33, 63, 64}) {
    for (size_type length : {0, 1, 31, 32, 33, 1000}) {
      INFO("offset " << offset << " length " << length);
      CHECK(colx::count_set_bits(all_valid.data(), offset, offset + length, backend_kind()) == length);
      CHECK(colx::count_unset_bits(all_valid.data(), offset, offset + length, backend_kind()) == 0);
      CHECK(colx::count_set_bits(all_null.data(), offset, offset + length, backend_kind()) == 0);
      CHECK(colx::count_unset_bits(all_null.data(), offset, offset + length, backend_kind()) == length);
    }
  }
}

TEST_CASE("bitmask: a null mask counts every bit as set", "[column][bitmask]") {
  CHECK(colx::count_set_bits(nullptr, 0, 0, backend_kind()) == 0);
  CHECK(colx::count_set_bits(nullptr, 3, 1003, backend_kind()) == 1000);
  CHECK(colx::count_unset_bits(nullptr, 3, 1003, backend_kind()) == 0);
  // A null mask touches no memory: any kind will do.
  CHECK(colx::count_set_bits(nullptr, 5, 37, colx::memory_kind::device) == 32);
}

TEST_CASE("bitmask: counting a large mask (several reduction chunks)", "[column][bitmask]") {
  // More than 2^14 words: the host backend reduces in several parallel chunks.
  size_type const n = (size_type{1} << 20) + 77;
  auto const bits = random_bits(static_cast<std::size_t>(n) + 64, 3, 0.7);
  auto const mask = upload(to_words(bits));
  for (size_type offset : {0, 3, 33}) {
    INFO("offset " << offset);
    CHECK(colx::count_set_bits(mask.data(), offset, offset + n, backend_kind()) == reference_count(bits, offset, offset + n));
  }
}

TEST_CASE("bitmask: counting an invalid bit range throws out_of_range", "[column][bitmask]") {
  auto const mask = upload(std::vector<bitmask_type>(16, 0));
  CHECK_THROWS_AS(colx::count_set_bits(mask.data(), 5, 4, backend_kind()), colx::out_of_range);
  CHECK_THROWS_WITH(colx::count_set_bits(mask.data(), 5, 4, backend_kind()), Catch::Contains("bit range [5, 4)"));
  CHECK_THROWS_AS(colx::count_set_bits(mask.data(), -1, 4, backend_kind()), colx::out_of_range);
  CHECK_THROWS_AS(colx::count_unset_bits(mask.data(), 9, 2, backend_kind()), colx::out_of_range);
  CHECK_THROWS_AS(colx::count_set_bits(nullptr, 9, 2, backend_kind()), colx::out_of_range);
  CHECK_THROWS_WITH(colx::count_unset_bits(nullptr, -3, 2, backend_kind()), Catch::Contains("is invalid"));
}

TEST_CASE("bitmask: create_bitmask", "[column][bitmask]") {
  tracked_resource mr;
  for (size_type bits : {0, 1, 31, 32, 33, 63, 64, 65, 1000, 4097}) {
    for (bool valid : {true, false}) {
      INFO("bits " << bits << " valid " << valid);
      colx::buffer mask = colx::create_bitmask(bits, valid, {}, mr.ref());
      CHECK(mask.size() == colx::bitmask_allocation_bytes(bits));
      CHECK(mask.kind() == backend_kind());
      CHECK(mr.outstanding_bytes() == static_cast<std::int64_t>(mask.size()));
      if (bits == 0) {
        CHECK(mask.empty());
        continue;
      }
      auto const* words = static_cast<bitmask_type const*>(mask.data());
      CHECK(colx::count_set_bits(words, 0, bits, backend_kind()) == (valid ? bits : 0));
      CHECK(colx::count_unset_bits(words, 1, bits, backend_kind()) == (valid ? 0 : bits - 1));
      // The whole allocation, padding included, is filled.
      for (auto const w : download(std::move(mask))) { CHECK(w == (valid ? ~bitmask_type{0} : 0u)); }
    }
  }
  CHECK(mr.outstanding_bytes() == 0);
  CHECK(mr.outstanding_allocations() == 0);
}

TEST_CASE("bitmask: create_bitmask of a negative size throws", "[column][bitmask]") {
  tracked_resource mr;
  CHECK_THROWS_AS(colx::create_bitmask(-1, true, {}, mr.ref()), colx::logic_error);
  CHECK_THROWS_WITH(colx::create_bitmask(-5, false, {}, mr.ref()), Catch::Contains("negative number of bits (-5)"));
  CHECK(mr.outstanding_bytes() == 0);
}

TEST_CASE("bitmask: copy_bitmask at every offset", "[column][bitmask]") {
  auto const bits = random_bits(1200, 11);
  auto const mask = upload(to_words(bits));
  tracked_resource mr;
  for (size_type offset = 0; offset <= 64; ++offset) {
    for (size_type length : {0, 1, 31, 32, 33, 63, 64, 65, 1000}) {
      INFO("offset " << offset << " length " << length);
      colx::buffer copy = colx::copy_bitmask(mask.data(), offset, offset + length, backend_kind(), {}, mr.ref());
      REQUIRE(copy.size() == colx::bitmask_allocation_bytes(length));
      CHECK(copy.kind() == backend_kind());
      if (length == 0) { continue; }
      CHECK(colx::count_set_bits(static_cast<bitmask_type const*>(copy.data()), 0, length, backend_kind()) ==
            reference_count(bits, offset, offset + length));
      auto const words = download(std::move(copy));
      bool all_match = true;
      for (size_type i = 0; i < length; ++i) {
        all_match = all_match && colx::bit_is_set(words.data(), i) == bits[static_cast<std::size_t>(offset + i)];
      }
      CHECK(all_match);
      // Bits past the end, in the last word and in the padding, are cleared.
      bool tail_clear = true;
      for (size_type i = length; i < static_cast<size_type>(words.size()) * 32; ++i) {
        tail_clear = tail_clear && !colx::bit_is_set(words.data(), i);
      }
      CHECK(tail_clear);
    }
  }
  CHECK(mr.outstanding_bytes() == 0);
}

TEST_CASE("bitmask: copy_bitmask preconditions", "[column][bitmask]") {
  tracked_resource mr;
  auto const mask = upload(std::vector<bitmask_type>(16, 0xFFu));
  CHECK_THROWS_AS(colx::copy_bitmask(nullptr, 0, 10, backend_kind(), {}, mr.ref()), colx::logic_error);
  CHECK_THROWS_WITH(colx::copy_bitmask(nullptr, 0, 10, backend_kind(), {}, mr.ref()), Catch::Contains("needs a mask"));
  CHECK_THROWS_AS(colx::copy_bitmask(mask.data(), 10, 9, backend_kind(), {}, mr.ref()), colx::out_of_range);
  CHECK_THROWS_WITH(colx::copy_bitmask(mask.data(), 10, 9, backend_kind(), {}, mr.ref()), Catch::Contains("bit range"));
  if (colx::test::on_device()) {
    // Device bits into host memory: the copy is refused, and its allocation is returned.
    colx::statistics_adaptor host_stats(colx::get_current_host_resource());
    CHECK_THROWS_WITH(colx::copy_bitmask(mask.data(), 0, 64, backend_kind(), {}, host_stats),
                      Catch::Contains("within one kind of memory"));
    CHECK(host_stats.statistics().current_bytes == 0);
  }
  CHECK(mr.outstanding_bytes() == 0);
}

TEST_CASE("bitmask: bitmask_and of masks at different offsets", "[column][bitmask]") {
  size_type const width = 1200;
  auto const a_bits = random_bits(width, 1, 0.8);
  auto const b_bits = random_bits(width, 2, 0.8);
  auto const c_bits = random_bits(width, 3, 0.8);
  auto const a = upload(to_words(a_bits));
  auto const b = upload(to_words(b_bits));
  auto const c = upload(to_words(c_bits));
  tracked_resource mr;

  struct input {
    std::vector<bool> const* bits;  // null: no mask
    size_type offset;
  };
  auto run = [&](std::vector<input> const& inputs, std::vector<colx::bitmask_slice> const& slices, size_type n) {
    std::vector<bool> expected(static_cast<std::size_t>(n), true);
    size_type expected_nulls = 0;
    for (size_type i = 0; i < n; ++i) {
      for (auto const& in : inputs) {
        if (in.bits != nullptr && !(*in.bits)[static_cast<std::size_t>(in.offset + i)]) {
          expected[static_cast<std::size_t>(i)] = false;
        }
      }
      expected_nulls += expected[static_cast<std::size_t>(i)] ? 0 : 1;
    }
    auto result = colx::bitmask_and(slices, n, backend_kind(), {}, mr.ref());
    CHECK(result.null_count == expected_nulls);
    if (n == 0) { return; }
    REQUIRE(result.mask.size() == colx::bitmask_allocation_bytes(n));
    auto const words = download(std::move(result.mask));
    bool all_match = true;
    for (size_type i = 0; i < n; ++i) {
      all_match = all_match && colx::bit_is_set(words.data(), i) == expected[static_cast<std::size_t>(i)];
    }
    CHECK(all_match);
  };

  for (size_type n : {1, 31, 32, 33, 63, 64, 65, 1000}) {
    INFO("rows " << n);
    SECTION("three masks at offsets 0, 5 and 37") {
      run({{&a_bits, 0}, {&b_bits, 5}, {&c_bits, 37}},
          {{a.data(), 0}, {b.data(), 5}, {c.data(), 37}}, n);
    }
    SECTION("odd offsets with null masks between") {
      run({{&a_bits, 33}, {nullptr, 0}, {&b_bits, 1}, {nullptr, 7}, {&c_bits, 63}},
          {{a.data(), 33}, {nullptr, 0}, {b.data(), 1}, {nullptr, 7}, {c.data(), 63}}, n);
    }
    SECTION("a null mask first, then one mask: a copy of that mask") {
      run({{nullptr, 0}, {&c_bits, 31}}, {{nullptr, 0}, {c.data(), 31}}, n);
    }
    SECTION("the same mask twice at different offsets") {
      run({{&a_bits, 3}, {&a_bits, 64}}, {{a.data(), 3}, {a.data(), 64}}, n);
    }
  }
  CHECK(mr.outstanding_bytes() == 0);
}

TEST_CASE("bitmask: bitmask_and of no masks", "[column][bitmask]") {
  tracked_resource mr;
  SECTION("all inputs without a mask") {
    std::vector<colx::bitmask_slice> const slices{{nullptr, 0}, {nullptr, 3}};
    auto result = colx::bitmask_and(slices, 100, backend_kind(), {}, mr.ref());
    CHECK(result.mask.empty());
    CHECK(result.null_count == 0);
  }
  SECTION("no inputs at all") {
    auto result = colx::bitmask_and({}, 100, backend_kind(), {}, mr.ref());
    CHECK(result.mask.empty());
    CHECK(result.null_count == 0);
  }
  SECTION("zero rows") {
    auto const mask = upload(std::vector<bitmask_type>(16, 0));
    std::vector<colx::bitmask_slice> const slices{{mask.data(), 5}};
    auto result = colx::bitmask_and(slices, 0, backend_kind(), {}, mr.ref());
    CHECK(result.null_count == 0);
  }
  CHECK(mr.outstanding_bytes() == 0);
}
