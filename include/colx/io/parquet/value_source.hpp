// SPDX-License-Identifier: Apache-2.0
#pragma once
// A data page's values, read one after another by encoding: PLAIN, the dictionary encodings,
// RLE booleans, DELTA_BINARY_PACKED, DELTA_LENGTH_BYTE_ARRAY, DELTA_BYTE_ARRAY and
// BYTE_STREAM_SPLIT. Host and device code; every read is bounded by the page's end.
#include <colx/io/parquet/encodings.hpp>
#include <colx/io/parquet/page_tasks.hpp>

#include <cstdint>

namespace colx::parquet::detail {

// n bytes, one at a time (host and device; colx::detail::copy_bytes is the copy between memories).
COLX_HOST_DEVICE inline void copy_raw(std::uint8_t* d, std::uint8_t const* s, std::int64_t n) {
  for (std::int64_t i = 0; i < n; ++i) { d[i] = s[i]; }
}

// The values of a page, read one after another (nulls take none).
struct value_source {
  encoding enc = encoding::plain;
  physical type = physical::int32;
  std::int32_t in_width = 0;
  std::uint8_t const* p = nullptr;  // PLAIN's cursor; BYTE_STREAM_SPLIT's streams
  std::uint8_t const* end = nullptr;
  std::uint64_t index = 0, count = 0;  // PLAIN booleans' bit, BYTE_STREAM_SPLIT's value
  rle_decoder rle;                     // dictionary indices, RLE booleans
  delta_decoder delta;                 // integers; byte arrays' (suffix) lengths
  delta_decoder prefixes;              // DELTA_BYTE_ARRAY
  dictionary_task const* dict = nullptr;
  std::int32_t error = page_ok;

  COLX_HOST_DEVICE bool init(std::uint8_t const* begin, std::uint8_t const* stop, std::uint64_t non_null) {
    p = begin;
    end = stop;
    count = non_null;
    bool const bytes_type = type == physical::byte_array || type == physical::fixed_len_byte_array;
    switch (enc) {
      case encoding::plain: return true;
      case encoding::plain_dictionary:
      case encoding::rle_dictionary:
        if (dict == nullptr) { return fail(page_no_dictionary); }
        // (an all-null page may have no width byte: an index is then asked for never, else fails)
        rle = p < end && *p <= 32 ? rle_decoder(p + 1, end, *p) : rle_decoder(end, end, 0);
        return true;
      case encoding::rle: {
        if (type != physical::boolean) { return fail(page_bad_encoding); }
        if (end - p < 4) { return fail(page_truncated); }
        std::uint32_t const n = load_le32(p);
        if (n > static_cast<std::uint64_t>(end - p - 4)) { return fail(page_truncated); }
        rle = rle_decoder(p + 4, p + 4 + n, 1);
        return true;
      }
      case encoding::delta_binary_packed:
        if (type != physical::int32 && type != physical::int64) { return fail(page_bad_encoding); }
        delta = delta_decoder(p, end);
        return delta.ok || fail(page_truncated);
      case encoding::delta_length_byte_array:
        if (type != physical::byte_array) { return fail(page_bad_encoding); }
        delta = delta_decoder(p, end);
        p = delta.end_of_values();
        return p != nullptr || fail(page_truncated);
      case encoding::delta_byte_array:
        if (!bytes_type) { return fail(page_bad_encoding); }
        prefixes = delta_decoder(p, end);
        p = prefixes.end_of_values();
        if (p == nullptr) { return fail(page_truncated); }
        delta = delta_decoder(p, end);
        p = delta.end_of_values();
        return p != nullptr || fail(page_truncated);
      case encoding::byte_stream_split:
        if (type == physical::boolean || type == physical::byte_array || type == physical::int96) { return fail(page_bad_encoding); }
        if (count * static_cast<std::uint64_t>(in_width) > static_cast<std::uint64_t>(end - p)) { return fail(page_truncated); }
        return true;
      default: return fail(page_bad_encoding);
    }
  }

