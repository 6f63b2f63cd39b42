// SPDX-License-Identifier: Apache-2.0
// sort_by, argsort and top_k on the backend under test, against std::stable_sort of the row
// numbers under a comparator written here from the documented order: ascending or descending,
// nulls last unless nulls_first(), NaN after every number (before them when descending), -0.0
// equal to +0.0, strings by unsigned bytes, and equal keys in input order (checked through a
// payload column holding the row number). Keys of every fixed-width kind and strings; one key and
// several, in every code path: keys packed into 32 or 64 bits for the radix sort, keys too wide
// for that (row comparator), key expressions, and a lone non-null integer column (keys only).
#include "support/backend.hpp"
#include "support/rows.hpp"

#include <colx/frame/sort.hpp>

#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <functional>
#include <limits>
#include <numeric>
#include <optional>
#include <random>
#include <string>
#include <type_traits>
#include <vector>

using namespace colx::literals;

namespace {

using colx::size_type;
using colx::test::backend_resource;

template <class T>
using optionals = std::vector<std::optional<T>>;

// Not multiples of a block, a mask word or a host chunk. With a row comparator the GPU sorts up to
// 1,024 rows by comparing all pairs at once (gpu/sort.cuh; 8,192 with a string key), and 1,025 and
// 4,097 by merge sort.
constexpr std::size_t sizes[] = {0, 1, 31, 200, 256, 257, 1000, 1025, 4097};  // (sort paths change at 256, 1024)

template <class T>
using host_t = std::conditional_t<std::is_same_v<T, colx::string_view>, std::string, T>;

// ---- the reference order ------------------------------------------------------------------------

struct spec {
  bool descending = false;
  bool nulls_first = false;
};

// -1, 0 or 1 as a comes before, with or after b in ascending order.
template <class T>
int compare_values(T const& a, T const& b) {
  if constexpr (std::is_floating_point_v<T>) {
    bool const a_nan = std::isnan(a);
    bool const b_nan = std::isnan(b);
    if (a_nan && b_nan) { return 0; }
    if (a_nan) { return 1; }  // NaN is the largest value
    if (b_nan) { return -1; }
    if (a == b) { return 0; }  // -0.0 == +0.0
    return a < b ? -1 : 1;
  } else if constexpr (std::is_same_v<T, std::string>) {
    // Byte by byte as unsigned char, then the shorter first.
    std::size_t const n = std::min(a.size(), b.size());
    for (std::size_t i = 0; i < n; ++i) {
      auto const x = static_cast<unsigned char>(a[i]);
      auto const y = static_cast<unsigned char>(b[i]);
      if (x != y) { return x < y ? -1 : 1; }
    }
    if (a.size() == b.size()) { return 0; }
    return a.size() < b.size() ? -1 : 1;
  } else if constexpr (std::is_same_v<T, colx::date32>) {
    return a.ticks == b.ticks ? 0 : (a.ticks < b.ticks ? -1 : 1);
  } else if constexpr (std::is_same_v<T, bool>) {
    return a == b ? 0 : (!a ? -1 : 1);
  } else {
    return a == b ? 0 : (a < b ? -1 : 1);
  }
}

template <class T>
int compare_key(std::optional<T> const& a, std::optional<T> const& b, spec s) {
  if (!a.has_value() && !b.has_value()) { return 0; }
  if (!a.has_value()) { return s.nulls_first ? -1 : 1; }
  if (!b.has_value()) { return s.nulls_first ? 1 : -1; }
  int const c = compare_values(*a, *b);
  return s.descending ? -c : c;
}

using row_compare = std::function<int(std::size_t, std::size_t)>;

template <class T>
row_compare by(optionals<T> const& v, spec s) {
  return [&v, s](std::size_t a, std::size_t b) { return compare_key(v[a], v[b], s); };
}
template <class T>
row_compare by(std::vector<T> const& v, spec s) {
  return [&v, s](std::size_t a, std::size_t b) { return compare_key(std::optional<T>(v[a]), std::optional<T>(v[b]), s); };
}

// The stable order of rows 0..n-1 under the keys, first key first.
std::vector<std::int32_t> reference_order(std::size_t n, std::vector<row_compare> const& keys) {
  std::vector<std::int32_t> order(n);
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(), [&](std::int32_t a, std::int32_t b) {
    for (auto const& k : keys) {
      int const c = k(static_cast<std::size_t>(a), static_cast<std::size_t>(b));
      if (c != 0) { return c < 0; }
    }
    return false;
  });
  return order;
}

template <class V>
V permute(V const& v, std::vector<std::int32_t> const& order) {
  V out;
  for (auto const r : order) { out.push_back(v[static_cast<std::size_t>(r)]); }
  return out;
}

