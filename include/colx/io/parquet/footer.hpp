// SPDX-License-Identifier: Apache-2.0
#pragma once
// A Parquet file's footer, read and checked: its metadata (metadata.hpp) and its leaf columns as
// colx sees them (file_schema.hpp). read_parquet_metadata(path) is what colx-schema prints from.
#include <colx/io/file_source.hpp>
#include <colx/io/parquet/encodings.hpp>
#include <colx/io/parquet/file_schema.hpp>
#include <colx/io/parquet/metadata.hpp>

#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

namespace colx {

// A file's footer and its leaf columns as colx sees them.
struct parquet_metadata {
  parquet::file_metadata file;
  std::size_t footer_bytes = 0;
  std::vector<parquet::leaf_column> columns;
};

[[nodiscard]] inline parquet_metadata read_parquet_metadata(file_source const& file) {
  std::string const& path = file.path();
  std::uint8_t tail[8];
  COLX_EXPECTS_AS(parquet_error, file.size() >= 12, path, ": ", file.size(), " bytes is too short for a Parquet file");
  file.read(file.size() - 8, tail);
  std::uint8_t head[4];
  file.read(0, head);
  COLX_EXPECTS_AS(parquet_error, std::memcmp(tail + 4, "PAR1", 4) == 0 && std::memcmp(head, "PAR1", 4) == 0, path,
                  ": not a Parquet file (no PAR1 magic number at its start and end)");
  std::uint32_t const length = parquet::detail::load_le32(tail);
  COLX_EXPECTS_AS(parquet_error, length <= file.size() - 12, path, ": a footer of ", length, " bytes in a file of ", file.size());
  std::vector<std::uint8_t> footer(length);
  file.read(file.size() - 8 - length, footer);
  parquet_metadata md;
  md.file = parquet::parse_file_metadata(footer, path);
  md.footer_bytes = length;
  md.columns = parquet::leaf_columns(md.file, path);
  return md;
}

[[nodiscard]] inline parquet_metadata read_parquet_metadata(std::string const& path) {
  return read_parquet_metadata(file_source(path));
}

}  // namespace colx
