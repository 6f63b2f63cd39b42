// SPDX-License-Identifier: Apache-2.0
// Deep copies, concatenation and moves between memories (copying.hpp), and making and reading
// columns (factories.hpp), on the backend under test, checked against plain loops over
// std::vector<std::optional<T>>.
#include "support/backend.hpp"

#include <catch2/catch.hpp>

#include <algorithm>
#include <cstdint>
#include <optional>
#include <random>
#include <span>
#include <sstream>
#include <string>
#include <vector>

namespace {

using colx::size_type;
using colx::test::backend_kind;
using colx::test::backend_resource;
using colx::test::tracked_resource;

template <class T>
using optionals = std::vector<std::optional<T>>;
using strings = optionals<std::string>;

template <class T>
optionals<T> sub(optionals<T> const& v, size_type begin, size_type end) {
  return optionals<T>(v.begin() + begin, v.begin() + end);
}

template <class T>
void append(optionals<T>& to, optionals<T> const& from) {
  to.insert(to.end(), from.begin(), from.end());
}

template <class T>
size_type nulls_in(optionals<T> const& v) {
  size_type n = 0;
  for (auto const& x : v) { n += x ? 0 : 1; }
  return n;
}

// `n` int32 rows starting at `first`; row i is null when (i + phase) % period == 0 (period 0: no nulls).
optionals<std::int32_t> ints(size_type n, std::int32_t first, int period = 0, int phase = 0) {
  optionals<std::int32_t> out(static_cast<std::size_t>(n));
  for (size_type i = 0; i < n; ++i) {
    if (period == 0 || (i + phase) % period != 0) { out[static_cast<std::size_t>(i)] = first + static_cast<std::int32_t>(i); }
  }
  return out;
}

strings words(size_type n, int period = 0) {
  static char const* const pool[] = {"", "a", "bc", "déf", "ghij", "日本", "🙂🙂", "klmnopq"};
  strings out(static_cast<std::size_t>(n));
  for (size_type i = 0; i < n; ++i) {
    if (period == 0 || i % period != 1) { out[static_cast<std::size_t>(i)] = std::string(pool[i % 8]) + std::to_string(i % 13); }
  }
  return out;
}

// A typed concatenation through the public API.
template <class T>
colx::column<T> concat(std::vector<colx::column_view<T>> const& views, colx::resource_ref mr = backend_resource()) {
  return colx::concatenate<T>(std::span<colx::column_view<T> const>(views), {}, mr);
}

colx::any_column concat_any(std::vector<colx::any_column_view> const& views, colx::resource_ref mr = backend_resource()) {
  return colx::concatenate(std::span<colx::any_column_view const>(views), {}, mr);
}

colx::strings_column concat_strings(std::vector<colx::any_column_view> const& views,
                                    colx::resource_ref mr = backend_resource()) {
  return colx::strings_column(concat_any(views, mr));
}

}  // namespace

// ---- copy -------------------------------------------------------------------------------------------

TEST_CASE("copying: copy of slices at odd offsets", "[column][copying]") {
  auto const values = ints(1000, 5, 3, 1);
  auto const c = colx::make_column(values, {}, backend_resource());
  tracked_resource mr;
  for (size_type begin : {0, 1, 3, 31, 32, 33, 63, 64, 65}) {
    for (size_type length : {0, 1, 31, 32, 33, 100, 900}) {
      size_type const end = begin + length;
      if (end > 1000) { continue; }
      INFO("slice [" << begin << ", " << end << ")");
      auto const s = c.view().slice(begin, end);
      auto const copied = colx::copy(s, {}, mr.ref());
      CHECK(copied.size() == length);
      CHECK(copied.kind() == backend_kind());
      CHECK(copied.view().offset() == 0);
      CHECK(copied.null_count() == nulls_in(sub(values, begin, end)));
      CHECK(colx::to_optional_vector(copied.view()) == sub(values, begin, end));
      if (length > 0) { CHECK(copied.data() != s.data()); }

      colx::any_column const untyped = colx::copy(colx::any_column_view(s), {}, mr.ref());
      CHECK(untyped.type().id() == colx::type_id::int32);
      CHECK(untyped.null_count() == copied.null_count());
      CHECK(colx::to_optional_vector(untyped.view().as<std::int32_t>()) == sub(values, begin, end));
    }
  }
  // A whole column, and a column without nulls.
  CHECK(colx::to_optional_vector(colx::copy(c, {}, mr.ref()).view()) == values);
  {
    auto const plain = colx::sequence<std::int64_t>(4097, -3, 2, {}, backend_resource());
    auto const plain_copy = colx::copy(plain.view().slice(33, 4097), {}, mr.ref());
    CHECK_FALSE(plain_copy.nullable());
    CHECK(colx::to_vector(plain_copy.view()) == colx::to_vector(plain.view().slice(33, 4097)));
  }
  CHECK(mr.outstanding_bytes() == 0);
}