// Equal values, bit for bit for floating point (the sign of zero, NaN for NaN).
template <class T>
bool same_value(T const& a, T const& b) {
  if constexpr (std::is_floating_point_v<T>) {
    return std::memcmp(&a, &b, sizeof(T)) == 0 || (std::isnan(a) && std::isnan(b));
  } else {
    return a == b;
  }
}
template <class T>
bool same_values(optionals<T> const& a, optionals<T> const& b) {
  if (a.size() != b.size()) { return false; }
  for (std::size_t i = 0; i < a.size(); ++i) {
    if (a[i].has_value() != b[i].has_value()) { return false; }
    if (a[i] && !same_value(*a[i], *b[i])) { return false; }
  }
  return true;
}
template <class T>
bool same_values(std::vector<T> const& a, std::vector<T> const& b) {
  if (a.size() != b.size()) { return false; }
  for (std::size_t i = 0; i < a.size(); ++i) {
    if (!same_value(a[i], b[i])) { return false; }
  }
  return true;
}

// ---- data ----------------------------------------------------------------------------------------

// Values a sort must get right: extremes, signed zeros, NaN, infinities, tiny and huge values.
template <class T>
std::vector<host_t<T>> palette() {
  if constexpr (std::is_same_v<T, colx::string_view>) {
    return {"", "a", "ab", "abc", "b", "A", "Z", "h\xc3\xa9llo", "hz", "\x7f", "\xff", "a\xff", "zzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzz"};
  } else if constexpr (std::is_same_v<T, bool>) {
    return {false, true};
  } else if constexpr (std::is_same_v<T, colx::date32>) {
    return {colx::date32(std::numeric_limits<std::int32_t>::min()), colx::date32(std::numeric_limits<std::int32_t>::max()),
            colx::date(1969, 12, 31), colx::date(1970, 1, 1), colx::date(2024, 2, 29), colx::date(1, 1, 1)};
  } else if constexpr (std::is_floating_point_v<T>) {
    using L = std::numeric_limits<T>;
    return {L::quiet_NaN(), -L::quiet_NaN(), T(-0.0), T(0.0), L::infinity(), -L::infinity(), L::lowest(), L::max(),
            L::denorm_min(), -L::denorm_min(), L::min(), T(1.5), T(-1.5)};
  } else {
    using L = std::numeric_limits<T>;
    return {L::min(), L::max(), T(0), T(1), static_cast<T>(L::max() - 1), static_cast<T>(L::min() + 1), static_cast<T>(-1)};
  }
}

// Half from the palette (many ties), half random; `nulls` of them null.
template <class T>
optionals<host_t<T>> random_keys(std::size_t n, std::uint64_t seed, double nulls) {
  std::mt19937_64 gen(seed);
  auto const pal = palette<T>();
  optionals<host_t<T>> out(n);
  for (auto& v : out) {
    bool const is_null = std::bernoulli_distribution(nulls)(gen);
    host_t<T> x{};
    if (gen() % 2 == 0) {
      x = pal[gen() % pal.size()];
    } else if constexpr (std::is_same_v<T, colx::string_view>) {
      char const alphabet[] = {'a', 'b', 'A', '\x7f', '\xc3', '\xa9', '\xff', ' '};
      std::size_t const length = gen() % 6;
      for (std::size_t c = 0; c < length; ++c) { x.push_back(alphabet[gen() % 8]); }
    } else if constexpr (std::is_same_v<T, bool>) {
      x = gen() % 2 == 0;
    } else if constexpr (std::is_same_v<T, colx::date32>) {
      x = colx::date32(static_cast<std::int32_t>(gen() % 40000) - 20000);
    } else if constexpr (std::is_floating_point_v<T>) {
      x = static_cast<T>(std::uniform_real_distribution<double>(-1e6, 1e6)(gen));
    } else if constexpr (sizeof(T) <= 2) {
      x = static_cast<T>(gen());  // the whole range, with repeats
    } else {
      x = static_cast<T>(gen() % 2 == 0 ? gen() : gen() % 64);  // the whole range, and small values with repeats
    }
    if (!is_null) { v = x; }
  }
  return out;
}

template <class T>
auto key_column(optionals<host_t<T>> const& v) {
  if constexpr (std::is_same_v<T, colx::string_view>) {
    return colx::make_strings_column(v, colx::type_id::int32, {}, backend_resource());
  } else {
    return colx::make_column<T>(v, {}, backend_resource());
  }
}

using colx::test::read;

std::vector<std::int32_t> row_numbers(std::size_t n) {
  std::vector<std::int32_t> p(n);
  std::iota(p.begin(), p.end(), 0);
  return p;
}

template <class E>
auto make_key(E const& e, spec s) {
  auto const k = s.descending ? colx::desc(e) : colx::asc(e);
  return s.nulls_first ? k.nulls_first() : k.nulls_last();
}

constexpr spec all_specs[] = {{false, false}, {true, false}, {false, true}, {true, true}};

// ---- one key of type T -----------------------------------------------------------------------------

