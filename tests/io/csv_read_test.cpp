// SPDX-License-Identifier: Apache-2.0
// read_csv over texts this test writes from formulas (row i's values are functions of i): type
// detection (booleans, integers narrowed to the width that holds them, decimals with the sample's
// scale, doubles, dates, timestamps, strings), RFC 4180 quoting (delimiters, quotes and newlines
// inside quotes), CRLF, a missing final newline, a byte-order mark, other delimiters and quotes, a
// type widened when a value past the samples does not fit it, options (columns, types, null
// strings, skipped rows, a row limit, compressed files), the typed reader, the edges (no file
// content, a header only, one row, sizes around the block sizes) and bad input, which gives a
// csv_error naming the line, or nulls when asked.
#include "support/backend.hpp"

#include <colx/io/csv.hpp>
#include <colx/io/csv_reader.hpp>
#include <colx/io/parquet/compress.hpp>

#include <catch2/catch.hpp>

#include <cstdint>
#include <cstdio>
#include <fstream>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include <unistd.h>

namespace {

using colx::type_id;

struct scratch_file {
  std::string path;
  explicit scratch_file(std::string const& name, std::string const& text)
      : path(std::string(COLX_TEST_BINARY_DIR) + "/" + std::to_string(::getpid()) + "_" + name) {
    std::ofstream(path, std::ios::binary) << text;
  }
  ~scratch_file() { std::remove(path.c_str()); }
};

colx::any_table read(scratch_file const& f, colx::csv_read_options const& o = {}) {
  return colx::read_csv(f.path, o, {}, colx::test::backend_resource());
}

template <class T>
std::vector<std::optional<T>> values(colx::any_table const& t, std::string const& name) {
  return colx::to_optional_vector(colx::column<T>(colx::any_column(t[name])).view());
}
// An integer column of any width, as int64.
std::vector<std::optional<std::int64_t>> integers(colx::any_table const& t, std::string const& name) {
  std::vector<std::optional<std::int64_t>> out;
  auto const widen = [&](auto const& v) {
    for (auto const& x : v) { out.push_back(x ? std::optional<std::int64_t>(*x) : std::nullopt); }
  };
  switch (t[name].type().id()) {
    case type_id::int8: widen(values<std::int8_t>(t, name)); break;
    case type_id::int16: widen(values<std::int16_t>(t, name)); break;
    case type_id::int32: widen(values<std::int32_t>(t, name)); break;
    default: widen(values<std::int64_t>(t, name)); break;
  }
  return out;
}
std::vector<std::optional<std::string>> strings(colx::any_table const& t, std::string const& name) {
  return colx::to_strings(colx::strings_column_view(t[name].view()));
}

// Row i of the main text: id, small, amount, ratio, flag, day, at, note (with a comma, a quote,
// or a newline inside quotes), maybe (null every 5th).
std::string note(int i) {
  switch (i % 4) {
    case 0: return "plain " + std::to_string(i);
    case 1: return "with, comma " + std::to_string(i);
    case 2: return "say \"hi\" " + std::to_string(i);
    default: return "two\nlines " + std::to_string(i);
  }
}
std::string quoted(std::string const& s) {
  std::string out = "\"";
  for (char c : s) { out += c == '"' ? std::string("\"\"") : std::string(1, c); }
  return out + "\"";
}
std::string main_text(int rows, std::string const& eol = "\n", bool final_eol = true) {
  std::string s = "id,small,amount,ratio,flag,day,at,note,maybe" + eol;
  for (int i = 0; i < rows; ++i) {
    char buf[256];
    std::snprintf(buf, sizeof buf, "%lld,%d,%d.%02d,%.3f,%s,2024-%02d-%02d,2024-01-01 %02d:%02d:%02d.%03d,", i * 1000003LL, i % 100 - 50,
                  i * 7 - 100, (i * 13) % 100, i * 0.125 - 3, i % 3 == 0 ? "true" : "false", 1 + i % 12, 1 + i % 28, i % 24, i % 60,
                  (i * 7) % 60, i % 1000);
    s += buf + quoted(note(i)) + "," + (i % 5 == 4 ? "" : std::to_string(i % 7));
    if (i + 1 < rows || final_eol) { s += eol; }
  }
  return s;
}

void check_main(colx::any_table const& t, int rows) {
  REQUIRE(t.num_rows() == rows);
  REQUIRE(t.num_columns() == 9);
  std::int64_t const largest = static_cast<std::int64_t>(rows - 1) * 1000003;  // the narrowest integer that holds it
  CHECK(t["id"].type().id() == (largest <= 127 ? type_id::int8 : largest <= 32767 ? type_id::int16 : largest <= 2147483647 ? type_id::int32 : type_id::int64));
  CHECK(t["small"].type().id() == type_id::int8);
  CHECK(t["amount"].type() == colx::data_type(type_id::decimal64, -2, 18));
  CHECK(t["ratio"].type() == colx::data_type(type_id::decimal64, -3, 18));  // ("%.3f": three digits after the point)
  CHECK(t["flag"].type().id() == type_id::bool8);
  CHECK(t["day"].type().id() == type_id::timestamp_days);
  CHECK(t["at"].type().id() == type_id::timestamp_microseconds);
  CHECK(t["note"].type().id() == type_id::string);
  CHECK(t["maybe"].type().id() == type_id::int8);
  auto const id = integers(t, "id");
  auto const small = values<std::int8_t>(t, "small");
  auto const amount = values<colx::decimal64>(t, "amount");
  auto const ratio = values<colx::decimal64>(t, "ratio");
  auto const flag = values<bool>(t, "flag");
  auto const day = values<colx::date32>(t, "day");
  auto const at = values<colx::timestamp_us>(t, "at");
  auto const notes = strings(t, "note");
  auto const maybe = values<std::int8_t>(t, "maybe");
  for (int i = 0; i < rows; ++i) {
    INFO("row " << i);
    auto const u = static_cast<std::size_t>(i);
    REQUIRE(id[u] == i * 1000003LL);
    REQUIRE(small[u] == i % 100 - 50);
    REQUIRE(amount[u]->unscaled == (i * 7 - 100) * 100 + ((i * 7 - 100) < 0 ? -1 : 1) * ((i * 13) % 100));
    REQUIRE(ratio[u]->unscaled == i * 125 - 3000);
    REQUIRE(flag[u] == (i % 3 == 0));
    REQUIRE(day[u]->ticks == colx::date(2024, static_cast<unsigned>(1 + i % 12), static_cast<unsigned>(1 + i % 28)).ticks);
    std::int64_t const micros = ((static_cast<std::int64_t>(colx::date(2024, 1, 1).ticks) * 24 + i % 24) * 60 + i % 60) * 60'000'000 +
                                static_cast<std::int64_t>((i * 7) % 60) * 1'000'000 + (i % 1000) * 1000;
    REQUIRE(at[u]->ticks == micros);
    REQUIRE(notes[u] == note(i));
    if (i % 5 == 4) {
      REQUIRE_FALSE(maybe[u].has_value());
    } else {
      REQUIRE(maybe[u] == i % 7);
    }
  }
}

}  // namespace