TEST_CASE("copying: copy of strings slices", "[column][copying][strings]") {
  auto const offset_type = GENERATE(colx::type_id::int32, colx::type_id::int64);
  auto const values = words(500, 7);
  auto const c = colx::make_strings_column(values, offset_type, {}, backend_resource());
  for (size_type begin : {0, 1, 3, 33, 63, 499}) {
    for (size_type end : {begin, begin + 1, size_type{500}}) {
      if (end > 500) { continue; }
      INFO("offsets " << colx::to_string(offset_type) << " slice [" << begin << ", " << end << ")");
      auto const copied = colx::copy(c.view().slice(begin, end));
      CHECK(copied.size() == end - begin);
      CHECK(copied.view().offset_type() == offset_type);
      CHECK(copied.null_count() == nulls_in(sub(values, begin, end)));
      CHECK(colx::to_strings(copied) == sub(values, begin, end));
      // The copy holds only the chars of its rows, and its offsets start at 0.
      std::size_t chars = 0;
      for (auto const& s : sub(values, begin, end)) { chars += s ? s->size() : 0; }
      CHECK(static_cast<std::size_t>(copied.chars_size()) == chars);
    }
  }
  CHECK(colx::to_strings(colx::copy(c)) == values);
}

// ---- concatenate ---------------------------------------------------------------------------------

TEST_CASE("copying: concatenate typed columns with masks at mixed offsets", "[column][copying]") {
  tracked_resource mr;
  {
    auto const a_values = ints(100, 0, 3, 0);
    auto const b_values = ints(70, 1000);           // no nulls: no mask
    auto const c_values = ints(1000, 5000, 5, 2);
    auto const a = colx::make_column(a_values, {}, mr.ref());
    auto const b = colx::make_column(b_values, {}, mr.ref());
    auto const c = colx::make_column(c_values, {}, mr.ref());
    REQUIRE_FALSE(b.nullable());

    struct piece {
      colx::column<std::int32_t> const* column;
      optionals<std::int32_t> const* values;
      size_type begin, end;
    };
    auto check = [&](std::vector<piece> const& pieces) {
      std::vector<colx::column_view<std::int32_t>> views;
      optionals<std::int32_t> expected;
      bool any_mask = false;
      for (auto const& p : pieces) {
        views.push_back(p.column->view().slice(p.begin, p.end));
        append(expected, sub(*p.values, p.begin, p.end));
        any_mask = any_mask || p.column->nullable();
      }
      auto const result = concat(views, mr.ref());
      CHECK(result.size() == static_cast<size_type>(expected.size()));
      CHECK(result.null_count() == nulls_in(expected));
      CHECK(result.nullable() == (any_mask && !expected.empty()));
      CHECK(colx::to_optional_vector(result.view()) == expected);
      // The untyped path gives the same column.
      std::vector<colx::any_column_view> const untyped(views.begin(), views.end());
      auto const u = concat_any(untyped, mr.ref());
      CHECK(u.null_count() == nulls_in(expected));
      CHECK(colx::to_optional_vector(u.view().as<std::int32_t>()) == expected);
    };

    SECTION("offsets 1, 3 and 33") { check({{&a, &a_values, 1, 100}, {&b, &b_values, 3, 70}, {&c, &c_values, 33, 1000}}); }
    SECTION("boundaries that are not word aligned") {
      check({{&a, &a_values, 31, 64}, {&c, &c_values, 63, 127}, {&a, &a_values, 3, 5}, {&c, &c_values, 1, 998}});
    }
    SECTION("with and without masks interleaved") {
      check({{&b, &b_values, 0, 33}, {&a, &a_values, 33, 66}, {&b, &b_values, 1, 70}, {&c, &c_values, 0, 31}});
    }
    SECTION("no input has a mask") { check({{&b, &b_values, 0, 70}, {&b, &b_values, 13, 47}}); }
    SECTION("empty inputs between, first and last") {
      check({{&a, &a_values, 5, 5}, {&c, &c_values, 3, 40}, {&b, &b_values, 0, 0}, {&a, &a_values, 7, 90},
             {&c, &c_values, 999, 999}});
    }
    SECTION("only empty inputs") { check({{&a, &a_values, 0, 0}, {&c, &c_values, 33, 33}}); }
    SECTION("one row each") {
      check({{&a, &a_values, 0, 1}, {&a, &a_values, 1, 2}, {&b, &b_values, 5, 6}, {&c, &c_values, 2, 3},
             {&c, &c_values, 63, 64}});
    }
    SECTION("a single input") { check({{&c, &c_values, 33, 1000}}); }
    SECTION("many small pieces") {
      std::vector<piece> pieces;
      for (size_type i = 0; i + 7 <= 1000; i += 7) { pieces.push_back({&c, &c_values, i, i + (i % 3 == 0 ? 7 : 5)}); }
      check(pieces);
    }
  }
  CHECK(mr.outstanding_bytes() == 0);
  CHECK(mr.outstanding_allocations() == 0);
}

