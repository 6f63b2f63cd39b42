// SPDX-License-Identifier: Apache-2.0
#pragma once
// any_table: an ordered mapping of labels to run-time typed columns of equal length, with
// cuDF's ColumnAccessor semantics. It is where untyped data arrives (Arrow, DLPack, files) and
// the untyped face of frame<Schema>: table.as<Schema>() checks and converts without copying,
// to_table(frame) goes back.
//
// A label has one part per level: "price", or ("sales", "2024") in a table of two levels, as
// cuDF's MultiIndex columns. Selections:
//   t["price"], t[{"sales", "2024"}]   one column by its full label
//   t.select({"sales"})                the columns under a label prefix, that prefix's levels removed
//   t.select({any_level, "2024"})       wildcard parts match anything; all levels kept
//   t.select_labels({...}), t.select_positions({...}), t.slice(first, last), t.slice_labels(a, b)
// Columns are shared, never copied: any_column copies are shallow (shared_buffer).
#include <colx/column/any_column.hpp>
#include <colx/core/error.hpp>
#include <colx/frame/frame.hpp>

#include <algorithm>
#include <initializer_list>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace colx {

// A column label: one string per level.
class label {
 public:
  label() = default;
  label(char const* name) : _parts{name} {}               // NOLINT: "price" is a label
  label(std::string name) : _parts{std::move(name)} {}    // NOLINT
  label(std::initializer_list<std::string> parts) : _parts(parts) {}
  explicit label(std::vector<std::string> parts) : _parts(std::move(parts)) {}

  [[nodiscard]] std::size_t levels() const noexcept { return _parts.size(); }
  [[nodiscard]] std::string const& operator[](std::size_t level) const { return _parts.at(level); }
  [[nodiscard]] std::vector<std::string> const& parts() const noexcept { return _parts; }
  // Without the first `n` levels.
  [[nodiscard]] label drop_levels(std::size_t n) const {
    return label(std::vector<std::string>(_parts.begin() + static_cast<std::ptrdiff_t>(std::min(n, _parts.size())), _parts.end()));
  }
  // "price" or ("sales", "2024").
  [[nodiscard]] std::string to_string() const {
    if (_parts.size() == 1) { return '"' + _parts[0] + '"'; }
    std::string s = "(";
    for (std::size_t i = 0; i < _parts.size(); ++i) { s += (i ? ", \"" : "\"") + _parts[i] + '"'; }
    return s + ")";
  }
  friend bool operator==(label const&, label const&) = default;

 private:
  std::vector<std::string> _parts;
};

// A selection key: a label whose parts may be any_level (matches every value at that level).
inline constexpr std::nullopt_t any_level = std::nullopt;
class label_key {
 public:
  label_key(char const* name) : _parts{std::string(name)} {}  // NOLINT
  label_key(std::string name) : _parts{std::move(name)} {}    // NOLINT
  label_key(label const& l) : _parts(l.parts().begin(), l.parts().end()) {}  // NOLINT
  label_key(std::initializer_list<std::optional<std::string>> parts) : _parts(parts) {}

  [[nodiscard]] std::size_t levels() const noexcept { return _parts.size(); }
  [[nodiscard]] bool has_wildcard() const noexcept {
    return std::any_of(_parts.begin(), _parts.end(), [](auto const& p) { return !p.has_value(); });
  }
  // Matches the first levels() levels of `l`.
  [[nodiscard]] bool matches_prefix(label const& l) const {
    if (_parts.size() > l.levels()) { return false; }
    for (std::size_t i = 0; i < _parts.size(); ++i) {
      if (_parts[i] && *_parts[i] != l[i]) { return false; }
    }
    return true;
  }
  [[nodiscard]] std::string to_string() const {
    std::string s = _parts.size() == 1 ? "" : "(";
    for (std::size_t i = 0; i < _parts.size(); ++i) {
      s += i ? ", " : "";
      s += _parts[i] ? '"' + *_parts[i] + '"' : std::string("any_level");
    }
    return _parts.size() == 1 ? s : s + ")";
  }

