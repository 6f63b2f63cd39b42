// SPDX-License-Identifier: Apache-2.0
#pragma once
// Where each record (row) of a CSV text starts and ends, found in parallel on either backend.
//
// A record ends at a newline outside quotes, and a quoted field may hold newlines, so whether a
// newline ends a record depends on everything before it. The text is cut into blocks; each block
// is read once as if it began in each state of the reader's small automaton (at a record's start,
// in a field, in quotes, after an escape, in a comment line), noting where each start would leave
// it and how many records would start and end inside it. Chaining those summaries from the first
// block (on the host: a few hundred thousand steps for gigabytes) gives every block's true starting
// state and its first record's number; a second pass writes each record's start and end.
//
// Blank lines and comment lines (from `comment` at a record's start to the newline) are not
// records. A '\r' before the newline stays in the record; the field reader drops it.
#include <colx/core/config.hpp>

#include <cstdint>

namespace colx::csv::detail {

struct dialect {
  char delimiter = ',';
  char quote = '"';
  char escape = '"';   // inside quotes, makes the next character literal; the quote itself: "" is one quote
  char comment = '\0';  // none
};

enum reader_state : std::uint8_t { at_start, in_field, in_quotes, after_escape, in_comment };
inline constexpr int reader_states = 5;

// One character: the next state, and whether a record starts or ends at it.
COLX_HOST_DEVICE inline reader_state step(reader_state s, char c, dialect const& d, bool& starts, bool& ends) {
  starts = false;
  ends = false;
  switch (s) {
    case at_start:
      if (c == '\n' || c == '\r') { return at_start; }
      if (c == d.comment && d.comment != '\0') { return in_comment; }
      starts = true;
      return c == d.quote ? in_quotes : in_field;
    case in_field:
      if (c == '\n') {
        ends = true;
        return at_start;
      }
      return c == d.quote ? in_quotes : in_field;
    case in_quotes:
      if (c == d.escape && d.escape != d.quote) { return after_escape; }
      return c == d.quote ? in_field : in_quotes;
    case after_escape: return in_quotes;
    default: return c == '\n' ? at_start : in_comment;
  }
}

// What a block does from each starting state.
struct block_summary {
  std::uint32_t starts[reader_states];
  std::uint32_t ends[reader_states];
  reader_state end[reader_states];
};

// Pass 1: a block's summary, all starting states at once.
struct summarize_blocks_fn {
  char const* text;
  std::int64_t size, block_bytes;
  dialect d;
  block_summary* out;
  COLX_HOST_DEVICE void operator()(size_type b) const {
    std::int64_t const first = static_cast<std::int64_t>(b) * block_bytes;
    std::int64_t const last = first + block_bytes < size ? first + block_bytes : size;
    reader_state s[reader_states] = {at_start, in_field, in_quotes, after_escape, in_comment};
    std::uint32_t starts[reader_states] = {}, ends[reader_states] = {};
    for (std::int64_t i = first; i < last; ++i) {
      char const c = text[i];
      for (int k = 0; k < reader_states; ++k) {
        bool st = false, en = false;
        s[k] = step(s[k], c, d, st, en);
        starts[k] += st;
        ends[k] += en;
      }
    }
    block_summary& o = out[b];
    for (int k = 0; k < reader_states; ++k) {
      o.starts[k] = starts[k];
      o.ends[k] = ends[k];
      o.end[k] = s[k];
    }
  }
};

// Where a block starts, once the summaries are chained.
struct block_start {
  reader_state state;
  std::int64_t first_start, first_end;  // numbers of the first record starting, and ending, in it
};

// Pass 2: every record's start and end offset (an end: its newline's offset).
struct mark_records_fn {
  char const* text;
  std::int64_t size, block_bytes;
  dialect d;
  block_start const* starts_at;
  std::int64_t* record_start;
  std::int64_t* record_end;
  COLX_HOST_DEVICE void operator()(size_type b) const {
    std::int64_t const first = static_cast<std::int64_t>(b) * block_bytes;
    std::int64_t const last = first + block_bytes < size ? first + block_bytes : size;
    reader_state s = starts_at[b].state;
    std::int64_t ns = starts_at[b].first_start, ne = starts_at[b].first_end;
    for (std::int64_t i = first; i < last; ++i) {
      bool st = false, en = false;
      s = step(s, text[i], d, st, en);
      if (st) { record_start[ns++] = i; }
      if (en) { record_end[ne++] = i; }
    }
  }
};

}  // namespace colx::csv::detail