TEST_CASE("copying: consecutive slices concatenate back to the column", "[column][copying]") {
  for (size_type n : {1, 33, 1000, 4097}) {
    auto const values = ints(n, 0, 4, 3);
    auto const c = colx::make_column(values, {}, backend_resource());
    for (size_type step : {1, 3, 31, 32, 33, 63, 257}) {
      INFO("rows " << n << " step " << step);
      std::vector<colx::column_view<std::int32_t>> views;
      for (size_type b = 0; b < n; b += step) { views.push_back(c.view().slice(b, std::min(n, b + step))); }
      auto const result = concat(views);
      CHECK(result.null_count() == c.null_count());
      CHECK(colx::to_optional_vector(result.view()) == values);
    }
  }
}

TEST_CASE("copying: concatenate other element types", "[column][copying]") {
  SECTION("decimals keep their scale") {
    optionals<colx::decimal64> const values{colx::decimal64{1}, std::nullopt, colx::decimal64{-3}};
    auto const a = colx::make_decimal_column(values, -2, {}, backend_resource());
    auto const b = colx::make_decimal_column(values, -2, {}, backend_resource());
    auto const r = concat<colx::decimal64>({a.view().slice(1, 3), b.view()});
    CHECK(r.type() == colx::data_type(colx::type_id::decimal64, -2));
    optionals<colx::decimal64> expected = sub(values, 1, 3);
    append(expected, values);
    CHECK(colx::to_optional_vector(r.view()) == expected);
  }
  SECTION("bools") {
    optionals<bool> const values{true, false, std::nullopt, true, false};
    auto const a = colx::make_column(values, {}, backend_resource());
    auto const r = concat<bool>({a.view().slice(1, 5), a.view()});
    optionals<bool> expected = sub(values, 1, 5);
    append(expected, values);
    CHECK(colx::to_optional_vector(r.view()) == expected);
  }
  SECTION("timestamps, untyped") {
    std::vector<colx::timestamp_ns> const values{colx::timestamp_ns{-1}, colx::timestamp_ns{1}, colx::timestamp_ns{3}};
    auto const a = colx::make_column(values, {}, backend_resource());
    auto const r = concat_any({colx::any_column_view(a).slice(2, 3), a});
    auto const expected = std::vector<colx::timestamp_ns>{values[2], values[0], values[1], values[2]};
    CHECK(colx::to_vector(r.view().as<colx::timestamp_ns>()) == expected);
  }
}