 private:
  std::vector<std::optional<std::string>> _parts;
};

class any_table {
 public:
  // An empty table with `levels` label levels (names optional, one per level).
  explicit any_table(std::size_t levels = 1, std::vector<std::string> level_names = {})
      : _levels(levels), _level_names(std::move(level_names)) {
    COLX_EXPECTS(levels >= 1, "a table needs at least one label level");
    COLX_EXPECTS(_level_names.empty() || _level_names.size() == levels, "a table of ", levels, " levels cannot have ",
                 _level_names.size(), " level names");
  }
  // Columns in order; the level count is the first label's.
  any_table(std::vector<std::pair<label, any_column>> columns, std::vector<std::string> level_names = {})
      : any_table(columns.empty() ? 1 : columns.front().first.levels(), std::move(level_names)) {
    for (auto& [l, c] : columns) { insert(std::move(l), std::move(c)); }
  }

  [[nodiscard]] size_type num_rows() const noexcept { return _columns.empty() ? 0 : _columns.front().size(); }
  [[nodiscard]] std::size_t num_columns() const noexcept { return _columns.size(); }
  [[nodiscard]] bool empty() const noexcept { return _columns.empty(); }
  [[nodiscard]] std::size_t levels() const noexcept { return _levels; }
  [[nodiscard]] std::vector<std::string> const& level_names() const noexcept { return _level_names; }
  [[nodiscard]] std::vector<label> const& labels() const noexcept { return _labels; }
  [[nodiscard]] std::vector<any_column> const& columns() const noexcept { return _columns; }

  [[nodiscard]] bool contains(label const& l) const { return find(l).has_value(); }
  // The position of a full label; throws out_of_range naming it.
  [[nodiscard]] std::size_t position(label const& l) const {
    auto const at = find(l);
    if (!at) { fail_missing(l); }
    return *at;
  }

  [[nodiscard]] any_column const& operator[](label const& l) const { return _columns[position(l)]; }
  [[nodiscard]] any_column const& column(std::size_t position) const {
    check_position(position);
    return _columns[position];
  }
  // Writable access, for writes through the column (copy-on-write applies to its buffers).
  [[nodiscard]] any_column& mutable_column(label const& l) { return _columns[position(l)]; }

  // ---- selection (every result shares the columns) ----------------------------------------

  // Columns under a key. A full label without wildcards selects that column; a shorter key
  // without wildcards selects the group under that prefix and removes the prefix's levels; a key
  // with wildcards keeps every level. Throws out_of_range when nothing matches.
  [[nodiscard]] any_table select(label_key const& key) const {
    COLX_EXPECTS(key.levels() >= 1 && key.levels() <= _levels, "key ", key.to_string(), " has ", key.levels(),
                 " levels; this table's labels have ", _levels);
    bool const grouped = !key.has_wildcard() && key.levels() < _levels;
    std::size_t const removed = grouped ? key.levels() : 0;
    any_table out(_levels - removed, drop_front(_level_names, removed));
    for (std::size_t i = 0; i < _columns.size(); ++i) {
      if (key.matches_prefix(_labels[i])) { out.push(_labels[i].drop_levels(removed), _columns[i]); }
    }
    COLX_EXPECTS_AS(out_of_range, !out.empty(), "no column matches ", key.to_string(), "; the labels are ", labels_text());
    return out;
  }
  // The columns of each label, in the order given (repeats allowed).
  [[nodiscard]] any_table select_labels(std::vector<label> const& wanted) const {
    any_table out(_levels, _level_names);
    for (auto const& l : wanted) { out.push(l, _columns[position(l)]); }
    return out;
  }
  [[nodiscard]] any_table select_positions(std::vector<std::size_t> const& positions) const {
    any_table out(_levels, _level_names);
    for (auto p : positions) {
      check_position(p);
      out.push(_labels[p], _columns[p]);
    }
    return out;
  }
  // Columns at positions [first, last), as a slice of a list.
  [[nodiscard]] any_table slice(std::size_t first, std::size_t last) const {
    COLX_EXPECTS_AS(out_of_range, first <= last && last <= _columns.size(), "column positions [", first, ", ", last,
                    ") are outside a table of ", _columns.size(), " columns");
    any_table out(_levels, _level_names);
    for (std::size_t p = first; p < last; ++p) { out.push(_labels[p], _columns[p]); }
    return out;
  }
  // Columns from label `first` through label `last`, both included (as pandas' loc).
  [[nodiscard]] any_table slice_labels(label const& first, label const& last) const {
    std::size_t const a = position(first);
    std::size_t const b = position(last);
    COLX_EXPECTS_AS(out_of_range, a <= b, "label ", first.to_string(), " (position ", a, ") comes after ",
                    last.to_string(), " (position ", b, ")");
    return slice(a, b + 1);
  }

