// SPDX-License-Identifier: Apache-2.0
#pragma once
// One column chunk written: its values (write_values.hpp) dictionary-encoded when the dictionary
// stays small (a PLAIN dictionary page, then RLE_DICTIONARY data pages), else PLAIN; cut into v1
// data pages of about the page size asked; each page compressed; with its statistics.
#include <colx/io/parquet/compress.hpp>
#include <colx/io/parquet/thrift_writer.hpp>
#include <colx/io/parquet/write_values.hpp>

#include <bit>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <optional>
#include <span>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace colx::parquet::detail {

// What the chunk's writer is asked for.
struct chunk_settings {
  codec compression = codec::snappy;
  int level = 0;                           // the codec's; 0: its default
  bool dictionary = true;
  std::size_t page_bytes = 1 << 20;        // values' bytes a data page holds, about
  std::size_t dictionary_bytes = 1 << 20;  // the largest dictionary page; larger: PLAIN
  bool statistics = true;
};

struct written_chunk {
  std::vector<std::uint8_t> bytes;  // the pages, headers included, as they go in the file
  std::int64_t dictionary_page = -1, first_data_page = 0;  // offsets within `bytes`
  std::int64_t uncompressed = 0;    // the pages' bytes before compression, headers included
  std::int64_t compressed = 0;      // and after: bytes.size(), kept when bytes are released
  std::vector<encoding> encodings;
  statistics stats;
  std::optional<std::int64_t> byte_array_bytes;  // the values' bytes, for byte arrays
};

// The RLE / bit-packed hybrid encoding of `values`, `bits` wide: runs of 8 or more equal values
// as RLE runs, the rest bit-packed in groups of 8 (the last group padded with zeros).
inline void rle_hybrid(std::span<std::uint32_t const> values, int bits, std::vector<std::uint8_t>& out) {
  auto const varint = [&](std::uint64_t v) {
    for (; v >= 0x80; v >>= 7) { out.push_back(static_cast<std::uint8_t>(v | 0x80)); }
    out.push_back(static_cast<std::uint8_t>(v));
  };
  std::size_t const n = values.size();
  auto const run_at = [&](std::size_t i, std::size_t cap) {
    std::size_t r = 1;
    while (i + r < n && r < cap && values[i + r] == values[i]) { ++r; }
    return r;
  };
  std::size_t const value_bytes = static_cast<std::size_t>((bits + 7) / 8);
  for (std::size_t i = 0; i < n;) {
    std::size_t const run = run_at(i, n);
    if (run >= 8) {
      varint(static_cast<std::uint64_t>(run) << 1);
      for (std::size_t b = 0; b < value_bytes; ++b) { out.push_back(static_cast<std::uint8_t>(values[i] >> (8 * b))); }
      i += run;
      continue;
    }
    std::size_t j = i;
    do { j += 8; } while (j < n && run_at(j, 8) < 8);
    varint(static_cast<std::uint64_t>((j - i) / 8) << 1 | 1);
    std::uint64_t acc = 0;
    int held = 0;
    for (std::size_t k = i; k < j; ++k) {
      acc |= static_cast<std::uint64_t>(k < n ? values[k] : 0) << held;
      held += bits;
      for (; held >= 8; held -= 8, acc >>= 8) { out.push_back(static_cast<std::uint8_t>(acc)); }
    }
    i = j;  // (groups of 8 values end on a byte)
  }
}