  // The next fixed-width value's bytes (in tmp where they must be assembled); null on error.
  COLX_HOST_DEVICE std::uint8_t const* next_fixed(std::uint8_t* tmp) {
    switch (enc) {
      case encoding::plain:
        if (type == physical::boolean) {
          if (index / 8 >= static_cast<std::uint64_t>(end - p)) { return fail_null(page_truncated); }
          tmp[0] = static_cast<std::uint8_t>(read_bits(p, end, index++, 1));
          return tmp;
        } else {
          if (end - p < in_width) { return fail_null(page_truncated); }
          std::uint8_t const* v = p;
          p += in_width;
          return v;
        }
      case encoding::plain_dictionary:
      case encoding::rle_dictionary: {
        std::uint32_t i = 0;
        if (!rle.next(i)) { return fail_null(page_truncated); }
        if (i >= static_cast<std::uint32_t>(dict->entries)) { return fail_null(page_bad_index); }
        return dict->body + static_cast<std::int64_t>(i) * in_width;
      }
      case encoding::rle: {
        std::uint32_t b = 0;
        if (!rle.next(b)) { return fail_null(page_truncated); }
        tmp[0] = static_cast<std::uint8_t>(b & 1);
        return tmp;
      }
      case encoding::delta_binary_packed: {
        std::int64_t v = 0;
        if (!delta.next(v)) { return fail_null(page_truncated); }
        for (int b = 0; b < 8; ++b) { tmp[b] = static_cast<std::uint8_t>(static_cast<std::uint64_t>(v) >> (8 * b)); }
        return tmp;
      }
      case encoding::byte_stream_split: {
        if (index >= count) { return fail_null(page_truncated); }
        for (int b = 0; b < in_width; ++b) { tmp[b] = p[static_cast<std::uint64_t>(b) * count + index]; }
        ++index;
        return tmp;
      }
      default: return fail_null(page_bad_encoding);
    }
  }

  // The next byte-array value: its bytes and length, and for DELTA_BYTE_ARRAY the length of the
  // prefix it shares with the value before it (the bytes are then the suffix only).
  COLX_HOST_DEVICE bool next_bytes(std::uint8_t const*& bytes, std::int64_t& length, std::int64_t& prefix) {
    prefix = 0;
    switch (enc) {
      case encoding::plain:
        if (type == physical::fixed_len_byte_array) {
          if (end - p < in_width) { return fail(page_truncated); }
          bytes = p;
          length = in_width;
          p += in_width;
          return true;
        }
        if (end - p < 4) { return fail(page_truncated); }
        length = load_le32(p);
        if (length > end - p - 4) { return fail(page_truncated); }
        bytes = p + 4;
        p += 4 + length;
        return true;
      case encoding::plain_dictionary:
      case encoding::rle_dictionary: {
        std::uint32_t i = 0;
        if (!rle.next(i)) { return fail(page_truncated); }
        if (i >= static_cast<std::uint32_t>(dict->entries)) { return fail(page_bad_index); }
        if (type == physical::fixed_len_byte_array) {
          bytes = dict->body + static_cast<std::int64_t>(i) * in_width;
          length = in_width;
        } else {
          std::int64_t const at = dict->entry_at[i];
          length = load_le32(dict->body + at);
          bytes = dict->body + at + 4;
        }
        return true;
      }
      case encoding::delta_length_byte_array:
      case encoding::delta_byte_array: {
        std::int64_t pre = 0;
        if (enc == encoding::delta_byte_array && (!prefixes.next(pre) || pre < 0)) { return fail(page_truncated); }
        if (!delta.next(length) || length < 0 || length > end - p) { return fail(page_truncated); }
        bytes = p;
        p += length;
        prefix = pre;
        return true;
      }
      default: return fail(page_bad_encoding);
    }
  }

 private:
  COLX_HOST_DEVICE bool fail(std::int32_t e) {
    if (error == page_ok) { error = e; }
    return false;
  }
  COLX_HOST_DEVICE std::uint8_t const* fail_null(std::int32_t e) {
    (void)fail(e);
    return nullptr;
  }
};

}  // namespace colx::parquet::detail
