// SPDX-License-Identifier: Apache-2.0
#pragma once
// What a Parquet read is asked to do, and what it reports having done.
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace colx {

// What a read did and where its time went (host clock, milliseconds; device work is waited for
// at the end of each phase when stats are asked for).
struct parquet_read_stats {
  std::int64_t file_bytes_read = 0;     // footer and column chunks
  std::int64_t decompressed_bytes = 0;  // the pages' bytes after decompression
  std::int64_t output_bytes = 0;        // the columns' buffers: values, offsets, chars, masks
  std::int64_t row_groups = 0, pages = 0, dictionary_pages = 0;
  std::int64_t row_groups_skipped = 0;  // by a predicate, from their statistics (not read)
  bool decompressed_on_device = false;  // nvCOMP did it (else the host's libraries)
  double ms_read = 0;        // file to host memory, the pages planned (and, when the device
                             //   decompresses, each slab copied there and decompressed meanwhile)
  double ms_decompress = 0;  // on the host after the read; on the device, what the read did not hide
  double ms_transfer = 0;    // host to device, when the host decompressed
  double ms_decode = 0;      // the decode passes, of which:
  double ms_setup = 0;       //   outputs allocated, tasks copied
  double ms_measure = 0;     //   dictionaries indexed, strings measured
  double ms_offsets = 0;     //   strings' offsets scanned, chars allocated
  double ms_total = 0;
};

struct parquet_read_options {
  // The columns to read, in this order (a nested field by its dotted path); empty: every column.
  std::vector<std::string> columns;
  // The row groups to read, in this order; empty: every one.
  std::vector<std::size_t> row_groups;
  // Of the rows of those row groups (in that order): the first skip_rows are left out, and at most
  // num_rows are read (negative: all). Only the row groups holding them are read.
  std::int64_t skip_rows = 0;
  std::int64_t num_rows = -1;
  // Filled when not null.
  parquet_read_stats* stats = nullptr;
};

}  // namespace colx
