// SPDX-License-Identifier: Apache-2.0
#pragma once
// explain(): what a pipeline will do before it does it: the expressions, the kernels it launches,
// and the least bytes it must read and write, so a benchmark can set achieved bandwidth beside
// the minimum the plan needs.
#include <colx/frame/pipeline.hpp>

#include <cstddef>
#include <span>
#include <sstream>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace colx {

// The least a plan moves through device (or host) memory.
struct plan_cost {
  int kernels = 0;              // launches over the rows (tiny fix-up passes listed apart)
  int small_kernels = 0;        // launches over a few thousand items at most
  std::size_t bytes_read = 0;
  std::size_t bytes_written = 0;  // an upper bound for filters, whose output size is unknown
};

namespace detail {

template <class T>
std::size_t column_bytes(column<T> const& c) {
  return static_cast<std::size_t>(c.size()) * sizeof(T) +
         (c.nullable() ? static_cast<std::size_t>(bitmask_words(c.size())) * sizeof(bitmask_type) : 0);
}
// A fixed-width strings column's offsets are not read (uniform_bytes).
inline std::size_t column_bytes(strings_column const& c) {
  auto const v = c.view();
  std::size_t const offset_width = v.offset_type() == type_id::int64 ? 8 : 4;
  std::size_t const offsets = c.uniform_bytes() >= 0 ? 0 : static_cast<std::size_t>(c.size() + 1) * offset_width;
  return offsets + static_cast<std::size_t>(c.chars_size()) +
         (c.nullable() ? static_cast<std::size_t>(bitmask_words(c.size())) * sizeof(bitmask_type) : 0);
}

// A dictionary column: its codes, and its dictionary once (read through the cache).
template <class V, class Code>
std::size_t column_bytes(dictionary_column<V, Code> const& c) {
  std::size_t const dictionary = c.dictionary().data().size() +
                                 (c.dictionary().children().empty() ? 0 : c.dictionary().children().front().data().size());
  return static_cast<std::size_t>(c.size()) * sizeof(Code) + dictionary +
         (c.nullable() ? static_cast<std::size_t>(bitmask_words(c.size())) * sizeof(bitmask_type) : 0);
}
// What a listing says of a column's encoding: nothing, or its dictionary.
template <class C>
std::string encoding_note(C const& c) {
  if constexpr (requires { c.dictionary(); }) {
    return ", dictionary-encoded: " + std::string(to_string(c.type().codes())) + " codes of " +
           std::to_string(c.dictionary_size()) + " " + c.dictionary().type().to_string() + " values";
  } else {
    return "";
  }
}

// Bytes of the columns marked in `used`, each listed by name.
template <class Frame>
std::size_t read_bytes(Frame const& f, std::vector<bool> const& used, std::ostringstream& out) {
  std::size_t total = 0;
  [&]<std::size_t... I>(std::index_sequence<I...>) {
    (((used[I] ? (total += column_bytes(f.template column_at<I>()),
                  out << "    reads " << Frame::schema_type::template field_at<I>::name.view() << " ("
                      << column_bytes(f.template column_at<I>()) << " bytes"
                      << encoding_note(f.template column_at<I>()) << ")\n")
               : out),
      ...));
  }(std::make_index_sequence<Frame::schema_type::size>{});
  return total;
}

template <class Frame, class... Exprs>
std::vector<bool> used_columns(Exprs const&... unbound) {
  std::vector<bool> used(Frame::schema_type::size, false);
  (expr::mark_columns(expr::bind<typename Frame::schema_type>(unbound), used), ...);
  return used;
}

}  // namespace detail

// The least bytes reading the named columns of f takes, each once, counted as plan() counts a
// stage's inputs: for work of several stages over several frames (a TPC-H query), whose time a
// benchmark sets beside the bytes of its inputs. A name f lacks is an error that names it.
template <class Frame>
[[nodiscard]] std::size_t bytes_of_columns(Frame const& f, std::span<std::string_view const> names) {
  using schema_t = typename Frame::schema_type;
  std::vector<bool> used(schema_t::size, false);
  for (std::string_view const name : names) {
    std::size_t found = detail::not_found;
    [&]<std::size_t... I>(std::index_sequence<I...>) {
      (void)((schema_t::template field_at<I>::name.view() == name && (found = I, true)) || ...);
    }(std::make_index_sequence<schema_t::size>{});
    COLX_EXPECTS(found != detail::not_found, "bytes_of_columns: the frame has no column named \"", name, "\"");
    used[found] = true;
  }
  std::ostringstream listing;  // (what plan() prints; unused here)
  return detail::read_bytes(f, used, listing);
}