TEST_CASE("read_csv: types detected, quoting, line ends, value for value", "[csv]") {
  for (int const rows : {1, 2, 37, 1000, 5000}) {
    INFO(rows << " rows");
    scratch_file const lf("lf.csv", main_text(rows));
    check_main(read(lf), rows);
    scratch_file const crlf("crlf.csv", main_text(rows, "\r\n", false));  // and no final line end
    check_main(read(crlf), rows);
    scratch_file const bom("bom.csv", "\xef\xbb\xbf" + main_text(rows));
    check_main(read(bom), rows);
  }
  // A text around the blocks' sizes (16 KiB on the GPU, 64 KiB on the host): records cross them.
  for (int const rows : {180, 181, 182, 700, 701, 702}) {
    scratch_file const f("blocks.csv", main_text(rows));
    check_main(read(f), rows);
  }
}

TEST_CASE("read_csv: other dialects, detected or given", "[csv]") {
  std::string const pipes = "a|b|c\n1|x y|2.5\n2|'q'|3.5\n";
  scratch_file const p("pipes.csv", pipes);
  colx::any_table const t = read(p);
  REQUIRE(t.num_columns() == 3);
  CHECK(values<std::int8_t>(t, "a") == std::vector<std::optional<std::int8_t>>{1, 2});
  CHECK(strings(t, "b") == std::vector<std::optional<std::string>>{"x y", "'q'"});
  scratch_file const s("semi.csv", "x;y\n'a;b';1\n'c''d';2\n");
  colx::any_table const u = read(s);
  CHECK(strings(u, "x") == std::vector<std::optional<std::string>>{"a;b", "c'd"});
  scratch_file const tabs("tabs.tsv", "k\tv\nA\t1\nB\t\n");
  colx::any_table const v = read(tabs);
  CHECK(values<std::int8_t>(v, "v") == std::vector<std::optional<std::int8_t>>{1, std::nullopt});
  // A backslash escape inside quotes, given.
  scratch_file const esc("escape.csv", "s,n\n\"a\\\"b\",1\n\"c\\\\\",2\n");
  colx::csv_read_options o;
  o.escape = '\\';
  CHECK(strings(read(esc, o), "s") == std::vector<std::optional<std::string>>{"a\"b", "c\\"});
  // TPC-H's .tbl: no header, a delimiter at every record's end (no column of it).
  scratch_file const tbl("t.tbl", "1|abc|2.50|\n2|de|3.75|\n3||0.00|\n");
  colx::any_table const tb = read(tbl);
  REQUIRE(tb.num_columns() == 3);
  CHECK(strings(tb, "column1") == std::vector<std::optional<std::string>>{"abc", "de", std::nullopt});
  // No header: every row is data; names column0, column1, ...
  scratch_file const nohead("nohead.csv", "1,2\n3,4\n");
  colx::any_table const w = read(nohead);
  CHECK(w.num_rows() == 2);
  CHECK(w.labels().front() == colx::label("column0"));
}