TEST_CASE("copying: concatenate strings", "[column][copying][strings]") {
  auto const a_values = words(300, 5);
  auto const b_values = words(40);  // no nulls
  auto const a32 = colx::make_strings_column(a_values, colx::type_id::int32, {}, backend_resource());
  auto const a64 = colx::make_strings_column(a_values, colx::type_id::int64, {}, backend_resource());
  auto const b32 = colx::make_strings_column(b_values, colx::type_id::int32, {}, backend_resource());
  auto const e32 = colx::make_strings_column({}, colx::type_id::int32, {}, backend_resource());
  auto const empties = colx::make_strings_column(strings(3, std::string()), colx::type_id::int32, {}, backend_resource());

  auto check = [](colx::strings_column const& result, strings const& expected, colx::type_id offset_type) {
    CHECK(result.size() == static_cast<size_type>(expected.size()));
    CHECK(result.null_count() == nulls_in(expected));
    CHECK(result.view().offset_type() == offset_type);
    CHECK(colx::to_strings(result) == expected);
  };

  SECTION("int32 slices at odd offsets, with and without masks") {
    auto const r = concat_strings({a32.view().slice(33, 200), b32.view().slice(1, 40), a32.view().slice(3, 4)});
    strings expected = sub(a_values, 33, 200);
    append(expected, sub(b_values, 1, 40));
    append(expected, sub(a_values, 3, 4));
    check(r, expected, colx::type_id::int32);
    CHECK(r.nullable());
  }
  SECTION("an int64 input makes int64 offsets") {
    auto const r = concat_strings({b32.view().slice(5, 9), a64.view().slice(63, 300), a32.view().slice(1, 2)});
    strings expected = sub(b_values, 5, 9);
    append(expected, sub(a_values, 63, 300));
    append(expected, sub(a_values, 1, 2));
    check(r, expected, colx::type_id::int64);
  }
  SECTION("no masks: no mask") {
    auto const r = concat_strings({b32.view(), b32.view().slice(31, 33)});
    strings expected = b_values;
    append(expected, sub(b_values, 31, 33));
    check(r, expected, colx::type_id::int32);
    CHECK_FALSE(r.nullable());
  }
  SECTION("empty inputs, empty strings") {
    auto const r = concat_strings({e32.view(), empties.view(), a32.view().slice(10, 10), e32.view(),
                                   a32.view().slice(298, 300), empties.view().slice(1, 2), e32.view()});
    strings expected(3, std::string());
    append(expected, sub(a_values, 298, 300));
    expected.push_back(std::string());
    check(r, expected, colx::type_id::int32);
  }
  SECTION("only empty inputs") {
    auto const r = concat_strings({e32.view(), a32.view().slice(7, 7)});
    check(r, {}, colx::type_id::int32);
    CHECK(r.untyped().children()[0].size() == 1);
    auto const r64 = concat_strings({a64.view().slice(0, 0)});
    check(r64, {}, colx::type_id::int64);
  }
  SECTION("only empty strings and nulls: no chars") {
    auto const nulls = colx::make_strings_column(strings(33), colx::type_id::int32, {}, backend_resource());
    auto const r = concat_strings({nulls.view().slice(1, 33), empties.view()});
    strings expected(32);
    append(expected, strings(3, std::string()));
    check(r, expected, colx::type_id::int32);
    CHECK(r.chars_size() == 0);
  }
}

TEST_CASE("copying: empty default columns concatenate with columns in any memory", "[column][copying]") {
  // A default-constructed column holds no memory, so it can join columns wherever they live. (In
  // a CUDA build its empty buffer refers to the host resource; it must not make concatenate
  // refuse device columns.)
  auto const values = ints(40, 0, 3);
  auto const c = colx::make_column(values, {}, backend_resource());
  colx::column<std::int32_t> const empty;
  auto const r = concat<std::int32_t>({empty.view(), c.view().slice(3, 40), empty.view()});
  CHECK(r.kind() == backend_kind());
  CHECK(colx::to_optional_vector(r.view()) == sub(values, 3, 40));

  auto const svalues = words(10, 3);
  auto const s = colx::make_strings_column(svalues, colx::type_id::int32, {}, backend_resource());
  colx::strings_column_view const no_strings;
  auto const rs = concat_strings({no_strings, s.view(), no_strings});
  CHECK(rs.kind() == backend_kind());
  CHECK(colx::to_strings(rs) == svalues);
}

TEST_CASE("copying: concatenate errors", "[column][copying][errors]") {
  tracked_resource mr;
  {
    auto const i32 = colx::make_column(ints(10, 0, 3), {}, mr.ref());
    auto const i64 = colx::sequence<std::int64_t>(10, 0, 1, {}, mr.ref());
    auto const s = colx::make_strings_column({"a", "b"}, colx::type_id::int32, {}, mr.ref());
    auto const d2 = colx::make_decimal_column(optionals<colx::decimal32>{colx::decimal32{1}}, -2, {}, mr.ref());
    auto const d3 = colx::make_decimal_column(optionals<colx::decimal32>{colx::decimal32{1}}, -3, {}, mr.ref());

    CHECK_THROWS_AS(concat_any({i32, i64}, mr.ref()), colx::schema_error);
    CHECK_THROWS_WITH(concat_any({i32.view().slice(1, 2), i64}, mr.ref()),
                      Catch::Contains("concatenate needs one type; found int32 and int64"));
    CHECK_THROWS_WITH(concat_any({s, i32}, mr.ref()), Catch::Contains("found string and int32"));
    CHECK_THROWS_WITH(concat_any({d2, d3}, mr.ref()),
                      Catch::Contains("found decimal32(scale -2) and decimal32(scale -3)"));
    CHECK_THROWS_AS(concat_any({}, mr.ref()), colx::logic_error);
    CHECK_THROWS_WITH(concat_any({}, mr.ref()), Catch::Contains("at least one column"));
    CHECK_THROWS_AS(concat<std::int32_t>({}, mr.ref()), colx::logic_error);
    if (colx::test::on_device()) {
      // Device columns into host memory: refused before anything is allocated.
      colx::statistics_adaptor host(colx::get_current_host_resource());
      CHECK_THROWS_WITH(concat_any({i32}, host), Catch::Contains("concatenate writes host memory from device columns"));
      CHECK(host.statistics().total_allocations == 0);
      auto const h = colx::make_column(ints(3, 0), {}, colx::get_current_host_resource());
      CHECK_THROWS_WITH(concat_any({i32, h}), Catch::Contains("all columns in one kind of memory"));
    }
  }
  CHECK(mr.outstanding_bytes() == 0);
  CHECK(mr.outstanding_allocations() == 0);
}

