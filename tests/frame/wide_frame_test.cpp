// SPDX-License-Identifier: Apache-2.0
// colx: host-only
// Frames wider than 64 columns through every stage that moves whole rows (filter | collect,
// sort_by, take, join): each column's values and nulls against the host rows. A row's validity
// was one 64-bit word, whose shift overflowed at column 64 (issue 15, bug 1: columns 64 and 65 of
// a 66-column frame reported 3 nulls instead of 1; sort, join and group-by refused more than 64
// columns at compile time). Widths 65 and 130: one column past a word, and past two.
//
// Host-only for now: the same code runs on both backends, but nvcc's optimiser (cicc, even at
// -O1) took more than ten minutes on this TU's kernels, which move rows of 65 and 130 values
// through registers (the compaction's row items). Wide frames should be gathered a column group
// at a time on the GPU; until then their device kernels are compiled only where a program uses
// them.
#include "support/backend.hpp"
#include "support/columns.hpp"

#include <catch2/catch.hpp>

#include <algorithm>
#include <cstdint>
#include <numeric>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace {

using colx::size_type;
using colx::test::optionals;
using namespace colx::literals;

// "c000", "c001", ...: the names of a wide frame's columns.
template <std::size_t I>
inline constexpr colx::fixed_string<5> column_name = [] {
  colx::fixed_string<5> name;
  name.chars[0] = 'c';
  name.chars[1] = static_cast<char>('0' + I / 100 % 10);
  name.chars[2] = static_cast<char>('0' + I / 10 % 10);
  name.chars[3] = static_cast<char>('0' + I % 10);
  return name;
}();
template <std::size_t I>
using column_ref = colx::col<column_name<I>>;

// (A class template, not a function's return type: nvcc's front end cannot match the latter.)
template <class Positions>
struct wide_schema;
template <std::size_t... I>
struct wide_schema<std::index_sequence<I...>> {
  using type = colx::schema<colx::field<column_name<I>, std::int32_t>...>;
};
template <std::size_t N>
using wide = typename wide_schema<std::make_index_sequence<N>>::type;

// Column c, row i: i * 131 + c, null where (i + c) % 7 == 0 (a different row pattern per column,
// so a validity bit read from the wrong column shows).
std::optional<std::int32_t> cell(std::size_t i, std::size_t c) {
  if ((i + c) % 7 == 0) { return std::nullopt; }
  return static_cast<std::int32_t>(i * 131 + c);
}

template <std::size_t N>
colx::frame<wide<N>> make_wide(std::size_t rows) {
  return [&]<std::size_t... C>(std::index_sequence<C...>) {
    auto const column = [&](std::size_t c) {
      optionals<std::int32_t> v(rows);
      for (std::size_t i = 0; i < rows; ++i) { v[i] = cell(i, c); }
      return colx::test::column_of(v);
    };
    return colx::frame<wide<N>>(column(C)...);
  }(std::make_index_sequence<N>{});
}

// Every column of f holds, at row k, input row rows[k]'s cell (or null where rows[k] < 0).
template <std::size_t N>
void check_wide(colx::frame<wide<N>> const& f, std::vector<long> const& rows) {
  REQUIRE(f.num_rows() == static_cast<size_type>(rows.size()));
  std::size_t bad = 0;
  [&]<std::size_t... C>(std::index_sequence<C...>) {
    (
        [&] {
          auto const got = colx::to_optional_vector(f.template column_at<C>().view());
          for (std::size_t k = 0; k < rows.size(); ++k) {
            auto const want = rows[k] < 0 ? std::nullopt : cell(static_cast<std::size_t>(rows[k]), C);
            bad += got[k] == want ? 0 : 1;
          }
        }(),
        ...);
  }(std::make_index_sequence<N>{});
  CHECK(bad == 0);
}

// Rows 0..rows-1 sorted by the first column, descending, nulls last (ties cannot happen: values
// are distinct).
std::vector<long> first_column_descending(std::size_t rows) {
  std::vector<long> order(rows);
  std::iota(order.begin(), order.end(), 0L);
  std::stable_sort(order.begin(), order.end(), [](long a, long b) {
    auto const x = cell(static_cast<std::size_t>(a), 0);
    auto const y = cell(static_cast<std::size_t>(b), 0);
    if (!x || !y) { return x.has_value() && !y.has_value(); }
    return *x > *y;
  });
  return order;
}

