// SPDX-License-Identifier: Apache-2.0
#pragma once
// Reading results back to compare with host references: a column as optionals (strings as
// std::string), and every row of a frame as a sorted vector of tuples (for operators whose row
// order is unspecified: joins, unsorted group-bys); each kind of join in turn.
#include <colx/colx.hpp>

#include <catch2/catch.hpp>

#include <algorithm>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

namespace colx::test {

template <class C>
auto read(C const& c) {
  if constexpr (std::is_same_v<C, strings_column>) {
    return to_strings(c.view());
  } else {
    return to_optional_vector(c.view());
  }
}

template <class Frame>
auto sorted_rows_of(Frame const& f) {
  return [&]<std::size_t... C>(std::index_sequence<C...>) {
    auto const columns = std::make_tuple(read(f.template column_at<C>())...);
    using row = std::tuple<typename std::tuple_element_t<C, std::remove_cvref_t<decltype(columns)>>::value_type...>;
    std::vector<row> out;
    for (std::size_t i = 0; i < static_cast<std::size_t>(f.num_rows()); ++i) { out.emplace_back(std::get<C>(columns)[i]...); }
    std::sort(out.begin(), out.end());
    return out;
  }(std::make_index_sequence<Frame::schema_type::size>{});
}

// f(std::integral_constant<join_kind, K>{}) for each of the six kinds K of join.
template <class F>
void for_each_join_kind(F&& f) {
  f(std::integral_constant<join_kind, join_kind::inner>{});
  f(std::integral_constant<join_kind, join_kind::left>{});
  f(std::integral_constant<join_kind, join_kind::right>{});
  f(std::integral_constant<join_kind, join_kind::full>{});
  f(std::integral_constant<join_kind, join_kind::semi>{});
  f(std::integral_constant<join_kind, join_kind::anti>{});
}

// join_rows' pairs on the host, sorted.
inline std::vector<std::pair<size_type, size_type>> sorted_pairs_of(std::pair<uvector<size_type>, uvector<size_type>>&& p) {
  REQUIRE(p.first.size() == p.second.size());
  auto const left = to_vector(column<size_type>(std::move(p.first)).view());
  auto const right = to_vector(column<size_type>(std::move(p.second)).view());
  std::vector<std::pair<size_type, size_type>> out;
  for (std::size_t k = 0; k < left.size(); ++k) { out.emplace_back(left[k], right[k]); }
  std::sort(out.begin(), out.end());
  return out;
}

}  // namespace colx::test
