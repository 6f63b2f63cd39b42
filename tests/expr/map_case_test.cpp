// SPDX-License-Identifier: Apache-2.0
// with_columns(upper(s)) and lower(s) of a stored strings column (column/map_case.hpp): the bytes
// are mapped 16 at a time without reading the rows, so here two-byte letters straddle those steps,
// rows end in a lone lead byte and begin with a lone continuation byte (two rows, not one letter),
// rows are empty and null, offsets are int32 and int64, rows fixed-width, and a view starts
// mid-column (offsets not from 0, bytes unaligned, the mask at an offset). The reference maps each
// row by itself with utf8::write_case_mapped; the general path (the same map beside another
// column) must agree.
#include "support/columns.hpp"

#include <catch2/catch.hpp>

#include <colx/column/map_case.hpp>

#include <algorithm>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

using namespace colx::literals;

namespace {

using colx::test::strings;

strings mapped(strings const& v, bool to_upper) {
  strings out;
  for (auto const& s : v) {
    if (!s) {
      out.push_back(std::nullopt);
      continue;
    }
    std::string m(s->size(), '\0');
    colx::utf8::write_case_mapped(colx::string_view(s->data(), static_cast<colx::size_type>(s->size())), m.data(), to_upper);
    out.push_back(m);
  }
  return out;
}

strings rows_of(colx::size_type n, std::uint64_t seed) {
  // ASCII, Latin-1, Greek, Cyrillic, a three-byte sign, ß (no same-size capital), lone lead and continuation bytes.
  char const* const pieces[] = {"a", "Z", "q", "é", "É", "ß", "ÿ", "σ", "ς", "Д", "д", "€", "\xC3", "\xA9", "7", " "};
  strings v;
  for (colx::size_type i = 0; i < n; ++i) {
    seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
    auto r = static_cast<std::uint32_t>(seed >> 33);
    if (r % 11 == 0) {
      v.push_back(std::nullopt);
      continue;
    }
    std::string s;
    for (std::uint32_t k = r % 37; k > 0; --k) {
      seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
      std::uint32_t const p = static_cast<std::uint32_t>(seed >> 33);
      s += pieces[p % 7 == 0 ? p % 16 : p % 3];  // mostly ASCII, as the fast path expects
    }
    v.push_back(s);
  }
  return v;
}

}  // namespace

TEST_CASE("upper and lower of a stored strings column, mapped a step of bytes at a time", "[expr][strings]") {
  using S = colx::schema<colx::field<"s", colx::string_view>>;
  for (colx::size_type const n : colx::test::sizes) {
    CAPTURE(n);
    strings const v = rows_of(n, 99u + static_cast<std::uint64_t>(n));
    for (auto const offsets : {colx::type_id::int32, colx::type_id::int64}) {
      colx::frame<S> const f(colx::test::strings_of(v, offsets));
      for (colx::size_type const from : {colx::size_type{0}, std::min<colx::size_type>(n, 5)}) {
        CAPTURE(offsets, from);
        strings const part(v.begin() + from, v.end());
        auto const g = f.slice(from, n);
        auto const up = g | colx::with_columns(colx::upper("s"_c).as<"u">(), colx::lower("s"_c).as<"l">());
        CHECK(colx::to_strings(up["u"_c].view()) == mapped(part, true));
        CHECK(colx::to_strings(up["l"_c].view()) == mapped(part, false));
        CHECK(up["u"_c].null_count() == g["s"_c].null_count());
        // The general path (with another output) writes the same.
        auto const both = g | colx::with_columns(colx::upper("s"_c).as<"u">(), colx::length("s"_c).as<"n">());
        CHECK(colx::to_strings(both["u"_c].view()) == mapped(part, true));
      }
    }
  }
}

