// SPDX-License-Identifier: Apache-2.0
#pragma once
// read_parquet(path, options) -> any_table: a Parquet file's flat columns as colx columns, in the
// memory of the resource passed (device memory: decoded on the GPU).
//
// The host reads the footer and the selected column chunks, walks the page headers and
// decompresses the pages (page_plan.hpp); the pages, end to end, are copied once to the target
// memory, and every page of every column is decoded there in three launches: dictionaries indexed,
// strings measured (lengths, then a scan into offsets per column), everything decoded.
#include <colx/column/any_column.hpp>
#include <colx/column/bitmask.hpp>
#include <colx/column/copying.hpp>
#include <colx/exec/dispatch.hpp>
#include <colx/io/file_source.hpp>
#include <colx/io/parquet/footer.hpp>
#include <colx/io/parquet/page_decode.hpp>
#include <colx/io/parquet/options.hpp>
#include <colx/io/parquet/page_plan.hpp>
#include <colx/io/parquet/row_selection.hpp>
#include <colx/memory/buffer.hpp>
#include <colx/memory/copy_bytes.hpp>
#include <colx/memory/current_resource.hpp>
#include <colx/table/any_table.hpp>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstring>
#include <limits>
#include <optional>
#include <string>
#include <vector>

#if COLX_HAS_CUDA
#  include <colx/io/parquet/gpu_decode.cuh>
#endif
#if COLX_HAS_CUDA && defined(COLX_WITH_NVCOMP)
#  include <colx/io/parquet/gpu_decompress.cuh>
#endif