namespace detail {

inline std::string cost_lines(plan_cost const& c) {
  std::ostringstream out;
  out << "  kernels: " << c.kernels << " over the rows";
  if (c.small_kernels > 0) { out << " + " << c.small_kernels << " small"; }
  out << "\n  minimum bytes: " << c.bytes_read << " read, " << c.bytes_written << " written\n";
  return out.str();
}

}  // namespace detail

template <class Frame, class Pred, class... Aggs>
[[nodiscard]] plan_cost plan(filtered<Frame, Pred> const& f, reduce_stage<Aggs...> const& r, std::ostringstream* text = nullptr) {
  std::ostringstream out;
  plan_cost cost{1, 1, 0, 0};
  out << "reduce over " << f.source().num_rows() << " rows, one pass\n  where " << f.predicate().to_string() << "\n";
  std::apply([&](auto const&... a) { ((out << "  " << a.to_string() << "\n"), ...); }, r.aggs);
  auto const used = std::apply([&](auto const&... a) { return detail::used_columns<Frame>(f.predicate(), a...); }, r.aggs);
  cost.bytes_read = detail::read_bytes(f.source(), used, out);
  if (text != nullptr) { *text << out.str(); }
  return cost;
}

template <class Frame, class Pred>
[[nodiscard]] plan_cost plan(filtered<Frame, Pred> const& f, std::ostringstream* text = nullptr) {
  std::ostringstream out;
  // The single-pass compaction, after a tiny kernel that resets its tile states; then a null
  // count per nullable column.
  plan_cost cost{1, 1, 0, 0};
  [&]<std::size_t... I>(std::index_sequence<I...>) {
    ((cost.small_kernels += f.source().template column_at<I>().nullable() ? 1 : 0), ...);
  }(std::make_index_sequence<Frame::schema_type::size>{});
  out << "filter + collect over " << f.source().num_rows() << " rows, one compaction pass\n  where "
      << f.predicate().to_string() << "\n";
  std::vector<bool> used(Frame::schema_type::size, true);
  cost.bytes_read = detail::read_bytes(f.source(), used, out);
  cost.bytes_written = cost.bytes_read;  // at most every row is kept
  if (text != nullptr) { *text << out.str(); }
  return cost;
}

template <class Schema, class... Named>
[[nodiscard]] plan_cost plan(frame<Schema> const& f, with_columns_stage<Named...> const& w, std::ostringstream* text = nullptr) {
  using frame_t = frame<Schema>;
  using inputs = typename frame_t::inputs_type;
  std::ostringstream out;
  plan_cost cost{1, 0, 0, 0};
  out << "with_columns over " << f.num_rows() << " rows, one pass\n";
  std::apply([&](auto const&... n) { ((out << "  " << n.name.view() << " = " << n.expr.to_string() << "\n"), ...); }, w.outputs);
  auto const used = std::apply([&](auto const&... n) { return detail::used_columns<frame_t>(n.expr...); }, w.outputs);
  cost.bytes_read = detail::read_bytes(f, used, out);
  auto const rows = static_cast<std::size_t>(f.num_rows());
  std::apply(
      [&](auto const&... n) {
        auto const written = [&](auto const& named) {
          using field = typename detail::output_field<inputs, std::remove_cvref_t<decltype(named)>, Schema>::type;
          cost.small_kernels += field::is_nullable ? 1 : 0;  // the null count of each nullable output
          return rows * sizeof(typename field::type) +
                 (field::is_nullable ? static_cast<std::size_t>(bitmask_words(f.num_rows())) * sizeof(bitmask_type) : 0);
        };
        ((cost.bytes_written += written(n)), ...);
      },
      w.outputs);
  if (text != nullptr) { *text << out.str(); }
  return cost;
}

// The plan of `source | stage` (or of collecting a filtered frame) as text.
template <class Source, class... Stage>
[[nodiscard]] std::string explain(Source const& source, Stage const&... stage) {
  std::ostringstream text;
  plan_cost cost;
  if constexpr (requires { source.predicate(); }) {
    cost = plan(source, stage..., &text);
  } else if constexpr (sizeof...(Stage) == 1 && (requires { stage.aggs; } && ...) && requires { source.inputs(); }) {
    cost = plan(source | filter(expr::row_marker{}), stage..., &text);
  } else {
    cost = plan(source, stage..., &text);
  }
  return text.str() + detail::cost_lines(cost);
}

}  // namespace colx