TEST_CASE("read_csv: a type widened when a value past the samples does not fit", "[csv]") {
  std::string text = "n,m\n";
  for (int i = 0; i < 20000; ++i) { text += std::to_string(i) + "," + std::to_string(i) + "\n"; }
  text += "3.5,x\n";
  scratch_file const f("widen.csv", text);
  colx::csv_read_stats stats;
  colx::csv_read_options o;
  o.sample_bytes = 4096;  // (the samples miss the last row)
  o.stats = &stats;
  colx::any_table const t = read(f, o);
  CHECK(stats.passes == 2);
  CHECK(t["n"].type() == colx::data_type(type_id::decimal64, -1, 18));  // (integers and 3.5: a decimal of one digit after the point)
  CHECK(t["m"].type().id() == type_id::string);
  CHECK(values<colx::decimal64>(t, "n").back()->unscaled == 35);
  CHECK(values<colx::decimal64>(t, "n")[19999]->unscaled == 199990);
  CHECK(strings(t, "m")[19999] == "19999");
}

TEST_CASE("read_csv: options", "[csv]") {
  scratch_file const f("options.csv", "# a comment\nskip me\nid,name,score\n1,NA,2.5\n2,b,NA\n3,c,4\n");
  colx::csv_read_options o;
  o.comment = '#';
  o.skip_rows = 1;
  o.null_strings = {"NA"};
  o.columns = {"score", "id"};
  o.types = {{"id", colx::data_type(type_id::int64)}};
  colx::any_table const t = read(f, o);
  REQUIRE(t.num_columns() == 2);
  CHECK(t.labels().front() == colx::label("score"));  // (in the order asked)
  CHECK(values<std::int64_t>(t, "id") == std::vector<std::optional<std::int64_t>>{1, 2, 3});
  CHECK(t["score"].type() == colx::data_type(type_id::decimal64, -1, 18));  // (the sample's digits after the point)
  auto const score = values<colx::decimal64>(t, "score");
  CHECK(score[0]->unscaled == 25);
  CHECK_FALSE(score[1].has_value());
  CHECK(score[2]->unscaled == 40);
  o.row_limit = 2;
  CHECK(read(f, o).num_rows() == 2);
  // A null marker in a string column: its text is not copied over the next row's bytes.
  o.columns = {"name"};
  o.row_limit = -1;
  CHECK(strings(read(f, o), "name") == std::vector<std::optional<std::string>>{std::nullopt, "b", "c"});
  o.columns = {"nope"};
  CHECK_THROWS_AS(read(f, o), colx::schema_error);
}