  // ---- changes ----------------------------------------------------------------------------

  // At `position` (default: the end). The label must be new and have this table's level count;
  // the column must have the table's length.
  void insert(label l, any_column c, std::optional<std::size_t> position = std::nullopt) {
    COLX_EXPECTS(l.levels() == _levels, "label ", l.to_string(), " has ", l.levels(), " levels; this table's labels have ",
                 _levels);
    COLX_EXPECTS(!contains(l), "the table already has a column labelled ", l.to_string());
    COLX_EXPECTS(_columns.empty() || c.size() == num_rows(), "column ", l.to_string(), " has ", c.size(),
                 " rows; the table has ", num_rows());
    std::size_t const at = position.value_or(_columns.size());
    COLX_EXPECTS_AS(out_of_range, at <= _columns.size(), "cannot insert at position ", at, " of a table of ",
                    _columns.size(), " columns");
    _labels.insert(_labels.begin() + static_cast<std::ptrdiff_t>(at), std::move(l));
    _columns.insert(_columns.begin() + static_cast<std::ptrdiff_t>(at), std::move(c));
  }
  void rename(label const& from, label to) {
    std::size_t const at = position(from);
    COLX_EXPECTS(to.levels() == _levels, "label ", to.to_string(), " has ", to.levels(), " levels; this table's labels have ",
                 _levels);
    COLX_EXPECTS(to == from || !contains(to), "the table already has a column labelled ", to.to_string());
    _labels[at] = std::move(to);
  }
  // Drops every column the key selects (as select); returns how many.
  std::size_t drop(label_key const& key) {
    std::size_t dropped = 0;
    for (std::size_t i = _columns.size(); i-- > 0;) {
      if (key.matches_prefix(_labels[i])) {
        _labels.erase(_labels.begin() + static_cast<std::ptrdiff_t>(i));
        _columns.erase(_columns.begin() + static_cast<std::ptrdiff_t>(i));
        ++dropped;
      }
    }
    COLX_EXPECTS_AS(out_of_range, dropped > 0, "no column matches ", key.to_string(), "; the labels are ", labels_text());
    return dropped;
  }
  // Removes and returns one column.
  any_column pop(label const& l) {
    std::size_t const at = position(l);
    any_column out = std::move(_columns[at]);
    _labels.erase(_labels.begin() + static_cast<std::ptrdiff_t>(at));
    _columns.erase(_columns.begin() + static_cast<std::ptrdiff_t>(at));
    return out;
  }

  // ---- typed faces ------------------------------------------------------------------------

  // The frame of Schema over these columns, sharing them (no copy). Every field must be a column
  // of this one-level table with the field's element type, and a not_null field's column must
  // have no nulls; schema_error lists every field that is not so. Other columns are left out.
  template <class Schema>
  [[nodiscard]] frame<Schema> as() const {
    return as_impl(static_cast<Schema const*>(nullptr));
  }

  // "price", "qty", ... for messages.
  [[nodiscard]] std::string labels_text() const {
    if (_labels.empty()) { return "(none)"; }
    std::string s;
    for (std::size_t i = 0; i < _labels.size(); ++i) { s += (i ? ", " : "") + _labels[i].to_string(); }
    return s;
  }

