// SPDX-License-Identifier: Apache-2.0
#pragma once
// What a read of a Parquet file will do before it does it, from the footer alone: the row groups
// it reads and those a predicate's statistics rule out, and the bytes it reads from the file.
// colx::explain_read_parquet(path, options) and, typed with a predicate, in io/parquet.hpp.
#include <colx/io/parquet/metadata.hpp>

#include <cstdint>
#include <sstream>
#include <string>
#include <vector>

namespace colx {

struct parquet_scan_plan {
  std::string path;
  std::vector<std::string> columns;                 // read, in order
  std::vector<std::size_t> row_groups_read;         // in order
  std::vector<std::size_t> row_groups_skipped;      // by the predicate's statistics
  std::int64_t rows = 0;                            // of the groups read (before a row window or filter)
  std::int64_t file_bytes = 0;                      // footer and the columns' chunks of the groups read
  std::int64_t file_bytes_without_skipping = 0;     // the same over the skipped groups too
  std::int64_t uncompressed_bytes = 0;              // those chunks decompressed (page headers too)

  [[nodiscard]] std::string to_string() const {
    std::ostringstream s;
    auto const list = [&](std::vector<std::size_t> const& v) {
      std::string out;
      for (std::size_t i = 0; i < v.size() && i < 24; ++i) { out += (i ? " " : "") + std::to_string(v[i]); }
      return v.size() > 24 ? out + " ..." : out;
    };
    s << "read_parquet " << path << "\n  columns (" << columns.size() << "):";
    for (auto const& c : columns) { s << " " << c; }
    s << "\n  row groups read: " << row_groups_read.size() << " [" << list(row_groups_read) << "], " << rows << " rows";
    s << "\n  row groups skipped by statistics: " << row_groups_skipped.size();
    if (!row_groups_skipped.empty()) { s << " [" << list(row_groups_skipped) << "]"; }
    s << "\n  file bytes read: " << file_bytes << " of " << file_bytes_without_skipping << " without skipping";
    s << "\n  chunks decompressed: " << uncompressed_bytes << " bytes\n";
    return s.str();
  }
};

namespace parquet::detail {

// The plan of reading `leaves` of `candidates`, each kept when keep(g) says so.
template <class Keep>
parquet_scan_plan plan_scan(std::string const& path, file_metadata const& md, std::size_t footer_bytes,
                            std::vector<std::string> columns, std::vector<std::size_t> const& leaves,
                            std::vector<std::size_t> const& candidates, Keep&& keep) {
  parquet_scan_plan p;
  p.path = path;
  p.columns = std::move(columns);
  p.file_bytes = p.file_bytes_without_skipping = 12 + static_cast<std::int64_t>(footer_bytes);
  for (std::size_t g : candidates) {
    row_group const& rg = md.row_groups[g];
    std::int64_t compressed = 0, uncompressed = 0;
    for (std::size_t j : leaves) {
      compressed += rg.columns[j].total_compressed_size;
      uncompressed += rg.columns[j].total_uncompressed_size;
    }
    p.file_bytes_without_skipping += compressed;
    if (!keep(g)) {
      p.row_groups_skipped.push_back(g);
      continue;
    }
    p.row_groups_read.push_back(g);
    p.rows += rg.num_rows;
    p.file_bytes += compressed;
    p.uncompressed_bytes += uncompressed;
  }
  return p;
}

}  // namespace parquet::detail
}  // namespace colx
