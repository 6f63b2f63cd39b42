// SPDX-License-Identifier: Apache-2.0
#pragma once
// f | with_columns(e.as<"x">(), ...): new columns from expressions, all evaluated in one pass over
// the inputs. A string-valued expression (a stored string, part of one, or a computed string:
// upper, concat, replace, a cast to text) becomes a strings column in two steps: its sizes are
// summed and scanned into offsets (two light passes that read only what the sizes need, usually
// the input offsets), then the one evaluation pass writes every column, the strings' bytes at
// their offsets. Where every new column is upper(s) or lower(s) of a stored column, map_case
// writes each instead, its offsets the input's.
#include <colx/column/bitmask_ops.hpp>
#include <colx/column/map_case.hpp>
#include <colx/exec/dispatch.hpp>
#include <colx/expr/expression.hpp>
#include <colx/expr/ops_text.hpp>
#include <colx/frame/frame.hpp>
#include <colx/frame/kernels.hpp>
#include <colx/frame/resolve_literals.hpp>
#include <colx/memory/spill_lock_scope.hpp>
#include <colx/memory/uvector.hpp>

#include <cstdint>
#include <limits>
#include <memory>
#include <tuple>
#include <utility>
#include <vector>

namespace colx {

namespace detail {

// What an expression's values are stored as: a computed string as a string.
template <class T>
struct stored_as {
  using type = T;
};
template <class T>
  requires string_value<T>
struct stored_as<T> {
  using type = string_view;
};

template <class Inputs, class Named, class Schema>
struct output_field {
  using bound = decltype(expr::bind<Schema>(std::declval<Named const&>().expr));
  using result = expr::result_t<bound, Inputs>;
  using type = field<Named::name, typename stored_as<typename result::value_type>::type, result::nullable ? nullable : not_null>;
};

template <class Schema, class... Extra>
struct append_fields;
template <class... Fields, class... Extra>
struct append_fields<schema<Fields...>, Extra...> {
  using type = schema<Fields..., Extra...>;
};

// Row i's string size in bytes (0 when null).
template <class Inputs, class E>
struct string_size_fn {
  Inputs in;
  E e;
  COLX_HOST_DEVICE std::int64_t operator()(size_type i) const {
    auto const r = e(in, i);
    return r.valid ? static_cast<std::int64_t>(r.value.size_bytes()) : 0;
  }
};
struct sum_sizes_fn {
  COLX_HOST_DEVICE std::int64_t operator()(std::int64_t a, std::int64_t b) const { return a + b; }
};

// A fixed-width output: the column itself, written in place; the mask's padding is zeroed too,
// since the pass writes whole words only up to the last row.
template <class T>
struct computed_column {
  column<T> out;
  computed_column(size_type rows, bool nullable, stream_ref stream, resource_ref mr)
      : out(nullable ? column<T>(uvector<T>(rows, stream, mr), create_bitmask(rows, false, stream, mr), 0)
                     : column<T>(uvector<T>(rows, stream, mr))) {}
  auto view(stream_ref stream) { return out.mutable_device_view(stream); }
  std::shared_ptr<column<T> const> finish(size_type rows, stream_ref stream) {
    if (out.nullable()) { out.set_null_count(count_unset_bits(out.null_mask(), 0, rows, out.kind(), stream)); }
    return std::make_shared<column<T> const>(std::move(out));
  }
};

// A strings output: offsets from the sizes first (int32 when the bytes fit, as Arrow's utf8),
// then the chars the pass writes.
template <>
struct computed_column<string_view> {
  size_type rows;
  buffer offsets;
  bool large = false;
  buffer chars;
  buffer mask;
  resource_ref mr;
  computed_column(size_type rows_, bool nullable, stream_ref stream, resource_ref mr_)
      : rows(rows_), offsets(0, stream, mr_), chars(0, stream, mr_),
        mask(nullable ? create_bitmask(rows_, false, stream, mr_) : buffer(0, stream, mr_)), mr(mr_) {}