TEST_CASE("copying: randomised slices and concatenation", "[column][copying][random]") {
  std::mt19937 rng(20261121);
  auto uniform = [&](size_type lo, size_type hi) { return std::uniform_int_distribution<size_type>(lo, hi)(rng); };
  size_type const sizes[] = {0, 1, 2, 31, 32, 33, 63, 64, 65, 100, 257, 1000};
  auto random_size = [&] { return uniform(0, 1) == 0 ? sizes[uniform(0, 11)] : uniform(0, 1300); };
  // 0: no nulls, 1: some, 2: mostly null, 3: all null.
  auto random_validity = [&](size_type n) {
    int const mode = static_cast<int>(uniform(0, 3));
    double const p = mode == 0 ? 1.0 : mode == 1 ? 0.8 : mode == 2 ? 0.1 : 0.0;
    std::bernoulli_distribution valid(p);
    std::vector<bool> out(static_cast<std::size_t>(n));
    for (auto&& v : out) { v = valid(rng); }
    return out;
  };
  tracked_resource mr;

  SECTION("int64 columns") {
    for (int round = 0; round < 60; ++round) {
      std::vector<colx::column<std::int64_t>> owners;
      std::vector<colx::column_view<std::int64_t>> views;
      optionals<std::int64_t> expected;
      std::ostringstream shape;
      size_type const pieces = uniform(1, 6);
      for (size_type p = 0; p < pieces; ++p) {
        size_type const n = random_size();
        auto const valid = random_validity(n);
        optionals<std::int64_t> values(static_cast<std::size_t>(n));
        for (size_type i = 0; i < n; ++i) {
          if (valid[static_cast<std::size_t>(i)]) { values[static_cast<std::size_t>(i)] = uniform(-1000000, 1000000); }
        }
        size_type const begin = uniform(0, n);
        size_type const end = uniform(begin, n);
        shape << n << "[" << begin << "," << end << ") ";
        owners.push_back(colx::make_column(values, {}, mr.ref()));
        views.push_back(owners.back().view().slice(begin, end));
        append(expected, sub(values, begin, end));
      }
      INFO("round " << round << ": " << shape.str());
      auto const result = concat(views, mr.ref());
      CHECK(result.null_count() == nulls_in(expected));
      CHECK(colx::to_optional_vector(result.view()) == expected);
      // And a slice of the result, at a random offset, against the same reference.
      size_type const n = result.size();
      size_type const begin = uniform(0, n);
      size_type const end = uniform(begin, n);
      auto const s = result.view().slice(begin, end);
      CHECK(s.null_count() == nulls_in(sub(expected, begin, end)));
      CHECK(colx::to_optional_vector(colx::copy(s, {}, mr.ref()).view()) == sub(expected, begin, end));
    }
  }
  SECTION("strings columns") {
    static char const* const pool[] = {"", "x", "yz", "ünï", "🙂", "long string of text"};
    for (int round = 0; round < 40; ++round) {
      std::vector<colx::strings_column> owners;
      std::vector<colx::any_column_view> views;
      strings expected;
      bool any_large = false;
      size_type const pieces = uniform(1, 5);
      for (size_type p = 0; p < pieces; ++p) {
        size_type const n = random_size() / 3;
        auto const valid = random_validity(n);
        strings values(static_cast<std::size_t>(n));
        for (size_type i = 0; i < n; ++i) {
          if (valid[static_cast<std::size_t>(i)]) { values[static_cast<std::size_t>(i)] = pool[uniform(0, 5)]; }
        }
        bool const large = uniform(0, 3) == 0;
        any_large = any_large || large;
        size_type const begin = uniform(0, n);
        size_type const end = uniform(begin, n);
        owners.push_back(
            colx::make_strings_column(values, large ? colx::type_id::int64 : colx::type_id::int32, {}, mr.ref()));
        views.push_back(owners.back().view().slice(begin, end));
        append(expected, sub(values, begin, end));
      }
      INFO("round " << round);
      auto const result = concat_strings(views, mr.ref());
      CHECK(result.view().offset_type() == (any_large ? colx::type_id::int64 : colx::type_id::int32));
      CHECK(result.null_count() == nulls_in(expected));
      CHECK(colx::to_strings(result) == expected);
    }
  }
  CHECK(mr.outstanding_bytes() == 0);
  CHECK(mr.outstanding_allocations() == 0);
}

