// SPDX-License-Identifier: Apache-2.0
#pragma once
// The host's part of reading a Parquet file: read the selected column chunks into one buffer, walk
// their page headers, and plan where each page's uncompressed bytes go (a decompress_job per page,
// run by the host's libraries here or by nvCOMP on the GPU). What comes out is a plan the decode
// passes run over in one go: a page_task per data page and a dictionary_task per dictionary page,
// whose byte pointers are offsets among the uncompressed pages until they are placed in the memory
// the columns are decoded in (rebase()).
//
// The chunks are read in slabs (chunk_reads.hpp), and each slab's pages are planned as soon as it
// is read; a slab_sink, when given, takes each slab's pages on from there (the GPU copies and
// decompresses them) while the slabs after are still being read, and says where they went.
#include <colx/io/file_source.hpp>
#include <colx/io/parquet/chunk_reads.hpp>
#include <colx/io/parquet/decompress.hpp>
#include <colx/io/parquet/file_schema.hpp>
#include <colx/io/parquet/metadata.hpp>
#include <colx/io/parquet/options.hpp>
#include <colx/io/parquet/page_tasks.hpp>
#include <colx/memory/buffer.hpp>
#include <colx/memory/copy_bytes.hpp>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <functional>
#include <span>
#include <string>
#include <vector>

namespace colx::parquet::detail {

struct decompress_job {
  codec how;
  std::size_t in_offset, in_size;    // in the compressed chunks' buffer
  std::size_t out_offset, out_size;  // in the pages' buffer
};

struct page_plan {
  buffer chunks;                         // the selected column chunks' bytes, end to end
  std::vector<decompress_job> jobs;      // what makes each page's uncompressed bytes
  std::size_t bytes = 0;                 // the size of the uncompressed pages' buffer
  std::vector<page_task> pages;          // data pages of every column, column by column
  std::vector<dictionary_task> dicts;    // dictionary pages
  std::vector<std::int32_t> dict_column; // each dictionary's output column
  std::vector<std::int32_t> page_group;  // each page's row group, for messages
  std::vector<std::int32_t> page_index;  // and its position in its column chunk
  std::int64_t rows = 0;

