// SPDX-License-Identifier: Apache-2.0
// The SNAPPY check that guards nvCOMP (io/parquet/snappy_check.hpp, gpu_snappy_check.cuh):
// streams built by hand with known verdicts; where libsnappy is linked, its own validator is the
// reference over thousands of corrupted streams; in a CUDA build, the GPU's warp-per-page check
// must give the same verdicts as the serial one.
#include "support/backend.hpp"

#include <colx/io/parquet/snappy_check.hpp>
#if COLX_HAS_CUDA
#  include <colx/io/parquet/gpu_snappy_check.cuh>
#endif
#if defined(COLX_WITH_SNAPPY)
#  include <snappy-c.h>
#endif

#include <catch2/catch.hpp>

#include <cstdint>
#include <random>
#include <string>
#include <vector>

namespace {

using bytes = std::vector<std::uint8_t>;

bool valid(bytes const& s, std::uint64_t out) { return colx::parquet::detail::snappy_stream_valid(s.data(), s.size(), out); }

// The GPU's verdicts on several streams: how many fail.
[[maybe_unused]] int gpu_bad(std::vector<bytes> const& streams, std::vector<std::uint64_t> const& outs) {
#if COLX_HAS_CUDA
  auto const mr = colx::get_current_resource(colx::memory_kind::device);
  std::vector<colx::buffer> held;
  std::vector<void const*> ptrs;
  std::vector<std::size_t> sizes;
  for (auto const& s : streams) {
    held.emplace_back(s.data(), colx::memory_kind::host, s.size(), colx::stream_ref{}, mr);
    ptrs.push_back(held.back().data());
    sizes.push_back(s.size());
  }
  for (auto o : outs) { sizes.push_back(o); }
  colx::buffer d_ptrs(ptrs.data(), colx::memory_kind::host, ptrs.size() * sizeof(void*), {}, mr);
  colx::buffer d_sizes(sizes.data(), colx::memory_kind::host, sizes.size() * sizeof(std::size_t), {}, mr);
  colx::buffer scratch(2 * sizeof(int), {}, mr);
  int const bad = colx::parquet::detail::count_bad_snappy(static_cast<void const**>(d_ptrs.data()), static_cast<std::size_t*>(d_sizes.data()),
                                                          streams.size(), static_cast<int*>(scratch.data()), {});
  // The pages that failed now point at an empty stream (one byte, 0) of one byte; the others are as they were.
  std::vector<void const*> after(ptrs.size());
  std::vector<std::size_t> after_sizes(sizes.size());
  colx::detail::copy_bytes(after.data(), colx::memory_kind::host, d_ptrs.data(), d_ptrs.kind(), after.size() * sizeof(void*), {});
  colx::detail::copy_bytes(after_sizes.data(), colx::memory_kind::host, d_sizes.data(), d_sizes.kind(), after_sizes.size() * sizeof(std::size_t), {});
  colx::stream_ref{}.synchronize();
  int swapped = 0;
  for (std::size_t i = 0; i < ptrs.size(); ++i) {
    if (after[i] != ptrs[i]) {
      ++swapped;
      CHECK(after[i] == static_cast<void const*>(static_cast<int*>(scratch.data()) + 1));
      CHECK(after_sizes[i] == 1);
    } else {
      CHECK(after_sizes[i] == sizes[i]);
    }
  }
  CHECK(swapped == bad);
  return bad;
#else
  (void)streams;
  (void)outs;
  return -1;
#endif
}

}  // namespace

TEST_CASE("snappy check: hand-built streams", "[snappy]") {
  bytes const hello = {5, 0x10, 'h', 'e', 'l', 'l', 'o'};     // a literal of 5
  bytes const abab = {8, 0x04, 'a', 'b', 0x09, 0x02};         // "ab", then copy 6 from 2 back
  CHECK(valid(hello, 5));
  CHECK(valid(abab, 8));
  CHECK_FALSE(valid(hello, 6));                                // the prefix says 5
  CHECK_FALSE(valid({5, 0x10, 'h', 'e', 'l', 'l'}, 5));        // the literal runs past the end
  CHECK_FALSE(valid({8, 0x04, 'a', 'b', 0x09, 0x03}, 8));      // a copy from before the start
  CHECK_FALSE(valid({8, 0x04, 'a', 'b', 0x09, 0x00}, 8));      // a copy from offset 0
  CHECK_FALSE(valid({9, 0x04, 'a', 'b', 0x09, 0x02}, 9));      // one byte short
  CHECK_FALSE(valid({7, 0x04, 'a', 'b', 0x09, 0x02}, 7));      // the copy writes past the end
  CHECK(valid({0}, 0));
  CHECK_FALSE(valid({}, 0));
  CHECK_FALSE(valid({0x80}, 0));                               // an unfinished varint
  if (colx::test::on_device()) {
    CHECK(gpu_bad({hello, abab, {8, 0x04, 'a', 'b', 0x09, 0x03}, {0}, {5, 0x10, 'h'}}, {5, 8, 8, 0, 5}) == 2);
  }
}

#if defined(COLX_WITH_SNAPPY)
TEST_CASE("snappy check: the verdicts of libsnappy's validator on corrupted streams", "[snappy]") {
  std::mt19937_64 rng(7);
  std::vector<std::string> inputs;
  inputs.emplace_back(3000, 'x');
  std::string text;
  for (int i = 0; i < 4000; ++i) { text += "row " + std::to_string(i % 97) + " of the table; "; }
  inputs.push_back(text);
  std::string noise(70001, '\0');
  for (auto& c : noise) { c = static_cast<char>(rng() % (rng() % 2 ? 256 : 4)); }
  inputs.push_back(noise);
  std::vector<bytes> streams;
  std::vector<std::uint64_t> outs;
  int disagree = 0, invalid = 0;
  for (auto const& in : inputs) {
    std::size_t n = snappy_max_compressed_length(in.size());
    bytes packed(n);
    REQUIRE(snappy_compress(in.data(), in.size(), reinterpret_cast<char*>(packed.data()), &n) == SNAPPY_OK);
    packed.resize(n);
    CHECK(valid(packed, in.size()));
    for (int k = 0; k < 1500; ++k) {
      bytes bad = packed;
      int const edits = 1 + static_cast<int>(rng() % 3);
      for (int e = 0; e < edits; ++e) { bad[rng() % bad.size()] = static_cast<std::uint8_t>(rng()); }
      if (k % 7 == 0) { bad.resize(rng() % bad.size()); }
      bool const reference = snappy_validate_compressed_buffer(reinterpret_cast<char const*>(bad.data()), bad.size()) == SNAPPY_OK;
      std::size_t claimed = 0;
      bool const sized = snappy_uncompressed_length(reinterpret_cast<char const*>(bad.data()), bad.size(), &claimed) == SNAPPY_OK;
      // libsnappy checks against the length the stream claims; colx against the page header's.
      bool const ours = sized && valid(bad, claimed);
      disagree += reference != ours ? 1 : 0;
      invalid += ours ? 0 : 1;
      streams.push_back(bad);
      outs.push_back(sized ? claimed : 0);
    }
  }
  CHECK(disagree == 0);
  CHECK(invalid > 1000);  // most corruptions are caught, and the rest decompress within bounds
  if (colx::test::on_device()) { CHECK(gpu_bad(streams, outs) == invalid); }
}
#endif
