// SPDX-License-Identifier: Apache-2.0
#pragma once
// The CSV sniffer, on the host, from samples of the text (its start and a few places after, as
// DuckDB's): the dialect (delimiter and quote: the candidate that splits the sampled records into
// the most equal field counts), whether the first record is a header (a first row that does not
// read as the types of the rows under it; when every column is text, a header is assumed, as
// DuckDB does), and each column's type: the first of boolean, integer, decimal (digits after the
// point as many as the sample's most, 18 digits in all), double, date, timestamp and string that
// reads every sampled value. When a value past the samples does not read as a detected type, the
// reader widens the type to one that reads it too (widen(): integers and decimals to a decimal or
// a double, dates to timestamps, anything else to string) and reads the records again.
#include <colx/io/csv/fields.hpp>
#include <colx/io/csv/options.hpp>
#include <colx/io/csv/values.hpp>
#include <colx/types/data_type.hpp>

#include <algorithm>
#include <cstring>
#include <cstdint>
#include <map>
#include <set>
#include <string>
#include <string_view>
#include <tuple>
#include <vector>

namespace colx::csv::detail {

// A detected (or given) column type: the kind read, and a decimal's scale.
struct sniffed_type {
  data_type type{type_id::string};
  bool detected = true;
};

struct sniff_result {
  dialect d;
  bool header = false;
  bool trailing_delimiter = false;  // every record ends with a delimiter (TPC-H's .tbl): no last column
  std::vector<std::string> names;
  std::vector<sniffed_type> types;
};

// The records of text [begin, end) as fields, at most `limit` records; a record cut by `end` is
// left out unless `end` is the text's end. The first record starts at begin.
inline std::vector<std::vector<std::string>> sample_records(char const* text, std::int64_t begin, std::int64_t end, bool text_end,
                                                            dialect const& d, std::size_t limit,
                                                            std::vector<std::vector<bool>>* quoted = nullptr) {
  std::vector<std::vector<std::string>> out;
  auto const add = [&](std::int64_t from, std::int64_t to) {
    std::vector<std::string> fields;
    std::vector<bool> q;
    std::int32_t n = 0;
    field_walk const how = walk_fields(text, from, to, d, [&](std::int32_t, field_span const& f) {
      std::string v(static_cast<std::size_t>(f.end - f.begin - f.escapes), '\0');
      unescape(text, f, d, v.data());
      fields.push_back(std::move(v));
      q.push_back(f.quoted);
      return true;
    }, n);
    if (how != walk_ok) { return; }
    out.push_back(std::move(fields));
    if (quoted != nullptr) { quoted->push_back(std::move(q)); }
  };
  reader_state s = at_start;
  std::int64_t record = -1;
  for (std::int64_t i = begin; i < end && out.size() < limit; ++i) {
    bool st = false, en = false;
    s = step(s, text[i], d, st, en);
    if (st) { record = i; }
    if (en) { add(record, i); }
  }
  if (text_end && s == in_field && out.size() < limit) { add(record, end); }  // (no newline at the end)
  return out;
}

// How well a dialect splits the sample: the share of records with the most common field count,
// and that count.
inline std::pair<double, std::size_t> split_score(std::vector<std::vector<std::string>> const& records) {
  std::map<std::size_t, std::size_t> counts;
  for (auto const& r : records) { ++counts[r.size()]; }
  std::size_t mode = 0, best = 0;
  for (auto const& [n, c] : counts) {
    if (c > best || (c == best && n > mode)) { mode = n, best = c; }
  }
  return {records.empty() ? 0.0 : static_cast<double>(best) / static_cast<double>(records.size()), mode};
}

// The narrowest candidate type that reads every value (null markers left out): a value holding
// the options' decimal point reads with '.' there; the options' true and false words are booleans.
inline data_type detect_type(std::vector<std::string_view> const& values, csv_read_options const& o = {}) {
  if (o.decimal_point != '.' || !o.true_strings.empty() || !o.false_strings.empty()) {
    std::vector<std::string> rewritten;
    for (auto v : values) {
      std::string s(v);
      bool const word = std::find(o.true_strings.begin(), o.true_strings.end(), s) != o.true_strings.end() ||
                        std::find(o.false_strings.begin(), o.false_strings.end(), s) != o.false_strings.end();
      if (word) {
        s = "true";
      } else if (o.decimal_point != '.') {
        for (char& c : s) { c = c == o.decimal_point ? '.' : c == '.' ? o.decimal_point : c; }
      }
      rewritten.push_back(std::move(s));
    }
    std::vector<std::string_view> views(rewritten.begin(), rewritten.end());
    csv_read_options formats_only;
    formats_only.date_format = o.date_format;
    formats_only.timestamp_format = o.timestamp_format;
    return detect_type(views, formats_only);
  }
  auto const all = [&](auto&& reads) { return std::all_of(values.begin(), values.end(), reads); };
  auto const sv = [](std::string_view v) { return string_view(v.data(), static_cast<size_type>(v.size())); };
  if (values.empty()) { return data_type(type_id::string); }
  if (all([&](std::string_view v) { bool b; return parse_boolean(sv(v), b); })) { return data_type(type_id::bool8); }
  if (all([&](std::string_view v) { std::int64_t i; return parse_int64(sv(v), i); })) { return data_type(type_id::int64); }
  int scale = 0;
  bool decimal = true;
  for (auto v : values) {
    std::int64_t i;
    if (parse_int64(sv(v), i)) { continue; }
    int const f = decimal_fraction_digits(sv(v));
    if (f < 0) {
      decimal = false;
      break;
    }
    scale = std::max(scale, f);
  }
  if (decimal && all([&](std::string_view v) { std::int64_t u; int f; return parse_decimal64(sv(v), scale, u, f); })) {
    return data_type(type_id::decimal64, -scale, 18);
  }
  if (all([&](std::string_view v) { double x; return parse_double(sv(v), x); })) { return data_type(type_id::float64); }
  time_format date_format, timestamp_format;
  std::memcpy(date_format.text, o.date_format.data(), std::min<std::size_t>(o.date_format.size(), 31));
  date_format.size = static_cast<std::int32_t>(std::min<std::size_t>(o.date_format.size(), 31));
  std::memcpy(timestamp_format.text, o.timestamp_format.data(), std::min<std::size_t>(o.timestamp_format.size(), 31));
  timestamp_format.size = static_cast<std::int32_t>(std::min<std::size_t>(o.timestamp_format.size(), 31));
  if (all([&](std::string_view v) {
        std::int32_t x;
        std::int64_t w;
        return date_format.size == 0 ? parse_date(sv(v), x) : parse_with_format(sv(v), date_format, 0, true, w);
      })) {
    return data_type(type_id::timestamp_days);
  }
  if (all([&](std::string_view v) {
        std::int64_t x;
        return timestamp_format.size == 0 ? parse_timestamp(sv(v), x) : parse_with_format(sv(v), timestamp_format, 6, false, x);
      })) {
    return data_type(type_id::timestamp_microseconds);
  }
  return data_type(type_id::string);
}

// The narrowest type that reads the values of type t and `value` too (which t does not read).
inline data_type widen(data_type t, std::string_view value, csv_read_options const& o = {}) {
  data_type const v = detect_type({value}, o);
  auto const numeric = [](data_type x) {
    return x.id() == type_id::int64 || x.id() == type_id::decimal64 || x.id() == type_id::float64;
  };
  auto const temporal = [](data_type x) { return x.id() == type_id::timestamp_days || x.id() == type_id::timestamp_microseconds; };
  if (numeric(t) && numeric(v)) {
    if (t.id() != type_id::float64 && v.id() != type_id::float64) {  // integers and decimals: a decimal of the larger scale
      int const scale = std::max(-t.scale(), -v.scale());
      std::int64_t u;
      int f;
      string_view const sv(value.data(), static_cast<size_type>(value.size()));
      if (parse_decimal64(sv, scale, u, f)) { return data_type(type_id::decimal64, -scale, 18); }
    }
    return data_type(type_id::float64);
  }
  if (temporal(t) && temporal(v)) { return data_type(type_id::timestamp_microseconds); }
  return data_type(type_id::string);
}

// The sniffer's verdicts over the text's samples; what the options give is kept. `complete`: the
// text is the whole file (else a record it cuts at its end is not sampled).
inline sniff_result sniff(char const* text, std::int64_t size, csv_read_options const& o, bool complete = true) {
  // Samples: the start, and four places after it, each from its first newline on.
  std::int64_t const chunk = std::max<std::int64_t>(o.sample_bytes, 4096);
  std::vector<std::pair<std::int64_t, std::int64_t>> places{{0, std::min(size, chunk)}};
  if (size > 2 * chunk) {
    for (int k = 1; k <= 4; ++k) {
      std::int64_t at = size / 5 * k;
      while (at < size && text[at] != '\n') { ++at; }
      if (at + 1 < size) { places.emplace_back(at + 1, std::min(size, at + 1 + chunk)); }
    }
  }
  sniff_result r;
  // Skipped rows first: the sample starts after them.
  std::int64_t start = 0;
  {
    dialect const plain{o.delimiter.value_or(','), o.quote.value_or('"'), o.escape.value_or(o.quote.value_or('"')), o.comment};
    reader_state s = at_start;
    for (std::int64_t skipped = 0; start < size && skipped < o.skip_rows; ++start) {
      bool st = false, en = false;
      s = step(s, text[start], plain, st, en);
      skipped += en;
    }
  }
  places.front().first = start;
  bool const whole = complete && places.front().second == size;
  // The dialect: the most records of one field count, more than one field, then more fields.
  std::vector<char> const delimiters = o.delimiter ? std::vector<char>{*o.delimiter} : std::vector<char>{',', '|', ';', '\t'};
  std::vector<char> const quotes = o.quote ? std::vector<char>{*o.quote} : std::vector<char>{'"', '\''};
  std::tuple<bool, double, std::size_t> best{false, -1.0, 0};
  for (char q : quotes) {
    for (char delim : delimiters) {
      dialect const d{delim, q, o.escape.value_or(q), o.comment};
      auto const [share, fields] = split_score(sample_records(text, places.front().first, places.front().second, whole, d, 500));
      std::tuple<bool, double, std::size_t> const score{fields > 1, share, fields};
      if (score > best) { best = score, r.d = d; }
    }
  }
  if (std::get<1>(best) < 0) { r.d = dialect{delimiters.front(), quotes.front(), o.escape.value_or(quotes.front()), o.comment}; }
  // The sampled records, the first of the start's perhaps a header.
  std::vector<std::vector<bool>> quoted;
  auto records = sample_records(text, places.front().first, places.front().second, whole, r.d, 20000, &quoted);
  std::size_t const first_more = records.size();
  for (std::size_t k = 1; k < places.size(); ++k) {
    auto more = sample_records(text, places[k].first, places[k].second, complete && places[k].second == size, r.d, 5000, &quoted);
    records.insert(records.end(), more.begin(), more.end());
  }
  std::size_t const n_columns = records.empty() ? 0 : split_score(records).second;
  std::set<std::string> const nulls(o.null_strings.begin(), o.null_strings.end());
  auto const column_values = [&](std::size_t c, std::size_t from) {
    std::vector<std::string_view> v;
    for (std::size_t i = from; i < records.size(); ++i) {
      if (c < records[i].size() && !(!quoted[i][c] && nulls.count(records[i][c]) > 0) && !(quoted[i][c] && records[i][c].empty())) {
        v.push_back(records[i][c]);
      }
    }
    return v;
  };
  std::vector<data_type> with_first(n_columns), without_first(n_columns);
  for (std::size_t c = 0; c < n_columns; ++c) {
    with_first[c] = detect_type(column_values(c, 0), o);
    without_first[c] = detect_type(column_values(c, 1), o);
  }
  if (o.header) {
    r.header = *o.header;
  } else if (first_more == 1 && records.size() == 1) {  // one record: a header when all its fields are text
    r.header = std::all_of(records[0].begin(), records[0].end(),
                           [](std::string const& f) { return !f.empty() && detect_type({f}).id() == type_id::string; });
  } else if (records.size() < 2 || first_more == 0) {
    r.header = false;
  } else {
    bool const all_text = std::all_of(without_first.begin(), without_first.end(), [](data_type t) { return t.id() == type_id::string; });
    r.header = all_text || !(with_first == without_first);
  }
  std::vector<data_type> const& types = r.header ? without_first : with_first;
  // A delimiter at every record's end (the last field empty and unquoted everywhere, and unnamed)
  // makes no column.
  r.trailing_delimiter = n_columns > 1 && (!r.header || records[0].back().empty()) &&
                         std::all_of(records.begin(), records.end(), [&](auto const& f) { return f.size() == n_columns && f.back().empty(); }) &&
                         std::none_of(quoted.begin(), quoted.end(), [](auto const& q) { return q.back(); });
  std::set<std::string> seen;
  for (std::size_t c = 0; c + (r.trailing_delimiter ? 1 : 0) < n_columns; ++c) {
    // (A header may have fewer fields than the widest record: those columns take "columnN".)
    std::string const base = r.header && c < records[0].size() && !records[0][c].empty() ? records[0][c] : "column" + std::to_string(c);
    std::string name = base;
    for (int k = 1; seen.count(name) > 0; ++k) { name = base + "_" + std::to_string(k); }
    seen.insert(name);
    r.names.push_back(name);
    auto const given = o.types.find(name);
    r.types.push_back(given != o.types.end() ? sniffed_type{given->second, false} : sniffed_type{types[c], true});
  }
  return r;
}

}  // namespace colx::csv::detail