// Min and max of the values by `order`, NaN left out; the null count.
inline statistics value_statistics(physical_values const& v, write_type const& w) {
  statistics s;
  s.null_count = v.rows - v.count;
  auto const less = [&](std::span<std::uint8_t const> a, std::span<std::uint8_t const> b) {
    auto const load = [](std::span<std::uint8_t const> x, auto t) {
      decltype(t) r;
      std::memcpy(&r, x.data(), sizeof r);
      return r;
    };
    switch (w.order) {
      case sort_order::signed_int: return w.width == 4 ? load(a, std::int32_t{}) < load(b, std::int32_t{}) : load(a, std::int64_t{}) < load(b, std::int64_t{});
      case sort_order::unsigned_int: return w.width == 4 ? load(a, std::uint32_t{}) < load(b, std::uint32_t{}) : load(a, std::uint64_t{}) < load(b, std::uint64_t{});
      case sort_order::floating: return w.width == 4 ? load(a, float{}) < load(b, float{}) : load(a, double{}) < load(b, double{});
      case sort_order::signed_big_endian:
        if (a[0] != b[0]) { return static_cast<std::int8_t>(a[0]) < static_cast<std::int8_t>(b[0]); }
        return std::memcmp(a.data() + 1, b.data() + 1, a.size() - 1) < 0;
      case sort_order::boolean: return a[0] < b[0];
      case sort_order::bytes: {
        int const c = std::memcmp(a.data(), b.data(), std::min(a.size(), b.size()));
        return c < 0 || (c == 0 && a.size() < b.size());
      }
    }
    return false;
  };
  auto const is_nan = [&](std::span<std::uint8_t const> x) {
    if (w.order != sort_order::floating) { return false; }
    if (w.width == 4) {
      float f;
      std::memcpy(&f, x.data(), 4);
      return std::isnan(f);
    }
    double d;
    std::memcpy(&d, x.data(), 8);
    return std::isnan(d);
  };
  std::optional<std::int64_t> lo, hi;
  for (std::int64_t i = 0; i < v.count; ++i) {
    auto const x = v.value(i);
    if (is_nan(x)) { continue; }
    if (!lo || less(x, v.value(*lo))) { lo = i; }
    if (!hi || less(v.value(*hi), x)) { hi = i; }
  }
  if (!lo) { return s; }
  auto const text = [](std::span<std::uint8_t const> x) { return std::string(reinterpret_cast<char const*>(x.data()), x.size()); };
  s.min = text(v.value(*lo)), s.max = text(v.value(*hi));
  if (w.order == sort_order::floating) {  // a zero bound is written -0.0 as min and +0.0 as max (the format asks it)
    auto const zero = [&](std::string& b, bool negative) {
      double d = 0;
      if (w.width == 4) {
        float f;
        std::memcpy(&f, b.data(), 4);
        d = f;
      } else {
        std::memcpy(&d, b.data(), 8);
      }
      if (d != 0) { return; }
      if (w.width == 4) {
        float const f = negative ? -0.0f : 0.0f;
        std::memcpy(b.data(), &f, 4);
      } else {
        double const z = negative ? -0.0 : 0.0;
        std::memcpy(b.data(), &z, 8);
      }
    };
    zero(*s.min, true), zero(*s.max, false);
  }
  return s;
}

// PLAIN bytes of values [first, last).
inline void plain_values(physical_values const& v, write_type const& w, std::int64_t first, std::int64_t last, std::vector<std::uint8_t>& out) {
  if (w.type == physical::boolean) {
    std::uint8_t byte = 0;
    for (std::int64_t i = first; i < last; ++i) {
      byte |= static_cast<std::uint8_t>(v.fixed[static_cast<std::size_t>(i)] << ((i - first) % 8));
      if ((i - first) % 8 == 7 || i + 1 == last) { out.push_back(byte), byte = 0; }
    }
    return;
  }
  for (std::int64_t i = first; i < last; ++i) {
    auto const x = v.value(i);
    if (w.width == 0) {
      auto const n = static_cast<std::uint32_t>(x.size());
      for (int b = 0; b < 4; ++b) { out.push_back(static_cast<std::uint8_t>(n >> (8 * b))); }
    }
    out.insert(out.end(), x.begin(), x.end());
  }
}

// The values' dictionary (first occurrences, in order) and each value's index in it, or nothing
// when its PLAIN page would pass `max_bytes` or it would not save half the values' bytes.
struct dictionary_plan {
  std::vector<std::int64_t> entries;  // value positions
  std::vector<std::uint32_t> indices;
};
inline std::optional<dictionary_plan> plan_dictionary(physical_values const& v, write_type const& w, std::size_t max_bytes) {
  if (w.type == physical::boolean || v.count == 0) { return std::nullopt; }
  dictionary_plan d;
  d.indices.reserve(static_cast<std::size_t>(v.count));
  std::unordered_map<std::string_view, std::uint32_t> seen;
  std::size_t bytes = 0;
  for (std::int64_t i = 0; i < v.count; ++i) {
    auto const x = v.value(i);
    auto const [it, added] = seen.try_emplace(std::string_view(reinterpret_cast<char const*>(x.data()), x.size()),
                                              static_cast<std::uint32_t>(d.entries.size()));
    if (added) {
      d.entries.push_back(i);
      bytes += x.size() + (w.width == 0 ? 4 : 0);
      if (bytes > max_bytes || d.entries.size() * 2 > static_cast<std::size_t>(v.count) + 16) { return std::nullopt; }
    }
    d.indices.push_back(it->second);
  }
  return d;
}

