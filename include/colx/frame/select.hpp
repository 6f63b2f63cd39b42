// SPDX-License-Identifier: Apache-2.0
#pragma once
// select: a frame of some of the columns, in a new order, optionally renamed
// (f | select("b"_c, "a"_c.as<"alpha">())). Zero-copy: the new frame shares the columns. After a
// filter, one compaction of the selected columns.
#include <colx/frame/frame.hpp>
#include <colx/frame/pipeline.hpp>

namespace colx {

template <class... Cols>
struct select_stage {
  using stage_tag = void;

  template <class Schema>
  auto apply(frame<Schema> const& f, stream_ref, resource_ref) const;
  // After a filter: the kept rows of the selected columns alone, in one compaction (the filter
  // reads the columns it names, selected or not), where collecting every column first would copy
  // what the selection then drops (TPC-H's lineitem | filter(...) | select(...) copied all 16
  // columns, its comments among them).
  template <class Frame, class Pred>
  auto apply(filtered<Frame, Pred> const& f, stream_ref stream, resource_ref mr) const;
};

// Columns by name, or renamed with .as<"new">().
template <class... Cols>
[[nodiscard]] constexpr select_stage<Cols...> select(Cols const&...) {
  static_assert(sizeof...(Cols) > 0, "colx::select needs at least one column");
  return {};
}

namespace detail {

// The column a select argument refers to, and the name it gets.
template <class C>
concept renamed_column = requires(C const& c) {
  C::name;
  c.expr;
  requires expr::column_ref<std::remove_cvref_t<decltype(c.expr)>>;
};

template <class C>
struct selected {
  static_assert(expr::column_ref<C>, "colx::select takes columns (\"a\"_c) or renamed columns (\"a\"_c.as<\"b\">())");
  using source = C;
  static constexpr auto name = C::name;
};
template <class C>
  requires renamed_column<C>
struct selected<C> {
  using source = std::remove_cvref_t<decltype(std::declval<C>().expr)>;
  static constexpr auto name = C::name;
};

template <class Schema, class C>
using selected_field = field<selected<C>::name, typename field_of<Schema, typename selected<C>::source>::type::type,
                             field_of<Schema, typename selected<C>::source>::type::is_nullable ? nullable : not_null>;

}  // namespace detail

template <class... Cols>
template <class Schema>
auto select_stage<Cols...>::apply(frame<Schema> const& f, stream_ref, resource_ref) const {
  using out = schema<detail::selected_field<Schema, Cols>...>;
  return frame<out>(f.template shared_column_at<Schema::template index_of<typename detail::selected<Cols>::source>>()...)
      .with_index(f.index());
}

template <class... Cols>
template <class Frame, class Pred>
auto select_stage<Cols...>::apply(filtered<Frame, Pred> const& f, stream_ref stream, resource_ref mr) const {
  auto const picked = apply(f.source(), stream, mr);
  using picked_t = std::remove_cvref_t<decltype(picked)>;
  return detail::collect_impl(f.source(), f.predicate(), picked, stream, mr,
                              std::make_index_sequence<picked_t::schema_type::size>{});
}

}  // namespace colx
