// SPDX-License-Identifier: Apache-2.0
#pragma once
// read_csv(path, options) -> any_table: a CSV file's columns in the memory of the resource passed
// (device memory: parsed on the GPU), its dialect, header and types detected where the options do
// not give them (sniff.hpp).
//
// The text is read whole into host memory (the sniffer reads its samples there), then, in the
// memory the columns go to: the records are found in two passes over blocks (records.hpp), every
// record's fields are converted into their columns a record per thread, the strings' lengths
// scanned into offsets and their bytes copied (parse.hpp). A detected type that a value past the
// samples does not fit is widened and the records read again.
#include <colx/column/any_column.hpp>
#include <colx/exec/dispatch.hpp>
#include <colx/io/csv/table.hpp>
#include <colx/io/csv/text.hpp>
#include <colx/memory/copy_bytes.hpp>
#include <colx/memory/current_resource.hpp>
#include <colx/table/any_table.hpp>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

namespace colx {
namespace csv::detail {

struct record_spans {
  buffer starts, ends;
  std::int64_t count = 0;        // records that end in the text (or with it, at its end)
  reader_state last = at_start;  // the automaton's state at the text's end
  std::int64_t open_at = -1;     // where a record still open at the text's end starts (not at the end)
};

// Every record's start and end in `text` (size bytes in memory of mr's kind), read from state
// `first`; `at_end`: the text is the rest of the file (else a record it leaves open is not counted).
inline record_spans find_records(char const* text, std::int64_t size, dialect const& d, std::string const& path, stream_ref stream,
                                 resource_ref mr, reader_state first = at_start, bool at_end = true) {
  memory_kind const kind = mr.kind();
  std::int64_t const block = kind == memory_kind::device ? std::int64_t{1} << 14 : std::int64_t{1} << 16;
  auto const blocks = static_cast<size_type>((size + block - 1) / block);
  buffer summaries(static_cast<std::size_t>(blocks) * sizeof(block_summary), stream, mr);
  on_backend(kind, stream, [&](auto const& exec) {
    exec.for_each_n(blocks, summarize_blocks_fn{text, size, block, d, static_cast<block_summary*>(summaries.data())});
  });
  auto const s = to_host<block_summary>(summaries.data(), kind, static_cast<std::size_t>(blocks), stream);
  std::vector<block_start> starts(static_cast<std::size_t>(blocks));
  reader_state state = first;
  std::int64_t n_starts = 0, n_ends = 0;
  for (std::size_t b = 0; b < s.size(); ++b) {  // (the chain: each block starts where the one before left)
    starts[b] = {state, n_starts, n_ends};
    n_starts += s[b].starts[state];
    n_ends += s[b].ends[state];
    state = s[b].end[state];
  }
  bool const open = state == in_field || state == in_quotes || state == after_escape;  // (a record not ended)
  COLX_EXPECTS_AS(csv_error, !at_end || (state != in_quotes && state != after_escape), path,
                  ": the text ends inside a quoted field (a quote opened and never closed)");
  record_spans r;
  r.last = state;
  r.starts = buffer(static_cast<std::size_t>(n_starts) * 8, stream, mr);
  r.ends = buffer(static_cast<std::size_t>(n_starts) * 8, stream, mr);
  buffer const at(starts.data(), memory_kind::host, starts.size() * sizeof(block_start), stream, mr);
  on_backend(kind, stream, [&](auto const& exec) {
    exec.for_each_n(blocks, mark_records_fn{text, size, block, d, static_cast<block_start const*>(at.data()),
                                            static_cast<std::int64_t*>(r.starts.data()), static_cast<std::int64_t*>(r.ends.data())});
  });
  // (a record open from before the text, first != at_start, has an end but no start here: the
  // caller carries records whole, so it starts in at_start, in_comment or, at a file's start, at_start)
  r.count = n_ends;
  if (open && at_end) {  // the last record has no newline: it ends with the text
    colx::detail::copy_bytes(static_cast<std::int64_t*>(r.ends.data()) + (n_starts - 1), kind, &size, memory_kind::host, 8, stream);
    r.count = n_starts;
  } else if (open && n_starts > n_ends) {
    r.open_at = to_host<std::int64_t>(static_cast<std::int64_t const*>(r.starts.data()) + n_ends, kind, 1, stream)[0];
  }
  stream.synchronize();
  return r;
}

// The line (from 1) of byte `at` of the host text.
inline std::int64_t line_of(char const* text, std::int64_t at) { return 1 + std::count(text, text + at, '\n'); }

}  // namespace csv::detail

[[nodiscard]] inline any_table read_csv(std::string const& path, csv_read_options const& options = {}, stream_ref stream = {},
                                        resource_ref mr = get_current_resource()) {
  using namespace csv::detail;
  using clock = std::chrono::steady_clock;
  auto const started = clock::now();
  auto const ms_since = [](clock::time_point t) { return std::chrono::duration<double, std::milli>(clock::now() - t).count(); };
  memory_kind const kind = mr.kind();
#if COLX_HAS_CUDA
  resource_ref const staging = kind == memory_kind::device ? get_current_pinned_resource() : get_current_host_resource();
#else
  resource_ref const staging = get_current_host_resource();
#endif
  csv_text const host = read_text(path, staging);
  sniff_result sniffed = sniff(host.data(), host.size(), options);
  dialect const d = sniffed.d;
  buffer const device_text = kind == memory_kind::host ? buffer{} : buffer(host.data(), memory_kind::host, static_cast<std::size_t>(host.size()), stream, mr);
  char const* const text = kind == memory_kind::host ? host.data() : static_cast<char const*>(device_text.data());
  if (options.stats != nullptr) { options.stats->ms_read += ms_since(started), options.stats->file_bytes += host.file_bytes; }

  auto const finding = clock::now();
  record_spans const records = find_records(text, host.size(), d, path, stream, mr);
  if (options.stats != nullptr) { options.stats->ms_records += ms_since(finding); }
  std::int64_t const first = std::min(records.count, options.skip_rows + (sniffed.header ? 1 : 0));
  std::int64_t rows64 = records.count - first;
  if (options.row_limit >= 0) { rows64 = std::min(rows64, options.row_limit); }
  COLX_EXPECTS_AS(csv_error, rows64 < std::numeric_limits<size_type>::max(), path, ": ", rows64, " records are more than a table holds");
  column_selection const sel = select_columns(sniffed, options, path);
  any_table out = records_to_table(text, host.data(), static_cast<std::int64_t const*>(records.starts.data()) + first,
                                   static_cast<std::int64_t const*>(records.ends.data()) + first, static_cast<size_type>(rows64), sniffed, sel,
                                   options, true, [&](std::int64_t at) { return line_of(host.data(), at); }, path, stream, mr);
  if (options.stats != nullptr) { options.stats->ms_total += ms_since(started); }
  return out;
}

// What read_csv would detect in a file, from its first 8 sample sizes of text only (a compressed
// file is decompressed whole): the dialect, the header, and each column's name and type, before
// a full read narrows integers to the width that holds them (here: int64) and widens a type that
// a value past the samples does not fit.
struct csv_schema {
  char delimiter = ',', quote = '"';
  bool header = false;
  std::vector<std::pair<std::string, data_type>> columns;
};

[[nodiscard]] inline csv_schema sniff_csv(std::string const& path, csv_read_options const& options = {}) {
  using namespace csv::detail;
  csv_schema out;
  auto const fill = [&](char const* text, std::int64_t size, bool complete) {
    sniff_result const r = sniff(text, size, options, complete);
    out.delimiter = r.d.delimiter, out.quote = r.d.quote, out.header = r.header;
    for (std::size_t c = 0; c < r.names.size(); ++c) { out.columns.emplace_back(r.names[c], r.types[c].type); }
  };
  if (ends_with(path, ".gz") || ends_with(path, ".zst")) {
    csv_text const t = read_text(path, get_current_host_resource());
    fill(t.data(), t.size(), true);
    return out;
  }
  file_source const file(path);
  auto const n = std::min<std::uint64_t>(file.size(), static_cast<std::uint64_t>(std::max<std::int64_t>(options.sample_bytes, 4096)) * 8);
  std::vector<char> text(n);
  file.read(0, std::span(reinterpret_cast<std::uint8_t*>(text.data()), text.size()));
  std::int64_t const bom = n >= 3 && static_cast<unsigned char>(text[0]) == 0xef && static_cast<unsigned char>(text[1]) == 0xbb &&
                                   static_cast<unsigned char>(text[2]) == 0xbf
                               ? 3
                               : 0;
  fill(text.data() + bom, static_cast<std::int64_t>(n) - bom, n == file.size());
  return out;
}

}  // namespace colx