// ---- moving between memories ------------------------------------------------------------------------

TEST_CASE("copying: to_host and to_device", "[column][copying]") {
  auto const values = ints(1000, 7, 3, 2);
  auto const svalues = words(300, 4);
  auto host_mr = colx::get_current_host_resource();
  auto const h = colx::make_column(values, {}, host_mr);
  auto const hs = colx::make_strings_column(svalues, colx::type_id::int32, {}, host_mr);

  SECTION("to_host of host columns copies them") {
    auto const back = colx::to_host(h);
    CHECK(back.kind() == colx::memory_kind::host);
    CHECK(back.data() != h.data());
    CHECK(colx::to_optional_vector(back.view()) == values);
    CHECK(colx::to_optional_vector(colx::to_host(h.view().slice(33, 999)).view()) == sub(values, 33, 999));
    CHECK(colx::to_strings(colx::to_host(hs.view().slice(3, 299))) == sub(svalues, 3, 299));
  }

  if constexpr (colx::has_cuda) {
    SECTION("typed round trips, whole and sliced") {
      auto const d = colx::to_device(h);
      CHECK(d.kind() == colx::memory_kind::device);
      CHECK(d.null_count() == h.null_count());
      auto const back = colx::to_host(d);
      CHECK(back.kind() == colx::memory_kind::host);
      CHECK(colx::to_optional_vector(back.view()) == values);

      for (size_type begin : {0, 1, 3, 31, 33, 63}) {
        INFO("slice [" << begin << ", 999)");
        auto const ds = colx::to_device(h.view().slice(begin, 999));
        CHECK(ds.kind() == colx::memory_kind::device);
        CHECK(ds.null_count() == nulls_in(sub(values, begin, 999)));
        CHECK(colx::to_optional_vector(ds.view()) == sub(values, begin, 999));
        auto const hb = colx::to_host(d.view().slice(begin, 999));
        CHECK(hb.kind() == colx::memory_kind::host);
        CHECK(hb.null_count() == nulls_in(sub(values, begin, 999)));
        CHECK(colx::to_optional_vector(hb.view()) == sub(values, begin, 999));
      }
      // An unsliced prefix: copied buffer by buffer.
      auto const prefix = colx::to_host(d.view().slice(0, 33));
      CHECK(colx::to_optional_vector(prefix.view()) == sub(values, 0, 33));
    }
    SECTION("untyped and strings round trips") {
      colx::any_column const d = colx::to_device(colx::any_column_view(h).slice(3, 500));
      CHECK(d.kind() == colx::memory_kind::device);
      CHECK(colx::to_optional_vector(colx::to_host(d.view()).view().as<std::int32_t>()) == sub(values, 3, 500));

      auto const ds = colx::to_device(hs.view());
      CHECK(ds.kind() == colx::memory_kind::device);
      CHECK(colx::to_strings(ds) == svalues);
      auto const back = colx::to_host(ds.view().slice(33, 299));
      CHECK(back.kind() == colx::memory_kind::host);
      CHECK(colx::to_strings(back) == sub(svalues, 33, 299));
      auto const ds64 = colx::to_device(colx::make_strings_column(svalues, colx::type_id::int64, {}, host_mr).view().slice(1, 300));
      CHECK(ds64.view().offset_type() == colx::type_id::int64);
      CHECK(colx::to_strings(colx::to_host(ds64)) == sub(svalues, 1, 300));
    }
    SECTION("nothing leaks across the bus") {
      tracked_resource device_mr;
      colx::statistics_adaptor host_stats(host_mr);
      {
        auto const d = colx::to_device(h.view().slice(1, 1000), {}, device_mr.ref());
        auto const back = colx::to_host(d.view().slice(3, 900), {}, host_stats);
        CHECK(colx::to_optional_vector(back.view()) == sub(values, 4, 901));
        auto const ds = colx::to_device(hs, {}, device_mr.ref());
        CHECK(colx::to_strings(colx::to_host(ds, {}, host_stats)) == svalues);
      }
      CHECK(device_mr.outstanding_bytes() == 0);
      CHECK(host_stats.statistics().current_bytes == 0);
    }
  } else {
    SECTION("to_device needs the CUDA backend") {
      CHECK_THROWS_AS(colx::to_device(h.view()), colx::logic_error);
      CHECK_THROWS_WITH(colx::to_device(h), Catch::Contains("needs the CUDA backend"));
    }
  }
}

