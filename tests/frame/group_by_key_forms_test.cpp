// SPDX-License-Identifier: Apache-2.0
// How group-by knows a row's keys, checked against std::map on the same rows:
// - fixed-width keys packed into one word, whose result keys are decoded from that word (no row
//   of the group is read back): doubles with -0.0, NaN and infinities, dates, decimals (the scale
//   stays the column's), nullable bools and uint8;
// - string keys packed row by row when short (at most 6 bytes, 61 bits in all), beside rows whose
//   strings are too long and are found by comparing keys at rows: both kinds of row in one
//   column, one group never split between them, few groups (block tables) and many.
#include "support/backend.hpp"

#include <catch2/catch.hpp>

#include <cmath>
#include <cstdint>
#include <limits>
#include <map>
#include <optional>
#include <random>
#include <string>
#include <vector>

using namespace colx::literals;

namespace {
using colx::size_type;

using F = colx::schema<colx::field<"d", double, colx::not_null>, colx::field<"t", colx::date32, colx::not_null>,
                       colx::field<"m", colx::decimal64>, colx::field<"b", bool>, colx::field<"u", std::uint8_t, colx::not_null>,
                       colx::field<"v", std::int64_t, colx::not_null>>;

// A double as grouping sees it: NaNs alike, -0.0 as 0.0. Sorted as colx sorts by default: NaN
// after every number, null last.
std::optional<double> canonical(std::optional<double> d) {
  if (!d) { return d; }
  if (std::isnan(*d)) { return std::numeric_limits<double>::quiet_NaN(); }
  return *d == 0.0 ? 0.0 : *d;
}
struct double_key_less {
  bool operator()(std::optional<double> a, std::optional<double> b) const {
    if (!a || !b) { return a && !b; }
    if (std::isnan(*b)) { return !std::isnan(*a); }
    if (std::isnan(*a)) { return false; }
    return *a < *b;
  }
};
}  // namespace