 private:
  void push(label l, any_column const& c) {
    _labels.push_back(std::move(l));
    _columns.push_back(c);
  }
  [[nodiscard]] std::optional<std::size_t> find(label const& l) const {
    auto const it = std::find(_labels.begin(), _labels.end(), l);
    if (it == _labels.end()) { return std::nullopt; }
    return static_cast<std::size_t>(it - _labels.begin());
  }
  [[noreturn]] void fail_missing(label const& l) const {
    COLX_FAIL_AS(out_of_range, "no column is labelled ", l.to_string(), "; the labels are ", labels_text());
  }
  void check_position(std::size_t p) const {
    COLX_EXPECTS_AS(out_of_range, p < _columns.size(), "column position ", p, " is outside a table of ",
                    _columns.size(), " columns");
  }
  template <class... Fields>
  frame<schema<Fields...>> as_impl(schema<Fields...> const*) const {
    COLX_EXPECTS_AS(schema_error, _levels == 1, "a table whose labels have ", _levels,
                    " levels cannot become a frame; select one group of columns first");
    std::string problems;
    auto const check = [&]<class Field>(Field const*) {
      std::string_view const name = Field::name.view();
      auto const at = find(label(std::string(name)));
      if (!at) {
        problems += "\n  field \"" + std::string(name) + "\" is missing";
        return;
      }
      any_column const& c = _columns[*at];
      using T = typename Field::type;
      // A dec<P, S> field's scale is part of its type: a column of another scale holds other values.
      bool matches = dec_type<T> ? c.type() == data_type_of<T>() : c.type().id() == type_to_id<T>;
      std::string wanted = dec_type<T> ? data_type_of<T>().to_string() : colx::to_string(type_to_id<T>);
      if constexpr (dictionary_type<T>) {  // the codes' type and the values' type both
        wanted = data_type_of<T>().to_string() + " of " + colx::to_string(type_to_id<typename T::value_type>);
        matches = c.type() == data_type_of<T>() && c.children().front().type().id() == type_to_id<typename T::value_type>;
      }
      if (!matches) {
        std::string const found = c.type().id() == type_id::dictionary
                                      ? c.type().to_string() + " of " + c.children().front().type().to_string()
                                      : c.type().to_string();
        problems += "\n  field \"" + std::string(name) + "\" is " + found + ", the schema wants " + wanted;
      } else if (!Field::is_nullable && c.null_count() != 0) {
        problems += "\n  field \"" + std::string(name) + "\" is not_null but its column has " +
                    std::to_string(c.null_count()) + " nulls";
      }
    };
    (check(static_cast<Fields const*>(nullptr)), ...);
    COLX_EXPECTS_AS(schema_error, problems.empty(), "the table (", labels_text(), ") does not match the schema:", problems);
    return frame<schema<Fields...>>(shared_column<typename Fields::type>(Fields::name.view())...);
  }
  template <class T>
  std::shared_ptr<column_storage_t<T> const> shared_column(std::string_view name) const {
    return std::make_shared<column_storage_t<T> const>(any_column((*this)[label(std::string(name))]));
  }

  static std::vector<std::string> drop_front(std::vector<std::string> const& names, std::size_t n) {
    if (names.empty()) { return {}; }
    return {names.begin() + static_cast<std::ptrdiff_t>(n), names.end()};
  }

  std::size_t _levels = 1;
  std::vector<std::string> _level_names;
  std::vector<label> _labels;
  std::vector<any_column> _columns;
};

}  // namespace colx

namespace colx {

// The untyped face of a frame: its columns, shared (no copy), labelled by field name.
template <class... Fields>
[[nodiscard]] any_table to_table(frame<schema<Fields...>> const& f) {
  any_table out;
  [&]<std::size_t... I>(std::index_sequence<I...>) {
    (out.insert(label(std::string(Fields::name.view())), f.template column_at<I>().untyped()), ...);
  }(std::index_sequence_for<Fields...>{});
  return out;
}

}  // namespace colx