template <class T>
void check_one_key(std::size_t n, std::uint64_t seed) {
  CAPTURE(n);
  using K = colx::schema<colx::field<"k", T>, colx::field<"p", std::int32_t, colx::not_null>>;
  auto const keys = random_keys<T>(n, seed, 0.15);
  colx::frame<K> const f(key_column<T>(keys), colx::make_column<std::int32_t>(row_numbers(n), {}, backend_resource()));
  auto const nulls = static_cast<size_type>(std::count(keys.begin(), keys.end(), std::nullopt));
  for (spec const s : all_specs) {
    CAPTURE(s.descending, s.nulls_first);
    auto const key = make_key("k"_c, s);
    auto const want = reference_order(n, {by(keys, s)});

    auto const sorted = f | colx::sort_by(key);
    REQUIRE(sorted.num_rows() == static_cast<size_type>(n));
    CHECK(colx::to_vector(sorted["p"_c].view()) == want);
    CHECK(same_values(read(sorted["k"_c]), permute(keys, want)));
    CHECK(sorted["k"_c].null_count() == nulls);

    CHECK(colx::to_vector(colx::argsort(f, key).view()) == want);

    for (size_type const k : {size_type{0}, size_type{3}, static_cast<size_type>(n), static_cast<size_type>(n) + 10}) {
      auto const top = colx::top_k(f, k, key);
      auto const m = static_cast<std::size_t>(std::min<size_type>(k, static_cast<size_type>(n)));
      CHECK(colx::to_vector(top["p"_c].view()) == std::vector<std::int32_t>(want.begin(), want.begin() + static_cast<std::ptrdiff_t>(m)));
      auto const top_keys = read(top["k"_c]);
      CHECK(top["k"_c].null_count() ==
            static_cast<size_type>(std::count_if(top_keys.begin(), top_keys.end(), [](auto const& v) { return !v.has_value(); })));
    }
  }
}

// ---- several keys ------------------------------------------------------------------------------------

using M = colx::schema<colx::field<"a", std::int16_t>, colx::field<"b", std::int8_t>, colx::field<"c", bool, colx::not_null>,
                       colx::field<"i", std::int32_t, colx::not_null>, colx::field<"f", float, colx::not_null>,
                       colx::field<"s", colx::string_view>, colx::field<"x", double>, colx::field<"l", std::int64_t>,
                       colx::field<"p", std::int32_t, colx::not_null>>;

struct mixed_rows {
  optionals<std::int16_t> a;
  optionals<std::int8_t> b;
  std::vector<bool> c;
  std::vector<std::int32_t> i;
  std::vector<float> f;
  optionals<std::string> s;
  optionals<double> x;
  optionals<std::int64_t> l;
};

// Narrow ranges, so that every key has ties and later keys decide.
mixed_rows random_mixed(std::size_t n, std::uint64_t seed) {
  std::mt19937_64 gen(seed);
  auto const pick = [&](auto const& values) { return values[gen() % values.size()]; };
  auto const null = [&](int percent) { return static_cast<int>(gen() % 100) < percent; };
  std::vector<std::int16_t> const as{-32768, 32767, -1, 0, 1, 2};
  std::vector<std::int8_t> const bs{-128, 127, 0, 5};
  std::vector<std::int32_t> const is{std::numeric_limits<std::int32_t>::min(), std::numeric_limits<std::int32_t>::max(), -7, 0, 7};
  std::vector<float> const fs{-0.0f, 0.0f, 1.5f, -1.5f, std::numeric_limits<float>::infinity(), std::numeric_limits<float>::quiet_NaN()};
  std::vector<std::string> const ss{"", "a", "ab", "b", "h\xc3\xa9llo", "hz"};
  std::vector<double> const xs{-0.0, 0.0, 2.5, -2.5, std::numeric_limits<double>::quiet_NaN(), -std::numeric_limits<double>::infinity()};
  mixed_rows r;
  for (std::size_t k = 0; k < n; ++k) {
    r.a.push_back(null(15) ? std::nullopt : std::optional<std::int16_t>(pick(as)));
    r.b.push_back(null(15) ? std::nullopt : std::optional<std::int8_t>(pick(bs)));
    r.c.push_back(gen() % 2 == 0);
    r.i.push_back(pick(is));
    r.f.push_back(pick(fs));
    r.s.push_back(null(15) ? std::nullopt : std::optional<std::string>(pick(ss)));
    r.x.push_back(null(15) ? std::nullopt : std::optional<double>(pick(xs)));
    r.l.push_back(null(15) ? std::nullopt : std::optional<std::int64_t>(static_cast<std::int64_t>(gen() % 61) - 30));
  }
  return r;
}

colx::frame<M> make_mixed(mixed_rows const& r) {
  auto const mr = backend_resource();
  return colx::frame<M>(colx::make_column<std::int16_t>(r.a, {}, mr), colx::make_column<std::int8_t>(r.b, {}, mr),
                        colx::make_column<bool>(r.c, {}, mr), colx::make_column<std::int32_t>(r.i, {}, mr),
                        colx::make_column<float>(r.f, {}, mr), colx::make_strings_column(r.s, colx::type_id::int32, {}, mr),
                        colx::make_column<double>(r.x, {}, mr), colx::make_column<std::int64_t>(r.l, {}, mr),
                        colx::make_column<std::int32_t>(row_numbers(r.c.size()), {}, mr));
}

