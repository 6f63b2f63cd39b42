// SPDX-License-Identifier: Apache-2.0
// colx: host-only
// A small shared library that pyarrow_test.py loads with ctypes, so colx's Arrow export and
// import are checked against a real consumer and producer (pyarrow), not only against colx.
//   colx_export_demo: a fixed table of every type with nulls (rows [begin, end) of it);
//   colx_describe:    imports an array (a struct as a table) and describes it as text;
//   colx_release_schema, colx_free: for the caller's cleanup.
#include <colx/colx.hpp>
#include <colx/interop/arrow_device.hpp>
#include <colx/interop/arrow_export.hpp>
#include <colx/interop/arrow_import.hpp>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

namespace {

constexpr std::size_t demo_rows = 40;

bool is_null_row(std::size_t i) { return i % 3 == 1 || i % 7 == 0; }

colx::resource_ref host() { return colx::get_current_host_resource(); }

template <class T, class F>
colx::any_column demo_column(F value, bool nulls = true) {
  std::vector<std::optional<T>> v(demo_rows);
  for (std::size_t i = 0; i < demo_rows; ++i) {
    if (!nulls || !is_null_row(i)) { v[i] = value(i); }
  }
  return std::move(colx::make_column(v, {}, host())).release();
}

template <class Rep>
colx::any_column demo_decimal(std::int32_t scale) {
  std::vector<std::optional<colx::decimal<Rep>>> v(demo_rows);
  for (std::size_t i = 0; i < demo_rows; ++i) {
    if (!is_null_row(i)) { v[i] = colx::decimal<Rep>{static_cast<Rep>(static_cast<std::int64_t>(i) * 12345 - 99)}; }
  }
  return std::move(colx::make_decimal_column(v, scale, {}, host())).release();
}

colx::any_column demo_strings(colx::type_id offsets, std::string const& prefix) {
  std::vector<std::optional<std::string>> v(demo_rows);
  for (std::size_t i = 0; i < demo_rows; ++i) {
    if (!is_null_row(i)) { v[i] = prefix + std::to_string(i); }
  }
  return colx::make_strings_column(v, offsets, {}, host()).release();
}

// Row i is one of three names (i % 3), through uint8 codes; null where is_null_row(i).
colx::any_column demo_dictionary() {
  std::vector<std::optional<std::uint8_t>> codes(demo_rows);
  for (std::size_t i = 0; i < demo_rows; ++i) {
    if (!is_null_row(i)) { codes[i] = static_cast<std::uint8_t>(i % 3); }
  }
  return colx::make_dictionary_column(colx::make_column(codes, {}, host()),
                                      colx::make_strings_column({"alpha", "beta", "gamma"}, colx::type_id::int32, {}, host()))
      .release();
}

// The demo table; pyarrow_test.py writes the same values down independently.
colx::table demo_table(std::vector<std::string>& names) {
  std::vector<colx::any_column> c;
  auto add = [&](char const* name, colx::any_column col) {
    names.emplace_back(name);
    c.push_back(std::move(col));
  };
  auto i64 = [](std::size_t i) { return static_cast<std::int64_t>(i); };
  add("bool", demo_column<bool>([](std::size_t i) { return i % 2 == 0; }));
  add("int8", demo_column<std::int8_t>([&](std::size_t i) { return static_cast<std::int8_t>(i64(i) * 3 - 50); }));
  add("int16", demo_column<std::int16_t>([&](std::size_t i) { return static_cast<std::int16_t>(i64(i) * 300 - 5000); }));
  add("int32", demo_column<std::int32_t>([&](std::size_t i) { return static_cast<std::int32_t>(i64(i) * 70000 - 1000000); }));
  add("int64", demo_column<std::int64_t>([&](std::size_t i) { return i64(i) * 10000000000LL - 7; }));
  add("uint8", demo_column<std::uint8_t>([](std::size_t i) { return static_cast<std::uint8_t>(i * 6); }));
  add("uint16", demo_column<std::uint16_t>([](std::size_t i) { return static_cast<std::uint16_t>(i * 1600); }));
  add("uint32", demo_column<std::uint32_t>([](std::size_t i) { return static_cast<std::uint32_t>(i * 100000000u); }));
  add("uint64", demo_column<std::uint64_t>([](std::size_t i) { return static_cast<std::uint64_t>(i) * 400000000000000000ULL; }));
  add("float32", demo_column<float>([](std::size_t i) { return static_cast<float>(i) * 0.5f - 3.0f; }));
  add("float64", demo_column<double>([](std::size_t i) { return static_cast<double>(i) * 0.25 - 3.0; }));
  add("date32", demo_column<colx::date32>([](std::size_t i) { return colx::date32(static_cast<std::int32_t>(i * 1000 + 7)); }));
  add("ts_s", demo_column<colx::timestamp_s>([&](std::size_t i) { return colx::timestamp_s(i64(i) * 1000 + 7); }));
  add("ts_ms", demo_column<colx::timestamp_ms>([&](std::size_t i) { return colx::timestamp_ms(i64(i) * 1000 + 7); }));
  add("ts_us", demo_column<colx::timestamp_us>([&](std::size_t i) { return colx::timestamp_us(i64(i) * 1000 + 7); }));
  add("ts_ns", demo_column<colx::timestamp_ns>([&](std::size_t i) { return colx::timestamp_ns(i64(i) * 1000 + 7); }));
  add("dur_days", demo_column<colx::duration_days>([](std::size_t i) { return colx::duration_days(static_cast<std::int32_t>(i) - 5); }));
  add("dur_s", demo_column<colx::duration_s>([&](std::size_t i) { return colx::duration_s(i64(i) * 1000 - 7); }));
  add("dur_ms", demo_column<colx::duration_ms>([&](std::size_t i) { return colx::duration_ms(i64(i) * 1000 - 7); }));
  add("dur_us", demo_column<colx::duration_us>([&](std::size_t i) { return colx::duration_us(i64(i) * 1000 - 7); }));
  add("dur_ns", demo_column<colx::duration_ns>([&](std::size_t i) { return colx::duration_ns(i64(i) * 1000 - 7); }));
  add("dec32", demo_decimal<std::int32_t>(-2));
  add("dec64", demo_decimal<std::int64_t>(-3));
  add("dec128", demo_decimal<colx::int128_t>(-20));
  add("utf8", demo_strings(colx::type_id::int32, "s"));
  add("large_utf8", demo_strings(colx::type_id::int64, "large-"));
  add("dense", demo_column<std::int64_t>([&](std::size_t i) { return i64(i); }, false));
  add("dict", demo_dictionary());
  return colx::table(std::move(c));
}

std::string to_text(colx::int128_t v) {
  if (v == 0) { return "0"; }
  bool const negative = v < 0;
  std::string s;
  while (v != 0) {  // digits of a negative value come out negative: no overflow at the minimum
    int const digit = static_cast<int>(v % 10);
    s.insert(s.begin(), static_cast<char>('0' + (digit < 0 ? -digit : digit)));
    v /= 10;
  }
  return negative ? "-" + s : s;
}

template <class T>
std::vector<std::string> value_texts(colx::any_column const& c) {
  std::vector<std::string> out;
  for (auto const& value : colx::to_optional_vector(c.view().as<T>())) {
    if (!value) {
      out.emplace_back("null");
      continue;
    }
    T const v = *value;
    std::ostringstream text;
    if constexpr (std::is_same_v<T, bool>) {
      text << (v ? 1 : 0);
    } else if constexpr (std::is_floating_point_v<T>) {
      char buf[64];
      std::snprintf(buf, sizeof buf, "%.17g", static_cast<double>(v));
      text << buf;
    } else if constexpr (std::is_integral_v<T>) {
      text << +v;
    } else if constexpr (requires { v.ticks; }) {
      text << static_cast<std::int64_t>(v.ticks);
    } else {
      text << to_text(static_cast<colx::int128_t>(v.unscaled));
    }
    out.push_back(text.str());
  }
  return out;
}

// Every row's value as text, "null" for a null; a dictionary column's decoded.
std::vector<std::string> texts(colx::any_column const& c) {
  if (c.type().id() == colx::type_id::string) {
    std::vector<std::string> out;
    for (auto const& v : colx::to_strings(colx::strings_column_view(c.view()))) { out.push_back(v ? *v : "null"); }
    return out;
  }
  if (c.type().id() == colx::type_id::dictionary) {
    auto const entries = texts(c.children().front());
    colx::any_column const codes(colx::data_type{c.type().codes()}, c.size(), c.data(), c.mask(), c.null_count());
    std::vector<std::string> out;
    for (auto const& code : texts(codes)) { out.push_back(code == "null" ? code : entries.at(std::stoul(code))); }
    return out;
  }
  return colx::type_dispatch(c.type(), [&]<class T>() {
    if constexpr (std::is_same_v<T, colx::string_view>) {
      return std::vector<std::string>{};
    } else {
      return value_texts<T>(c);
    }
  });
}

// name|type|null count|values; a dictionary's type is its codes' and its values' ("... of string").
void describe(std::ostream& out, std::string const& name, colx::any_column const& c) {
  out << name << '|' << c.type().to_string();
  if (c.type().id() == colx::type_id::dictionary) { out << " of " << c.children().front().type().to_string(); }
  out << '|' << c.null_count() << '|';
  auto const values = texts(c);
  for (std::size_t i = 0; i < values.size(); ++i) { out << (i > 0 ? "," : "") << values[i]; }
  out << '\n';
}

char* dup(std::string const& s) {
  char* out = static_cast<char*>(std::malloc(s.size() + 1));
  std::memcpy(out, s.c_str(), s.size() + 1);
  return out;
}

}  // namespace

