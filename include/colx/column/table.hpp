// SPDX-License-Identifier: Apache-2.0
#pragma once
// Tables: ordered sets of equal-length columns. table owns its columns; table_view looks at
// columns owned elsewhere. Labels and typed schemas live a layer up (frames); this is positions.
#include <colx/column/any_column.hpp>

#include <utility>
#include <vector>

namespace colx {

class table_view {
 public:
  table_view() = default;
  explicit table_view(std::vector<any_column_view> columns) : _columns(std::move(columns)) {
    for (std::size_t i = 1; i < _columns.size(); ++i) {
      COLX_EXPECTS(_columns[i].size() == _columns[0].size(), "table columns must have equal lengths: column 0 has ",
                   _columns[0].size(), " rows, column ", i, " has ", _columns[i].size());
    }
  }

  [[nodiscard]] size_type num_rows() const noexcept { return _columns.empty() ? 0 : _columns.front().size(); }
  [[nodiscard]] std::size_t num_columns() const noexcept { return _columns.size(); }
  [[nodiscard]] any_column_view const& column(std::size_t i) const {
    COLX_EXPECTS_AS(out_of_range, i < _columns.size(), "column ", i, " of a table with ", _columns.size(), " columns");
    return _columns[i];
  }
  [[nodiscard]] auto begin() const noexcept { return _columns.begin(); }
  [[nodiscard]] auto end() const noexcept { return _columns.end(); }

  // The columns at `indices`, in that order (repeats allowed).
  [[nodiscard]] table_view select(std::vector<std::size_t> const& indices) const {
    std::vector<any_column_view> out;
    out.reserve(indices.size());
    for (auto i : indices) { out.push_back(column(i)); }
    return table_view(std::move(out));
  }

  // Rows [begin, end) of every column, zero-copy.
  [[nodiscard]] table_view slice(size_type begin, size_type end, stream_ref stream = {}) const {
    std::vector<any_column_view> out;
    out.reserve(_columns.size());
    for (auto const& c : _columns) { out.push_back(c.slice(begin, end, stream)); }
    return table_view(std::move(out));
  }

 private:
  std::vector<any_column_view> _columns;
};

class table {
 public:
  table() = default;
  explicit table(std::vector<any_column> columns) : _columns(std::move(columns)) {
    for (std::size_t i = 1; i < _columns.size(); ++i) {
      COLX_EXPECTS(_columns[i].size() == _columns[0].size(), "table columns must have equal lengths: column 0 has ",
                   _columns[0].size(), " rows, column ", i, " has ", _columns[i].size());
    }
  }

  [[nodiscard]] size_type num_rows() const noexcept { return _columns.empty() ? 0 : _columns.front().size(); }
  [[nodiscard]] std::size_t num_columns() const noexcept { return _columns.size(); }
  [[nodiscard]] any_column const& column(std::size_t i) const {
    COLX_EXPECTS_AS(out_of_range, i < _columns.size(), "column ", i, " of a table with ", _columns.size(), " columns");
    return _columns[i];
  }
  [[nodiscard]] table_view view() const {
    std::vector<any_column_view> views;
    views.reserve(_columns.size());
    for (auto const& c : _columns) { views.push_back(c.view()); }
    return table_view(std::move(views));
  }
  operator table_view() const { return view(); }  // NOLINT

  [[nodiscard]] std::vector<any_column> release() && noexcept { return std::move(_columns); }

 private:
  std::vector<any_column> _columns;
};

}  // namespace colx