// The sorted frame holds the rows in `want`'s order, every column.
void check_mixed(colx::frame<M> const& sorted, mixed_rows const& r, std::vector<std::int32_t> const& want) {
  REQUIRE(sorted.num_rows() == static_cast<size_type>(want.size()));
  CHECK(colx::to_vector(sorted["p"_c].view()) == want);
  CHECK(colx::to_optional_vector(sorted["a"_c].view()) == permute(r.a, want));
  CHECK(colx::to_optional_vector(sorted["b"_c].view()) == permute(r.b, want));
  CHECK(colx::to_vector(sorted["c"_c].view()) == permute(r.c, want));
  CHECK(colx::to_vector(sorted["i"_c].view()) == permute(r.i, want));
  CHECK(same_values(colx::to_vector(sorted["f"_c].view()), permute(r.f, want)));
  CHECK(colx::to_strings(sorted["s"_c].view()) == permute(r.s, want));
  CHECK(same_values(colx::to_optional_vector(sorted["x"_c].view()), permute(r.x, want)));
  CHECK(colx::to_optional_vector(sorted["l"_c].view()) == permute(r.l, want));
  // Null counts, which a sort of every row takes from its input rather than counting.
  auto const nulls_in = [&](auto const& v) {
    auto const rows = permute(v, want);
    return static_cast<size_type>(std::count(rows.begin(), rows.end(), std::nullopt));
  };
  CHECK(sorted["a"_c].null_count() == nulls_in(r.a));
  CHECK(sorted["b"_c].null_count() == nulls_in(r.b));
  CHECK(sorted["s"_c].null_count() == nulls_in(r.s));
  CHECK(sorted["x"_c].null_count() == nulls_in(r.x));
  CHECK(sorted["l"_c].null_count() == nulls_in(r.l));
}

std::vector<spec> random_specs(std::mt19937& gen, std::size_t keys) {
  std::vector<spec> out(keys);
  for (auto& s : out) { s = all_specs[gen() % 4]; }
  return out;
}

}  // namespace

// ---------------------------------------------------------------------------------------------------

TEST_CASE("sort: one key of every kind, ascending and descending, nulls first and last", "[frame]") {
  std::uint64_t seed = 1;
  for (std::size_t const n : sizes) {
    check_one_key<std::int8_t>(n, ++seed);
    check_one_key<std::int16_t>(n, ++seed);
    check_one_key<std::int32_t>(n, ++seed);
    check_one_key<std::int64_t>(n, ++seed);
    check_one_key<std::uint64_t>(n, ++seed);
    check_one_key<float>(n, ++seed);
    check_one_key<double>(n, ++seed);
    check_one_key<bool>(n, ++seed);
    check_one_key<colx::date32>(n, ++seed);
    check_one_key<colx::string_view>(n, ++seed);
  }
}

TEST_CASE("sort: several keys, packed into 32, 64 or 128 bits or compared row by row", "[frame]") {
  std::mt19937 gen(7);
  for (std::size_t const n : sizes) {
    CAPTURE(n);
    auto const r = random_mixed(n, 100 + n);
    auto const f = make_mixed(r);
    for (int trial = 0; trial < 4; ++trial) {
      auto const s = random_specs(gen, 3);
      CAPTURE(trial, s[0].descending, s[0].nulls_first, s[1].descending, s[1].nulls_first, s[2].descending, s[2].nulls_first);

      // int16? + int8? + bool: 27 bits.
      check_mixed(f | colx::sort_by(make_key("a"_c, s[0]), make_key("b"_c, s[1]), make_key("c"_c, s[2])), r,
                  reference_order(n, {by(r.a, s[0]), by(r.b, s[1]), by(r.c, s[2])}));
      // int32 + float, both not_null: exactly 64 bits.
      check_mixed(f | colx::sort_by(make_key("i"_c, s[0]), make_key("f"_c, s[1])), r,
                  reference_order(n, {by(r.i, s[0]), by(r.f, s[1])}));
      // int32 + int16? + bool: 50 bits.
      check_mixed(f | colx::sort_by(make_key("i"_c, s[0]), make_key("a"_c, s[1]), make_key("c"_c, s[2])), r,
                  reference_order(n, {by(r.i, s[0]), by(r.a, s[1]), by(r.c, s[2])}));
      // double? + int32: 97 bits, a 128-bit radix key.
      check_mixed(f | colx::sort_by(make_key("x"_c, s[0]), make_key("i"_c, s[1])), r,
                  reference_order(n, {by(r.x, s[0]), by(r.i, s[1])}));
      // int64? + double?: 130 bits, the row comparator.
      check_mixed(f | colx::sort_by(make_key("l"_c, s[0]), make_key("x"_c, s[1])), r,
                  reference_order(n, {by(r.l, s[0]), by(r.x, s[1])}));
      // string? + double? + int64?: the row comparator.
      check_mixed(f | colx::sort_by(make_key("s"_c, s[0]), make_key("x"_c, s[1]), make_key("l"_c, s[2])), r,
                  reference_order(n, {by(r.s, s[0]), by(r.x, s[1]), by(r.l, s[2])}));
    }
    // Plain column references sort ascending with nulls last.
    check_mixed(f | colx::sort_by("b"_c, "s"_c), r, reference_order(n, {by(r.b, spec{}), by(r.s, spec{})}));
  }
}

