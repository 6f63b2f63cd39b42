// SPDX-License-Identifier: Apache-2.0
#pragma once
// Indexes. Every frame has a range index (frame.hpp: labels start, start + step, ...; never
// materialised). `f | set_index("k"_c, ...)` makes key columns the index instead (several keys
// make a multi-index, as cuDF's MultiIndex): an indexed frame whose `loc(values...)` looks rows up
// by key value(s), a prefix of the keys selecting by the leading levels; `reset_index()` gives the
// plain frame back, the keys as columns. A group-by's result is indexed by its keys with
// `| set_index(keys...)`.
//
// The key columns stay in the frame (typed frames keep their schema); `data()` is the frame
// whole. A lookup is one fused pass (filter and compaction) over the key columns.
#include <colx/frame/pipeline.hpp>

#include <ostream>
#include <string>
#include <tuple>

namespace colx {

template <class Frame, class... Keys>
class indexed;

template <class... Keys>
struct set_index_stage {
  using stage_tag = void;
  static_assert(sizeof...(Keys) > 0, "colx::set_index needs at least one key column");
  static_assert((expr::column_ref<Keys> && ...), "colx::set_index takes columns: set_index(\"k\"_c, ...)");

  template <class Schema>
  indexed<frame<Schema>, Keys...> apply(frame<Schema> const& f, stream_ref, resource_ref) const;
};
template <class... Keys>
[[nodiscard]] constexpr set_index_stage<Keys...> set_index(Keys const&...) {
  return {};
}

// A frame indexed by key columns.
template <class Frame, class... Keys>
class indexed {
 public:
  using frame_type = Frame;
  using schema_type = typename Frame::schema_type;
  static constexpr std::size_t levels = sizeof...(Keys);

  explicit indexed(Frame f) : _frame(std::move(f)) {
    static_assert(((sizeof(typename field_of<schema_type, Keys>::type) > 0) && ...));  // a readable error for a misspelt key
  }

  [[nodiscard]] Frame const& data() const noexcept { return _frame; }
  [[nodiscard]] size_type num_rows() const noexcept { return _frame.num_rows(); }
  // The index's level names, outermost first.
  [[nodiscard]] static std::string names() {
    std::string out;
    ((out += (out.empty() ? "" : ", ") + std::string(Keys::name.view())), ...);
    return out;
  }

  // The rows whose first sizeof...(Values) keys equal the values, in row order (pandas' loc with a
  // full or partial key). A null key equals no value.
  template <class... Values>
  [[nodiscard]] Frame loc(Values const&... values) const {
    static_assert(sizeof...(Values) > 0 && sizeof...(Values) <= sizeof...(Keys),
                  "colx::indexed::loc takes one value per index level, or fewer (the leading levels)");
    return [&]<std::size_t... L>(std::index_sequence<L...>) {
      using keys = std::tuple<Keys...>;
      return (_frame | filter(((std::tuple_element_t<L, keys>{} == values) && ...))).collect();
    }(std::index_sequence_for<Values...>{});
  }

  // The plain frame: the keys are ordinary columns again, rows numbered from 0.
  [[nodiscard]] Frame reset_index() const { return _frame.with_index(range_index{}); }

 private:
  Frame _frame;
};

template <class... Keys>
template <class Schema>
indexed<frame<Schema>, Keys...> set_index_stage<Keys...>::apply(frame<Schema> const& f, stream_ref, resource_ref) const {
  return indexed<frame<Schema>, Keys...>(f);
}

}  // namespace colx
