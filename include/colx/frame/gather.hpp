// SPDX-License-Identifier: Apache-2.0
#pragma once
// Moving whole rows: take (gather by an index column), head, tail, slice and concat of frames,
// and the row-writing machinery that sort, group-by and join share. Every column of a frame is
// written by one kernel; strings go through output_column<string_view>'s lengths-then-chars
// staging.
#include <colx/column/copying.hpp>
#include <colx/frame/frame.hpp>
#include <colx/frame/output_column.hpp>
#include <colx/frame/stage.hpp>

#include <array>
#include <span>
#include <tuple>
#include <vector>

namespace colx {
namespace detail {

// Loads row i of every view of `in` into positions [Offset, Offset + size) of a row item.
template <std::size_t Offset, class Inputs, class Item>
COLX_HOST_DEVICE void load_into(Item& item, Inputs const& in, size_type i) {
  [&]<std::size_t... C>(std::index_sequence<C...>) {
    ((get<Offset + C>(item.values) = stored_value(get<C>(in), i),
      item.valid.set(Offset + C, get<C>(in).is_valid(i))),
     ...);
  }(std::make_index_sequence<Inputs::size>{});
}

template <class Schema>
struct row_item_of;
template <class... Fields>
struct row_item_of<schema<Fields...>> {
  using type = row_item<stored_t<typename Fields::type>...>;
};
template <class Schema>
using row_item_t = typename row_item_of<Schema>::type;

// Output row k is input row index(k); a negative index gives a row of nulls.
template <class Inputs, class Item, class Index, class Store>
struct gather_rows_fn {
  Inputs in;
  Index index;
  Store store;
  COLX_HOST_DEVICE void operator()(size_type k) const {
    Item item{};
    size_type const i = index(k);
    if (i >= 0) { load_into<0>(item, in, i); }
    store(k, item);
  }
};

// Index functors.
template <class I>
struct index_column_fn {
  I const* indices;
  COLX_HOST_DEVICE size_type operator()(size_type k) const { return static_cast<size_type>(indices[k]); }
};
struct offset_index_fn {
  size_type begin;
  COLX_HOST_DEVICE size_type operator()(size_type k) const { return begin + k; }
};

// Allocates one output column per field of Schema (`rows` rows at most; a mask where `masked`
// says; the layout of the column `likes` names, where it names one), lets run(views) write them and
// return how many rows it wrote, and trims them into a frame. Views are a colx::tuple of what
// store_row_fn writes to.
template <class Schema, std::size_t C>
using output_column_at = output_column<typename Schema::template field_at<C>::type>;

template <class Schema, std::size_t C>
output_column_at<Schema, C> make_output_column(size_type rows, bool masked, data_type type, any_column const* like,
                                               stream_ref stream, resource_ref mr) {
  return output_column_at<Schema, C>(rows, masked && Schema::template field_at<C>::is_nullable, type, like, stream, mr);
}

// The column each output column copies rows of, where there is one (null elsewhere).
template <std::size_t N>
using column_likes = std::array<any_column const*, N>;

// `known_nulls`, where given, is every output column's null count (see finish_outputs).
template <class Schema, class Run>
frame<Schema> write_frame(size_type rows, std::array<bool, Schema::size> const& masked,
                          std::array<data_type, Schema::size> const& types, column_likes<Schema::size> const& likes,
                          stream_ref stream, resource_ref mr, Run&& run,
                          std::array<size_type, Schema::size> const* known_nulls = nullptr) {
  return [&]<std::size_t... C>(std::index_sequence<C...>) {
    std::tuple<output_column_at<Schema, C>...> outputs(
        make_output_column<Schema, C>(rows, masked[C], types[C], likes[C], stream, mr)...);
    size_type const written = run(tuple(std::get<C>(outputs).view(stream)...));
    return std::make_from_tuple<frame<Schema>>(finish_outputs(outputs, written, mr.kind(), stream, known_nulls));
  }(std::make_index_sequence<Schema::size>{});
}
template <class Schema, class Run>
frame<Schema> write_frame(size_type rows, std::array<bool, Schema::size> const& masked,
                          std::array<data_type, Schema::size> const& types, stream_ref stream, resource_ref mr, Run&& run) {
  return write_frame<Schema>(rows, masked, types, column_likes<Schema::size>{}, stream, mr, std::forward<Run>(run));
}

// The data types, columns and "has a mask" flags of a frame's columns.
template <class Frame>
std::array<data_type, Frame::schema_type::size> column_types(Frame const& f) {
  return [&]<std::size_t... C>(std::index_sequence<C...>) {
    return std::array<data_type, Frame::schema_type::size>{type_of(f.template column_at<C>())...};
  }(std::make_index_sequence<Frame::schema_type::size>{});
}
template <class Frame>
column_likes<Frame::schema_type::size> columns_of(Frame const& f) {
  return [&]<std::size_t... C>(std::index_sequence<C...>) {
    return column_likes<Frame::schema_type::size>{&f.template column_at<C>().untyped()...};
  }(std::make_index_sequence<Frame::schema_type::size>{});
}
template <class Frame>
std::array<bool, Frame::schema_type::size> column_masks(Frame const& f, bool rows_may_be_missing = false) {
  return [&]<std::size_t... C>(std::index_sequence<C...>) {
    return std::array<bool, Frame::schema_type::size>{(rows_may_be_missing || f.template column_at<C>().nullable())...};
  }(std::make_index_sequence<Frame::schema_type::size>{});
}

template <class Frame>
std::array<size_type, Frame::schema_type::size> null_counts_of(Frame const& f) {
  return [&]<std::size_t... C>(std::index_sequence<C...>) {
    return std::array<size_type, Frame::schema_type::size>{f.template column_at<C>().null_count()...};
  }(std::make_index_sequence<Frame::schema_type::size>{});
}

// Rows index(0), ..., index(m - 1) of f, in one kernel over all columns. Indices must be in
// range (negative: a row of nulls, only where `may_miss`). `permutes`: the indices are a
// permutation of f's rows (a sort's order), so each column keeps its null count, and the frame
// finishes without counting them.
template <class Frame, class Index>
Frame gather_frame(Frame const& f, Index index, size_type m, bool may_miss, stream_ref stream, resource_ref mr,
                   bool permutes = false) {
  spill_lock_scope const spill_lock(stream);  // the columns read here stay put until the work is done
  using schema_type = typename Frame::schema_type;
  using item = row_item_t<schema_type>;
  COLX_EXPECTS(is_host_accessible(mr.kind()) == is_host_accessible(f.kind()), "gathering rows into ",
               to_string(mr.kind()), " memory from a frame in ", to_string(f.kind()), " memory: copy the frame there first");
  COLX_EXPECTS(!permutes || (m == f.num_rows() && !may_miss), "gather_frame: a permutation of ", f.num_rows(),
               " rows gathers each row once, not ", m, " rows");
  auto const source_nulls = null_counts_of(f);
  return write_frame<schema_type>(m, column_masks(f, may_miss), column_types(f), columns_of(f), stream, mr,
                                  [&](auto const& views) {
    using store_t = store_row_fn<std::remove_cvref_t<decltype(views)>>;
    on_backend(f.kind(), stream, [&](auto const& exec) {
      exec.for_each_n(m, gather_rows_fn<typename Frame::inputs_type, item, Index, store_t>{f.inputs(), index, store_t{views}});
    });
    return m;
  }, permutes ? &source_nulls : nullptr);
}

// Counts indices outside [0, rows).
template <class I>
struct out_of_range_fn {
  I const* indices;
  size_type rows;
  COLX_HOST_DEVICE size_type operator()(size_type k) const {
    auto const i = static_cast<size_type>(indices[k]);
    return (i < 0 || i >= rows) ? 1 : 0;
  }
};
struct plus_fn {
  template <class T>
  COLX_HOST_DEVICE T operator()(T a, T b) const {
    return a + b;
  }
};

}  // namespace detail

// Row indices[k] of f as row k, for every column, in one kernel. Indices of any integer type,
// without nulls, in [0, f.num_rows()): anything else throws before a row is written.
template <class Schema, class I>
[[nodiscard]] frame<Schema> take(frame<Schema> const& f, column_view<I> const& indices, stream_ref stream = {},
                                 output_resource out = {}) {
  resource_ref const mr = out.for_input(f.kind());
  static_assert(std::is_integral_v<I> && !std::is_same_v<I, bool>, "colx::take needs an integer index column");
  COLX_EXPECTS(indices.null_count() == 0, "take: the index column has ", indices.null_count(), " nulls");
  COLX_EXPECTS(indices.empty() || is_host_accessible(indices.kind()) == is_host_accessible(f.kind()),
               "take: the index column lives in ", to_string(indices.kind()), " memory, the frame in ", to_string(f.kind()));
  size_type const m = indices.size();
  if (m > 0) {
    size_type const bad = on_backend(f.kind(), stream, [&](auto const& exec) {
      return exec.transform_reduce(m, size_type{0}, detail::out_of_range_fn<I>{indices.data(), f.num_rows()}, detail::plus_fn{});
    });
    COLX_EXPECTS_AS(out_of_range, bad == 0, "take: ", bad, " of ", m, " indices are outside [0, ", f.num_rows(), ")");
  }
  return detail::gather_frame(f, detail::index_column_fn<I>{indices.data()}, m, false, stream, mr);
}
template <class Schema, class I>
[[nodiscard]] frame<Schema> take(frame<Schema> const& f, column<I> const& indices, stream_ref stream = {},
                                 output_resource mr = {}) {
  return take(f, indices.view(), stream, mr);
}

// Rows [begin, end) as a new frame (a copy: frames own whole columns); the rows keep their labels.
// The members f.slice, f.head and f.tail (frame.hpp) do the work; these are their free spellings.
template <class Schema>
[[nodiscard]] frame<Schema> slice(frame<Schema> const& f, size_type begin, size_type end, stream_ref stream = {},
                                  output_resource mr = {}) {
  return f.slice(begin, end, stream, mr);
}
// The first (last) n rows, or all of them when there are fewer.
template <class Schema>
[[nodiscard]] frame<Schema> head(frame<Schema> const& f, size_type n, stream_ref stream = {},
                                 output_resource mr = {}) {
  return f.head(n, stream, mr);
}
template <class Schema>
[[nodiscard]] frame<Schema> tail(frame<Schema> const& f, size_type n, stream_ref stream = {},
                                 output_resource mr = {}) {
  return f.tail(n, stream, mr);
}

// Pipeline stages: f | head(n), f | tail(n) (after a filter: of the kept rows).
struct end_rows_stage {
  using stage_tag = void;
  size_type n;
  bool from_end;  // tail(n), else head(n)
  template <class Schema>
  frame<Schema> apply(frame<Schema> const& f, stream_ref stream, resource_ref mr) const {
    return from_end ? f.tail(n, stream, mr) : f.head(n, stream, mr);
  }
};
[[nodiscard]] constexpr end_rows_stage head(size_type n) { return {n, false}; }
[[nodiscard]] constexpr end_rows_stage tail(size_type n) { return {n, true}; }

// The rows of every frame, in order (frames of one schema).
template <class Schema>
[[nodiscard]] frame<Schema> concat(std::span<frame<Schema> const> frames, stream_ref stream = {},
                                   output_resource out = {}) {
  COLX_EXPECTS(!frames.empty(), "concat needs at least one frame");
  resource_ref const mr = out.for_input(frames.front().kind());
  return [&]<std::size_t... C>(std::index_sequence<C...>) {
    auto const join_column = [&]<std::size_t I>(std::integral_constant<std::size_t, I>) {
      std::vector<any_column_view> views;
      for (auto const& f : frames) { views.push_back(static_cast<any_column_view>(f.template column_at<I>())); }
      using column_t = std::remove_cvref_t<decltype(frames[0].template column_at<I>())>;
      return column_t(concatenate(views, stream, mr));
    };
    return frame<Schema>(join_column(std::integral_constant<std::size_t, C>{})...);
  }(std::make_index_sequence<Schema::size>{});
}
template <class Schema, class... More>
  requires(std::same_as<More, frame<Schema>> && ...)
[[nodiscard]] frame<Schema> concat(frame<Schema> const& first, More const&... more) {
  std::vector<frame<Schema>> const all{first, more...};
  return concat(std::span<frame<Schema> const>(all));
}

}  // namespace colx
