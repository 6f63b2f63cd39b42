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
#include <colx/frame/dictionary_encode.hpp>
#include <colx/frame/pipeline.hpp>
#include <colx/io/parquet/reader.hpp>
#include <colx/io/parquet/row_group_filter.hpp>
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
  data_type wanted;
  if constexpr (dictionary_type<T>) {
    wanted = data_type_of<typename T::value_type>();
  } else {
    wanted = data_type_of<T>();
  }
  if (it->type == wanted) { return {}; }  // (a decimal's scale included)
  return "\n  field \"" + name + "\" is " + it->type.to_string() + " in the file, the schema wants " +
         (dictionary_type<T> ? "a dictionary of " : "") + wanted.to_string();
}

// Replaces a dictionary field's column by its dictionary encoding.
template <class Field>
void encode_if_dictionary(any_table& t, stream_ref stream) {
  using T = typename Field::type;
  if constexpr (dictionary_type<T>) {
    label const l(std::string(Field::name.view()));
    column_storage_t<typename T::value_type> const values{any_column(t[l])};
    t.mutable_column(l) = encode<typename T::code_type>(values, stream).untyped();
  }
}

}  // namespace parquet::detail

// The columns of Schema from a Parquet file, checked against the file's schema first.
// options.columns is ignored: the schema says which columns to read.
template <class Schema>
[[nodiscard]] frame<Schema> read_parquet(std::string const& path, parquet_read_options options = {}, stream_ref stream = {},
                                         resource_ref mr = get_current_resource()) {
  parquet_metadata const md = read_parquet_metadata(path);
  return [&]<class... Fields>(schema<Fields...> const*) {
    std::string const problems = (parquet::detail::field_problem<Fields>(md.columns) + ...);
    COLX_EXPECTS_AS(schema_error, problems.empty(), path, " does not match the schema:", problems);
    options.columns = {std::string(Fields::name.view())...};
    any_table t = read_parquet(path, options, stream, mr);
    (parquet::detail::encode_if_dictionary<Fields>(t, stream), ...);
    return t.template as<Schema>();
  }(static_cast<Schema const*>(nullptr));
}

// The rows of Schema's columns that pass `where` (a colx expression over the schema's fields):
// row groups whose statistics prove that no row passes are not read at all (options.stats counts
// them), and the rows of the others are filtered by the next stage, fused into it as any filter
// is: `read_parquet<S>(path, where) | group_by(...) | aggregate(...)` is one pass over what was
// read; `.collect()` makes a frame of the passing rows. options.row_groups, if given, is the set
// the skipping starts from.
template <class Schema, class Predicate>
  requires expr::expression<Predicate>
[[nodiscard]] auto read_parquet(std::string const& path, Predicate const& where, parquet_read_options options = {},
                                         stream_ref stream = {}, resource_ref mr = get_current_resource()) {
  parquet_metadata const md = read_parquet_metadata(path);
  std::vector<std::size_t> candidates = options.row_groups;
  if (candidates.empty()) {
    for (std::size_t g = 0; g < md.file.row_groups.size(); ++g) { candidates.push_back(g); }
  }
  std::vector<std::size_t> kept;
  for (std::size_t g : candidates) {
    COLX_EXPECTS_AS(out_of_range, g < md.file.row_groups.size(), path, ": row group ", g, " of a file of ", md.file.row_groups.size());
    if (parquet::may_pass(where, parquet::detail::group_statistics{md.file.row_groups[g], md.columns})) { kept.push_back(g); }
  }
  if (options.stats != nullptr) { options.stats->row_groups_skipped += static_cast<std::int64_t>(candidates.size() - kept.size()); }
  if (kept.empty()) {  // (the reader takes no groups as every group: one is read, and cut to none)
    options.row_groups = candidates.empty() ? std::vector<std::size_t>{} : std::vector<std::size_t>{candidates.front()};
    return read_parquet<Schema>(path, options, stream, mr).head(0, stream) | filter(where);
  }
  options.row_groups = std::move(kept);
  return read_parquet<Schema>(path, options, stream, mr) | filter(where);
}

}  // namespace colx