template <std::size_t N>
void check_width() {
  CAPTURE(N);
  for (std::size_t const rows : {std::size_t{0}, std::size_t{1}, std::size_t{100}, std::size_t{1003}}) {
    CAPTURE(rows);
    auto const f = make_wide<N>(rows);
    using first = column_ref<0>;
    using last = column_ref<N - 1>;

    // filter | collect: rows where the last column is valid and even.
    std::vector<long> kept;
    for (std::size_t i = 0; i < rows; ++i) {
      auto const v = cell(i, N - 1);
      if (v && *v % 2 == 0) { kept.push_back(static_cast<long>(i)); }
    }
    check_wide<N>((f | colx::filter(last{} % 2 == 0)).collect(), kept);

    check_wide<N>(f | colx::sort_by(colx::desc(first{})), first_column_descending(rows));

    // A semi join with a one-column frame of the first column's even values keeps those rows.
    using keys_schema = colx::schema<colx::field<column_name<0>, std::int32_t, colx::not_null>>;
    std::vector<std::int32_t> even;
    std::vector<long> matched;
    for (std::size_t i = 0; i < rows; ++i) {
      auto const v = cell(i, 0);
      if (v && *v % 2 == 0) {
        even.push_back(*v);
        matched.push_back(static_cast<long>(i));
      }
    }
    colx::frame<keys_schema> const keys(colx::test::column_of(even));
    check_wide<N>(f | colx::join<colx::join_kind::semi>(keys, colx::on(first{})), matched);
  }
}

// 65 integer columns and a strings column: past 64 columns, the strings' byte totals are read
// apart from the null counts (detail::finish_outputs).
template <class Positions>
struct wide_text_schema;
template <std::size_t... I>
struct wide_text_schema<std::index_sequence<I...>> {
  using type = colx::schema<colx::field<column_name<I>, std::int32_t>..., colx::field<"text", colx::string_view>>;
};
using wide_text = typename wide_text_schema<std::make_index_sequence<65>>::type;

std::optional<std::string> text_cell(std::size_t i) {
  if (i % 5 == 3) { return std::nullopt; }
  return std::string(i % 11, static_cast<char>('a' + i % 26));  // "" every eleventh row
}

void check_wide_text(colx::frame<wide_text> const& f, std::vector<long> const& rows) {
  REQUIRE(f.num_rows() == static_cast<size_type>(rows.size()));
  colx::test::strings want;
  for (long const r : rows) { want.push_back(text_cell(static_cast<std::size_t>(r))); }
  CHECK(colx::to_strings(f["text"_c].view()) == want);
  CHECK(f["text"_c].null_count() == static_cast<size_type>(std::count(want.begin(), want.end(), std::nullopt)));
  auto const last = colx::to_optional_vector(f.template column_at<64>().view());
  std::size_t bad = 0;
  for (std::size_t k = 0; k < rows.size(); ++k) { bad += last[k] == cell(static_cast<std::size_t>(rows[k]), 64) ? 0 : 1; }
  CHECK(bad == 0);
}

}  // namespace

TEST_CASE("frames of more than 64 columns keep every column's nulls", "[frame]") {
  check_width<65>();
  check_width<130>();
}

TEST_CASE("frames of more than 64 columns with a strings column keep its bytes", "[frame]") {
  for (std::size_t const rows : {std::size_t{0}, std::size_t{1}, std::size_t{1003}}) {
    CAPTURE(rows);
    colx::test::strings text;
    for (std::size_t i = 0; i < rows; ++i) { text.push_back(text_cell(i)); }
    auto const f = [&]<std::size_t... C>(std::index_sequence<C...>) {
      auto const column = [&](std::size_t c) {
        optionals<std::int32_t> v(rows);
        for (std::size_t i = 0; i < rows; ++i) { v[i] = cell(i, c); }
        return colx::test::column_of(v);
      };
      return colx::frame<wide_text>(column(C)..., colx::test::strings_of(text));
    }(std::make_index_sequence<65>{});
    using first = column_ref<0>;
    std::vector<long> kept;  // rows whose first column is valid and even
    for (std::size_t i = 0; i < rows; ++i) {
      auto const v = cell(i, 0);
      if (v && *v % 2 == 0) { kept.push_back(static_cast<long>(i)); }
    }
    check_wide_text((f | colx::filter(first{} % 2 == 0)).collect(), kept);
    check_wide_text(f | colx::sort_by(colx::desc(first{})), first_column_descending(rows));
  }
}
