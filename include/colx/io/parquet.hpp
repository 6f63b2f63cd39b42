// SPDX-License-Identifier: Apache-2.0
#pragma once
// Parquet files in: the typed door, read_parquet<Schema>(path) -> frame<Schema>, and the runtime
// one, read_parquet(path) -> any_table (io/parquet/reader.hpp).
//
// The typed reader checks the file against the schema before reading anything: one schema_error
// lists every field that is missing, of another type (a decimal's scale included) or of a type
// colx cannot read. It reads only the schema's columns. A field declared as a dictionary
// (dictionary<string_view, std::int8_t>, ...) over a column of its value type is dictionary-
// encoded as it is read, so low-cardinality strings arrive as codes.
#include <colx/frame/pipeline.hpp>
#include <colx/io/parquet/reader.hpp>
#include <colx/io/parquet/row_group_filter.hpp>
#include <colx/io/parquet/scan_plan.hpp>
#include <colx/io/parquet/writer.hpp>
#include <colx/io/typed_read.hpp>
#include <colx/table/any_table.hpp>
#include <colx/types/schema.hpp>

#include <string>
#include <utility>

namespace colx {
namespace parquet::detail {

// What is wrong with reading leaf `columns` into Field, or nothing.
template <class Field>
std::string field_problem(std::vector<leaf_column> const& columns) {
  using T = typename Field::type;
  std::string const name(Field::name.view());
  auto const it = std::find_if(columns.begin(), columns.end(), [&](leaf_column const& c) { return c.name == name; });
  if (it == columns.end()) { return "\n  field \"" + name + "\" is not a column of the file"; }
  if (!it->unsupported.empty()) { return "\n  field \"" + name + "\": " + it->unsupported; }
  data_type const wanted = io::detail::read_type<Field>();
  if (it->type == wanted) { return {}; }  // (a decimal's scale included)
  return "\n  field \"" + name + "\" is " + it->type.to_string() + " in the file, the schema wants " +
         (dictionary_type<T> ? "a dictionary of " : "") + wanted.to_string();
}

// Every problem of reading Schema's fields from the file, one schema_error; the fields' names.
template <class Schema>
std::vector<std::string> check_schema(parquet_metadata const& md, std::string const& path) {
  return [&]<class... Fields>(schema<Fields...> const*) {
    std::string const problems = (field_problem<Fields>(md.columns) + ...);
    COLX_EXPECTS_AS(schema_error, problems.empty(), path, " does not match the schema:", problems);
    return std::vector<std::string>{std::string(Fields::name.view())...};
  }(static_cast<Schema const*>(nullptr));
}

using io::detail::to_frame;

// The row groups of `options` (all when none are named) that `where` may pass, by statistics.
template <class Predicate>
parquet_scan_plan plan_filtered_scan(std::string const& path, parquet_metadata const& md, std::vector<std::string> columns,
                                     Predicate const& where, parquet_read_options const& options) {
  std::vector<std::size_t> const leaves = select_leaves(md.columns, columns, path);
  return plan_scan(path, md.file, md.footer_bytes, std::move(columns), leaves, groups_to_read(md, options.row_groups, path),
                   [&](std::size_t g) { return may_pass(where, group_statistics{md.file.row_groups[g], md.columns}); });
}

}  // namespace parquet::detail

// The columns of Schema from a Parquet file, checked against the file's schema first.
// options.columns is ignored: the schema says which columns to read.
template <class Schema>
[[nodiscard]] frame<Schema> read_parquet(std::string const& path, parquet_read_options options = {}, stream_ref stream = {},
                                         resource_ref mr = get_current_resource()) {
  options.columns = parquet::detail::check_schema<Schema>(read_parquet_metadata(path), path);
  return parquet::detail::to_frame<Schema>(read_parquet(path, options, stream, mr), stream);
}

// Schema's columns from several files, one after another (each checked against the schema first;
// one schema_error lists every file's problems), a dictionary field encoded over all of them.
template <class Schema>
[[nodiscard]] frame<Schema> read_parquet(std::vector<std::string> const& paths, parquet_read_options options = {}, stream_ref stream = {},
                                         resource_ref mr = get_current_resource()) {
  std::string problems;
  for (auto const& p : paths) {
    try {
      options.columns = parquet::detail::check_schema<Schema>(read_parquet_metadata(p), p);
    } catch (schema_error const& e) {
      problems += std::string("\n") + e.what();
    }
  }
  COLX_EXPECTS_AS(schema_error, problems.empty(), "read_parquet: files that do not match the schema:", problems);
  return parquet::detail::to_frame<Schema>(read_parquet(paths, options, stream, mr), stream);
}

// The rows of Schema's columns that pass `where` (a colx expression over the schema's fields):
// row groups whose statistics prove that no row passes are not read at all (options.stats counts
// them), and the rows of the others are filtered by the next stage, fused into it as any filter
// is: `read_parquet<S>(path, where) | group_by(...) | aggregate(...)` is one pass over what was
// read; `.collect()` makes a frame of the passing rows. options.row_groups, if given, is the set
// the skipping starts from. A row window (skip_rows, num_rows) is refused here: it would count
// rows of groups the predicate decides about.
template <class Schema, class Predicate>
  requires expr::expression<Predicate>
[[nodiscard]] auto read_parquet(std::string const& path, Predicate const& where, parquet_read_options options = {},
                                stream_ref stream = {}, resource_ref mr = get_current_resource()) {
  COLX_EXPECTS(options.skip_rows == 0 && options.num_rows < 0, path,
               ": a read with a predicate takes no row window (skip_rows, num_rows); filter, then take head(n)");
  parquet_metadata const md = read_parquet_metadata(path);
  parquet_scan_plan const plan = parquet::detail::plan_filtered_scan(path, md, parquet::detail::check_schema<Schema>(md, path), where, options);
  if (options.stats != nullptr) { options.stats->row_groups_skipped += static_cast<std::int64_t>(plan.row_groups_skipped.size()); }
  if (plan.row_groups_read.empty()) {  // (no groups means every group to the reader: one is read, and cut to none)
    options.num_rows = 0;
    if (!options.row_groups.empty()) { options.row_groups.resize(1); }
    return read_parquet<Schema>(path, options, stream, mr) | filter(where);
  }
  options.row_groups = plan.row_groups_read;
  return read_parquet<Schema>(path, options, stream, mr) | filter(where);
}

// f as a Parquet file at `path`: a not_null field's column REQUIRED, the others OPTIONAL.
template <class Schema>
void write_parquet(frame<Schema> const& f, std::string const& path, parquet_write_options const& options = {}, stream_ref stream = {}) {
  std::vector<bool> const optional = []<class... Fields>(schema<Fields...> const*) {
    return std::vector<bool>{Fields::is_nullable...};
  }(static_cast<Schema const*>(nullptr));
  parquet::detail::write_table(to_table(f), path, options, stream, optional);
}

// What read_parquet(path, options) will read, from the footer: row groups, rows and file bytes.
[[nodiscard]] inline parquet_scan_plan explain_read_parquet(std::string const& path, parquet_read_options const& options = {}) {
  using namespace parquet::detail;
  parquet_metadata const md = read_parquet_metadata(path);
  std::vector<std::size_t> const leaves = select_leaves(md.columns, options.columns, path);
  std::vector<std::string> names;
  for (std::size_t j : leaves) { names.push_back(md.columns[j].name); }
  return plan_scan(path, md.file, md.footer_bytes, std::move(names), leaves, groups_to_read(md, options.row_groups, path),
                   [](std::size_t) { return true; });
}

// What read_parquet<Schema>(path, where, options) will read: the row groups the predicate's
// statistics rule out, and the bytes read without them.
template <class Schema, class Predicate>
  requires expr::expression<Predicate>
[[nodiscard]] parquet_scan_plan explain_read_parquet(std::string const& path, Predicate const& where, parquet_read_options const& options = {}) {
  parquet_metadata const md = read_parquet_metadata(path);
  return parquet::detail::plan_filtered_scan(path, md, parquet::detail::check_schema<Schema>(md, path), where, options);
}

}  // namespace colx