TEST_CASE("read_csv: a decimal comma, words for booleans, UTF-8", "[csv]") {
  scratch_file const f("european.csv", "price;ok;name\n1,50;ja;Zoë\n-2,25;nein;Ærø\n3;ja;\n");
  colx::csv_read_options o;
  o.decimal_point = ',';
  o.true_strings = {"ja"};
  o.false_strings = {"nein"};
  colx::any_table const t = read(f, o);
  CHECK(t["price"].type() == colx::data_type(type_id::decimal64, -2, 18));
  auto const price = values<colx::decimal64>(t, "price");
  CHECK(price[0]->unscaled == 150);
  CHECK(price[1]->unscaled == -225);
  CHECK(price[2]->unscaled == 300);
  CHECK(values<bool>(t, "ok") == std::vector<std::optional<bool>>{true, false, true});
  CHECK(strings(t, "name") == std::vector<std::optional<std::string>>{"Zoë", "Ærø", std::nullopt});
  // Bytes that are not UTF-8 in a string: an error naming the line, or a null.
  scratch_file const bad("latin1.csv", "name,n\nok,1\nZo\xeb,2\n");
  CHECK_THROWS_WITH(read(bad), Catch::Contains("line 3") && Catch::Contains("column \"name\"") && Catch::Contains("not UTF-8"));
  colx::csv_read_options nulls;
  nulls.errors_become_nulls = true;
  CHECK(strings(read(bad, nulls), "name") == std::vector<std::optional<std::string>>{"ok", std::nullopt});
  nulls.check_utf8 = false;
  CHECK(strings(read(bad, nulls), "name") == std::vector<std::optional<std::string>>{"ok", "Zo\xeb"});
}

