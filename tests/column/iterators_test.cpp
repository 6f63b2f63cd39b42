// SPDX-License-Identifier: Apache-2.0
// Value, pair, validity and null-replacement iterators: with std algorithms over a column in host
// memory (every build), and in CUDA builds with Thrust and CUB over a column in device memory.
#include "support/backend.hpp"

#include <catch2/catch.hpp>

#include <algorithm>
#include <cstdint>
#include <iterator>
#include <numeric>
#include <optional>
#include <vector>

#if COLX_HAS_CUDA
#  include <cub/device/device_reduce.cuh>
#  include <thrust/count.h>
#  include <thrust/execution_policy.h>
#  include <thrust/reduce.h>
#endif

namespace {

using colx::size_type;

template <class T>
using optionals = std::vector<std::optional<T>>;

// Row i is null when i % 3 == 2 or i % 10 == 0.
optionals<std::int64_t> nullable_values(std::size_t n) {
  optionals<std::int64_t> out(n);
  for (std::size_t i = 0; i < n; ++i) {
    if (i % 3 != 2 && i % 10 != 0) { out[i] = static_cast<std::int64_t>(i * i) - 500; }
  }
  return out;
}

// The references: plain loops over rows [begin, end).
std::int64_t sum_replaced(optionals<std::int64_t> const& v, size_type begin, size_type end, std::int64_t replacement) {
  std::int64_t s = 0;
  for (size_type i = begin; i < end; ++i) { s += v[static_cast<std::size_t>(i)].value_or(replacement); }
  return s;
}
std::int64_t count_valid(optionals<std::int64_t> const& v, size_type begin, size_type end) {
  std::int64_t n = 0;
  for (size_type i = begin; i < end; ++i) { n += v[static_cast<std::size_t>(i)].has_value() ? 1 : 0; }
  return n;
}

struct plus_fn {
  template <class T>
  COLX_HOST_DEVICE T operator()(T a, T b) const { return a + b; }
};
struct is_valid_fn {
  template <class T>
  COLX_HOST_DEVICE bool operator()(colx::value_valid<T> const& p) const { return p.valid; }
};
// Sums the valid values of (value, valid) pairs: the pair iterator's reason to exist.
struct valid_value_fn {
  template <class T>
  COLX_HOST_DEVICE T operator()(colx::value_valid<T> const& p) const { return p.valid ? p.value : T{0}; }
};

struct slice_case {
  size_type begin, end;
};
constexpr slice_case slices[] = {{0, 1000}, {1, 1000}, {3, 900}, {31, 64}, {33, 97}, {63, 64}, {5, 5}, {999, 1000}};

}  // namespace

