// SPDX-License-Identifier: Apache-2.0
// Join keys of different integer types join by value (issue 15): int32 against int64 both ways
// round (a left value beyond int32 matches nothing), uint32 against int32 (-1 is not 4294967295),
// int8 against uint16; alone (keys packed beside the build row) and beside a string key (the
// hashed path). Every kind's pairs against a nested loop comparing values as std::cmp_equal does;
// right and full joins write the shared key in a type holding both sides' values.
#include "support/columns.hpp"
#include "support/rows.hpp"

#include <catch2/catch.hpp>

#include <algorithm>
#include <cstdint>
#include <limits>
#include <optional>
#include <random>
#include <string>
#include <utility>
#include <vector>

using namespace colx::literals;

namespace {

using colx::join_kind;
using colx::size_type;
using colx::test::optionals;
using colx::test::sorted_pairs_of;
using pairs = std::vector<std::pair<size_type, size_type>>;

template <class T>
optionals<T> random_keys(std::size_t n, std::mt19937_64& rng, std::vector<T> const& edges) {
  optionals<T> out;
  for (std::size_t i = 0; i < n; ++i) {
    std::uint64_t const x = rng();
    if (x % 9 == 0) {
      out.push_back(std::nullopt);
    } else if (x % 4 == 0) {
      out.push_back(edges[(x >> 8) % edges.size()]);
    } else {
      out.push_back(static_cast<T>((x >> 16) % 12));
    }
  }
  return out;
}

colx::test::strings random_tags(std::size_t n, std::mt19937_64& rng) {
  colx::test::strings out;
  for (std::size_t i = 0; i < n; ++i) { out.push_back(std::string(1, static_cast<char>('a' + rng() % 2))); }
  return out;
}


// The pairs a join of kind `how` gives, by a nested loop (nulls match nothing).
template <class Match>
pairs reference(join_kind how, std::size_t nl, std::size_t nr, Match match) {
  pairs out;
  std::vector<bool> right_found(nr, false);
  for (std::size_t i = 0; i < nl; ++i) {
    bool found = false;
    for (std::size_t j = 0; j < nr; ++j) {
      if (!match(i, j)) { continue; }
      found = true;
      right_found[j] = true;
      if (how != join_kind::semi && how != join_kind::anti) { out.emplace_back(static_cast<size_type>(i), static_cast<size_type>(j)); }
    }
    bool const keeps_unmatched = how == join_kind::left || how == join_kind::full || how == join_kind::anti;
    if ((!found && keeps_unmatched) || (found && how == join_kind::semi)) { out.emplace_back(static_cast<size_type>(i), -1); }
  }
  if (how == join_kind::right || how == join_kind::full) {
    for (std::size_t j = 0; j < nr; ++j) {
      if (!right_found[j]) { out.emplace_back(-1, static_cast<size_type>(j)); }
    }
  }
  std::sort(out.begin(), out.end());
  return out;
}

template <class A, class B>
bool same_value(std::optional<A> const& a, std::optional<B> const& b) {
  return a && b && std::cmp_equal(*a, *b);
}

// join_rows of kind How on the key alone (packed beside the build row) and on the key and a
// string tag (hashed), against the nested loop.
template <join_kind How, class LF, class RF, class ByKey, class ByKeyAndTag>
void check_pairs(LF const& lf, RF const& rf, ByKey const& by_key, ByKeyAndTag const& by_key_and_tag) {
  CAPTURE(static_cast<int>(How));
  auto const nl = static_cast<std::size_t>(lf.num_rows());
  auto const nr = static_cast<std::size_t>(rf.num_rows());
  CHECK(sorted_pairs_of(colx::join_rows<How>(lf, rf, colx::on("k"_c))) == reference(How, nl, nr, by_key));
  CHECK(sorted_pairs_of(colx::join_rows<How>(lf, rf, colx::on("k"_c, "t"_c))) == reference(How, nl, nr, by_key_and_tag));
}

template <class KL, class KR>
void check_types(std::vector<KL> const& left_edges, std::vector<KR> const& right_edges, std::uint64_t seed) {
  using left_schema = colx::schema<colx::field<"k", KL>, colx::field<"t", colx::string_view>, colx::field<"id", std::int32_t, colx::not_null>>;
  using right_schema = colx::schema<colx::field<"k", KR>, colx::field<"t", colx::string_view>, colx::field<"rid", std::int32_t, colx::not_null>>;
  std::mt19937_64 rng(seed);
  for (std::size_t const nl : {0, 1, 33, 300, 4097}) {
    std::size_t const nr = nl == 4097 ? 1000 : nl / 2 + 1;
    CAPTURE(nl, nr);
    auto const lk = random_keys<KL>(nl, rng, left_edges);
    auto const rk = random_keys<KR>(nr, rng, right_edges);
    auto const lt = random_tags(nl, rng);
    auto const rt = random_tags(nr, rng);
    std::vector<std::int32_t> ids(nl), rids(nr);
    for (std::size_t i = 0; i < nl; ++i) { ids[i] = static_cast<std::int32_t>(i); }
    for (std::size_t j = 0; j < nr; ++j) { rids[j] = static_cast<std::int32_t>(j); }
    colx::frame<left_schema> const lf(colx::test::column_of(lk), colx::test::strings_of(lt), colx::test::column_of(ids));
    colx::frame<right_schema> const rf(colx::test::column_of(rk), colx::test::strings_of(rt), colx::test::column_of(rids));

    auto const by_key = [&](std::size_t i, std::size_t j) { return same_value(lk[i], rk[j]); };
    auto const by_key_and_tag = [&](std::size_t i, std::size_t j) { return by_key(i, j) && lt[i] == rt[j]; };
    check_pairs<join_kind::inner>(lf, rf, by_key, by_key_and_tag);
    check_pairs<join_kind::left>(lf, rf, by_key, by_key_and_tag);
    check_pairs<join_kind::full>(lf, rf, by_key, by_key_and_tag);

    // Semi and anti keep left rows; the ids say which.
    auto const left_ids = [&](join_kind how) {
      std::vector<std::int32_t> out;
      for (auto const& [i, j] : reference(how, nl, nr, by_key)) { out.push_back(i); }
      return out;
    };
    auto const ids_of = [](auto const& f) {
      auto v = colx::to_vector(f["id"_c].view());
      std::sort(v.begin(), v.end());
      return v;
    };
    CHECK(ids_of(lf | colx::join<join_kind::semi>(rf, colx::on("k"_c))) == left_ids(join_kind::semi));
    CHECK(ids_of(lf | colx::join<join_kind::anti>(rf, colx::on("k"_c))) == left_ids(join_kind::anti));

    // A full join writes "k" once, from the right row where no left row matched: in a type that
    // holds both sides' values.
    auto const full = lf | colx::join<join_kind::full>(rf, colx::on("k"_c));
    using key_type = typename decltype(full)::schema_type::template field_at<0>::type;
    STATIC_REQUIRE(std::numeric_limits<key_type>::min() <= std::numeric_limits<KL>::min());
    STATIC_REQUIRE(std::numeric_limits<key_type>::min() <= std::numeric_limits<KR>::min());
    STATIC_REQUIRE(std::cmp_greater_equal(std::numeric_limits<key_type>::max(), std::numeric_limits<KL>::max()));
    STATIC_REQUIRE(std::cmp_greater_equal(std::numeric_limits<key_type>::max(), std::numeric_limits<KR>::max()));
    auto const keys = colx::to_optional_vector(full["k"_c].view());
    auto const lid = colx::to_optional_vector(full["id"_c].view());
    auto const rid = colx::to_optional_vector(full["rid"_c].view());
    REQUIRE(keys.size() == lid.size());
    auto const widened = [](auto const& v) { return v ? std::optional<key_type>(static_cast<key_type>(*v)) : std::nullopt; };
    std::size_t wrong = 0;
    for (std::size_t r = 0; r < keys.size(); ++r) {
      auto const want = lid[r] ? widened(lk[static_cast<std::size_t>(*lid[r])]) : widened(rk[static_cast<std::size_t>(*rid[r])]);
      wrong += keys[r] == want ? 0 : 1;
    }
    CHECK(wrong == 0);
  }
}

}  // namespace