TEST_CASE("read_csv: date and timestamp formats", "[csv]") {
  scratch_file const f("formats.csv", "day,at\n29/02/2024,03-Mar-24 13:14:15.25\n1/12/1999,31-dec-99 00:00:00.000001\n");
  colx::csv_read_options o;
  o.date_format = "%d/%m/%Y";
  o.timestamp_format = "%d-%b-%y %H:%M:%S.%f";
  colx::any_table const t = read(f, o);
  REQUIRE(t["day"].type().id() == type_id::timestamp_days);
  REQUIRE(t["at"].type().id() == type_id::timestamp_microseconds);
  auto const day = values<colx::date32>(t, "day");
  CHECK(day[0]->ticks == colx::date(2024, 2, 29).ticks);
  CHECK(day[1]->ticks == colx::date(1999, 12, 1).ticks);
  auto const at = values<colx::timestamp_us>(t, "at");
  CHECK(at[0]->ticks == ((static_cast<std::int64_t>(colx::date(2024, 3, 3).ticks) * 24 + 13) * 60 + 14) * 60'000'000 + 15'250'000);
  CHECK(at[1]->ticks == static_cast<std::int64_t>(colx::date(1999, 12, 31).ticks) * 86'400'000'000 + 1);
  o.types = {{"at", colx::data_type(type_id::timestamp_nanoseconds)}};
  CHECK(values<colx::timestamp_ns>(read(f, o), "at")[1]->ticks == static_cast<std::int64_t>(colx::date(1999, 12, 31).ticks) * 86'400'000'000'000 + 1000);
  o.date_format = "%Y-%m-%d";  // (the days do not read so: strings)
  o.types.clear();
  CHECK(read(f, o)["day"].type().id() == type_id::string);
}

TEST_CASE("read_csv<Schema>: typed, a dictionary field encoded", "[csv]") {
  scratch_file const f("typed.csv", "city,n,price\nOslo,1,1.50\nLima,2,2.25\nOslo,3,\n");
  using S = colx::schema<colx::field<"city", colx::dictionary<colx::string_view, std::int8_t>>, colx::field<"n", std::int32_t>,
                         colx::field<"price", colx::dec<9, 2>>>;
  auto const frame = colx::read_csv<S>(f.path, {}, {}, colx::test::backend_resource());
  colx::any_table const t = colx::to_table(frame);
  CHECK(t["city"].type().id() == type_id::dictionary);
  CHECK(values<std::int32_t>(t, "n") == std::vector<std::optional<std::int32_t>>{1, 2, 3});
  auto const price = values<colx::decimal32>(t, "price");
  CHECK(price[1]->unscaled == 225);
  CHECK_FALSE(price[2].has_value());
  using wrong = colx::schema<colx::field<"city", std::int32_t>>;
  CHECK_THROWS_AS(colx::read_csv<wrong>(f.path), colx::csv_error);
}

TEST_CASE("read_csv: the edges", "[csv]") {
  scratch_file const empty("empty.csv", "");
  CHECK(read(empty).num_columns() == 0);
  scratch_file const head("head.csv", "a,b\n");
  colx::any_table const h = read(head);
  CHECK(h.num_rows() == 0);
  CHECK(h.num_columns() == 2);
  scratch_file const one("one.csv", "a,b\n1,x");
  CHECK(strings(read(one), "b") == std::vector<std::optional<std::string>>{"x"});
  scratch_file const blank("blank.csv", "a,b\n\n1,x\n\r\n2,y\n");
  CHECK(read(blank).num_rows() == 2);
}

TEST_CASE("read_csv: bad input gives a csv_error naming the line, or nulls when asked", "[csv]") {
  scratch_file const many("many.csv", "a,b\n1,2\n3,4,5\n6,7\n");
  CHECK_THROWS_WITH(read(many), Catch::Contains("line 3") && Catch::Contains("too many fields"));
  scratch_file const few("few.csv", "a,b\n1,2\n3\n");
  CHECK_THROWS_WITH(read(few), Catch::Contains("line 3") && Catch::Contains("too few fields"));
  scratch_file const open("open.csv", "a,b\n1,\"2\n3,4\n");
  CHECK_THROWS_AS(read(open), colx::csv_error);
  scratch_file const after("after.csv", "a,b\n1,\"2\"x\n");
  CHECK_THROWS_WITH(read(after), Catch::Contains("after a closing quote"));
  scratch_file const bad("bad.csv", "a,b\n1,2\nx,3\n4,5\n");
  colx::csv_read_options o;
  o.types = {{"a", colx::data_type(type_id::int32)}};
  CHECK_THROWS_WITH(read(bad, o), Catch::Contains("line 3") && Catch::Contains("column \"a\""));
  colx::csv_read_stats stats;
  o.errors_become_nulls = true;
  o.stats = &stats;
  colx::any_table const t = read(bad, o);
  CHECK(values<std::int32_t>(t, "a") == std::vector<std::optional<std::int32_t>>{1, std::nullopt, 4});
  CHECK(stats.nulled_values == 1);
  scratch_file const range("range.csv", "a\n1\n300\n");
  colx::csv_read_options r;
  r.types = {{"a", colx::data_type(type_id::int8)}};
  CHECK_THROWS_WITH(read(range, r), Catch::Contains("outside int8"));
  CHECK_THROWS_AS(colx::read_csv("/no/such/file.csv"), colx::io_error);
}

TEST_CASE("read_csv: compressed files, by their extension", "[csv]") {
  std::string const text = main_text(300);
  std::span<std::uint8_t const> const bytes(reinterpret_cast<std::uint8_t const*>(text.data()), text.size());
  std::vector<std::uint8_t> packed;
#if defined(COLX_WITH_ZLIB)
  colx::parquet::compress(colx::parquet::codec::gzip, bytes, packed, 0);
  scratch_file const gz("packed.csv.gz", std::string(packed.begin(), packed.end()));
  check_main(read(gz), 300);
  scratch_file const cut("cut.csv.gz", std::string(packed.begin(), packed.begin() + static_cast<std::ptrdiff_t>(packed.size() / 2)));
  CHECK_THROWS_AS(read(cut), colx::csv_error);
#endif
#if defined(COLX_WITH_ZSTD)
  colx::parquet::compress(colx::parquet::codec::zstd, bytes, packed, 3);
  scratch_file const zst("packed.csv.zst", std::string(packed.begin(), packed.end()));
  check_main(read(zst), 300);
  scratch_file const cut_zst("cut.csv.zst", std::string(packed.begin(), packed.begin() + static_cast<std::ptrdiff_t>(packed.size() / 2)));
  CHECK_THROWS_AS(read(cut_zst), colx::csv_error);
#endif
}

TEST_CASE("sniff_csv: the dialect, header and types from the start of a file", "[csv]") {
  scratch_file const f("sniff.csv", main_text(3000));
  colx::csv_schema const s = colx::sniff_csv(f.path);
  CHECK(s.delimiter == ',');
  CHECK(s.header);
  REQUIRE(s.columns.size() == 9);
  CHECK(s.columns[0] == std::pair<std::string, colx::data_type>{"id", colx::data_type(type_id::int64)});  // (not narrowed yet)
  CHECK(s.columns[2].second == colx::data_type(type_id::decimal64, -2, 18));
  CHECK(s.columns[7].second.id() == type_id::string);
  scratch_file const tbl("sniff.tbl", "1|a|\n2|b|\n");
  colx::csv_schema const t = colx::sniff_csv(tbl.path);
  CHECK(t.delimiter == '|');
  CHECK_FALSE(t.header);
  CHECK(t.columns.size() == 2);
}

TEST_CASE("csv_reader: chunks of a file hand out every record once, in order, with one schema", "[csv]") {
  int const rows = 3000;
  scratch_file const f("chunks.csv", main_text(rows));
  colx::any_table const whole = read(f);
  for (std::size_t const chunk : {std::size_t{10}, std::size_t{1000}, std::size_t{4096}, std::size_t{1} << 20}) {
    INFO("chunks of " << chunk << " bytes");
    colx::csv_reader reader(f.path, chunk, {}, {}, colx::test::backend_resource());
    auto const columns = reader.columns();
    REQUIRE(columns.size() == 9);
    CHECK(columns[0].second.id() == type_id::int64);  // (integers stay int64 across chunks)
    std::int64_t seen = 0;
    std::vector<std::optional<std::int64_t>> ids;
    std::vector<std::optional<std::string>> notes;
    while (auto t = reader.next()) {
      REQUIRE(t->num_columns() == 9);
      CHECK(t->column(0).type().id() == type_id::int64);
      seen += t->num_rows();
      for (auto const& v : values<std::int64_t>(*t, "id")) { ids.push_back(v); }
      for (auto const& v : strings(*t, "note")) { notes.push_back(v); }
    }
    CHECK(seen == rows);
    CHECK(ids == integers(whole, "id"));
    CHECK(notes == strings(whole, "note"));
    if (chunk < 100000) { CHECK(reader.chunks() > 1); }
  }
  // Skipped rows and a row limit across chunks; a file of no data.
  colx::csv_read_options o;
  o.skip_rows = 0;
  o.row_limit = 1234;
  colx::csv_reader limited(f.path, 4096, o);
  std::int64_t n = 0;
  while (auto t = limited.next()) { n += t->num_rows(); }
  CHECK(n == 1234);
  scratch_file const head("chunk_head.csv", "a,b\n");
  colx::csv_reader none(head.path, 16);
  CHECK_FALSE(none.next().has_value());
  // A bad record deep in the file names its line.
  std::string text = main_text(500);
  text += "1,2\n";
  scratch_file const bad("chunk_bad.csv", text);
  colx::csv_reader failing(bad.path, 2048);
  auto const drain = [&] {
    while (failing.next()) {}
  };
  CHECK_THROWS_WITH(drain(), Catch::Contains("line " + std::to_string(1 + 1 + 500 + 125)) && Catch::Contains("too few fields"));
  scratch_file const packed("chunk.csv.gz", "x");
  CHECK_THROWS_AS(colx::csv_reader(packed.path, 100), colx::csv_error);
}