  // Turns the offsets held in the tasks from the given ones on into addresses: offset o goes to
  // base + o - first_offset (base: where the pages from first_offset on are).
  void rebase(std::uint8_t const* base, std::size_t first_page = 0, std::size_t first_dict = 0, std::size_t first_offset = 0) {
    for (std::size_t i = first_page; i < pages.size(); ++i) { pages[i].body = base + (reinterpret_cast<std::uintptr_t>(pages[i].body) - first_offset); }
    for (std::size_t i = first_dict; i < dicts.size(); ++i) { dicts[i].body = base + (reinterpret_cast<std::uintptr_t>(dicts[i].body) - first_offset); }
  }
};

// One slab's part of a plan: its chunks' bytes [in_begin, in_end) in plan.chunks, its jobs
// [job_begin, job_end) and the uncompressed bytes [out_begin, out_end) they write.
struct slab_span {
  std::size_t in_begin, in_end, job_begin, job_end, out_begin, out_end;
};
// Takes a slab's pages on; returns where their uncompressed bytes will be (out_begin's address).
using slab_sink = std::function<std::uint8_t*(page_plan const&, slab_span const&)>;

// Pages start at multiples of this in the pages' buffer (decompressors write faster, and some
// require it, at aligned addresses).
inline constexpr std::size_t page_alignment = 16;

// Appends the pages of one column chunk (output column j, row group `group` starting at row
// first_row, its bytes at chunk.data() = base + read.at) to the plan: their tasks and the jobs that
// unpack them, placed from out_size on (which it advances).
inline void walk_chunk(page_plan& plan, leaf_column const& leaf, column_meta const& m, row_group const& g, std::size_t j, std::size_t group,
                       std::int64_t first_row, chunk_read const& read, std::uint8_t const* base, std::string const& where,
                       std::size_t& out_size) {
  auto const add_job = [&](codec how, std::size_t in_offset, std::size_t in_size, std::size_t out_bytes) {
    plan.jobs.push_back({how, in_offset, in_size, out_size, out_bytes});
    out_size += out_bytes;
  };
  auto const chunk = std::span<std::uint8_t const>(base + read.at, read.size);
  std::int64_t seen = 0;  // values (rows: flat columns) of the chunk's data pages so far
  std::int32_t dictionary = -1;
  std::int32_t index = 0;
  std::size_t at = 0;
  std::int64_t unpacked = 0;
  while (seen < m.num_values) {
    std::string const what = where + ", page " + std::to_string(index);
    COLX_EXPECTS_AS(parquet_error, at < chunk.size(), what, ": the chunk ends after ", seen, " of its ", m.num_values, " values");
    std::size_t header_bytes = 0;
    page_header const h = parse_page_header(chunk.subspan(at), what.c_str(), header_bytes);
    std::size_t const body = at + header_bytes;
    COLX_EXPECTS_AS(parquet_error, static_cast<std::size_t>(h.compressed_size) <= chunk.size() - body, what, ": its ",
                    h.compressed_size, " bytes run past the chunk's end");
    std::size_t const in_offset = read.at + body;
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
    out_size = (out_size + page_alignment - 1) / page_alignment * page_alignment;
    if (h.type == page_type::dictionary) {
      COLX_EXPECTS_AS(parquet_error, dictionary < 0 && seen == 0, what, ": a dictionary page after the chunk's first page");
      COLX_EXPECTS_AS(parquet_error, h.values_encoding == encoding::plain || h.values_encoding == encoding::plain_dictionary, what,
                      ": a dictionary page must be PLAIN-encoded");
      COLX_EXPECTS_AS(parquet_error, leaf.kind != value_kind::boolean, what, ": a dictionary of booleans is not supported");
      COLX_EXPECTS_AS(parquet_error, h.num_values >= 0 && static_cast<std::int64_t>(h.num_values) * 4 <= h.uncompressed_size + 4, what,
                      ": ", h.num_values, " dictionary entries in ", h.uncompressed_size, " bytes");
      if (leaf.in_width > 0) {
        COLX_EXPECTS_AS(parquet_error, static_cast<std::int64_t>(h.num_values) * leaf.in_width <= h.uncompressed_size, what, ": ",
                        h.num_values, " dictionary entries of ", leaf.in_width, " bytes in ", h.uncompressed_size, " bytes");
      }
      dictionary_task d;
      d.body = reinterpret_cast<std::uint8_t const*>(out_size);
      d.size = h.uncompressed_size;
      d.entries = h.num_values;
      dictionary = static_cast<std::int32_t>(plan.dicts.size());
      plan.dicts.push_back(d);
      plan.dict_column.push_back(static_cast<std::int32_t>(j));
      add_job(m.compression, in_offset, static_cast<std::size_t>(h.compressed_size), static_cast<std::size_t>(h.uncompressed_size));
      continue;
    }
    if (h.type != page_type::data && h.type != page_type::data_v2) { continue; }  // index pages
    COLX_EXPECTS_AS(parquet_error, h.num_values <= m.num_values - seen, what, ": ", h.num_values, " values, beyond the chunk's ",
                    m.num_values);
    page_task p;
    p.body = reinterpret_cast<std::uint8_t const*>(out_size);
    p.size = h.uncompressed_size;
    p.first_row = first_row + seen;
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
      add_job(codec::uncompressed, in_offset, levels, levels);
      add_job(h.v2_compressed ? m.compression : codec::uncompressed, in_offset + levels,
              static_cast<std::size_t>(h.compressed_size) - levels, static_cast<std::size_t>(h.uncompressed_size) - levels);
    } else {
      add_job(m.compression, in_offset, static_cast<std::size_t>(h.compressed_size), static_cast<std::size_t>(h.uncompressed_size));
    }
    plan.pages.push_back(p);
    plan.page_group.push_back(static_cast<std::int32_t>(group));
    plan.page_index.push_back(index - 1);
    seen += h.num_values;
  }
  COLX_EXPECTS_AS(parquet_error, seen == g.num_rows, where, ": ", seen, " values for ", g.num_rows, " rows");
}

