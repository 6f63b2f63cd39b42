// SPDX-License-Identifier: Apache-2.0
#pragma once
// The host's part of reading a Parquet file: read the selected column chunks, walk their page
// headers, and decompress every page into one buffer, end to end. What comes out is a plan the
// decode passes run over in one go: a page_task per data page and a dictionary_task per
// dictionary page, whose byte pointers are offsets into that buffer until it is placed in the
// memory the columns are decoded in (rebase()).
#include <colx/io/file_source.hpp>
#include <colx/io/parquet/decompress.hpp>
#include <colx/io/parquet/file_schema.hpp>
#include <colx/io/parquet/metadata.hpp>
#include <colx/io/parquet/page_decode.hpp>

#include <cstdint>
#include <span>
#include <string>
#include <vector>

namespace colx::parquet::detail {

struct page_plan {
  std::vector<std::uint8_t> bytes;       // every page's uncompressed body
  std::vector<page_task> pages;          // data pages of every column, column by column
  std::vector<dictionary_task> dicts;    // dictionary pages
  std::vector<std::int32_t> dict_column; // each dictionary's output column
  std::vector<std::int32_t> page_group;  // each page's row group, for messages
  std::vector<std::int32_t> page_index;  // and its position in its column chunk
  std::int64_t rows = 0;