TEST_CASE("iterators: the iterators are random access", "[column][iterators]") {
  using view_t = colx::column_device_view<std::int64_t>;
  using value_it = decltype(colx::make_value_iterator(view_t{}));
  using pair_it = decltype(colx::make_pair_iterator(view_t{}));
  using validity_it = decltype(colx::make_validity_iterator(view_t{}));
  using replace_it = decltype(colx::make_null_replacement_iterator(view_t{}, std::int64_t{0}));
  STATIC_REQUIRE(std::random_access_iterator<value_it>);
  STATIC_REQUIRE(std::random_access_iterator<pair_it>);
  STATIC_REQUIRE(std::random_access_iterator<validity_it>);
  STATIC_REQUIRE(std::random_access_iterator<replace_it>);
  STATIC_REQUIRE(std::is_same_v<std::iter_value_t<value_it>, std::int64_t>);
  STATIC_REQUIRE(std::is_same_v<std::iter_value_t<pair_it>, colx::value_valid<std::int64_t>>);
  STATIC_REQUIRE(std::is_same_v<std::iter_value_t<validity_it>, bool>);
  STATIC_REQUIRE(std::is_trivially_copyable_v<value_it>);
  STATIC_REQUIRE(std::is_trivially_copyable_v<replace_it>);

  std::int32_t const data[] = {10, 11, 12, 13, 14, 15};
  colx::column_device_view<std::int32_t> const view{data, nullptr, 0, 6};
  auto const begin = colx::make_value_iterator(view);
  auto const end = colx::make_value_iterator(view, view.size);
  CHECK(end - begin == 6);
  CHECK(*begin == 10);
  CHECK(begin[4] == 14);
  CHECK(*(begin + 2) == 12);
  CHECK(*(2 + begin) == 12);
  CHECK(*(end - 1) == 15);
  auto it = begin;
  CHECK(*it++ == 10);
  CHECK(*it == 11);
  CHECK(*++it == 12);
  CHECK(*--it == 11);
  CHECK(*it-- == 11);
  CHECK(it == begin);
  it += 5;
  CHECK(*it == 15);
  it -= 3;
  CHECK(*it == 12);
  CHECK(begin < it);
  CHECK(it <= it);
  CHECK(end > it);
  CHECK(end >= end);
  CHECK(begin != end);
  CHECK(std::distance(begin, end) == 6);
  CHECK(*std::max_element(begin, end) == 15);
  CHECK(std::vector<std::int32_t>(begin, end) == std::vector<std::int32_t>(std::begin(data), std::end(data)));
  // Starting at another row.
  CHECK(*colx::make_value_iterator(view, 3) == 13);
  CHECK(colx::make_value_iterator(view, 3) - begin == 3);
}

TEST_CASE("iterators: std algorithms over a host column", "[column][iterators]") {
  auto const values = nullable_values(1000);
  auto const c = colx::make_column(values, {}, colx::get_current_host_resource());
  REQUIRE(c.kind() == colx::memory_kind::host);
  for (auto const [b, e] : slices) {
    INFO("slice [" << b << ", " << e << ")");
    auto const view = c.view().slice(b, e).device_view();
    size_type const n = e - b;

    // Values: nulls read whatever is stored (make_column stores 0).
    auto const vb = colx::make_value_iterator(view);
    auto const ve = colx::make_value_iterator(view, n);
    CHECK(std::accumulate(vb, ve, std::int64_t{0}) == sum_replaced(values, b, e, 0));

    // Null replacement with a non-zero replacement, so nulls count.
    auto const rb = colx::make_null_replacement_iterator(view, std::int64_t{1000000});
    auto const re = rb + n;
    CHECK(std::accumulate(rb, re, std::int64_t{0}) == sum_replaced(values, b, e, 1000000));
    optionals<std::int64_t> replaced;
    std::transform(rb, re, std::back_inserter(replaced), [](std::int64_t x) { return std::optional<std::int64_t>(x); });
    for (size_type i = 0; i < n; ++i) {
      CHECK(replaced[static_cast<std::size_t>(i)] == values[static_cast<std::size_t>(b + i)].value_or(1000000));
    }

    // Validity.
    auto const fb = colx::make_validity_iterator(view);
    CHECK(std::count(fb, fb + n, true) == count_valid(values, b, e));
    CHECK(std::count(fb, fb + n, false) == n - count_valid(values, b, e));

    // Pairs.
    auto const pb = colx::make_pair_iterator(view);
    auto const pe = colx::make_pair_iterator(view, n);
    CHECK(std::count_if(pb, pe, [](auto const& p) { return p.valid; }) == count_valid(values, b, e));
    std::int64_t pair_sum = 0;
    bool pairs_match = true;
    for (auto it = pb; it != pe; ++it) {
      auto const p = *it;
      auto const& expected = values[static_cast<std::size_t>(b + (it - pb))];
      pairs_match = pairs_match && p.valid == expected.has_value() && (!p.valid || p.value == *expected);
      if (p.valid) { pair_sum += p.value; }
    }
    CHECK(pairs_match);
    CHECK(pair_sum == sum_replaced(values, b, e, 0));
    CHECK(std::transform_reduce(pb, pe, std::int64_t{0}, plus_fn{}, valid_value_fn{}) == pair_sum);
  }
}