  template <class Size>
  void size_rows(Size const& size, memory_kind kind, stream_ref stream) {
    on_backend(kind, stream, [&](auto const& exec) {
      std::int64_t const total = exec.transform_reduce(rows, std::int64_t{0}, size, sum_sizes_fn{});
      large = total > std::numeric_limits<std::int32_t>::max();
      if (large) {
        uvector<std::int64_t> o(rows + 1, stream, mr);
        exec.exclusive_scan_async(rows, std::int64_t{0}, size, o.data());
        offsets = std::move(o).release();
      } else {
        uvector<std::int32_t> o(rows + 1, stream, mr);
        exec.exclusive_scan_async(rows, std::int32_t{0}, size, o.data());
        offsets = std::move(o).release();
      }
      chars = buffer(static_cast<std::size_t>(total), stream, mr);
    });
  }
  strings_write_view view(stream_ref) {
    return {offsets.data(), large, static_cast<char*>(chars.data()), static_cast<bitmask_type*>(mask.data())};
  }
  std::shared_ptr<strings_column const> finish(size_type, stream_ref stream) {
    size_type const nulls =
        mask.empty() ? 0 : count_unset_bits(static_cast<bitmask_type const*>(mask.data()), 0, rows, mask.kind(), stream);
    std::vector<any_column> children;
    children.emplace_back(data_type{large ? type_id::int64 : type_id::int32}, rows + 1, std::move(offsets));
    return std::make_shared<strings_column const>(
        any_column(data_type{type_id::string}, rows, std::move(chars), std::move(mask), nulls, std::move(children)));
  }
};

// upper(s) or lower(s) of a stored strings column, which map_case computes without the general
// pass (the rows keep their sizes).
template <class E>
struct case_map_of_column : std::false_type {};
template <bool Upper, std::size_t P, bool Nullable>
struct case_map_of_column<expr::unary<expr::ops::change_case<Upper>, expr::bound_col<P, string_view, Nullable>>> : std::true_type {
  static constexpr bool to_upper = Upper;
  static constexpr std::size_t position = P;
};

template <class Frame, class... Named, std::size_t... K>
auto with_columns_impl(Frame const& f, std::tuple<Named...> const& named, stream_ref stream, resource_ref mr,
                       std::index_sequence<K...>) {
  spill_lock_scope const spill_lock(stream);  // the columns read here stay put until the work is done
  using schema_type = typename Frame::schema_type;
  using inputs = typename Frame::inputs_type;
  using out_schema = typename append_fields<schema_type, typename output_field<inputs, Named, schema_type>::type...>::type;
  size_type const rows = f.num_rows();
  if constexpr ((case_map_of_column<typename output_field<inputs, Named, schema_type>::bound>::value && ...)) {
    auto const in = f.inputs();
    auto const mapped = [&]<class Map>(Map) {
      return std::make_shared<strings_column const>(map_case(get<Map::position>(in), Map::to_upper, f.kind(), stream, mr));
    };
    return [&]<std::size_t... I>(std::index_sequence<I...>) {
      return frame<out_schema>(f.template shared_column_at<I>()...,
                               mapped(case_map_of_column<typename output_field<inputs, Named, schema_type>::bound>{})...)
          .with_index(f.index());
    }(std::make_index_sequence<schema_type::size>{});
  } else {
    std::vector<buffer> scratch;  // what resolved nodes read, kept until the kernels below have run
    auto const bound = tuple(resolve_literals(expr::bind<schema_type>(std::get<K>(named).expr), f, stream, &scratch)...);
    std::tuple outputs(computed_column<typename output_field<inputs, Named, schema_type>::type::type>(
        rows, output_field<inputs, Named, schema_type>::type::is_nullable, stream, mr)...);
    auto const size_strings = [&](auto& out, auto const& e) {
      if constexpr (std::is_same_v<std::remove_cvref_t<decltype(out)>, computed_column<string_view>>) {
        out.size_rows(string_size_fn<inputs, std::remove_cvref_t<decltype(e)>>{f.inputs(), e}, f.kind(), stream);
      }
    };
    (size_strings(std::get<K>(outputs), get<K>(bound)), ...);
    auto const views = tuple(std::get<K>(outputs).view(stream)...);
    evaluate_fn<inputs, std::remove_cvref_t<decltype(views)>, typename output_field<inputs, Named, schema_type>::bound...> const fn{
        f.inputs(), bound, views};
    on_backend(f.kind(), stream, [&](auto const& exec) { exec.evaluate_rows(rows, fn); });
    return [&]<std::size_t... I>(std::index_sequence<I...>) {
      return frame<out_schema>(f.template shared_column_at<I>()..., std::get<K>(outputs).finish(rows, stream)...)
          .with_index(f.index());
    }(std::make_index_sequence<schema_type::size>{});
  }
}

}  // namespace detail

// A new frame: the input's columns (shared, not copied) and one column per named expression,
// computed together in one pass over the inputs. After a filter, the kept rows are collected first.
template <class... Named>
struct with_columns_stage {
  using stage_tag = void;
  std::tuple<Named...> outputs;

  template <class Schema>
  auto apply(frame<Schema> const& f, stream_ref stream, resource_ref mr) const {
    return detail::with_columns_impl(f, outputs, stream, mr, std::index_sequence_for<Named...>{});
  }
};

// New columns from expressions, all evaluated in one pass: with_columns(e.as<"x">(), ...).
template <class... Named>
  requires(requires { Named::name; typename std::remove_cvref_t<decltype(std::declval<Named>().expr)>; } && ...)
[[nodiscard]] constexpr auto with_columns(Named const&... outputs) {
  static_assert(sizeof...(Named) > 0, "colx::with_columns needs at least one expr.as<\"name\">()");
  static_assert((requires { Named::name; } && ...), "colx::with_columns takes named expressions: expr.as<\"name\">()");
  return with_columns_stage<Named...>{{outputs...}};
}

}  // namespace colx