TEST_CASE("join: integer keys of different widths and signedness join by value", "[frame]") {
  constexpr auto i32 = [](std::int64_t v) { return static_cast<std::int32_t>(v); };
  std::vector<std::int32_t> const int32_edges{std::numeric_limits<std::int32_t>::min(), std::numeric_limits<std::int32_t>::max(), -1};
  // Values of int64 that int32 holds and values it does not (they match nothing).
  std::vector<std::int64_t> const int64_edges{std::int64_t{1} << 32, -(std::int64_t{1} << 40), std::numeric_limits<std::int32_t>::max(),
                                              std::numeric_limits<std::int32_t>::min(), -1, std::numeric_limits<std::int64_t>::max(),
                                              std::int64_t{4294967295}};
  check_types<std::int32_t, std::int64_t>(int32_edges, int64_edges, 1);
  check_types<std::int64_t, std::int32_t>(int64_edges, int32_edges, 2);
  // -1 against 4294967295u: equal in C++, not by value.
  check_types<std::uint32_t, std::int32_t>({4294967295u, 2147483648u, 7u}, {i32(-1), i32(7), std::numeric_limits<std::int32_t>::max()}, 3);
  check_types<std::int8_t, std::uint16_t>({-1, 127, -128}, {65535, 255, 127}, 4);
}
