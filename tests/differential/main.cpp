// SPDX-License-Identifier: Apache-2.0
// colx_differential: writes random cases for tests/differential/run.py, which runs their SQL in
// DuckDB and compares (harness.hpp says what a case holds).
//   colx_differential --out DIR --cases N --seed S [--shape NAME]   N cases, DIR/0 ... DIR/N-1
//   colx_differential --out DIR --replay CASE_SEED --rows N --urows M --shape NAME
//                                                      one case again, its tables cut to N and M rows
// The tables are drawn from the case's seed alone, so a replay with fewer rows is the same data's
// prefix: run.py shrinks a failing case that way.
#include "differential/harness.hpp"

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <stdexcept>

namespace colx::differential {

std::string csv_text(std::optional<std::string> const& v) {
  if (!v) { return ""; }
  std::string out = "\"";
  for (char ch : *v) { out += ch == '"' ? std::string("\"\"") : std::string(1, ch); }
  return out + "\"";
}

std::string iso_date(date32 d) {
  // Days since 1970-01-01 to a civil date (proleptic Gregorian), H. Hinnant's algorithm.
  std::int64_t z = d.ticks + 719468;
  std::int64_t const era = (z >= 0 ? z : z - 146096) / 146097;
  auto const doe = static_cast<std::uint32_t>(z - era * 146097);
  std::uint32_t const yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
  std::int64_t y = static_cast<std::int64_t>(yoe) + era * 400;
  std::uint32_t const doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
  std::uint32_t const mp = (5 * doy + 2) / 153;
  std::uint32_t const day = doy - (153 * mp + 2) / 5 + 1;
  std::uint32_t const month = mp < 10 ? mp + 3 : mp - 9;
  y += month <= 2 ? 1 : 0;
  char buf[32];
  std::snprintf(buf, sizeof buf, "%04lld-%02u-%02u", static_cast<long long>(y), month, day);
  return buf;
}

std::string decimal_digits(int128_t unscaled, int scale) {
  bool const negative = unscaled < 0;
  auto magnitude = static_cast<uint128_t>(negative ? -(unscaled + 1) : unscaled) + (negative ? 1 : 0);
  std::string digits;
  do {
    digits.insert(digits.begin(), static_cast<char>('0' + static_cast<int>(magnitude % 10)));
    magnitude /= 10;
  } while (magnitude != 0);
  if (scale > 0) {
    if (digits.size() <= static_cast<std::size_t>(scale)) { digits.insert(0, static_cast<std::size_t>(scale) + 1 - digits.size(), '0'); }
    digits.insert(digits.size() - static_cast<std::size_t>(scale), ".");
  }
  return (negative ? "-" : "") + digits;
}

void write_file(std::string const& path, std::string const& text) {
  std::ofstream out(path, std::ios::binary);
  out << text;
  if (!out) { throw std::runtime_error("cannot write " + path); }
}

namespace {

// ---- random tables ----------------------------------------------------------------------------

constexpr std::size_t row_counts[] = {0, 1, 2, 3, 31, 32, 33, 100, 257, 1000, 2049};

struct draw {
  std::mt19937_64 rng;
  std::uint64_t next() { return rng(); }
  double unit() { return static_cast<double>(rng() >> 11) * 0x1.0p-53; }
  std::int64_t in(std::int64_t lo, std::int64_t hi) { return lo + static_cast<std::int64_t>(rng() % static_cast<std::uint64_t>(hi - lo + 1)); }
  // A column's share of nulls: none, some, half, or (rarely) all.
  double null_rate() {
    std::uint64_t const x = rng() % 10;
    return x < 4 ? 0.0 : x < 8 ? 0.1 : x < 9 ? 0.5 : 1.0;
  }
};

template <class T, class Gen>
std::vector<std::optional<T>> column_values(draw& g, std::size_t n, Gen gen) {
  double const nulls = g.null_rate();
  std::vector<std::optional<T>> out(n);
  for (auto& v : out) {
    if (g.unit() >= nulls) { v = gen(); }
  }
  return out;
}

std::string random_string(draw& g) {
  static char const* const pieces[] = {"a", "b", "z", "é", "\"", ",", " ", "x1", "long piece of text "};
  std::string s;
  auto const parts = g.in(0, g.unit() < 0.1 ? 12 : 3);
  for (std::int64_t k = 0; k < parts; ++k) { s += pieces[g.next() % std::size(pieces)]; }
  return s;
}

struct tables {
  frame<t_schema> t;
  frame<u_schema> u;
  std::string t_csv, u_csv;
};

template <class Schema, class... Columns>
std::string table_csv(std::vector<std::int64_t> const& ids, Columns const&... columns) {
  std::string text;
  [&]<std::size_t... I>(std::index_sequence<I...>) {
    ((text += (I > 0 ? "," : "") + std::string(Schema::template field_at<I>::name.view()) + ":" +
              duckdb_type<typename Schema::template field_at<I>::type>()),
     ...);
  }(std::make_index_sequence<Schema::size>{});
  text += "\n";
  auto const cell = [](auto const& column, std::size_t r) {
    using V = typename std::decay_t<decltype(column)>::value_type::value_type;
    if constexpr (std::is_same_v<V, std::string>) {
      return csv_text(column[r]);
    } else {
      return csv_value(column[r]);
    }
  };
  for (std::size_t r = 0; r < ids.size(); ++r) {
    text += std::to_string(ids[r]);
    ((text += "," + cell(columns, r)), ...);
    text += "\n";
  }
  return text;
}

template <class T>
auto col(std::vector<std::optional<T>> const& v) {
  return make_column<T>(v, {}, get_current_resource());
}
auto strings(std::vector<std::optional<std::string>> const& v) {
  return make_strings_column(v, type_id::int32, {}, get_current_resource());
}

tables make_tables(std::uint64_t case_seed, std::size_t max_rows, std::size_t max_urows) {
  draw g{std::mt19937_64(case_seed)};
  std::size_t const n = std::min(row_counts[g.next() % std::size(row_counts)], max_rows);
  std::size_t const m = std::min(row_counts[g.next() % std::size(row_counts)], max_urows);
  // Keys: few or many distinct values, and sometimes one key holding half the rows.
  std::int64_t const distinct = std::array<std::int64_t, 5>{1, 3, 10, 100, 100000}[g.next() % 5];
  bool const skewed = g.unit() < 0.3;
  auto const key = [&] { return (skewed && g.unit() < 0.5) ? std::int64_t{0} : g.in(0, distinct - 1); };
  static char const* const tags[] = {"", "a", "b", "ab", "a longer tag, over sixteen bytes", "é"};
  std::int64_t const tag_count = g.in(1, 6);
  auto const tag = [&] { return std::string(tags[g.next() % static_cast<std::uint64_t>(tag_count)]); };

  std::vector<std::int64_t> ids(n), uids(m);
  for (std::size_t i = 0; i < n; ++i) { ids[i] = static_cast<std::int64_t>(i); }
  for (std::size_t j = 0; j < m; ++j) { uids[j] = static_cast<std::int64_t>(j); }
  auto const k1 = column_values<std::int32_t>(g, n, [&] { return static_cast<std::int32_t>(key()); });
  auto const k2 = column_values<std::string>(g, n, tag);
  auto const i8 = column_values<std::int8_t>(g, n, [&] { return static_cast<std::int8_t>(g.in(-128, 127)); });
  auto const i16 = column_values<std::int16_t>(g, n, [&] { return static_cast<std::int16_t>(g.in(-1000, 1000)); });
  auto const i32 = column_values<std::int32_t>(g, n, [&] {
    return g.unit() < 0.05 ? (g.unit() < 0.5 ? std::numeric_limits<std::int32_t>::min() : std::numeric_limits<std::int32_t>::max())
                           : static_cast<std::int32_t>(g.in(-1000000, 1000000));
  });
  auto const i64 = column_values<std::int64_t>(g, n, [&] { return g.in(-1000000000000, 1000000000000); });
  auto const u32 = column_values<std::uint32_t>(g, n, [&] { return static_cast<std::uint32_t>(g.in(0, 4000000000)); });
  auto const f32 = column_values<float>(g, n, [&] { return static_cast<float>(g.in(-4000, 4000)) / 8.0f; });
  // No NaN: SQL orders and compares NaN as the largest value, colx as IEEE (README, semantics).
  auto const f64 = column_values<double>(g, n, [&] {
    double const u = g.unit();
    return u < 0.02 ? -0.0 : u < 0.04 ? 0.0 : u < 0.05 ? std::numeric_limits<double>::infinity() : (g.unit() - 0.5) * 2000.0;
  });
  auto const d = column_values<date32>(g, n, [&] { return date32(static_cast<std::int32_t>(g.in(-25567, 47482))); });
  auto const s = column_values<std::string>(g, n, [&] { return random_string(g); });
  auto const b = column_values<bool>(g, n, [&] { return g.unit() < 0.5; });
  // Decimals: |pm| below 10^7 and |qr| below 10^5, so that pm * qr fits DuckDB's DECIMAL(18,5)
  // (DuckDB raises where colx gives null); sometimes equal values at different scales (pm = qr).
  auto const pm = column_values<dec<15, 2>>(g, n, [&] { return dec<15, 2>::from_unscaled(g.in(-999999999, 999999999)); });
  auto const qr = column_values<dec<9, 3>>(g, n, [&] {
    return g.unit() < 0.2 ? dec<9, 3>::from_unscaled(static_cast<std::int32_t>(g.in(-9999, 9999) * 10))
                          : dec<9, 3>::from_unscaled(static_cast<std::int32_t>(g.in(-99999999, 99999999)));
  });

  // u's int64 keys: t's key values and some no int32 holds (they must match nothing).
  auto const uk1 = column_values<std::int64_t>(g, m, [&] { return g.unit() < 0.1 ? (std::int64_t{1} << 32) + key() : key(); });
  auto const uk2 = column_values<std::string>(g, m, tag);
  auto const v = column_values<double>(g, m, [&] { return (g.unit() - 0.5) * 100.0; });
  auto const w = column_values<std::int32_t>(g, m, [&] { return static_cast<std::int32_t>(g.in(-50, 50)); });

  std::vector<std::optional<std::int64_t>> id_opt(ids.begin(), ids.end()), uid_opt(uids.begin(), uids.end());
  auto const not_null = [](std::vector<std::int64_t> const& x) { return make_column<std::int64_t>(x, {}, get_current_resource()); };
  tables out{frame<t_schema>(not_null(ids), col(k1), strings(k2), col(i8), col(i16), col(i32), col(i64), col(u32), col(f32), col(f64),
                             col(d), strings(s), col(b), col(pm), col(qr)),
             frame<u_schema>(not_null(uids), col(uk1), strings(uk2), col(v), col(w)),
             table_csv<t_schema>(ids, k1, k2, i8, i16, i32, i64, u32, f32, f64, d, s, b, pm, qr),
             table_csv<u_schema>(uids, uk1, uk2, v, w)};
  return out;
}

std::uint64_t case_seed_of(std::uint64_t seed, std::uint64_t i) {
  std::uint64_t z = seed * 0x9e3779b97f4a7c15ull + i + 1;
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

void run_case(registry const& shapes, shape const& sh, std::uint64_t case_seed, std::string const& dir, std::size_t max_rows,
              std::size_t max_urows) {
  std::filesystem::create_directories(dir);
  auto tabs = make_tables(case_seed, max_rows, max_urows);
  write_file(dir + "/t.csv", tabs.t_csv);
  write_file(dir + "/u.csv", tabs.u_csv);
  write_file(dir + "/case.txt", "seed " + std::to_string(case_seed) + "\nshape " + sh.name + "\nrows " +
                                    std::to_string(tabs.t.num_rows()) + "\nurows " + std::to_string(tabs.u.num_rows()) + "\n");
  case_context c{tabs.t, tabs.u, std::mt19937_64(case_seed ^ 0x5eed), dir, {}};
  try {
    sh.run(c);
  } catch (std::exception const& e) {  // a colx error is a finding too: run.py reports it
    write_file(dir + "/error.txt", std::string(e.what()) + "\n");
  }
  (void)shapes;
}

}  // namespace
}  // namespace colx::differential

int main(int argc, char** argv) {
  using namespace colx::differential;
  std::string out = "differential-cases", only;
  std::uint64_t cases = 100, seed = 1, replay = 0;
  std::size_t rows = SIZE_MAX, urows = SIZE_MAX;
  bool replaying = false;
  for (int a = 1; a + 1 < argc; a += 2) {
    std::string const k = argv[a], v = argv[a + 1];
    if (k == "--out") out = v;
    else if (k == "--cases") cases = std::stoull(v);
    else if (k == "--seed") seed = std::stoull(v);
    else if (k == "--shape") only = v;
    else if (k == "--replay") { replay = std::stoull(v); replaying = true; }
    else if (k == "--rows") rows = std::stoull(v);
    else if (k == "--urows") urows = std::stoull(v);
    else { std::cerr << "unknown option " << k << "\n"; return 2; }
  }
  registry shapes;
  add_row_shapes(shapes);
  add_group_shapes(shapes);
  add_join_shapes(shapes);
  add_decimal_shapes(shapes);
  add_string_shapes(shapes);
  auto const find = [&](std::string const& name) -> shape const* {
    for (auto const& s : shapes) {
      if (s.name == name) { return &s; }
    }
    return nullptr;
  };
  if (replaying) {
    shape const* sh = find(only);
    if (sh == nullptr) { std::cerr << "no shape named " << only << "\n"; return 2; }
    run_case(shapes, *sh, replay, out, rows, urows);
    return 0;
  }
  std::cout << shapes.size() << " shapes, backend " << (colx::get_default_memory_kind() == colx::memory_kind::device ? "cuda" : "host")
            << "\n";
  for (std::uint64_t i = 0; i < cases; ++i) {
    std::uint64_t const cs = case_seed_of(seed, i);
    shape const* sh = only.empty() ? &shapes[cs % shapes.size()] : find(only);
    if (sh == nullptr) { std::cerr << "no shape named " << only << "\n"; return 2; }
    run_case(shapes, *sh, cs, out + "/" + std::to_string(i), SIZE_MAX, SIZE_MAX);
  }
  return 0;
}