  // Turns the offsets held in the tasks into addresses inside `base` (the bytes, copied there).
  void rebase(std::uint8_t const* base) {
    for (auto& p : pages) { p.body = base + reinterpret_cast<std::uintptr_t>(p.body); }
    for (auto& d : dicts) { d.body = base + reinterpret_cast<std::uintptr_t>(d.body); }
  }
};

struct decompress_job {
  codec how;
  std::span<std::uint8_t const> in;
  std::size_t out_offset;
  std::size_t out_size;
};

// The plan for columns `leaves` (positions among the file's leaf columns; output column j reads
// leaf leaves[j]) over row groups `groups`.
[[nodiscard]] inline page_plan plan_pages(file_source const& file, file_metadata const& md, std::vector<leaf_column> const& schema,
                                          std::vector<std::size_t> const& leaves, std::vector<std::size_t> const& groups) {
  page_plan plan;
  std::vector<std::int64_t> group_first_row;
  for (std::size_t g : groups) {
    group_first_row.push_back(plan.rows);
    plan.rows += md.row_groups[g].num_rows;
  }
  // The chunks' bytes, read first and kept until their pages are decompressed.
  std::vector<std::vector<std::uint8_t>> chunks;
  std::vector<decompress_job> jobs;
  std::size_t out_size = 0;
  std::string const& path = file.path();
  for (std::size_t j = 0; j < leaves.size(); ++j) {
    leaf_column const& leaf = schema[leaves[j]];
    for (std::size_t gi = 0; gi < groups.size(); ++gi) {
      row_group const& g = md.row_groups[groups[gi]];
      column_meta const& m = g.columns[leaves[j]];
      if (g.num_rows == 0) { continue; }  // (writers give an empty group's chunk no pages, or offset 0)
      std::string const where = path + ": column \"" + leaf.name + "\", row group " + std::to_string(groups[gi]);
      COLX_EXPECTS_AS(parquet_error, m.type == *leaf.element->type, where, ": the chunk's physical type differs from the schema's");
      COLX_EXPECTS_AS(parquet_error, can_decompress(m.compression), where, ": ", missing_codec_message(m.compression));
      std::int64_t const start = m.dictionary_page_offset && *m.dictionary_page_offset > 0 && *m.dictionary_page_offset < m.data_page_offset
                                     ? *m.dictionary_page_offset
                                     : m.data_page_offset;
      COLX_EXPECTS_AS(parquet_error, start >= 4 && m.total_compressed_size >= 0 &&
                                         static_cast<std::uint64_t>(start) + static_cast<std::uint64_t>(m.total_compressed_size) <= file.size(),
                      where, ": its bytes [", start, ", +", m.total_compressed_size, ") lie outside the file");
      chunks.emplace_back(static_cast<std::size_t>(m.total_compressed_size));
      std::vector<std::uint8_t> const& chunk = chunks.back();
      file.read(static_cast<std::uint64_t>(start), chunks.back());

      std::int64_t seen = 0;  // values (rows: flat columns) of the chunk's data pages so far
      std::int32_t dictionary = -1;
      std::int32_t index = 0;
      std::size_t at = 0;
      std::int64_t unpacked = 0;
      while (seen < m.num_values) {
        std::string const what = where + ", page " + std::to_string(index);
        COLX_EXPECTS_AS(parquet_error, at < chunk.size(), what, ": the chunk ends after ", seen, " of its ", m.num_values, " values");
        std::size_t header_bytes = 0;
        page_header const h = parse_page_header(std::span(chunk).subspan(at), what.c_str(), header_bytes);
        std::size_t const body = at + header_bytes;
        COLX_EXPECTS_AS(parquet_error, static_cast<std::size_t>(h.compressed_size) <= chunk.size() - body, what, ": its ",
                        h.compressed_size, " bytes run past the chunk's end");
        auto const in = std::span(chunk).subspan(body, static_cast<std::size_t>(h.compressed_size));
        at = body + static_cast<std::size_t>(h.compressed_size);
        ++index;
        // Sizes are checked before anything is allocated by them: a chunk's pages hold at most its
        // uncompressed total, and an uncompressed page is as long as its bytes.
        unpacked += h.uncompressed_size;
        COLX_EXPECTS_AS(parquet_error, unpacked <= m.total_uncompressed_size, what, ": the pages unpack to more than the chunk's ",
                        m.total_uncompressed_size, " bytes");
        bool const stored = m.compression == codec::uncompressed || (h.type == page_type::data_v2 && !h.v2_compressed);
        COLX_EXPECTS_AS(parquet_error, !stored || h.uncompressed_size == h.compressed_size, what, ": an uncompressed page of ",
                        h.compressed_size, " bytes claims ", h.uncompressed_size);
        if (h.type == page_type::dictionary) {
          COLX_EXPECTS_AS(parquet_error, dictionary < 0 && seen == 0, what, ": a dictionary page after the chunk's first page");
          COLX_EXPECTS_AS(parquet_error, h.values_encoding == encoding::plain || h.values_encoding == encoding::plain_dictionary, what,
                          ": a dictionary page must be PLAIN-encoded");
          COLX_EXPECTS_AS(parquet_error, leaf.kind != value_kind::boolean, what, ": a dictionary of booleans is not supported");
          dictionary_task d;
          d.body = reinterpret_cast<std::uint8_t const*>(out_size);
          d.size = h.uncompressed_size;
          d.entries = h.num_values;
          COLX_EXPECTS_AS(parquet_error, h.num_values >= 0 && static_cast<std::int64_t>(h.num_values) * 4 <= h.uncompressed_size + 4, what,
                          ": ", h.num_values, " dictionary entries in ", h.uncompressed_size, " bytes");
          if (leaf.in_width > 0) {
            COLX_EXPECTS_AS(parquet_error, static_cast<std::int64_t>(h.num_values) * leaf.in_width <= h.uncompressed_size, what, ": ",
                            h.num_values, " dictionary entries of ", leaf.in_width, " bytes in ", h.uncompressed_size, " bytes");
          }
          dictionary = static_cast<std::int32_t>(plan.dicts.size());
          plan.dicts.push_back(d);
          plan.dict_column.push_back(static_cast<std::int32_t>(j));
          jobs.push_back({m.compression, in, out_size, static_cast<std::size_t>(h.uncompressed_size)});
          out_size += static_cast<std::size_t>(h.uncompressed_size);
          continue;
        }
        if (h.type != page_type::data && h.type != page_type::data_v2) { continue; }  // index pages
        COLX_EXPECTS_AS(parquet_error, h.num_values <= m.num_values - seen, what, ": ", h.num_values, " values, beyond the chunk's ",
                        m.num_values);
        page_task p;
        p.body = reinterpret_cast<std::uint8_t const*>(out_size);
        p.first_row = group_first_row[gi] + seen;
        p.num_values = h.num_values;
        p.column = static_cast<std::int32_t>(j);
        p.dictionary = dictionary;
        p.values_encoding = h.values_encoding;
        p.def_encoding = h.def_encoding;
        if (h.type == page_type::data_v2) {
          // v2: the levels are never compressed; the values are unless is_compressed is false.
          auto const levels = static_cast<std::size_t>(h.def_levels_bytes + h.rep_levels_bytes);
          COLX_EXPECTS_AS(parquet_error, h.uncompressed_size >= h.def_levels_bytes + h.rep_levels_bytes, what, ": levels larger than the page");
          p.def_bytes = h.def_levels_bytes;
          p.rep_bytes = h.rep_levels_bytes;
          p.size = h.uncompressed_size;
          jobs.push_back({codec::uncompressed, in.subspan(0, levels), out_size, levels});
          jobs.push_back({h.v2_compressed ? m.compression : codec::uncompressed, in.subspan(levels), out_size + levels,
                          static_cast<std::size_t>(h.uncompressed_size) - levels});
        } else {
          p.size = h.uncompressed_size;
          jobs.push_back({m.compression, in, out_size, static_cast<std::size_t>(h.uncompressed_size)});
        }
        out_size += static_cast<std::size_t>(h.uncompressed_size);
        plan.pages.push_back(p);
        plan.page_group.push_back(static_cast<std::int32_t>(groups[gi]));
        plan.page_index.push_back(index - 1);
        seen += h.num_values;
      }
      COLX_EXPECTS_AS(parquet_error, seen == g.num_rows, where, ": ", seen, " values for ", g.num_rows, " rows");
    }
  }

  // Decompress every page, in parallel (the codecs' functions are thread-safe).
  plan.bytes.resize(out_size);
  std::int64_t failed = -1;
#pragma omp parallel for schedule(dynamic, 1)
  for (std::int64_t i = 0; i < static_cast<std::int64_t>(jobs.size()); ++i) {
    auto const& job = jobs[static_cast<std::size_t>(i)];
    if (!decompress(job.how, job.in, std::span(plan.bytes).subspan(job.out_offset, job.out_size))) {
#pragma omp critical
      failed = failed < 0 ? i : failed;
    }
  }
  COLX_EXPECTS_AS(parquet_error, failed < 0, path, ": a page does not decompress (", to_string(jobs[static_cast<std::size_t>(failed)].how),
                  ") to the size its header gives: the file is corrupt");
  return plan;
}

}  // namespace colx::parquet::detail