// ---- factories -------------------------------------------------------------------------------------

TEST_CASE("copying: sequence", "[column][factories]") {
  tracked_resource mr;
  for (size_type n : {0, 1, 31, 1000, 4097}) {
    INFO("rows " << n);
    auto const a = colx::sequence<std::int32_t>(n, -5, 3, {}, mr.ref());
    CHECK(a.size() == n);
    CHECK_FALSE(a.nullable());
    CHECK(a.kind() == backend_kind());
    std::vector<std::int32_t> expected;
    for (size_type i = 0; i < n; ++i) { expected.push_back(static_cast<std::int32_t>(-5 + 3 * i)); }
    CHECK(colx::to_vector(a.view()) == expected);

    auto const d = colx::sequence(n, 0.5, 0.25, {}, mr.ref());
    STATIC_REQUIRE(std::is_same_v<decltype(d), colx::column<double> const>);
    std::vector<double> expected_d;
    for (size_type i = 0; i < n; ++i) { expected_d.push_back(0.5 + static_cast<double>(i) * 0.25); }
    CHECK(colx::to_vector(d.view()) == expected_d);
  }
  CHECK(colx::to_vector(colx::sequence<std::uint8_t>(3, 250, 1).view()) == std::vector<std::uint8_t>{250, 251, 252});
  CHECK(colx::to_vector(colx::sequence<std::int64_t>(3, 10).view()) == std::vector<std::int64_t>{10, 11, 12});
  CHECK_THROWS_AS(colx::sequence<std::int32_t>(-1, 0, 1, {}, mr.ref()), colx::logic_error);
  CHECK_THROWS_WITH(colx::sequence<std::int32_t>(-2, 0, 1, {}, mr.ref()), Catch::Contains("negative element count (-2)"));
  CHECK(mr.outstanding_bytes() == 0);
}

TEST_CASE("copying: fill with a value and with nullopt", "[column][factories]") {
  tracked_resource mr;
  for (size_type n : {0, 1, 33, 1000, 4097}) {
    INFO("rows " << n);
    auto const v = colx::fill<std::int16_t>(n, std::int16_t{-7}, {}, mr.ref());
    CHECK(v.size() == n);
    CHECK_FALSE(v.nullable());
    CHECK(colx::to_optional_vector(v.view()) == optionals<std::int16_t>(static_cast<std::size_t>(n), std::int16_t{-7}));

    auto const nulls = colx::fill<double>(n, std::nullopt, {}, mr.ref());
    CHECK(nulls.size() == n);
    CHECK(nulls.null_count() == n);
    CHECK(nulls.nullable() == (n > 0));
    CHECK(colx::to_optional_vector(nulls.view()) == optionals<double>(static_cast<std::size_t>(n)));
    if (n > 40) { CHECK(nulls.view().slice(3, 40).null_count() == 37); }
  }
  CHECK(colx::to_vector(colx::fill<colx::date32>(5, colx::date(2024, 2, 29), {}, mr.ref()).view()) ==
        std::vector<colx::date32>(5, colx::date32{19782}));
  CHECK(colx::to_vector(colx::fill<bool>(70, true, {}, mr.ref()).view()) == std::vector<bool>(70, true));
  CHECK_THROWS_AS(colx::fill<float>(-1, 1.0f, {}, mr.ref()), colx::logic_error);
  CHECK(mr.outstanding_bytes() == 0);
}

