// SPDX-License-Identifier: Apache-2.0
// colx: host-only
// colx_parquet_digest FILE...: reads each file with colx (Parquet; CSV when its name ends in .csv,
// .tbl, .tsv, or those and .gz or .zst) and prints one JSON line per column: its position, type
// and scale, the count of non-null values, their sum (exact for integers, decimals' unscaled
// values, dates' days and timestamps' ticks; strings: total bytes), min and max.
// compare_duckdb.py (and tests/io/csv/compare_duckdb.py) compute the same with DuckDB from the same
// file and compare.
#include <colx/colx.hpp>
#include <colx/io/csv.hpp>
#include <colx/io/parquet.hpp>

#include <cstdio>
#include <cstring>
#include <exception>
#include <optional>
#include <string>

namespace {

std::string int128_text(colx::int128_t v) {
  if (v == 0) { return "0"; }
  bool const negative = v < 0;
  colx::uint128_t u = negative ? -static_cast<colx::uint128_t>(v) : static_cast<colx::uint128_t>(v);
  std::string s;
  while (u > 0) {
    s.insert(s.begin(), static_cast<char>('0' + static_cast<int>(u % 10)));
    u /= 10;
  }
  return negative ? "-" + s : s;
}

std::string json_string(std::string const& s) {
  std::string out = "\"";
  for (unsigned char c : s) {
    if (c == '"' || c == '\\') {
      out += '\\';
      out += static_cast<char>(c);
    } else if (c < 0x20) {
      char buf[8];
      std::snprintf(buf, sizeof buf, "\\u%04x", c);
      out += buf;
    } else {
      out += static_cast<char>(c);
    }
  }
  return out + "\"";
}

// A value as an exact integer where it is one (text), or a double.
template <class T>
std::string number(T const& v) {
  if constexpr (std::is_floating_point_v<T>) {
    char buf[40];
    std::snprintf(buf, sizeof buf, "%.17g", static_cast<double>(v));
    return buf;
  } else if constexpr (requires { v.unscaled; }) {
    return int128_text(static_cast<colx::int128_t>(v.unscaled));
  } else if constexpr (requires { v.ticks; }) {
    return int128_text(static_cast<colx::int128_t>(v.ticks));
  } else {
    return int128_text(static_cast<colx::int128_t>(v));
  }
}

struct digest_fn {
  colx::any_column const& column;
  template <class T>
  std::string operator()() const {
    std::int64_t count = 0;
    std::string sum, lo, hi;
    if constexpr (std::is_same_v<T, colx::string_view>) {
      auto const rows = colx::to_strings(colx::strings_column_view(column.view()));
      std::int64_t bytes = 0;
      std::optional<std::string> mn, mx;
      for (auto const& r : rows) {
        if (!r) { continue; }
        ++count;
        bytes += static_cast<std::int64_t>(r->size());
        if (!mn || *r < *mn) { mn = *r; }
        if (!mx || *r > *mx) { mx = *r; }
      }
      sum = std::to_string(bytes);
      lo = mn ? json_string(*mn) : "null";
      hi = mx ? json_string(*mx) : "null";
    } else {
      auto const rows = colx::to_optional_vector(colx::column<T>(colx::any_column(column)).view());
      std::optional<T> mn, mx;
      colx::int128_t total = 0;
      double dtotal = 0;
      for (auto const& r : rows) {
        if (!r) { continue; }
        ++count;
        if constexpr (std::is_floating_point_v<T>) {
          dtotal += static_cast<double>(*r);
        } else if constexpr (requires { r->unscaled; }) {
          total += static_cast<colx::int128_t>(r->unscaled);
        } else if constexpr (requires { r->ticks; }) {
          total += static_cast<colx::int128_t>(r->ticks);
        } else {
          total += static_cast<colx::int128_t>(*r);
        }
        if (!mn || *r < *mn) { mn = *r; }
        if (!mx || *mx < *r) { mx = *r; }
      }
      if constexpr (std::is_floating_point_v<T>) {
        sum = number(dtotal);
      } else {
        sum = "\"" + int128_text(total) + "\"";
      }
      lo = mn ? (std::is_floating_point_v<T> ? number(*mn) : "\"" + number(*mn) + "\"") : "null";
      hi = mx ? (std::is_floating_point_v<T> ? number(*mx) : "\"" + number(*mx) + "\"") : "null";
    }
    return "\"count\": " + std::to_string(count) + ", \"sum\": " + sum + ", \"min\": " + lo + ", \"max\": " + hi;
  }
};

}  // namespace

int main(int argc, char** argv) {
  try {
    for (int i = 1; i < argc; ++i) {
      std::string const path = argv[i];
      std::string base = path;
      for (char const* packed : {".gz", ".zst"}) {
        if (base.size() > std::strlen(packed) && base.ends_with(packed)) { base.resize(base.size() - std::strlen(packed)); }
      }
      bool const csv = base.ends_with(".csv") || base.ends_with(".tbl") || base.ends_with(".tsv");
      colx::any_table const t = csv ? colx::read_csv(path, {}, {}, colx::get_current_host_resource())
                                    : colx::read_parquet(path, {}, {}, colx::get_current_host_resource());
      for (std::size_t c = 0; c < t.num_columns(); ++c) {
        colx::any_column const& col = t.column(c);
        std::string const body = colx::type_dispatch(col.type(), digest_fn{col});
        std::printf("{\"file\": %s, \"index\": %zu, \"column\": %s, \"type\": \"%s\", \"scale\": %d, \"rows\": %lld, %s}\n",
                    json_string(argv[i]).c_str(), c + 1, json_string(t.labels()[c][0]).c_str(), colx::to_string(col.type().id()),
                    col.type().scale(), static_cast<long long>(col.size()), body.c_str());
      }
    }
  } catch (std::exception const& e) {
    std::fprintf(stderr, "%s\n", e.what());
    return 1;
  }
  return 0;
}
