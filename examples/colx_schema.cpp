// SPDX-License-Identifier: Apache-2.0
// colx: host-only
// colx-schema FILE: prints the colx::schema<...> declaration of a Parquet file's columns (names,
// types, nullability), to paste into code that reads it with read_parquet<Schema>, or of a CSV
// file's (.csv, .tsv, .tbl, also .gz or .zst) as read_csv detects them from a sample, for
// read_csv<Schema>. Parquet columns colx cannot read yet are listed as comments saying why.
// Without an argument it describes one of the test files.
#include <colx/io/csv.hpp>
#include <colx/io/parquet.hpp>

#include <cctype>
#include <cstdio>
#include <exception>
#include <string>

namespace {

// The C++ spelling of a colx element type.
std::string cpp_type(colx::data_type t) {
  using colx::type_id;
  switch (t.id()) {
    case type_id::bool8: return "bool";
    case type_id::int8: return "std::int8_t";
    case type_id::int16: return "std::int16_t";
    case type_id::int32: return "std::int32_t";
    case type_id::int64: return "std::int64_t";
    case type_id::uint8: return "std::uint8_t";
    case type_id::uint16: return "std::uint16_t";
    case type_id::uint32: return "std::uint32_t";
    case type_id::uint64: return "std::uint64_t";
    case type_id::float32: return "float";
    case type_id::float64: return "double";
    case type_id::timestamp_days: return "colx::date32";
    case type_id::timestamp_milliseconds: return "colx::timestamp_ms";
    case type_id::timestamp_microseconds: return "colx::timestamp_us";
    case type_id::timestamp_nanoseconds: return "colx::timestamp_ns";
    case type_id::decimal32:
    case type_id::decimal64:
    case type_id::decimal128: return "colx::dec<" + std::to_string(t.precision()) + ", " + std::to_string(-t.scale()) + ">";
    case type_id::string: return "colx::string_view";
    default: return "/* " + t.to_string() + " */";
  }
}

// A C++ identifier made of the file's name: "lineitem.parquet" -> lineitem.
std::string schema_name(std::string const& path) {
  std::string base = path.substr(path.find_last_of('/') + 1);
  base = base.substr(0, base.find('.'));
  std::string out;
  for (char c : base) { out += std::isalnum(static_cast<unsigned char>(c)) ? c : '_'; }
  if (out.empty() || std::isdigit(static_cast<unsigned char>(out[0]))) { out = "table_" + out; }
  return out;
}

}  // namespace

int main(int argc, char** argv) {
  std::string const path = argc > 1 ? argv[1] : "../tests/io/parquet/data/dict_snappy.parquet";
  try {
    std::string base = path;
    for (char const* packed : {".gz", ".zst"}) {
      if (base.ends_with(packed)) { base.resize(base.size() - std::string(packed).size()); }
    }
    if (base.ends_with(".csv") || base.ends_with(".tsv") || base.ends_with(".tbl")) {
      colx::csv_schema const s = colx::sniff_csv(path);
      std::printf("// %s: CSV, delimiter '%s', %s; types from a sample (integers as int64: read_csv narrows them)\n", path.c_str(),
                  s.delimiter == '\t' ? "\\t" : std::string(1, s.delimiter).c_str(), s.header ? "a header" : "no header");
      std::string fields;
      for (auto const& [name, type] : s.columns) {
        fields += fields.empty() ? "" : ",\n";
        fields += "    colx::field<\"" + name + "\", " + cpp_type(type) + ">";
      }
      std::printf("using %s = colx::schema<\n%s>;\n", schema_name(path).c_str(), fields.c_str());
      return 0;
    }
    colx::parquet_metadata const md = colx::read_parquet_metadata(path);
    std::printf("// %s: %lld rows in %zu row groups\n", path.c_str(), static_cast<long long>(md.file.num_rows),
                md.file.row_groups.size());
    std::string fields;
    for (auto const& c : md.columns) {
      if (!c.unsupported.empty()) {
        std::printf("// not readable: \"%s\": %s\n", c.name.c_str(), c.unsupported.c_str());
        continue;
      }
      fields += fields.empty() ? "" : ",\n";
      fields += "    colx::field<\"" + c.name + "\", " + cpp_type(c.type) + (c.max_def == 0 ? ", colx::not_null>" : ">");
    }
    std::printf("using %s = colx::schema<\n%s>;\n", schema_name(path).c_str(), fields.c_str());
  } catch (std::exception const& e) {
    std::fprintf(stderr, "colx-schema: %s\n", e.what());
    return 1;
  }
  return 0;
}