TEST_CASE("copying: make_column and to_vector", "[column][factories]") {
  tracked_resource mr;
  SECTION("from a vector: no mask") {
    std::vector<std::uint64_t> const values{0, 1, ~std::uint64_t{0}};
    auto const c = colx::make_column(values, {}, mr.ref());
    CHECK(c.type().id() == colx::type_id::uint64);
    CHECK_FALSE(c.nullable());
    CHECK(colx::to_vector(c.view()) == values);
    CHECK(colx::to_optional_vector(c.view()) ==
          optionals<std::uint64_t>{std::uint64_t{0}, std::uint64_t{1}, ~std::uint64_t{0}});
    auto const from_span = colx::make_column(std::span<std::uint64_t const>(values).subspan(1), {}, mr.ref());
    CHECK(colx::to_vector(from_span.view()) == std::vector<std::uint64_t>{1, ~std::uint64_t{0}});
  }
  SECTION("from a vector of optionals: a mask only when something is null") {
    optionals<float> const some{1.5f, std::nullopt, -2.0f};
    auto const c = colx::make_column(some, {}, mr.ref());
    CHECK(c.nullable());
    CHECK(c.null_count() == 1);
    CHECK(colx::to_optional_vector(c.view()) == some);
    auto const none_null = colx::make_column(optionals<float>{1.0f, 2.0f}, {}, mr.ref());
    CHECK_FALSE(none_null.nullable());
    CHECK(colx::to_optional_vector(none_null.view()) == optionals<float>{1.0f, 2.0f});
    auto const empty = colx::make_column(optionals<float>{}, {}, mr.ref());
    CHECK(empty.size() == 0);
    CHECK_FALSE(empty.nullable());
  }
  SECTION("bools from vector<bool> and vector<optional<bool>>") {
    std::vector<bool> values(77);
    for (std::size_t i = 0; i < values.size(); ++i) { values[i] = i % 3 == 0; }
    auto const c = colx::make_column(values, {}, mr.ref());
    CHECK(c.type().id() == colx::type_id::bool8);
    CHECK(colx::to_vector(c.view()) == values);
    CHECK(colx::to_vector(c.view().slice(33, 70)) == std::vector<bool>(values.begin() + 33, values.begin() + 70));
    optionals<bool> const maybe{true, std::nullopt, false};
    CHECK(colx::to_optional_vector(colx::make_column(maybe, {}, mr.ref()).view()) == maybe);
  }
  SECTION("times and durations") {
    optionals<colx::timestamp_ms> const ts{colx::timestamp_ms{-86400000}, std::nullopt, colx::timestamp_ms{0}};
    auto const t = colx::make_column(ts, {}, mr.ref());
    CHECK(t.type().id() == colx::type_id::timestamp_milliseconds);
    CHECK(colx::to_optional_vector(t.view()) == ts);
    std::vector<colx::duration_days> const ds{colx::duration_days{1}, colx::duration_days{-1}};
    auto const d = colx::make_column(ds, {}, mr.ref());
    CHECK(d.type().id() == colx::type_id::duration_days);
    CHECK(colx::to_vector(d.view()) == ds);
  }
  SECTION("to_optional_vector of slices at odd offsets") {
    auto const values = ints(4097, 0, 7, 1);
    auto const c = colx::make_column(values, {}, mr.ref());
    for (size_type begin : {1, 3, 31, 33, 63, 4000}) {
      INFO("begin " << begin);
      CHECK(colx::to_optional_vector(c.view().slice(begin, 4097)) == sub(values, begin, 4097));
      auto const dense = colx::to_vector(c.view().slice(begin, begin + 10));
      for (size_type i = 0; i < 10; ++i) {
        if (auto const& v = values[static_cast<std::size_t>(begin + i)]) { CHECK(dense[static_cast<std::size_t>(i)] == *v); }
      }
    }
  }
  CHECK(mr.outstanding_bytes() == 0);
  CHECK(mr.outstanding_allocations() == 0);
}

TEST_CASE("copying: make_decimal_column", "[column][factories][decimal]") {
  optionals<colx::decimal32> const values{colx::decimal32{314}, std::nullopt, colx::decimal32{-1}};
  auto const c = colx::make_decimal_column(values, -2, {}, backend_resource());
  CHECK(c.type() == colx::data_type(colx::type_id::decimal32, -2));
  CHECK(c.null_count() == 1);
  CHECK(colx::to_optional_vector(c.view()) == values);
  auto const copied = colx::copy(c.view().slice(1, 3));
  CHECK(copied.type() == colx::data_type(colx::type_id::decimal32, -2));
  CHECK(colx::to_optional_vector(copied.view()) == sub(values, 1, 3));
  auto const none = colx::make_decimal_column(optionals<colx::decimal64>{}, 4, {}, backend_resource());
  CHECK(none.size() == 0);
  CHECK(none.type().scale() == 4);
}