// Past 8,192 rows: a top-k by keys the radix sort does not take sorts only its candidates, the
// rows whose first key's 64-bit prefix is at most the k-th smallest (frame/top_rows.hpp); a sort
// by a string key is CUB's merge sort again (gpu/sort.cuh compares every pair below).
TEST_CASE("sort: top_k of many rows sorts its candidates; a string key past 8,192 rows merge-sorts", "[frame]") {
  std::mt19937 gen(13);
  for (std::size_t const n : {std::size_t{8192}, std::size_t{20011}}) {
    CAPTURE(n);
    auto const r = random_mixed(n, 300 + n);
    auto const f = make_mixed(r);
    for (int trial = 0; trial < 3; ++trial) {
      auto const s = random_specs(gen, 3);
      CAPTURE(trial, s[0].descending, s[0].nulls_first, s[1].descending, s[1].nulls_first, s[2].descending, s[2].nulls_first);
      auto const by_l_x = reference_order(n, {by(r.l, s[0]), by(r.x, s[1])});
      auto const by_x_l = reference_order(n, {by(r.x, s[0]), by(r.l, s[1])});
      auto const by_s_x_l = reference_order(n, {by(r.s, s[0]), by(r.x, s[1]), by(r.l, s[2])});
      for (size_type const k : {size_type{1}, size_type{10}, size_type{1024}, size_type{1025}}) {
        CAPTURE(k);
        auto const first = [&](std::vector<std::int32_t> const& want) {
          return std::vector<std::int32_t>(want.begin(), want.begin() + k);
        };
        // int64? + double?: 130 bits; the first key's prefix is its 64 bits less one, for the null.
        check_mixed(colx::top_k(f, k, make_key("l"_c, s[0]), make_key("x"_c, s[1])), r, first(by_l_x));
        check_mixed(colx::top_k(f, k, make_key("x"_c, s[0]), make_key("l"_c, s[1])), r, first(by_x_l));
        // A string first: its first 8 bytes (the short random strings tie often).
        check_mixed(colx::top_k(f, k, make_key("s"_c, s[0]), make_key("x"_c, s[1]), make_key("l"_c, s[2])), r,
                    first(by_s_x_l));
        // A nullable 16-bit first key (its null bit above its 16), a non-null int32, a non-null float.
        check_mixed(colx::top_k(f, k, make_key("a"_c, s[0]), make_key("s"_c, s[1])), r,
                    first(reference_order(n, {by(r.a, s[0]), by(r.s, s[1])})));
        check_mixed(colx::top_k(f, k, make_key("i"_c, s[0]), make_key("s"_c, s[1])), r,
                    first(reference_order(n, {by(r.i, s[0]), by(r.s, s[1])})));
        check_mixed(colx::top_k(f, k, make_key("f"_c, s[0]), make_key("s"_c, s[1])), r,
                    first(reference_order(n, {by(r.f, s[0]), by(r.s, s[1])})));
      }
      check_mixed(f | colx::sort_by(make_key("s"_c, s[0]), make_key("x"_c, s[1]), make_key("l"_c, s[2])), r, by_s_x_l);
    }
  }
}

// Strings longer than their 8-byte prefix: "Cu" and 8 digits tie in hundreds on the prefix (the
// comparator orders the candidates), and "Customer#" and 8 digits all tie (more than 8,192
// candidates: every row is sorted).
TEST_CASE("sort: top_k by strings that tie on their first 8 bytes", "[frame]") {
  using S = colx::schema<colx::field<"s", colx::string_view>, colx::field<"p", std::int32_t, colx::not_null>>;
  std::mt19937_64 gen(19);
  std::size_t const n = 12011;
  for (std::string const head : {"Cu", "Customer#"}) {
    CAPTURE(head);
    optionals<std::string> v(n);
    for (auto& x : v) {
      if (gen() % 13 == 0) { continue; }  // null
      char digits[16];
      std::snprintf(digits, sizeof digits, "%08u", static_cast<unsigned>(gen() % 100000000u));
      x = head + digits;
    }
    colx::frame<S> const f(colx::make_strings_column(v, colx::type_id::int32, {}, backend_resource()),
                           colx::make_column<std::int32_t>(row_numbers(n), {}, backend_resource()));
    for (spec const s : all_specs) {
      CAPTURE(s.descending, s.nulls_first);
      auto const want = reference_order(n, {by(v, s)});
      for (size_type const k : {size_type{1}, size_type{100}}) {
        auto const top = colx::top_k(f, k, make_key("s"_c, s));
        CHECK(colx::to_vector(top["p"_c].view()) == std::vector<std::int32_t>(want.begin(), want.begin() + k));
      }
    }
  }
}