TEST_CASE("group_by: fixed-width keys come back from their packed word", "[frame]") {
  constexpr double specials[] = {-0.0, 0.0, std::numeric_limits<double>::quiet_NaN(), -std::numeric_limits<double>::quiet_NaN(),
                                 std::numeric_limits<double>::infinity(), -std::numeric_limits<double>::infinity(), 1.5, -2.25};
  for (std::size_t const n : {std::size_t{0}, std::size_t{1}, std::size_t{1000}, std::size_t{100003}}) {
    CAPTURE(n);
    std::mt19937_64 rng(n + 5);
    std::vector<double> d;
    std::vector<colx::date32> t;
    std::vector<std::optional<colx::decimal64>> m;
    std::vector<std::optional<bool>> b;
    std::vector<std::uint8_t> u;
    std::vector<std::int64_t> v;
    for (std::size_t i = 0; i < n; ++i) {
      d.push_back(specials[rng() % 8]);
      t.push_back(colx::date32(static_cast<std::int32_t>(rng() % 20) - 10));
      m.push_back(rng() % 7 == 0 ? std::nullopt : std::optional<colx::decimal64>(colx::decimal64{static_cast<std::int64_t>(rng() % 5) - 2}));
      b.push_back(rng() % 5 == 0 ? std::nullopt : std::optional<bool>(rng() % 2 == 0));
      u.push_back(static_cast<std::uint8_t>(rng() % 256));
      v.push_back(static_cast<std::int64_t>(i % 11));
    }
    auto const mr = colx::test::backend_resource();
    colx::frame<F> const f(colx::make_column<double>(d, {}, mr), colx::make_column<colx::date32>(t, {}, mr),
                           colx::make_decimal_column<std::int64_t>(m, -2, {}, mr), colx::make_column<bool>(b, {}, mr),
                           colx::make_column<std::uint8_t>(u, {}, mr), colx::make_column<std::int64_t>(v, {}, mr));

    {
      INFO("a double (packs alone; a nullable one would need 65 bits): -0.0 with 0.0, every NaN together");
      std::map<std::optional<double>, std::pair<size_type, std::int64_t>, double_key_less> want;
      for (std::size_t i = 0; i < n; ++i) {
        auto& w = want[canonical(d[i])];
        w.first += 1;
        w.second += v[i];
      }
      auto const g = f | colx::group_by(colx::group_by_options{.sorted = true}, "d"_c) |
                     colx::aggregate(colx::count().as<"n">(), colx::sum("v"_c).as<"s">());
      REQUIRE(g.num_rows() == static_cast<size_type>(want.size()));
      auto const keys = colx::to_optional_vector(g["d"_c].view());  // all valid
      auto const counts = colx::to_vector(g["n"_c].view());
      auto const sums = colx::to_optional_vector(g["s"_c].view());
      std::size_t row = 0;
      for (auto const& [key, w] : want) {
        CAPTURE(row);
        REQUIRE(keys[row].has_value() == key.has_value());
        if (key) {
          CHECK((std::isnan(*key) ? std::isnan(*keys[row]) : *keys[row] == *key));
          if (*key == 0.0 || std::isnan(*key)) { CHECK(!std::signbit(*keys[row])); }  // -0.0 as 0.0, one NaN
        }
        CHECK(counts[row] == w.first);
        CHECK(sums[row] == std::optional<std::int64_t>(w.second));
        ++row;
      }
    }
    {
      INFO("a date, a decimal and a nullable bool together");
      using key_t = std::tuple<std::int32_t, std::optional<std::int64_t>, std::optional<bool>>;
      std::map<key_t, size_type> want;
      for (std::size_t i = 0; i < n; ++i) {
        want[{t[i].ticks, m[i] ? std::optional<std::int64_t>(m[i]->unscaled) : std::nullopt, b[i]}] += 1;
      }
      auto const g = f | colx::group_by(colx::group_by_options{.sorted = true}, "t"_c, "m"_c, "b"_c) |
                     colx::aggregate(colx::count().as<"n">());
      REQUIRE(g.num_rows() == static_cast<size_type>(want.size()));
      CHECK(g["m"_c].type().scale() == -2);
      auto const gt = colx::to_vector(g["t"_c].view());
      auto const gm = colx::to_optional_vector(g["m"_c].view());
      auto const gb = colx::to_optional_vector(g["b"_c].view());
      auto const gn = colx::to_vector(g["n"_c].view());
      std::size_t bad = 0;
      std::map<key_t, int> seen;
      for (std::size_t row = 0; row < gt.size(); ++row) {
        key_t const got{gt[row].ticks, gm[row] ? std::optional<std::int64_t>(gm[row]->unscaled) : std::nullopt, gb[row]};
        auto const found = want.find(got);
        bad += found == want.end() || ++seen[got] != 1 || gn[row] != found->second ? 1 : 0;
      }
      CHECK(bad == 0);
    }
    {
      INFO("uint8 with a key expression: all 256 values, then u % 3 as int");
      std::map<std::uint8_t, size_type> want;
      std::map<int, size_type> want_mod;
      for (std::size_t i = 0; i < n; ++i) {
        want[u[i]] += 1;
        want_mod[u[i] % 3] += 1;
      }
      auto const g = f | colx::group_by(colx::group_by_options{.sorted = true}, "u"_c) | colx::aggregate(colx::count().as<"n">());
      REQUIRE(g.num_rows() == static_cast<size_type>(want.size()));
      auto const gu = colx::to_vector(g["u"_c].view());
      auto const gn = colx::to_vector(g["n"_c].view());
      std::size_t row = 0;
      for (auto const& [key, count] : want) {
        CHECK((gu[row] == key && gn[row] == count));
        ++row;
      }
      auto const gm = f | colx::group_by(colx::group_by_options{.sorted = true}, ("u"_c % 3).as<"r">()) |
                      colx::aggregate(colx::count().as<"n">());
      REQUIRE(gm.num_rows() == static_cast<size_type>(want_mod.size()));
      auto const r = colx::to_vector(gm["r"_c].view());
      auto const rn = colx::to_vector(gm["n"_c].view());
      row = 0;
      for (auto const& [key, count] : want_mod) {
        CHECK((static_cast<int>(r[row]) == key && rn[row] == count));
        ++row;
      }
    }
  }
}

namespace {
using S = colx::schema<colx::field<"s", colx::string_view>, colx::field<"t", colx::string_view, colx::not_null>,
                       colx::field<"k", std::int16_t>, colx::field<"v", std::int64_t, colx::not_null>>;
}  // namespace