// A page: its header, then its body compressed.
inline void append_page(written_chunk& c, page_type type, std::int32_t values, encoding e, std::vector<std::uint8_t> const& body,
                        chunk_settings const& s, std::vector<std::uint8_t>& scratch) {
  COLX_EXPECTS_AS(parquet_error, body.size() < (std::size_t{1} << 31), "a page of ", body.size(),
                  " bytes: Parquet pages hold less than 2 GiB (a single value that large cannot be written)");
  compress(s.compression, body, scratch, s.level);
  thrift::writer h;
  h.field_i32(1, static_cast<std::int32_t>(type));
  h.field_i32(2, static_cast<std::int32_t>(body.size()));
  h.field_i32(3, static_cast<std::int32_t>(scratch.size()));
  h.begin_struct(type == page_type::dictionary ? 7 : 5);
  h.field_i32(1, values);
  h.field_i32(2, static_cast<std::int32_t>(e));
  if (type == page_type::data) {
    h.field_i32(3, static_cast<std::int32_t>(encoding::rle));  // definition levels
    h.field_i32(4, static_cast<std::int32_t>(encoding::rle));  // repetition levels (none: flat)
  }
  h.end_struct();
  h.end();
  c.uncompressed += static_cast<std::int64_t>(h.bytes().size() + body.size());
  c.bytes.insert(c.bytes.end(), h.bytes().begin(), h.bytes().end());
  c.bytes.insert(c.bytes.end(), scratch.begin(), scratch.end());
}

// The chunk's pages.
inline written_chunk write_chunk(physical_values const& v, write_type const& w, chunk_settings const& s) {
  written_chunk c;
  if (s.statistics) { c.stats = value_statistics(v, w); }
  if (w.width == 0) { c.byte_array_bytes = static_cast<std::int64_t>(v.chars.size()); }
  std::optional<dictionary_plan> const dict = s.dictionary ? plan_dictionary(v, w, s.dictionary_bytes) : std::nullopt;
  std::vector<std::uint8_t> body, scratch;
  int bits = 0;
  if (dict) {
    for (std::int64_t e : dict->entries) { plain_values(v, w, e, e + 1, body); }
    c.dictionary_page = 0;
    append_page(c, page_type::dictionary, static_cast<std::int32_t>(dict->entries.size()), encoding::plain, body, s, scratch);
    bits = std::max(1, static_cast<int>(std::bit_width(dict->entries.size() - 1)));
    c.encodings = {encoding::plain, encoding::rle, encoding::rle_dictionary};
  } else {
    c.encodings = {encoding::plain, encoding::rle};
  }
  c.first_data_page = static_cast<std::int64_t>(c.bytes.size());
  // Pages of about page_bytes of values: rows [row, end), values [value, value + present).
  std::vector<std::uint32_t> defs32;
  std::int64_t value = 0;
  for (std::int64_t row = 0; row < v.rows;) {
    std::int64_t end = row, present = 0;
    std::size_t bytes = 0;
    while (end < v.rows && (bytes < s.page_bytes || end == row)) {
      bool const has = v.defs.empty() || v.defs[static_cast<std::size_t>(end)] != 0;
      if (has) {
        bytes += dict ? static_cast<std::size_t>(bits + 7) / 8 : w.width == 0 ? 4 + v.value(value + present).size() : static_cast<std::size_t>(w.width);
        ++present;
      }
      ++end;
    }
    body.clear();
    if (!v.defs.empty()) {
      defs32.assign(v.defs.begin() + row, v.defs.begin() + end);
      std::size_t const at = body.size();
      body.resize(at + 4);
      rle_hybrid(defs32, 1, body);
      auto const n = static_cast<std::uint32_t>(body.size() - at - 4);
      for (int b = 0; b < 4; ++b) { body[at + static_cast<std::size_t>(b)] = static_cast<std::uint8_t>(n >> (8 * b)); }
    }
    if (dict) {
      body.push_back(static_cast<std::uint8_t>(bits));
      rle_hybrid(std::span(dict->indices).subspan(static_cast<std::size_t>(value), static_cast<std::size_t>(present)), bits, body);
    } else {
      plain_values(v, w, value, value + present, body);
    }
    append_page(c, page_type::data, static_cast<std::int32_t>(end - row), dict ? encoding::rle_dictionary : encoding::plain, body, s, scratch);
    value += present;
    row = end;
  }
  c.compressed = static_cast<std::int64_t>(c.bytes.size());
  return c;
}

}  // namespace colx::parquet::detail