// A decimal128 first key (a sum of decimals: TPC-H Q3 and Q10 take their top rows by one). Its
// prefix is the value clamped to 64 bits, so values past 2^63 tie there and the comparator
// orders them; small values repeat.
TEST_CASE("sort: top_k by a decimal128 key among many rows", "[frame]") {
  using D = colx::schema<colx::field<"d", colx::decimal128>, colx::field<"p", std::int32_t, colx::not_null>>;
  std::mt19937_64 gen(17);
  for (std::size_t const n : {std::size_t{8192}, std::size_t{20011}}) {
    CAPTURE(n);
    optionals<colx::decimal128> d(n);
    for (auto& v : d) {
      auto const pick = gen() % 10;
      colx::int128_t x = static_cast<colx::int128_t>(static_cast<std::int64_t>(gen() % 2001) - 1000);  // repeats
      if (pick == 0) { x = (colx::int128_t{1} << 70) + static_cast<colx::int128_t>(gen() % 1000); }  // past 2^63
      if (pick == 1) { x = -(colx::int128_t{1} << 70) - static_cast<colx::int128_t>(gen() % 1000); }
      if (pick == 2) { x = static_cast<colx::int128_t>(static_cast<std::int64_t>(gen())); }  // the whole 64-bit range
      if (pick != 3) { v = colx::decimal128{x}; }  // a tenth null
    }
    colx::frame<D> const f(colx::make_decimal_column(d, -2, {}, backend_resource()),
                           colx::make_column<std::int32_t>(row_numbers(n), {}, backend_resource()));
    for (spec const s : all_specs) {
      CAPTURE(s.descending, s.nulls_first);
      auto const want = reference_order(n, {by(d, s)});
      for (size_type const k : {size_type{1}, size_type{10}, size_type{1000}}) {
        CAPTURE(k);
        auto const top = colx::top_k(f, k, make_key("d"_c, s));
        CHECK(colx::to_vector(top["p"_c].view()) == std::vector<std::int32_t>(want.begin(), want.begin() + k));
        CHECK(top["d"_c].type().scale() == -2);
      }
    }
  }
}

TEST_CASE("sort: key expressions", "[frame]") {
  std::mt19937 gen(11);
  for (std::size_t const n : sizes) {
    CAPTURE(n);
    auto const r = random_mixed(n, 200 + n);
    auto const f = make_mixed(r);
    optionals<std::int32_t> minus_a;  // a * -1, in int (C++'s promotion): no overflow at -32768
    optionals<std::int64_t> l_mod;    // l % 10
    for (std::size_t k = 0; k < n; ++k) {
      minus_a.push_back(r.a[k] ? std::optional<std::int32_t>(-std::int32_t{*r.a[k]}) : std::nullopt);
      l_mod.push_back(r.l[k] ? std::optional<std::int64_t>(*r.l[k] % 10) : std::nullopt);
    }
    // desc(a * -1) orders like asc(a), nulls included.
    check_mixed(f | colx::sort_by(colx::desc("a"_c * -1), "p"_c), r, reference_order(n, {by(r.a, spec{})}));
    for (int trial = 0; trial < 4; ++trial) {
      auto const s = random_specs(gen, 2);
      CAPTURE(trial, s[0].descending, s[0].nulls_first, s[1].descending, s[1].nulls_first);
      check_mixed(f | colx::sort_by(make_key("a"_c * -1, s[0]), make_key("b"_c, s[1])), r,
                  reference_order(n, {by(minus_a, s[0]), by(r.b, s[1])}));
      // int64? % 10 (65 bits) then a string: the row comparator on an expression.
      check_mixed(f | colx::sort_by(make_key("l"_c % 10, s[0]), make_key("s"_c, s[1])), r,
                  reference_order(n, {by(l_mod, s[0]), by(r.s, s[1])}));
    }
    // argsort and top_k with several keys.
    auto const want = reference_order(n, {by(r.x, spec{true, true}), by(r.s, spec{})});
    auto const key0 = colx::desc("x"_c).nulls_first();
    CHECK(colx::to_vector(colx::argsort(f, key0, "s"_c).view()) == want);
    auto const top = colx::top_k(f, 7, key0, "s"_c);
    std::size_t const m = std::min<std::size_t>(7, n);
    check_mixed(top, r, std::vector<std::int32_t>(want.begin(), want.begin() + static_cast<std::ptrdiff_t>(m)));
    CHECK_THROWS_AS(colx::top_k(f, -1, "a"_c), colx::logic_error);
  }
}

