// SPDX-License-Identifier: Apache-2.0
#pragma once
// resolve_literals(e, inputs, kind, stream): the bound expression e with every dictionary_literal
// (a dictionary column compared with a string literal) given the literal's code in that column's
// dictionary, so the kernel compares one integer a row instead of reading a string. The lookup is
// one pass over the dictionary, not over the rows; the stream is synchronised for its answer.
// Terminals call it before a launch; a node not resolved still gives the right answer, by value.
#include <colx/exec/dispatch.hpp>
#include <colx/expr/nodes.hpp>

#include <cstdint>

namespace colx::detail {

// Entry e of a dictionary when it is the literal, else -1.
template <class Values>
struct find_entry_fn {
  Values values;
  string_view literal;
  COLX_HOST_DEVICE std::int64_t operator()(size_type e) const { return values.value(e) == literal ? e : -1; }
};
struct max_int64_fn {
  COLX_HOST_DEVICE std::int64_t operator()(std::int64_t a, std::int64_t b) const { return a > b ? a : b; }
};

template <class Inputs>
struct resolve_fn {
  Inputs const* in;
  memory_kind kind;
  stream_ref stream;

  template <class E>
  E operator()(E const& e) const {
    if constexpr (requires { E::unresolved; e.literal; }) {
      auto const& values = get<E::position>(*in).values;
      E out = e;
      string_view const literal(e.literal.chars, e.literal.size);
      out.code = values.size == 0 ? -1 : on_backend(kind, stream, [&](auto const& exec) {
        return exec.transform_reduce(values.size, std::int64_t{-1}, find_entry_fn<std::remove_cvref_t<decltype(values)>>{values, literal},
                                     max_int64_fn{});
      });
      return out;
    } else if constexpr (expr::interior_node<E>) {
      return e.map(*this);
    } else {
      return e;
    }
  }
};

template <class E, class Inputs>
[[nodiscard]] E resolve_literals(E const& e, Inputs const& in, memory_kind kind, stream_ref stream) {
  return resolve_fn<Inputs>{&in, kind, stream}(e);
}

}  // namespace colx::detail
