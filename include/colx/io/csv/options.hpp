// SPDX-License-Identifier: Apache-2.0
#pragma once
// What a CSV read is asked to do (anything not given is detected, as DuckDB's sniffer does), and
// what it reports having done.
#include <colx/core/error.hpp>
#include <colx/types/data_type.hpp>

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace colx {

// A CSV text is not what its dialect or its columns' types say: the message names the file, the
// line and the column.
class csv_error : public logic_error {
 public:
  using logic_error::logic_error;
};

struct csv_read_stats {
  std::int64_t file_bytes = 0;
  std::int64_t records = 0;          // data records (the header and skipped rows not counted)
  std::int64_t nulled_values = 0;    // values that did not read (errors_become_nulls)
  std::int64_t bad_records = 0;      // records of the wrong field count (errors_become_nulls)
  int passes = 0;                    // reads of the records (more than one: a detected type widened)
  double ms_read = 0, ms_records = 0, ms_parse = 0, ms_total = 0;
};

struct csv_read_options {
  std::optional<char> delimiter;            // detected among , | ; and tab
  std::optional<char> quote;                // detected: " or '
  std::optional<char> escape;               // default: the quote (a doubled quote is one quote)
  std::optional<bool> header;               // detected: a first row of names over rows of other types
  char comment = '\0';                      // lines starting with it are skipped; none by default
  std::int64_t skip_rows = 0;               // records skipped before the header (or the data)
  std::vector<std::string> null_strings{""};  // unquoted fields read as null (at most 8, 120 bytes)
  std::vector<std::string> true_strings, false_strings;  // booleans besides true/false (at most 8 each)
  char decimal_point = '.';                 // of decimals and doubles (',' with another delimiter)
  bool check_utf8 = true;                   // a string that is not UTF-8 is an error (or a null)
  std::string date_format;                  // strptime's way (%Y %y %m %d %b); empty: YYYY-MM-DD
  std::string timestamp_format;             // and %H %M %S %f; empty: YYYY-MM-DD HH:MM[:SS[.f]]
  std::vector<std::string> columns;         // to read, in the file's order; empty: all
  std::map<std::string, data_type> types;   // by column name, overriding detection
  std::int64_t row_limit = -1;              // data records read at most; negative: all
  bool errors_become_nulls = false;         // else the first bad value or record is a csv_error
  std::int64_t sample_bytes = 1 << 20;      // read by the sniffer from each of several places
  csv_read_stats* stats = nullptr;
};

}  // namespace colx