TEST_CASE("sort: a lone integer column, keys only when it has no nulls", "[frame]") {
  using I64 = colx::schema<colx::field<"k", std::int64_t, colx::not_null>>;
  using U32 = colx::schema<colx::field<"k", std::uint32_t, colx::not_null>>;
  using N64 = colx::schema<colx::field<"k", std::int64_t>>;
  for (std::size_t const n : sizes) {
    CAPTURE(n);
    auto const with_nulls = random_keys<std::int64_t>(n, 300 + n, 0.2);
    auto const dense = random_keys<std::int64_t>(n, 400 + n, 0.0);
    std::vector<std::int64_t> values;
    for (auto const& v : dense) { values.push_back(*v); }
    std::vector<std::uint32_t> unsigned_values;  // half of them at 2^31 or above
    for (auto const& v : dense) { unsigned_values.push_back(static_cast<std::uint32_t>(*v) ^ (unsigned_values.size() % 2 ? 0x80000000u : 0u)); }

    auto ascending = values;
    std::sort(ascending.begin(), ascending.end());
    auto descending = ascending;
    std::reverse(descending.begin(), descending.end());
    auto u_ascending = unsigned_values;
    std::sort(u_ascending.begin(), u_ascending.end());
    auto u_descending = u_ascending;
    std::reverse(u_descending.begin(), u_descending.end());

    colx::frame<I64> const f(colx::make_column<std::int64_t>(values, {}, backend_resource()));
    CHECK(colx::to_vector((f | colx::sort_by("k"_c))["k"_c].view()) == ascending);
    CHECK(colx::to_vector((f | colx::sort_by(colx::desc("k"_c)))["k"_c].view()) == descending);
    auto const top = colx::top_k(f, 5, colx::desc("k"_c));
    CHECK(colx::to_vector(top["k"_c].view()) ==
          std::vector<std::int64_t>(descending.begin(), descending.begin() + static_cast<std::ptrdiff_t>(std::min<std::size_t>(5, n))));

    colx::frame<U32> const u(colx::make_column<std::uint32_t>(unsigned_values, {}, backend_resource()));
    CHECK(colx::to_vector((u | colx::sort_by("k"_c))["k"_c].view()) == u_ascending);
    CHECK(colx::to_vector((u | colx::sort_by(colx::desc("k"_c)))["k"_c].view()) == u_descending);

    // A nullable field without nulls takes the same path; with nulls, the general one.
    colx::frame<N64> const g(colx::make_column<std::int64_t>(dense, {}, backend_resource()));
    CHECK(colx::to_optional_vector((g | colx::sort_by(colx::desc("k"_c)))["k"_c].view()) ==
          optionals<std::int64_t>(descending.begin(), descending.end()));
    colx::frame<N64> const h(colx::make_column<std::int64_t>(with_nulls, {}, backend_resource()));
    for (spec const s : all_specs) {
      CAPTURE(s.descending, s.nulls_first);
      auto const want = reference_order(n, {by(with_nulls, s)});
      auto const sorted = h | colx::sort_by(make_key("k"_c, s));
      CHECK(colx::to_optional_vector(sorted["k"_c].view()) == permute(with_nulls, want));
      CHECK(colx::to_vector(colx::argsort(h, make_key("k"_c, s)).view()) == want);  // stable
    }

    // Into a given memory resource, both paths.
    colx::test::tracked_resource mr;
    {
      auto const a = colx::run(f, colx::sort_by(colx::desc("k"_c)), {}, mr.ref());
      auto const b = colx::run(h, colx::sort_by(colx::desc("k"_c)), {}, mr.ref());
      CHECK(colx::to_vector(a["k"_c].view()) == descending);
      CHECK(b.num_rows() == static_cast<size_type>(n));
      if (n > 0) { CHECK(mr.outstanding_bytes() > 0); }
    }
    CHECK(mr.outstanding_bytes() == 0);
  }
}

// From 65,536 rows the radix sort takes only the bits in which the packed keys differ
// (exec/varying_bits.hpp): keys of a few values in wide words, a key every row has alike (the
// input's order is kept), small negative numbers, and several keys with every direction.
TEST_CASE("sort: keys that differ in a few bits, past the size that narrows the radix sort", "[frame]") {
  std::size_t const n = 100'003;
  auto const r = random_mixed(n, 5);
  auto const f = make_mixed(r);
  std::vector<std::int32_t> identity(n);
  std::iota(identity.begin(), identity.end(), 0);
  check_mixed(f | colx::sort_by("i"_c * 0 + 5), r, identity);
  check_mixed(f | colx::sort_by("c"_c), r, reference_order(n, {by(r.c, spec{})}));
  check_mixed(f | colx::sort_by("i"_c), r, reference_order(n, {by(r.i, spec{})}));
  for (spec const s : all_specs) {
    CAPTURE(s.descending, s.nulls_first);
    check_mixed(f | colx::sort_by(make_key("l"_c, s)), r, reference_order(n, {by(r.l, s)}));
    check_mixed(f | colx::sort_by(make_key("b"_c, s), make_key("a"_c, s), make_key("c"_c, s)), r,
                reference_order(n, {by(r.b, s), by(r.a, s), by(r.c, s)}));
    check_mixed(f | colx::sort_by(make_key("x"_c, s), make_key("i"_c, s)), r, reference_order(n, {by(r.x, s), by(r.i, s)}));
  }
}