TEST_CASE("group_by: short string keys pack row by row, long ones are compared at rows", "[frame]") {
  // Up to 6 bytes pack; "abcdefg" and longer never do; two 6-byte strings together do not fit.
  std::vector<std::optional<std::string>> const s_pool = {"",       "a",       "Z",        "abcdef", "abcdefg",
                                                          "a much longer string", std::nullopt};
  std::vector<std::string> const t_pool = {"x", "yy", "abcdef", "", "0123456789"};
  for (bool const many : {false, true}) {
    for (std::size_t const n : {std::size_t{0}, std::size_t{1}, std::size_t{1000}, std::size_t{100003}}) {
      CAPTURE(many, n);
      std::mt19937_64 rng(n * 3 + (many ? 1 : 0));
      std::vector<std::optional<std::string>> s;
      std::vector<std::optional<std::string>> t;
      std::vector<std::optional<std::int16_t>> k;
      std::vector<std::int64_t> v;
      for (std::size_t i = 0; i < n; ++i) {
        auto sv = s_pool[rng() % s_pool.size()];
        if (many && sv) { *sv += std::to_string(rng() % 20000); }  // lengths 1 to 25: some pack, some not
        s.push_back(sv);
        t.push_back(t_pool[rng() % t_pool.size()]);
        k.push_back(rng() % 6 == 0 ? std::nullopt : std::optional<std::int16_t>(static_cast<std::int16_t>(rng() % 4)));
        v.push_back(static_cast<std::int64_t>(rng() % 100));
      }
      auto const mr = colx::test::backend_resource();
      colx::frame<S> const f(colx::make_strings_column(s, colx::type_id::int32, {}, mr),
                             colx::make_strings_column(t, colx::type_id::int32, {}, mr), colx::make_column<std::int16_t>(k, {}, mr),
                             colx::make_column<std::int64_t>(v, {}, mr));

      using key_t = std::tuple<std::optional<std::string>, std::optional<std::string>, std::optional<std::int16_t>>;
      std::map<key_t, std::pair<size_type, std::int64_t>> want_stk;
      std::map<std::optional<std::string>, std::pair<size_type, std::int64_t>> want_s;
      for (std::size_t i = 0; i < n; ++i) {
        auto& a = want_stk[{s[i], t[i], k[i]}];
        a.first += 1;
        a.second += v[i];
        auto& b = want_s[s[i]];
        b.first += 1;
        b.second += v[i];
      }
      for (bool const sorted : {true, false}) {
        CAPTURE(sorted);
        auto const g = f | colx::group_by(colx::group_by_options{.sorted = sorted}, "s"_c, "t"_c, "k"_c) |
                       colx::aggregate(colx::count().as<"n">(), colx::sum("v"_c).as<"sum">());
        REQUIRE(g.num_rows() == static_cast<size_type>(want_stk.size()));
        auto const gs = colx::to_strings(g["s"_c].view());
        auto const gt = colx::to_strings(g["t"_c].view());
        auto const gk = colx::to_optional_vector(g["k"_c].view());
        auto const gn = colx::to_vector(g["n"_c].view());
        auto const gv = colx::to_optional_vector(g["sum"_c].view());
        std::map<key_t, int> seen;
        std::size_t bad = 0;
        for (std::size_t row = 0; row < gs.size(); ++row) {
          key_t const key{gs[row], gt[row], gk[row]};
          auto const found = want_stk.find(key);
          bool const ok = found != want_stk.end() && ++seen[key] == 1 && gn[row] == found->second.first &&
                          gv[row] == std::optional<std::int64_t>(found->second.second);
          bad += ok ? 0 : 1;
        }
        CHECK(bad == 0);
      }
      auto const g1 = f | colx::group_by(colx::group_by_options{.sorted = true}, "s"_c) |
                      colx::aggregate(colx::count().as<"n">(), colx::sum("v"_c).as<"sum">());
      REQUIRE(g1.num_rows() == static_cast<size_type>(want_s.size()));
      auto const gs = colx::to_strings(g1["s"_c].view());
      auto const gn = colx::to_vector(g1["n"_c].view());
      auto const gv = colx::to_optional_vector(g1["sum"_c].view());
      std::size_t bad = 0;
      for (std::size_t row = 0; row < gs.size(); ++row) {
        auto const found = want_s.find(gs[row]);
        bool const ordered = row == 0 || !gs[row] || (gs[row - 1] && *gs[row - 1] < *gs[row]);  // nulls last
        bad += found == want_s.end() || !ordered || gn[row] != found->second.first ||
                       gv[row] != std::optional<std::int64_t>(found->second.second)
                   ? 1
                   : 0;
      }
      CHECK(bad == 0);
    }
  }
}