// The plan for columns `leaves` (positions among the file's leaf columns; output column j reads
// leaf leaves[j]) over row groups `groups`. The chunks are read into memory from `staging` (pinned
// memory when the pages go on to the GPU), several at once; `sink`, if given, takes each slab's
// pages as it is planned (and the plan's tasks then point where it put them).
[[nodiscard]] inline page_plan plan_pages(file_source const& file, file_metadata const& md, std::vector<leaf_column> const& schema,
                                          std::vector<std::size_t> const& leaves, std::vector<std::size_t> const& groups,
                                          resource_ref staging, parquet_read_stats* stats, slab_sink const& sink = {}) {
  page_plan plan;
  std::string const& path = file.path();
  std::vector<std::int64_t> group_first_row;
  for (std::size_t g : groups) {
    group_first_row.push_back(plan.rows);
    plan.rows += md.row_groups[g].num_rows;
  }
  // Where each chunk lies in the file and in the buffer, checked against the file's size.
  std::vector<chunk_read> reads;
  std::size_t total = 0;
  for (std::size_t j = 0; j < leaves.size(); ++j) {
    for (std::size_t gi = 0; gi < groups.size(); ++gi) {
      row_group const& g = md.row_groups[groups[gi]];
      column_meta const& m = g.columns[leaves[j]];
      if (g.num_rows == 0) {  // (writers give an empty group's chunk no pages, or offset 0)
        reads.push_back({0, 0, total});
        continue;
      }
      std::string const where = path + ": column \"" + schema[leaves[j]].name + "\", row group " + std::to_string(groups[gi]);
      COLX_EXPECTS_AS(parquet_error, m.type == *schema[leaves[j]].element->type, where, ": the chunk's physical type differs from the schema's");
      COLX_EXPECTS_AS(parquet_error, can_decompress(m.compression), where, ": ", missing_codec_message(m.compression));
      std::int64_t const start = m.dictionary_page_offset && *m.dictionary_page_offset > 0 && *m.dictionary_page_offset < m.data_page_offset
                                     ? *m.dictionary_page_offset
                                     : m.data_page_offset;
      COLX_EXPECTS_AS(parquet_error, start >= 4 && m.total_compressed_size >= 0 &&
                                         static_cast<std::uint64_t>(start) + static_cast<std::uint64_t>(m.total_compressed_size) <= file.size(),
                      where, ": its bytes [", start, ", +", m.total_compressed_size, ") lie outside the file");
      reads.push_back({static_cast<std::uint64_t>(start), static_cast<std::size_t>(m.total_compressed_size), total});
      total += static_cast<std::size_t>(m.total_compressed_size);
    }
  }
  auto const t0 = std::chrono::steady_clock::now();
  plan.chunks = buffer(total, {}, staging);
  auto* const base = static_cast<std::uint8_t*>(plan.chunks.data());
  // Slabs of 1/32 of the bytes, at least 16 MiB: a copy to the GPU per chunk (8,384 of 300 KB for
  // TPC-H lineitem at SF 10) cost more in latency than reading the file.
  std::vector<std::size_t> const first = slab_starts(reads, std::max<std::size_t>(total / 32, std::size_t{16} << 20));
  std::size_t out_size = 0;
  read_slabs(file, reads, base, first, [&](std::size_t, std::size_t begin, std::size_t end) {
    slab_span span{reads[begin].at, end < reads.size() ? reads[end].at : total, plan.jobs.size(), 0, out_size, 0};
    std::size_t const first_page = plan.pages.size(), first_dict = plan.dicts.size();
    for (std::size_t r = begin; r < end; ++r) {
      std::size_t const j = r / groups.size(), gi = r % groups.size();
      row_group const& g = md.row_groups[groups[gi]];
      if (g.num_rows == 0) { continue; }
      std::string const where = path + ": column \"" + schema[leaves[j]].name + "\", row group " + std::to_string(groups[gi]);
      walk_chunk(plan, schema[leaves[j]], g.columns[leaves[j]], g, j, groups[gi], group_first_row[gi], reads[r], base, where, out_size);
    }
    span.job_end = plan.jobs.size();
    span.out_end = out_size;
    if (sink) { plan.rebase(sink(plan, span), first_page, first_dict, span.out_begin); }
  });
  if (stats != nullptr) {
    stats->ms_read += std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
    stats->file_bytes_read += static_cast<std::int64_t>(total);
  }
  plan.bytes = out_size;
  if (stats != nullptr) {
    stats->row_groups += static_cast<std::int64_t>(groups.size());
    stats->pages += static_cast<std::int64_t>(plan.pages.size());
    stats->dictionary_pages += static_cast<std::int64_t>(plan.dicts.size());
    stats->decompressed_bytes += static_cast<std::int64_t>(out_size);
  }
  return plan;
}

// Every page's bytes into `out` (plan.bytes of host memory), by the host's decompressors, several
// pages at once (their functions are thread-safe).
inline void decompress_on_host(page_plan const& plan, std::uint8_t* out, std::string const& path) {
  auto const* const in = static_cast<std::uint8_t const*>(plan.chunks.data());
  std::int64_t failed = -1;
#pragma omp parallel for schedule(dynamic, 1)
  for (std::int64_t i = 0; i < static_cast<std::int64_t>(plan.jobs.size()); ++i) {
    auto const& job = plan.jobs[static_cast<std::size_t>(i)];
    if (!decompress(job.how, std::span(in + job.in_offset, job.in_size), std::span(out + job.out_offset, job.out_size))) {
#pragma omp critical
      failed = failed < 0 ? i : failed;
    }
  }
  COLX_EXPECTS_AS(parquet_error, failed < 0, path, ": a page does not decompress (", to_string(plan.jobs[static_cast<std::size_t>(failed)].how),
                  ") to the size its header gives: the file is corrupt");
}

}  // namespace colx::parquet::detail
