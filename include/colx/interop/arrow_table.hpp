// SPDX-License-Identifier: Apache-2.0
// any_table and Arrow struct arrays: labels are the struct's field names. Tables with labels of
// one level only: Arrow's struct fields have one name each.
#pragma once
#include <colx/interop/arrow_export.hpp>
#include <colx/interop/arrow_import.hpp>
#include <colx/table/any_table.hpp>

namespace colx {

// The columns of an imported struct array, labelled by field name (no copy).
[[nodiscard]] inline any_table to_any_table(arrow_table imported) {
  any_table out;
  auto columns = std::move(imported.columns).release();
  for (std::size_t i = 0; i < columns.size(); ++i) { out.insert(label(imported.names.at(i)), std::move(columns[i])); }
  return out;
}

[[nodiscard]] inline any_table import_arrow_any_table(ArrowSchema const* schema, ArrowArray* array, stream_ref stream = {}) {
  return to_any_table(import_arrow_table(schema, array, stream));
}

// A struct array of the table's columns, its labels as field names (shares the columns' memory,
// exposed as interop requires).
inline void export_arrow(any_table const& t, ArrowSchema* schema, ArrowArray* array, stream_ref stream = {}) {
  COLX_EXPECTS(t.levels() == 1, "a table whose labels have ", t.levels(),
               " levels cannot become an Arrow struct array; select one group of columns first");
  std::vector<std::string> names;
  for (auto const& l : t.labels()) { names.push_back(l[0]); }
  export_arrow(table(t.columns()), names, schema, array, stream);
}

}  // namespace colx
