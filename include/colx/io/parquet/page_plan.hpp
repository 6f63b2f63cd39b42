// SPDX-License-Identifier: Apache-2.0
#pragma once
// The host's part of reading a Parquet file: read the selected column chunks into one buffer, walk
// their page headers, and plan where each page's uncompressed bytes go in a second buffer (a
// decompress_job per page, run by the host's libraries here or by nvCOMP on the GPU). What comes
// out is a plan the decode passes run over in one go: a page_task per data page and a
// dictionary_task per dictionary page, whose byte pointers are offsets into the pages' buffer until
// it is placed in the memory the columns are decoded in (rebase()).
#include <colx/io/file_source.hpp>
#include <colx/io/parquet/decompress.hpp>
#include <colx/io/parquet/file_schema.hpp>
#include <colx/io/parquet/metadata.hpp>
#include <colx/io/parquet/options.hpp>
#include <colx/io/parquet/page_tasks.hpp>
#include <colx/memory/buffer.hpp>
#include <colx/memory/copy_bytes.hpp>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <exception>
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

  // Turns the offsets held in the tasks into addresses inside `base` (the pages' buffer).
  void rebase(std::uint8_t const* base) {
    for (auto& p : pages) { p.body = base + reinterpret_cast<std::uintptr_t>(p.body); }
    for (auto& d : dicts) { d.body = base + reinterpret_cast<std::uintptr_t>(d.body); }
  }
};

// Pages start at multiples of this in the pages' buffer (decompressors write faster, and some
// require it, at aligned addresses).
inline constexpr std::size_t page_alignment = 16;

// Where the chunks also go as they are read: device memory, when the GPU decompresses them, so the
// copies overlap the reading of the chunks after them.
struct chunk_mirror {
  resource_ref mr;
  stream_ref stream;
  buffer copy;  // the chunks' bytes end to end, as in page_plan::chunks
};

struct chunk_read {
  std::uint64_t file_offset;
  std::size_t size, at;
};

// The plan for columns `leaves` (positions among the file's leaf columns; output column j reads
// leaf leaves[j]) over row groups `groups`. The chunks are read into memory from `staging` (pinned
// memory when the pages go on to the GPU), several at once.
[[nodiscard]] inline page_plan plan_pages(file_source const& file, file_metadata const& md, std::vector<leaf_column> const& schema,
                                          std::vector<std::size_t> const& leaves, std::vector<std::size_t> const& groups,
                                          resource_ref staging, parquet_read_stats* stats, chunk_mirror* mirror = nullptr) {
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
  // The mirror is filled by slabs of consecutive chunks, each copied once its last chunk is read:
  // a copy per chunk (8,384 of 300 KB for TPC-H lineitem at SF 10) cost more in latency than
  // reading the file.
  std::vector<std::size_t> slab_of(reads.size(), 0);
  std::vector<std::size_t> slab_first{0};
  std::size_t const slab_bytes = std::max<std::size_t>(total / 32, std::size_t{16} << 20);
  for (std::size_t r = 1; r < reads.size(); ++r) {
    if (reads[r].at - reads[slab_first.back()].at >= slab_bytes) { slab_first.push_back(r); }
    slab_of[r] = slab_first.size() - 1;
  }
  std::vector<std::atomic<std::size_t>> slab_left(slab_first.size());
  for (std::size_t k = 0; k < slab_first.size(); ++k) {
    std::size_t const end = k + 1 < slab_first.size() ? slab_first[k + 1] : reads.size();
    slab_left[k] = end - slab_first[k];
  }
  if (mirror != nullptr) { mirror->copy = buffer(total, mirror->stream, mirror->mr); }
  std::string read_error;
#pragma omp parallel for schedule(dynamic, 1)
  for (std::int64_t r = 0; r < static_cast<std::int64_t>(reads.size()); ++r) {
    auto const& c = reads[static_cast<std::size_t>(r)];
    try {
      file.read(c.file_offset, std::span(base + c.at, c.size));
      std::size_t const k = slab_of[static_cast<std::size_t>(r)];
      if (mirror != nullptr && slab_left[k].fetch_sub(1) == 1) {
        std::size_t const from = reads[slab_first[k]].at;
        std::size_t const to = k + 1 < slab_first.size() ? reads[slab_first[k + 1]].at : total;
        colx::detail::copy_bytes(static_cast<std::uint8_t*>(mirror->copy.data()) + from, mirror->copy.kind(), base + from,
                                 plan.chunks.kind(), to - from, mirror->stream);
      }
    } catch (std::exception const& e) {
#pragma omp critical
      read_error = e.what();
    }
  }
  if (!read_error.empty()) { throw io_error(read_error); }
  if (stats != nullptr) {
    stats->ms_read += std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
    stats->file_bytes_read += static_cast<std::int64_t>(total);
  }

  std::size_t out_size = 0;
  auto const add_job = [&](codec how, std::size_t in_offset, std::size_t in_size, std::size_t out_bytes) {
    plan.jobs.push_back({how, in_offset, in_size, out_size, out_bytes});
    out_size += out_bytes;
  };
  for (std::size_t j = 0; j < leaves.size(); ++j) {
    leaf_column const& leaf = schema[leaves[j]];
    for (std::size_t gi = 0; gi < groups.size(); ++gi) {
      row_group const& g = md.row_groups[groups[gi]];
      column_meta const& m = g.columns[leaves[j]];
      if (g.num_rows == 0) { continue; }
      std::string const where = path + ": column \"" + leaf.name + "\", row group " + std::to_string(groups[gi]);
      chunk_read const& read = reads[j * groups.size() + gi];
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
          add_job(codec::uncompressed, in_offset, levels, levels);
          add_job(h.v2_compressed ? m.compression : codec::uncompressed, in_offset + levels,
                  static_cast<std::size_t>(h.compressed_size) - levels, static_cast<std::size_t>(h.uncompressed_size) - levels);
        } else {
          add_job(m.compression, in_offset, static_cast<std::size_t>(h.compressed_size), static_cast<std::size_t>(h.uncompressed_size));
        }
        plan.pages.push_back(p);
        plan.page_group.push_back(static_cast<std::int32_t>(groups[gi]));
        plan.page_index.push_back(index - 1);
        seen += h.num_values;
      }
      COLX_EXPECTS_AS(parquet_error, seen == g.num_rows, where, ": ", seen, " values for ", g.num_rows, " rows");
    }
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