TEST_CASE("iterators: a column without a mask is all valid", "[column][iterators]") {
  auto const c = colx::sequence<double>(4097, 0.0, 0.5, {}, colx::get_current_host_resource());
  auto const view = c.view().slice(33, 4097).device_view();
  CHECK_FALSE(view.nullable());
  auto const fb = colx::make_validity_iterator(view);
  CHECK(std::all_of(fb, fb + view.size, [](bool v) { return v; }));
  auto const rb = colx::make_null_replacement_iterator(view, -1.0);
  auto const vb = colx::make_value_iterator(view);
  CHECK(std::equal(rb, rb + view.size, vb));
  CHECK(*vb == 16.5);
  CHECK(vb[view.size - 1] == 2048.0);
}

#if COLX_HAS_CUDA
TEST_CASE("iterators: Thrust and CUB over a device column", "[column][iterators][cuda]") {
  if (!colx::test::on_device()) {
    SUCCEED("device iterators: the run over device frames covers them");
    return;
  }
  auto const values = nullable_values(1000);
  auto const c = colx::make_column(values, {}, colx::get_current_device_resource());
  REQUIRE(c.kind() == colx::memory_kind::device);
  cudaStream_t stream{};
  REQUIRE(cudaStreamCreate(&stream) == cudaSuccess);
  for (auto const [b, e] : slices) {
    INFO("slice [" << b << ", " << e << ")");
    auto const view = c.view().slice(b, e, stream).device_view();
    size_type const n = e - b;
    auto const policy = thrust::cuda::par.on(stream);

    auto const vb = colx::make_value_iterator(view);
    CHECK(thrust::reduce(policy, vb, vb + n, std::int64_t{0}, plus_fn{}) == sum_replaced(values, b, e, 0));
    auto const rb = colx::make_null_replacement_iterator(view, std::int64_t{-77});
    CHECK(thrust::reduce(policy, rb, rb + n, std::int64_t{0}, plus_fn{}) == sum_replaced(values, b, e, -77));
    auto const fb = colx::make_validity_iterator(view);
    CHECK(static_cast<std::int64_t>(thrust::count(policy, fb, fb + n, true)) == count_valid(values, b, e));
    auto const pb = colx::make_pair_iterator(view);
    CHECK(static_cast<std::int64_t>(thrust::count_if(policy, pb, pb + n, is_valid_fn{})) == count_valid(values, b, e));

    // CUB, with its temporary storage and the result in device memory.
    colx::uvector<std::int64_t> out(1, stream);
    std::size_t temp_bytes = 0;
    REQUIRE(cub::DeviceReduce::Sum(nullptr, temp_bytes, rb, out.data(), n, stream) == cudaSuccess);
    colx::uvector<unsigned char> temp(static_cast<size_type>(std::max<std::size_t>(temp_bytes, 1)), stream);
    REQUIRE(cub::DeviceReduce::Sum(temp.data(), temp_bytes, rb, out.data(), n, stream) == cudaSuccess);
    CHECK(out.element(0, stream) == sum_replaced(values, b, e, -77));
    temp_bytes = 0;
    REQUIRE(cub::DeviceReduce::Reduce(nullptr, temp_bytes, vb, out.data(), n, plus_fn{}, std::int64_t{5}, stream) ==
            cudaSuccess);
    colx::uvector<unsigned char> temp2(static_cast<size_type>(std::max<std::size_t>(temp_bytes, 1)), stream);
    REQUIRE(cub::DeviceReduce::Reduce(temp2.data(), temp_bytes, vb, out.data(), n, plus_fn{}, std::int64_t{5}, stream) ==
            cudaSuccess);
    CHECK(out.element(0, stream) == sum_replaced(values, b, e, 0) + 5);
  }
  REQUIRE(cudaStreamSynchronize(stream) == cudaSuccess);
  REQUIRE(cudaStreamDestroy(stream) == cudaSuccess);
}
#endif