// One integer column among others, ascending and without nulls, is sorted by its own values and
// only the other columns are gathered (frame/sort.hpp, sort_by_integer_column): every integer
// width and sign, the key between other columns, keys alike in every row, narrow keys past the
// size that narrows the radix sort, and a nullable field without nulls.
template <class T>
void check_integer_key_among_columns(std::size_t n, std::uint64_t seed) {
  CAPTURE(n, sizeof(T), std::is_signed_v<T>);
  using S = colx::schema<colx::field<"x", double>, colx::field<"k", T>, colx::field<"s", colx::string_view, colx::not_null>,
                         colx::field<"p", std::int32_t, colx::not_null>>;
  std::mt19937_64 gen(seed);
  optionals<double> x(n);
  optionals<std::string> s(n);
  for (std::size_t i = 0; i < n; ++i) {
    if (gen() % 5 != 0) { x[i] = static_cast<double>(i) / 4; }
    s[i] = std::string(gen() % 7, static_cast<char>('a' + i % 26));
  }
  auto const mr = backend_resource();
  auto const make = [&](optionals<T> const& keys) {
    return colx::frame<S>(colx::make_column<double>(x, {}, mr), colx::make_column<T>(keys, {}, mr),
                          colx::make_strings_column(s, colx::type_id::int32, {}, mr), colx::make_column<std::int32_t>(row_numbers(n), {}, mr));
  };
  auto const check = [&](optionals<T> const& keys) {
    auto const want = reference_order(n, {by(keys, spec{})});
    auto const sorted = make(keys) | colx::sort_by("k"_c);
    REQUIRE(sorted.num_rows() == static_cast<size_type>(n));
    CHECK(sorted.index() == colx::range_index{});
    CHECK(colx::to_vector(sorted["p"_c].view()) == want);
    CHECK(colx::to_optional_vector(sorted["k"_c].view()) == permute(keys, want));
    CHECK(same_values(colx::to_optional_vector(sorted["x"_c].view()), permute(x, want)));
    CHECK(colx::to_strings(sorted["s"_c].view()) == permute(s, want));
  };
  check(random_keys<T>(n, seed, 0.0));  // the whole range and extremes, with ties
  check(optionals<T>(n, T{7}));         // every key alike: the input's order
  optionals<T> narrow(n);                // a few values: from 65,536 rows only their bits are sorted
  for (auto& v : narrow) { v = static_cast<T>(static_cast<int>(gen() % 61) - (std::is_signed_v<T> ? 30 : 0)); }
  check(narrow);
  // The same with extremes in rows a sample of every 24th row or so (varying_bits) does not read:
  // the keys differ in every bit, which the pass over all of them finds.
  if (n > 2) {
    narrow[1] = std::numeric_limits<T>::max();
    narrow[n - 2] = std::numeric_limits<T>::min();
    check(narrow);
  }
}

TEST_CASE("sort: one integer column among others sorts by its own values", "[frame]") {
  for (std::size_t const n : {std::size_t{0}, std::size_t{1}, std::size_t{31}, std::size_t{1025}, std::size_t{100'003}}) {
    check_integer_key_among_columns<std::int32_t>(n, 11 + n);
    check_integer_key_among_columns<std::uint32_t>(n, 12 + n);
    check_integer_key_among_columns<std::int64_t>(n, 13 + n);
    check_integer_key_among_columns<std::uint64_t>(n, 14 + n);
  }
  // Into a given memory resource.
  using S = colx::schema<colx::field<"k", std::int64_t, colx::not_null>, colx::field<"v", std::int64_t, colx::not_null>>;
  colx::frame<S> const f(colx::make_column<std::int64_t>(std::vector<std::int64_t>{3, -1, 2, -1}, {}, backend_resource()),
                         colx::make_column<std::int64_t>(std::vector<std::int64_t>{0, 1, 2, 3}, {}, backend_resource()));
  colx::test::tracked_resource mr;
  {
    auto const sorted = colx::run(f, colx::sort_by("k"_c), {}, mr.ref());
    CHECK(colx::to_vector(sorted["k"_c].view()) == std::vector<std::int64_t>{-1, -1, 2, 3});
    CHECK(colx::to_vector(sorted["v"_c].view()) == std::vector<std::int64_t>{1, 3, 2, 0});
    CHECK(mr.outstanding_bytes() > 0);
  }
  CHECK(mr.outstanding_bytes() == 0);
}