extern "C" {

// Rows [begin, end) of the demo table as a struct array; 0 on success.
int colx_export_demo(ArrowSchema* schema, ArrowArray* array, std::int64_t begin, std::int64_t end) {
  try {
    std::vector<std::string> names;
    colx::table t = demo_table(names);
    colx::export_arrow_schema(t, names, schema);
    colx::export_arrow_array(std::move(t), begin, end, array);
    return 0;
  } catch (std::exception const& e) {
    std::fprintf(stderr, "colx_export_demo: %s\n", e.what());
    return 1;
  }
}

// Imports the array (moved from; a struct becomes a table) and describes it, one line per column:
// name|type|null count|values. "error: <message>" when colx rejects it. Free with colx_free.
char* colx_describe(ArrowSchema const* schema, ArrowArray* array) {
  try {
    std::ostringstream out;
    if (schema != nullptr && schema->format != nullptr && std::strcmp(schema->format, "+s") == 0) {
      auto const t = colx::import_arrow_table(schema, array);
      for (std::size_t i = 0; i < t.columns.num_columns(); ++i) { describe(out, t.names[i], t.columns.column(i)); }
    } else {
      auto const c = colx::import_arrow_column(schema, array);
      describe(out, schema->name != nullptr ? schema->name : "", c);
    }
    return dup(out.str());
  } catch (std::exception const& e) {
    return dup(std::string("error: ") + e.what());
  }
}

// The same through the C Device Data Interface (host memory: ARROW_DEVICE_CPU).
int colx_export_demo_device(ArrowSchema* schema, ArrowDeviceArray* array, std::int64_t begin, std::int64_t end) {
  try {
    std::vector<std::string> names;
    colx::table t = demo_table(names);
    colx::export_arrow_schema(t, names, schema);
    colx::export_arrow_device_array(std::move(t), begin, end, array);
    return 0;
  } catch (std::exception const& e) {
    std::fprintf(stderr, "colx_export_demo_device: %s\n", e.what());
    return 1;
  }
}
char* colx_describe_device(ArrowSchema const* schema, ArrowDeviceArray* array) {
  try {
    std::ostringstream out;
    auto const t = colx::import_arrow_device_table(schema, array);
    for (std::size_t i = 0; i < t.columns.num_columns(); ++i) { describe(out, t.names[i], t.columns.column(i)); }
    return dup(out.str());
  } catch (std::exception const& e) {
    return dup(std::string("error: ") + e.what());
  }
}

void colx_release_schema(ArrowSchema* schema) {
  if (schema != nullptr && schema->release != nullptr) { schema->release(schema); }
}
void colx_release_array(ArrowArray* array) {
  if (array != nullptr && array->release != nullptr) { array->release(array); }
}
void colx_free(char* p) { std::free(p); }

}  // extern "C"
