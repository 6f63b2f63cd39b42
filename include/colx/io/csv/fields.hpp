// SPDX-License-Identifier: Apache-2.0
#pragma once
// The fields of one CSV record (RFC 4180): split at the delimiter outside quotes; a quoted field's
// quotes are not part of it, and inside them a doubled quote (or the escape character and the
// character after it) is one character. Host and device code, used by the readers' passes and by
// the sniffer alike.
#include <colx/io/csv/records.hpp>

#include <cstdint>

namespace colx::csv::detail {

// One field of a record: bytes [begin, end) of the text (inside the quotes when quoted), holding
// `escapes` escaped characters (each two bytes that read as one).
struct field_span {
  std::int64_t begin, end;
  bool quoted;
  std::int32_t escapes;
};

enum field_walk : std::uint8_t { walk_ok, walk_unterminated_quote, walk_text_after_quote };

// Calls on_field(index, span) for each field of the record at [begin, end) (its newline not
// included; a '\r' before it is dropped); on_field returns false to stop. Returns how it ended.
// (The host's callers pass host lambdas: nvcc is told not to check the call's side.)
#if defined(__CUDACC__)
#  pragma nv_exec_check_disable
#endif
template <class OnField>
COLX_HOST_DEVICE field_walk walk_fields(char const* text, std::int64_t begin, std::int64_t end, dialect const& d, OnField&& on_field,
                                        std::int32_t& fields) {
  if (end > begin && text[end - 1] == '\r') { --end; }
  fields = 0;
  std::int64_t p = begin;
  while (true) {
    field_span f{p, p, false, 0};
    std::int64_t next = p;  // the delimiter after the field, or the record's end
    if (p < end && text[p] == d.quote) {
      f.quoted = true;
      std::int64_t q = p + 1;
      while (true) {
        if (q >= end) { return walk_unterminated_quote; }
        char const c = text[q];
        if (c == d.escape && d.escape != d.quote) {
          if (q + 1 >= end) { return walk_unterminated_quote; }
          q += 2;
          ++f.escapes;
        } else if (c == d.quote) {
          if (d.escape == d.quote && q + 1 < end && text[q + 1] == d.quote) {
            q += 2;
            ++f.escapes;
          } else {
            break;
          }
        } else {
          ++q;
        }
      }
      f.begin = p + 1;
      f.end = q;
      next = q + 1;
      while (next < end && text[next] == ' ') { ++next; }  // (spaces after a closing quote)
      if (next < end && text[next] != d.delimiter) { return walk_text_after_quote; }
    } else {
      while (next < end && text[next] != d.delimiter) { ++next; }
      f.end = next;
    }
    if (!on_field(fields, f)) { return walk_ok; }
    ++fields;
    if (next >= end) { return walk_ok; }
    p = next + 1;  // (a delimiter at the very end: one more, empty, field)
  }
}

// A quoted field's bytes with its escapes resolved, written to out (f.end - f.begin - f.escapes bytes).
COLX_HOST_DEVICE inline void unescape(char const* text, field_span const& f, dialect const& d, char* out) {
  for (std::int64_t i = f.begin; i < f.end; ++i) {
    char const c = text[i];
    bool const escaped = f.quoted && ((c == d.escape && d.escape != d.quote) || (c == d.quote && d.escape == d.quote));
    if (escaped) { ++i; }  // (the character after it is the one kept)
    *out++ = text[i];
  }
}

}  // namespace colx::csv::detail