namespace {
using FW = colx::schema<colx::field<"f", colx::string_view>, colx::field<"g", colx::string_view, colx::not_null>,
                        colx::field<"v", std::int64_t, colx::not_null>>;
}  // namespace

TEST_CASE("group_by: fixed-width string keys are read at row * width, not through offsets", "[frame]") {
  // The same rows as fixed-width columns (make_fixed_width_strings: kernels skip the offsets)
  // and as ordinary ones give the same groups, through the filter and the short-key packing;
  // widths 1 (TPC-H's flags) and 3, every seventh flag null.
  for (size_type const width : {1, 3}) {
    for (size_type const n : {0, 1, 7, 1000, 4099}) {
      CAPTURE(width, n);
      std::mt19937_64 rng(static_cast<std::uint64_t>(n * 7 + width));
      std::string f_bytes, g_bytes;
      std::vector<std::optional<std::string>> f, g;
      std::vector<std::int64_t> v;
      for (size_type i = 0; i < n; ++i) {
        std::string fs(static_cast<std::size_t>(width), "ANR"[rng() % 3]);
        std::string gs(static_cast<std::size_t>(width), "FO"[rng() % 2]);
        gs.back() = static_cast<char>('a' + rng() % 2);
        f_bytes += fs;
        g_bytes += gs;
        f.push_back(i % 7 == 6 ? std::nullopt : std::optional<std::string>(fs));
        g.emplace_back(gs);
        v.push_back(static_cast<std::int64_t>(rng() % 1000));
      }
      auto const mr = colx::test::backend_resource();
      auto [words, nulls] = colx::detail::host_bitmask(n, [&](size_type i) { return i % 7 != 6; });
      colx::frame<FW> const fixed(
          colx::make_fixed_width_strings(n, width, colx::buffer(f_bytes.data(), colx::memory_kind::host, f_bytes.size(), {}, mr),
                                         colx::buffer(words.data(), colx::memory_kind::host, words.size() * sizeof(colx::bitmask_type), {}, mr),
                                         nulls, {}, mr),
          colx::make_fixed_width_strings(n, width, colx::buffer(g_bytes.data(), colx::memory_kind::host, g_bytes.size(), {}, mr), {}, 0,
                                         {}, mr),
          colx::make_column<std::int64_t>(v, {}, mr));
      REQUIRE(fixed["f"_c].uniform_bytes() == width);
      colx::frame<FW> const plain(colx::make_strings_column(f, colx::type_id::int32, {}, mr),
                                  colx::make_strings_column(g, colx::type_id::int32, {}, mr), colx::make_column<std::int64_t>(v, {}, mr));

      // The reference: rows whose f does not start with N (the filter reads f too; a null f is
      // dropped by it), by (f, g).
      std::map<std::pair<std::optional<std::string>, std::string>, std::pair<size_type, std::int64_t>> want;
      for (std::size_t i = 0; i < f.size(); ++i) {
        if (!f[i] || f[i]->front() == 'N') { continue; }
        auto& a = want[{f[i], *g[i]}];
        a.first += 1;
        a.second += v[i];
      }
      auto const run = [&](colx::frame<FW> const& t) {
        return t | colx::filter(!colx::starts_with("f"_c, "N")) |
               colx::group_by(colx::group_by_options{.sorted = true}, "f"_c, "g"_c) |
               colx::aggregate(colx::count().as<"n">(), colx::sum("v"_c).as<"sum">());
      };
      for (auto const* t : {&fixed, &plain}) {
        auto const r = run(*t);
        REQUIRE(r.num_rows() == static_cast<size_type>(want.size()));
        auto const rf = colx::to_strings(r["f"_c].view());
        auto const rg = colx::to_strings(r["g"_c].view());
        auto const rn = colx::to_vector(r["n"_c].view());
        auto const rs = colx::to_optional_vector(r["sum"_c].view());
        std::size_t row = 0, bad = 0;
        for (auto const& [key, agg] : want) {  // std::map's order is the sorted result's
          bad += rf[row] == key.first && rg[row] == std::optional<std::string>(key.second) && rn[row] == agg.first &&
                         rs[row] == std::optional<std::int64_t>(agg.second)
                     ? 0
                     : 1;
          ++row;
        }
        CHECK(bad == 0);
      }
    }
  }
}