TEST_CASE("upper of fixed-width strings keeps the width", "[expr][strings]") {
  using F = colx::schema<colx::field<"s", colx::string_view, colx::not_null>>;
  for (colx::size_type const n : {0, 1, 5, 33, 4097}) {
    CAPTURE(n);
    std::string chars;
    strings v;
    for (colx::size_type i = 0; i < n; ++i) {
      std::string const s = i % 3 == 0 ? "ab\xC3" : i % 3 == 1 ? "\xA9xy" : "éZ";  // three bytes each; a lead byte ends a row
      chars += s;
      v.push_back(s);
    }
    auto const mr = colx::test::backend_resource();
    colx::frame<F> const f(colx::make_fixed_width_strings(
        n, 3, colx::buffer(chars.data(), colx::memory_kind::host, chars.size(), {}, mr), {}, 0, {}, mr));
    auto const up = f | colx::with_columns(colx::upper("s"_c).as<"u">());
    CHECK(colx::to_strings(up["u"_c].view()) == mapped(v, true));
    auto const tail = f.slice(n / 2, n) | colx::with_columns(colx::lower("s"_c).as<"l">());
    CHECK(colx::to_strings(tail["l"_c].view()) == mapped(strings(v.begin() + n / 2, v.end()), false));
  }
}

// Two-byte letters whose case changes both bytes (ω: CF 89 -> Ω: CE A9; ÿ: C3 BF -> Ÿ: C5 B8), split
// across rows at the 16th and 17th bytes of a step, and whole inside a row across that edge; a run
// of empty rows beside them.
TEST_CASE("upper and lower: a letter split between rows at a step's edge is two rows' bytes", "[expr][strings]") {
  using S = colx::schema<colx::field<"s", colx::string_view>>;
  std::string const fifteen = "0123456789abcde";
  strings v{fifteen + "\xCF", "\x89xyz", "\xC3", "\xBF", fifteen + "\xCF\x89", "\xCE\xA9" + fifteen, fifteen + "\xC3",
            "\xBF\xC3\xBF"};
  for (int k = 0; k < 3000; ++k) { v.push_back(std::string()); }
  v.push_back("\xCF\x89");
  v.push_back(std::nullopt);
  v.push_back("\x89");
  colx::frame<S> const f(colx::test::strings_of(v));
  auto const r = f | colx::with_columns(colx::upper("s"_c).as<"u">(), colx::lower("s"_c).as<"l">());
  CHECK(colx::to_strings(r["u"_c].view()) == mapped(v, true));
  CHECK(colx::to_strings(r["l"_c].view()) == mapped(v, false));
  CHECK(colx::to_strings(r["u"_c].view())[0] == std::optional<std::string>("0123456789ABCDE\xCF"));  // a lone lead byte stays
  CHECK(colx::to_strings(r["u"_c].view())[4] == std::optional<std::string>("0123456789ABCDE\xCE\xA9"));
}

// A view that starts mid-column, as a column imported with its offsets does: the first offset is
// not 0, the first byte not aligned, the mask read from an offset.
TEST_CASE("map_case over a view that starts mid-column", "[expr][strings]") {
  strings const v = rows_of(4097, 7);
  auto const column = colx::test::strings_of(v);
  auto const whole = colx::input_view(colx::strings_column_view(column.view()));
  for (colx::size_type const from : {1, 3, 5, 17, 4096}) {
    CAPTURE(from);
    colx::strings_input_view part = whole;
    part.offsets = static_cast<std::int32_t const*>(whole.offsets) + from;
    part.size = whole.size - from;
    part.mask_offset = whole.mask_offset + from;
    auto const out = colx::detail::map_case(part, true, column.kind(), {}, colx::test::backend_resource());
    CHECK(colx::to_strings(colx::strings_column_view(out.view())) == mapped(strings(v.begin() + from, v.end()), true));
    CHECK(out.null_count() == static_cast<colx::size_type>(std::count(v.begin() + from, v.end(), std::nullopt)));
  }
}

// The device's word map of four ASCII bytes (map_case_fn::ascii_word), every byte in every lane.
TEST_CASE("map_case: the word map of ASCII bytes flips exactly the letters", "[expr][strings]") {
  for (bool const to_upper : {true, false}) {
    for (std::uint32_t b = 0; b < 0x80; ++b) {
      for (int lane = 0; lane < 4; ++lane) {
        std::uint32_t const word = (0x41u * 0x01010101u & ~(0xFFu << (8 * lane))) | (b << (8 * lane));  // 'A' elsewhere
        std::uint32_t const got = colx::detail::map_case_fn::ascii_word(word, to_upper);
        for (int j = 0; j < 4; ++j) {
          std::uint32_t const in = (word >> (8 * j)) & 0xFFu;
          CHECK(((got >> (8 * j)) & 0xFFu) == colx::utf8::map_case(in, to_upper));
        }
      }
    }
  }
}
