// SPDX-License-Identifier: Apache-2.0
#pragma once
// frame<Schema>: equal-length columns with compile-time names and types. Columns are immutable
// and shared, so a frame is cheap to copy and a derived frame (with_columns) reuses its inputs'
// columns without copying them.
#include <colx/column/column_storage.hpp>
#include <colx/column/copying.hpp>
#include <colx/core/tuple.hpp>
#include <colx/expr/expression.hpp>
#include <colx/types/schema.hpp>

#include <algorithm>
#include <memory>
#include <tuple>
#include <utility>

namespace colx {

template <class Schema>
class frame;

// The row labels every frame has unless an index is set (frame/index.hpp): start, start + step,
// ... Never materialised: a slice, head or tail keeps its rows' labels by moving the start;
// other operations number their result from 0.
struct range_index {
  size_type start = 0;
  size_type step = 1;
  [[nodiscard]] constexpr size_type label(size_type row) const noexcept { return start + row * step; }
  friend constexpr bool operator==(range_index, range_index) = default;
};

template <class... Fields>
class frame<schema<Fields...>> {
 public:
  using schema_type = schema<Fields...>;
  using inputs_type = tuple<input_view_t<typename Fields::type>...>;

  // Takes the columns in schema order; checks lengths, memory and not_null fields.
  explicit frame(column_storage_t<typename Fields::type>... columns)
      : _columns(std::make_shared<column_storage_t<typename Fields::type> const>(std::move(columns))...) {
    check();
  }
  // From shared columns (what with_columns builds).
  explicit frame(std::shared_ptr<column_storage_t<typename Fields::type> const>... columns)
      : _columns(std::move(columns)...) {
    check();
  }

  [[nodiscard]] size_type num_rows() const noexcept { return std::get<0>(_columns)->size(); }
  // The number of rows, as len(df) in pandas and size() of a column.
  [[nodiscard]] size_type size() const noexcept { return num_rows(); }
  [[nodiscard]] range_index index() const noexcept { return _index; }
  // The same columns (shared) under other row labels.
  [[nodiscard]] frame with_index(range_index index) const {
    frame out = *this;
    out._index = index;
    return out;
  }
  [[nodiscard]] static constexpr std::size_t num_columns() noexcept { return sizeof...(Fields); }
  [[nodiscard]] memory_kind kind() const noexcept { return std::get<0>(_columns)->kind(); }

  // The column a reference names: f["price"_c]. A misspelt name does not compile.
  template <expr::column_ref C>
  [[nodiscard]] auto const& operator[](C) const {
    using checked = typename field_of<schema_type, C>::type;  // a readable error for a misspelt name
    static_assert(sizeof(checked) > 0);
    return *std::get<schema_type::template index_of<C>>(_columns);
  }
  template <std::size_t I>
  [[nodiscard]] auto const& column_at() const {
    return *std::get<I>(_columns);
  }
  template <std::size_t I>
  [[nodiscard]] auto const& shared_column_at() const {
    return std::get<I>(_columns);
  }

  // Rows [begin, end) as a new frame (a copy: frames own whole columns); the rows keep their
  // labels. Also colx::slice(f, begin, end) in frame/gather.hpp.
  [[nodiscard]] frame slice(size_type begin, size_type end, stream_ref stream = {}, output_resource where = {}) const {
    resource_ref const mr = where.for_input(kind());
    COLX_EXPECTS_AS(out_of_range, 0 <= begin && begin <= end && end <= num_rows(), "slice [", begin, ", ", end,
                    ") is outside a frame of ", num_rows(), " rows");
    auto const copy_of = [&](auto const& c) {
      any_column_view const v = *c;
      return std::remove_cvref_t<decltype(*c)>(copy(v.slice(begin, end, stream), stream, mr));
    };
    frame out = std::apply([&](auto const&... c) { return frame(copy_of(c)...); }, _columns);
    return out.with_index(range_index{_index.label(begin), _index.step});
  }
  // The first (last) n rows, or all of them when there are fewer, as pandas' df.head(n) and
  // df.tail(n). Also colx::head(f, n) and the pipeline stage f | colx::head(n).
  [[nodiscard]] frame head(size_type n = 5, stream_ref stream = {}, output_resource mr = {}) const {
    COLX_EXPECTS(n >= 0, "head: n must not be negative, got ", n);
    return slice(0, std::min(n, num_rows()), stream, mr);
  }
  [[nodiscard]] frame tail(size_type n = 5, stream_ref stream = {}, output_resource mr = {}) const {
    COLX_EXPECTS(n >= 0, "tail: n must not be negative, got ", n);
    return slice(num_rows() - std::min(n, num_rows()), num_rows(), stream, mr);
  }

  // What fused kernels read: one view per field, in schema order, names left behind.
  [[nodiscard]] inputs_type inputs() const {
    return std::apply([](auto const&... c) { return inputs_type(colx::input_of(*c)...); }, _columns);
  }

 private:
  static_assert(sizeof...(Fields) > 0, "colx::frame needs at least one field");

  void check() const {
    size_type const rows = num_rows();
    memory_kind const where = kind();
    auto const check_one = [&](auto const& c, std::string_view name, bool nullable_field) {
      COLX_EXPECTS(c != nullptr, "frame column \"", name, "\" is missing");
      COLX_EXPECTS(c->size() == rows, "frame columns must have equal lengths: \"", name, "\" has ", c->size(),
                   " rows, the first column ", rows);
      COLX_EXPECTS(c->empty() || is_host_accessible(c->kind()) == is_host_accessible(where), "frame column \"", name,
                   "\" lives in ", to_string(c->kind()), " memory, the first column in ", to_string(where));
      COLX_EXPECTS_AS(schema_error, nullable_field || c->null_count() == 0, "field \"", name, "\" is not_null but its column has ",
                      c->null_count(), " nulls");
    };
    std::apply([&](auto const&... c) { (check_one(c, Fields::name.view(), Fields::is_nullable), ...); }, _columns);
  }

  std::tuple<std::shared_ptr<column_storage_t<typename Fields::type> const>...> _columns;
  range_index _index{};
};

}  // namespace colx
