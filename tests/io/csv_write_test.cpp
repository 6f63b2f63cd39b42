// SPDX-License-Identifier: Apache-2.0
// write_csv, read back by read_csv: every type colx reads from Parquet's test file (integers of
// every width, floats, booleans, strings with delimiters, quotes and newlines, decimals up to 38
// digits... of which CSV reads 18, dates, timestamps of every unit), with nulls, value for value;
// other dialects; the empty string against the null string; no rows; the errors.
#include "io/parquet/expected.hpp"
#include "support/backend.hpp"

#include <colx/io/csv.hpp>

#include <catch2/catch.hpp>

#include <cstdio>
#include <string>

#include <unistd.h>

namespace {

std::string scratch(std::string const& name) {
  return std::string(COLX_TEST_BINARY_DIR) + "/" + std::to_string(::getpid()) + "_" + name;
}
struct removed_at_end {
  std::string path;
  ~removed_at_end() { std::remove(path.c_str()); }
};

// Reads `path` with every column's type as in `t`.
colx::any_table read_as(std::string const& path, colx::any_table const& t, colx::csv_read_options o = {}) {
  for (std::size_t c = 0; c < t.num_columns(); ++c) { o.types[t.labels()[c][0]] = t.column(c).type(); }
  return colx::read_csv(path, o, {}, colx::test::backend_resource());
}

}  // namespace

TEST_CASE("write_csv: every type, read back value for value", "[csv]") {
  colx::parquet_read_options columns;
  for (auto const& c : colx::read_parquet_metadata(data("plain.parquet")).columns) {
    if (c.name != "dec38") { columns.columns.push_back(c.name); }  // (38 digits: CSV reads decimals of 18)
  }
  colx::any_table const t = colx::read_parquet(data("plain.parquet"), columns, {}, colx::test::backend_resource());
  struct dialect_case {
    char delimiter;
    char quote;
    std::string line_end;
  };
  for (auto const& d : {dialect_case{',', '"', "\n"}, dialect_case{'|', '"', "\r\n"}, dialect_case{';', '\'', "\n"}}) {
    INFO("delimiter " << d.delimiter);
    std::string const path = scratch("every_type.csv");
    removed_at_end const cleanup{path};
    colx::csv_write_options w;
    w.delimiter = d.delimiter;
    w.quote = d.quote;
    w.line_end = d.line_end;
    w.block_rows = 100;  // (several blocks, formatted side by side)
    colx::write_csv(t, path, w);
    colx::csv_read_options r;
    r.delimiter = d.delimiter;
    r.quote = d.quote;
    colx::any_table const back = read_as(path, t, r);
    REQUIRE(back.num_rows() == t.num_rows());
    REQUIRE(back.labels() == t.labels());
    for (std::size_t c = 0; c < t.num_columns(); ++c) {
      INFO("column " << t.labels()[c][0]);
      CHECK(back.column(c).null_count() == t.column(c).null_count());
    }
    check_table(back);
  }
}

TEST_CASE("write_csv: strings that need quotes, the empty string and null, no rows", "[csv]") {
  auto const f = colx::make_frame(colx::values<"s", std::optional<std::string>>({"plain", "a,b", "say \"hi\"", "two\nlines", "", std::nullopt,
                                                                                 " padded ", "NA"}),
                                  colx::values<"n">(std::vector<std::int64_t>{1, 2, 3, 4, 5, 6, 7, 8}));
  std::string const path = scratch("strings.csv");
  removed_at_end const cleanup{path};
  colx::write_csv(f, path);
  colx::any_table const back = colx::read_csv(path, {}, {}, colx::test::backend_resource());
  auto const s = colx::to_strings(colx::strings_column_view(back["s"].view()));
  CHECK(s == std::vector<std::optional<std::string>>{"plain", "a,b", "say \"hi\"", "two\nlines", "", std::nullopt, " padded ", "NA"});
  colx::csv_write_options na;
  na.null_string = "NA";  // a string equal to it is quoted, so it stays a string
  colx::write_csv(f, path, na);
  colx::csv_read_options r;
  r.null_strings = {"NA"};
  auto const t = colx::to_strings(colx::strings_column_view(colx::read_csv(path, r)["s"].view()));
  REQUIRE(t.size() == s.size());
  for (std::size_t i = 0; i < s.size(); ++i) {
    INFO("row " << i << ": " << t[i].value_or("(null)") << " against " << s[i].value_or("(null)"));
    CHECK(t[i] == s[i]);
  }
  colx::write_csv(f.head(0), path);
  colx::any_table const none = colx::read_csv(path);
  CHECK(none.num_rows() == 0);
  CHECK(none.num_columns() == 2);
  CHECK_THROWS_AS(colx::write_csv(f, scratch("no/such/dir/x.csv")), colx::io_error);
}