namespace colx {

namespace parquet::detail {

struct length_at_fn {
  std::int32_t const* lengths;
  COLX_HOST_DEVICE std::int64_t operator()(size_type i) const { return lengths[i]; }
};

// The leaf positions of `names` (every supported... every leaf when empty), refusing unknown and
// unsupported columns with one message that lists them all.
inline std::vector<std::size_t> select_leaves(std::vector<leaf_column> const& schema, std::vector<std::string> const& names,
                                              std::string const& path) {
  std::vector<std::size_t> out;
  std::string problems;
  if (names.empty()) {
    for (std::size_t i = 0; i < schema.size(); ++i) { out.push_back(i); }
  } else {
    for (auto const& n : names) {
      auto const it = std::find_if(schema.begin(), schema.end(), [&](leaf_column const& c) { return c.name == n; });
      if (it == schema.end()) {
        problems += "\n  column \"" + n + "\" is not in the file";
      } else {
        out.push_back(static_cast<std::size_t>(it - schema.begin()));
      }
    }
  }
  for (std::size_t i : out) {
    if (!schema[i].unsupported.empty()) { problems += "\n  column \"" + schema[i].name + "\": " + schema[i].unsupported; }
  }
  if (!problems.empty()) {
    std::string have;
    for (auto const& c : schema) { have += (have.empty() ? "" : ", ") + c.name; }
    COLX_FAIL_AS(schema_error, path, ": cannot read these columns:", problems, "\n  (the file's columns: ", have, ")");
  }
  return out;
}

template <class T>
buffer to_memory(std::vector<T> const& v, stream_ref stream, resource_ref mr) {
  return buffer(v.data(), memory_kind::host, v.size() * sizeof(T), stream, mr);
}

template <class T>
std::vector<T> to_host(buffer const& b, std::size_t n, stream_ref stream) {
  std::vector<T> out(n);
  if (n > 0) { colx::detail::copy_bytes(out.data(), memory_kind::host, b.data(), b.kind(), n * sizeof(T), stream); }
  stream.synchronize();
  return out;
}

// Throws for the first page that failed, naming its column, row group and page.
inline void check_outcomes(std::vector<page_outcome> const& outcomes, page_plan const& plan, std::vector<leaf_column> const& schema,
                           std::vector<std::size_t> const& leaves, std::string const& path) {
  for (std::size_t i = 0; i < outcomes.size(); ++i) {
    if (outcomes[i].error == page_ok) { continue; }
    COLX_FAIL_AS(parquet_error, path, ": column \"", schema[leaves[static_cast<std::size_t>(plan.pages[i].column)]].name,
                 "\", row group ", plan.page_group[i], ", page ", plan.page_index[i], " does not decode: ",
                 to_string(static_cast<page_error>(outcomes[i].error)));
  }
}

// The given row groups' `leaves`, in the memory of `mr`.
inline any_table read_groups(file_source const& file, parquet_metadata const& md, std::vector<std::size_t> const& leaves,
                             std::vector<std::size_t> const& groups, parquet_read_stats* const stats, stream_ref stream, resource_ref mr) {
  std::string const& path = file.path();
  using clock = std::chrono::steady_clock;
  auto const started = clock::now();
  auto const ms_since = [](clock::time_point t) { return std::chrono::duration<double, std::milli>(clock::now() - t).count(); };
  memory_kind const kind = mr.kind();
  bool const to_device = kind == memory_kind::device;
#if COLX_HAS_CUDA
  resource_ref const staging = to_device ? get_current_pinned_resource() : get_current_host_resource();
#else
  resource_ref const staging = get_current_host_resource();
#endif
  // Where the GPU decompresses, it takes each slab of chunks on as soon as the host has read it.
  slab_sink sink;
#if COLX_HAS_CUDA && defined(COLX_WITH_NVCOMP)
  std::optional<gpu_unpacker> gpu;
  if (to_device && gpu_can_decompress(md.file, leaves, groups)) {
    gpu.emplace(stream, mr, nvcomp_calls());
    sink = [&](page_plan const& p, slab_span const& s) { return gpu->unpack(p, s); };
  }
#endif
  page_plan plan = plan_pages(file, md.file, md.columns, leaves, groups, staging, stats, sink);
  size_type const rows = plan.rows;

  // The pages' uncompressed bytes, in the memory the columns are decoded in (on the GPU: a buffer
  // per slab, held by `gpu`).
  auto const unpacking = clock::now();
  buffer bytes;
#if COLX_HAS_CUDA && defined(COLX_WITH_NVCOMP)
  if (gpu) {
    gpu->finish(path);
    if (stats != nullptr) {
      stats->ms_decompress += ms_since(unpacking);  // (what the reading did not hide)
      stats->decompressed_on_device = true;
    }
  }
#endif
  if (!sink) {
    buffer unpacked(plan.bytes, {}, to_device ? staging : mr);
    decompress_on_host(plan, static_cast<std::uint8_t*>(unpacked.data()), path);
    if (stats != nullptr) { stats->ms_decompress += ms_since(unpacking); }
    auto const moving = clock::now();
    bytes = to_device ? buffer(unpacked.data(), unpacked.kind(), plan.bytes, stream, mr) : std::move(unpacked);
    if (stats != nullptr) {
      stream.synchronize();
      stats->ms_transfer += ms_since(moving);
    }
    plan.rebase(static_cast<std::uint8_t const*>(bytes.data()));
  }
  plan.chunks = buffer{};  // (the compressed bytes are not needed any more)
  auto const decoding = clock::now();
  auto mark = decoding;
  auto const phase = [&](double parquet_read_stats::*field) {  // (waits for the device only when asked for stats)
    if (stats == nullptr) { return; }
    stream.synchronize();
    stats->*field += ms_since(mark);
    mark = clock::now();
  };

  // Outputs: values or lengths, and a zeroed mask for optional columns.
  std::size_t const n_columns = leaves.size();
  std::vector<parquet::leaf_column const*> leaf(n_columns);
  std::vector<column_task> tasks(n_columns);
  std::vector<buffer> values(n_columns), masks(n_columns), lengths(n_columns);
  for (std::size_t j = 0; j < n_columns; ++j) {
    leaf[j] = &md.columns[leaves[j]];
    column_task& t = tasks[j];
    t.type = *leaf[j]->element->type;
    t.kind = leaf[j]->kind;
    t.max_def = static_cast<std::int8_t>(leaf[j]->max_def);
    t.sign_extend = leaf[j]->sign_extend;
    t.in_width = leaf[j]->in_width;
    t.out_width = leaf[j]->out_width;
    if (t.kind == value_kind::string) {
      lengths[j] = buffer(static_cast<std::size_t>(rows) * sizeof(std::int32_t), stream, mr);
      t.lengths = static_cast<std::int32_t*>(lengths[j].data());
    } else {
      values[j] = buffer(static_cast<std::size_t>(rows) * static_cast<std::size_t>(t.out_width), stream, mr);
      t.values = static_cast<std::uint8_t*>(values[j].data());
    }
    if (t.max_def > 0) {
      masks[j] = buffer(static_cast<std::size_t>(bitmask_words(rows)) * sizeof(bitmask_type), stream, mr);
      t.mask = static_cast<bitmask_type*>(masks[j].data());
    }
  }

  // Dictionaries of byte arrays: where each entry starts.
  std::int64_t entries = 0;
  for (std::size_t d = 0; d < plan.dicts.size(); ++d) {
    if (tasks[static_cast<std::size_t>(plan.dict_column[d])].type == parquet::physical::byte_array) { entries += plan.dicts[d].entries; }
  }
  buffer entry_at(static_cast<std::size_t>(entries) * sizeof(std::int64_t), stream, mr);
  entries = 0;
  for (std::size_t d = 0; d < plan.dicts.size(); ++d) {
    if (tasks[static_cast<std::size_t>(plan.dict_column[d])].type != parquet::physical::byte_array) { continue; }
    plan.dicts[d].entry_at = static_cast<std::int64_t*>(entry_at.data()) + entries;
    entries += plan.dicts[d].entries;
  }

  auto const n_pages = static_cast<size_type>(plan.pages.size());
  auto const n_dicts = static_cast<size_type>(plan.dicts.size());
  buffer const pages = to_memory(plan.pages, stream, mr);
  buffer const dicts = to_memory(plan.dicts, stream, mr);
  buffer dict_errors(plan.dicts.size() * sizeof(std::int32_t), stream, mr);
  buffer outcomes(plan.pages.size() * sizeof(page_outcome), stream, mr);
  auto const* page_ptr = static_cast<page_task const*>(pages.data());
  auto const* dict_ptr = static_cast<dictionary_task const*>(dicts.data());
  auto* outcome_ptr = static_cast<page_outcome*>(outcomes.data());

  phase(&parquet_read_stats::ms_setup);
  // Pass 1: zero the masks, index the dictionaries, measure the strings.
  bool const any_strings = std::any_of(tasks.begin(), tasks.end(), [](column_task const& t) { return t.kind == value_kind::string; });
  {
    for (auto& m : masks) {  // (pages OR their rows' bits in)
      if (!m.empty()) { colx::detail::fill_bytes(m.data(), m.kind(), 0, m.size(), stream); }
    }
    on_backend(kind, stream, [&](auto const& exec) {
      index_dictionaries_pass(exec, n_dicts, dict_ptr, static_cast<std::int32_t*>(dict_errors.data()));
    });
    // (before any page reads an entry: a dictionary that did not index has entries never written)
    auto const errors = to_host<std::int32_t>(dict_errors, plan.dicts.size(), stream);
    for (std::size_t d = 0; d < errors.size(); ++d) {
      COLX_EXPECTS_AS(parquet_error, errors[d] == page_ok, path, ": the dictionary page of column \"",
                      leaf[static_cast<std::size_t>(plan.dict_column[d])]->name, "\" ends inside an entry");
    }
    if (any_strings) {
      buffer const columns = to_memory(tasks, stream, mr);
      on_backend(kind, stream, [&](auto const& exec) {
        decode_pass(exec, n_pages, page_ptr, static_cast<column_task const*>(columns.data()), dict_ptr, outcome_ptr, true);
      });
    }
  }

  phase(&parquet_read_stats::ms_measure);
  // Strings: offsets from the lengths, chars allocated.
  std::vector<buffer> offsets(n_columns), chars(n_columns);
  std::vector<bool> wide(n_columns, false);
  if (any_strings) {
    // (the measure pass reports nothing, no error and no bytes, for pages of other columns)
    auto const measured = to_host<page_outcome>(outcomes, plan.pages.size(), stream);
    check_outcomes(measured, plan, md.columns, leaves, path);
    std::vector<std::int64_t> total(n_columns, 0);
    for (std::size_t i = 0; i < measured.size(); ++i) {
      auto const j = static_cast<std::size_t>(plan.pages[i].column);
      COLX_EXPECTS_AS(parquet_error, !__builtin_add_overflow(total[j], measured[i].bytes, &total[j]), path, ": column \"",
                      leaf[j]->name, "\" claims more string bytes than 2^63");
    }
    for (std::size_t j = 0; j < n_columns; ++j) {
      if (tasks[j].kind != value_kind::string) { continue; }
      wide[j] = total[j] > std::numeric_limits<std::int32_t>::max();
      std::size_t const width = wide[j] ? sizeof(std::int64_t) : sizeof(std::int32_t);
      offsets[j] = buffer(static_cast<std::size_t>(rows + 1) * width, stream, mr);
      chars[j] = buffer(static_cast<std::size_t>(total[j]), stream, mr);
      length_at_fn const f{tasks[j].lengths};
      on_backend(kind, stream, [&](auto const& exec) {
        if (wide[j]) {
          exec.exclusive_scan_async(rows, std::int64_t{0}, f, static_cast<std::int64_t*>(offsets[j].data()));
        } else {
          exec.exclusive_scan_async(rows, std::int32_t{0}, f, static_cast<std::int32_t*>(offsets[j].data()));
        }
      });
      tasks[j].offsets64 = wide[j] ? static_cast<std::int64_t const*>(offsets[j].data()) : nullptr;
      tasks[j].offsets32 = wide[j] ? nullptr : static_cast<std::int32_t const*>(offsets[j].data());
      tasks[j].chars = static_cast<std::uint8_t*>(chars[j].data());
    }
  }

  phase(&parquet_read_stats::ms_offsets);
  // Pass 2: decode every page.
  buffer const columns = to_memory(tasks, stream, mr);
  on_backend(kind, stream, [&](auto const& exec) {
    decode_pass(exec, n_pages, page_ptr, static_cast<column_task const*>(columns.data()), dict_ptr, outcome_ptr, false);
  });
  auto const decoded = to_host<page_outcome>(outcomes, plan.pages.size(), stream);
  check_outcomes(decoded, plan, md.columns, leaves, path);
  std::vector<size_type> nulls(n_columns, 0);
  for (std::size_t i = 0; i < decoded.size(); ++i) { nulls[static_cast<std::size_t>(plan.pages[i].column)] += decoded[i].nulls; }

  any_table out;
  std::int64_t output_bytes = 0;
  for (std::size_t j = 0; j < n_columns; ++j) {
    output_bytes += static_cast<std::int64_t>(values[j].size() + offsets[j].size() + chars[j].size() + (nulls[j] > 0 ? masks[j].size() : 0));
    buffer mask = nulls[j] > 0 ? std::move(masks[j]) : buffer{};
    if (tasks[j].kind == value_kind::string) {
      std::vector<any_column> children;
      children.emplace_back(data_type(wide[j] ? type_id::int64 : type_id::int32), rows + 1, std::move(offsets[j]));
      out.insert(label(leaf[j]->name), any_column(leaf[j]->type, rows, std::move(chars[j]), std::move(mask), nulls[j], std::move(children)));
    } else {
      out.insert(label(leaf[j]->name), any_column(leaf[j]->type, rows, std::move(values[j]), std::move(mask), nulls[j]));
    }
  }
  if (stats != nullptr) {
    stats->ms_decode += ms_since(decoding);
    stats->output_bytes += output_bytes;
    stats->ms_total += ms_since(started);
  }
  return out;
}

// options.row_groups, or every row group of the file.
inline std::vector<std::size_t> groups_to_read(parquet_metadata const& md, std::vector<std::size_t> groups, std::string const& path) {
  if (groups.empty()) {
    for (std::size_t g = 0; g < md.file.row_groups.size(); ++g) { groups.push_back(g); }
  }
  for (std::size_t g : groups) {
    COLX_EXPECTS_AS(out_of_range, g < md.file.row_groups.size(), path, ": row group ", g, " of a file of ",
                    md.file.row_groups.size());
  }
  return groups;
}

}  // namespace parquet::detail

// The file's columns (options.columns, else all) over its row groups (options.row_groups, else
// all) and the rows of those asked for (options.skip_rows, num_rows), in the memory of `mr`.
[[nodiscard]] inline any_table read_parquet(std::string const& path, parquet_read_options const& options = {}, stream_ref stream = {},
                                            resource_ref mr = get_current_resource()) {
  using namespace parquet::detail;
  file_source const file(path);
  parquet_metadata const md = read_parquet_metadata(file);
  std::vector<std::size_t> const leaves = select_leaves(md.columns, options.columns, path);
  row_window const w = select_rows(md.file, groups_to_read(md, options.row_groups, path), options.skip_rows, options.num_rows, path);
  if (options.stats != nullptr) { options.stats->file_bytes_read += 12 + static_cast<std::int64_t>(md.footer_bytes); }
  return slice_rows(read_groups(file, md, leaves, w.groups, options.stats, stream, mr), w.begin, w.end, stream, mr);
}

// Several files' columns, one file after another: each must hold the columns read (options.columns,
// else the first file's), of one type in all. The files are read one by one, then concatenated.
[[nodiscard]] inline any_table read_parquet(std::vector<std::string> const& paths, parquet_read_options options = {}, stream_ref stream = {},
                                            resource_ref mr = get_current_resource()) {
  COLX_EXPECTS(!paths.empty(), "read_parquet: no files given");
  if (paths.size() == 1) { return read_parquet(paths.front(), options, stream, mr); }
  COLX_EXPECTS(options.row_groups.empty() && options.skip_rows == 0 && options.num_rows < 0,
               "read_parquet: row groups and a row window count the rows of one file; over several files, read them one by one");
  std::vector<any_table> parts;
  parts.push_back(read_parquet(paths.front(), options, stream, mr));
  if (options.columns.empty()) {
    for (auto const& l : parts.front().labels()) { options.columns.push_back(l[0]); }
  }
  std::string problems;
  for (std::size_t f = 1; f < paths.size(); ++f) {
    parquet_metadata const md = read_parquet_metadata(paths[f]);
    for (std::size_t j = 0; j < options.columns.size(); ++j) {
      auto const it = std::find_if(md.columns.begin(), md.columns.end(), [&](auto const& c) { return c.name == options.columns[j]; });
      data_type const want = parts.front().column(j).type();
      if (it == md.columns.end()) {
        problems += "\n  " + paths[f] + ": no column \"" + options.columns[j] + "\"";
      } else if (it->unsupported.empty() && !(it->type == want)) {
        problems += "\n  " + paths[f] + ": column \"" + options.columns[j] + "\" is " + it->type.to_string() + ", in " + paths.front() +
                    " " + want.to_string();
      }
    }
  }
  COLX_EXPECTS_AS(schema_error, problems.empty(), "read_parquet: the files do not share the columns read:", problems);
  for (std::size_t f = 1; f < paths.size(); ++f) { parts.push_back(read_parquet(paths[f], options, stream, mr)); }
  any_table out;
  for (std::size_t j = 0; j < options.columns.size(); ++j) {
    std::vector<any_column_view> views;
    for (auto const& t : parts) { views.push_back(any_column_view(t.column(j))); }
    out.insert(parts.front().labels()[j], concatenate(views, stream, mr));
  }
  return out;
}

}  // namespace colx
