// SPDX-License-Identifier: Apache-2.0
#pragma once
// resolve_literals(e, frame, stream): the bound expression e with every dictionary_literal
// (a dictionary column compared with a string literal) given the literal's code in that column's
// dictionary, and every dictionary_like (a dictionary column LIKE a constant pattern) the entries
// the pattern matches, so the kernel reads one code a row instead of a string. Each lookup is
// one pass over the dictionary, not over the rows; the stream is synchronised for its answer.
// A LIKE '%literal%' over a stored strings column in device memory is searched for every row
// beforehand, into bits its node reads (search_rows); that is stream-ordered, no synchronisation.
// Terminals call it before a launch; a node not resolved still gives the right answer, by value.
#include <colx/column/strings_input_view.hpp>
#include <colx/exec/dispatch.hpp>
#include <colx/expr/nodes.hpp>
#include <colx/types/string_search.hpp>

#include <colx/memory/copy_bytes.hpp>
#include <colx/memory/uvector.hpp>

#include <cstdint>
#include <vector>

namespace colx::detail {

// Entry e of a dictionary when it is the literal, else -1. The literal's bytes travel in the
// functor: a view of the host-side node's would be a host address on the GPU.
template <class Values, std::size_t N>
struct find_entry_fn {
  Values values;
  expr::string_literal<N> literal;
  COLX_HOST_DEVICE std::int64_t operator()(size_type e) const {
    return values.value(e) == string_view(literal.chars, literal.size) ? e : -1;
  }
};
template <class Values, std::size_t N>
find_entry_fn<Values, N> find_entry(Values const& values, expr::string_literal<N> const& literal) {
  return {values, literal};
}
struct max_int64_fn {
  COLX_HOST_DEVICE std::int64_t operator()(std::int64_t a, std::int64_t b) const { return a > b ? a : b; }
};

// Word w of the bitmap of the dictionary entries a LIKE pattern matches.
template <class Values, std::size_t N>
struct like_words_fn {
  Values values;
  expr::string_literal<N> pattern;
  expr::ops::like_shape shape;
  std::uint32_t* words;
  COLX_HOST_DEVICE void operator()(size_type w) const {
    std::uint32_t bits = 0;
    for (size_type e = 32 * w; e < 32 * w + 32 && e < values.size; ++e) {
      if (expr::ops::like_shaped(values.value(e), string_view(pattern.chars, pattern.size), shape)) { bits |= 1u << (e - 32 * w); }
    }
    words[w] = bits;
  }
};
// Rows 4t to 4t + 3 of a stored strings column: bit k of out[t] set where row 4t + k is valid and
// holds the literal of a LIKE '%literal%'. On the GPU (int32 offsets, chars aligned, a literal of 1 to 8
// bytes: what resolve_fn asks for) the four rows' bytes are searched as one span.
template <std::size_t N>
struct rows_holding_fn {
  strings_input_view view;
  expr::string_literal<N> pattern;
  expr::ops::like_shape shape;
  literal_words spread;
  std::uint8_t* out;
  COLX_HOST_DEVICE void operator()(size_type t) const {
#if defined(__CUDA_ARCH__)
    unsigned bits = occurs_in_rows<4>(view.chars, static_cast<std::int32_t const*>(view.offsets), 4 * t, view.size, shape.size, spread);
#else
    unsigned bits = 0;
    for (size_type k = 0; k < 4 && 4 * t + k < view.size; ++k) {
      bits |= view.contains(4 * t + k, string_view(pattern.chars + shape.begin, shape.size), spread) ? 1u << k : 0u;
    }
#endif
    for (size_type k = 0; k < 4 && 4 * t + k < view.size; ++k) {
      if (!view.is_valid(4 * t + k)) { bits &= ~(1u << k); }  // a null row never matches
    }
    out[t] = static_cast<std::uint8_t>(bits);
  }
};

// A LIKE with a constant pattern over a stored strings column (expr::like_constant).
template <class E>
inline constexpr bool searches_rows_v = false;
template <class A, std::size_t N>
inline constexpr bool searches_rows_v<expr::like_constant<A, N>> = expr::detail::plain_string_column<A>::value;

template <class E>
inline constexpr bool is_kleene_v = false;
template <bool IsAnd, class A, class B>
inline constexpr bool is_kleene_v<expr::kleene<IsAnd, A, B>> = true;

template <class Inputs>
struct resolve_fn {
  Inputs const* in;
  memory_kind kind;
  stream_ref stream;
  std::vector<buffer>* scratch;
  bool every_row = true;  // whether the node at hand is evaluated for every row

  // A LIKE '%literal%' over a stored strings column, searched for every row into a buffer the
  // node reads (like_constant::row_matches), where that is faster than searching a row a thread
  // in the kernel: in device memory, for a literal of 1 to 8 bytes, in a node every row reaches.
  template <class E>
  E search_rows(E const& e) const {
    auto const& view = get<decltype(e.a)::position>(*in);
    bool const words = view.width < 0 && !view.large && (reinterpret_cast<std::uintptr_t>(view.chars) & 3) == 0;
    if (!every_row || kind != memory_kind::device || scratch == nullptr || view.size == 0 || !words ||
        e.shape.kind != expr::ops::like_shape::infix || e.shape.size < 1 || e.shape.size > literal_words::size) {
      return e;
    }
    size_type const groups = (view.size + 3) / 4;
    uvector<std::uint8_t> bits(groups, stream, get_current_resource(kind));
    on_backend(kind, stream, [&](auto const& exec) {
      exec.for_each_n(groups, rows_holding_fn<sizeof(e.pattern.chars)>{view, e.pattern, e.shape, e.spread, bits.data()});
    });
    E out = e;
    out.row_matches = bits.data();
    scratch->push_back(std::move(bits).release());
    return out;
  }

  template <class E>
  E operator()(E const& e) const {
    if constexpr (searches_rows_v<E>) {
      return search_rows(e);
    } else if constexpr (is_kleene_v<E>) {
      // Its right side is evaluated only for the rows its left does not decide (a filter's later
      // stages, for those that passed the earlier ones): searched for all rows beforehand, a
      // pattern there could cost more than it saves.
      resolve_fn right = *this;
      right.every_row = false;
      return E((*this)(e.a), right(e.b));
    } else if constexpr (requires { E::unresolved; e.literal; }) {
      auto const& values = get<E::position>(*in).values;
      E out = e;
      out.code = values.size == 0 ? -1 : on_backend(kind, stream, [&](auto const& exec) {
        return exec.transform_reduce(values.size, std::int64_t{-1}, find_entry(values, e.literal), max_int64_fn{});
      });
      return out;
    } else if constexpr (requires { E::max_entries; e.matches; }) {
      auto const& values = get<E::position>(*in).values;
      E out = e;
      bool const inline_bits = values.size <= E::max_entries;  // else the node reads a kept buffer
      if (values.size == 0 || (!inline_bits && scratch == nullptr)) {
        out.resolved = values.size == 0;
        return out;
      }
      size_type const words = (values.size + 31) / 32;
      uvector<std::uint32_t> bits(words, stream, get_current_resource(kind));
      on_backend(kind, stream, [&](auto const& exec) {
        using fn = like_words_fn<std::remove_cvref_t<decltype(values)>, sizeof(e.pattern.chars)>;
        exec.for_each_n(words, fn{values, e.pattern, e.shape, bits.data()});
      });
      if (inline_bits) {
        copy_bytes(out.matches, memory_kind::host, bits.data(), kind, static_cast<std::size_t>(words) * sizeof(std::uint32_t), stream);
        stream.synchronize();
      } else {
        out.many = bits.data();
        scratch->push_back(std::move(bits).release());
      }
      out.resolved = true;
      return out;
    } else if constexpr (expr::interior_node<E>) {
      return e.map(*this);
    } else {
      return e;
    }
  }
};

// Whether e holds a node to resolve.
struct find_literal_fn {
  bool* found;
  template <class E>
  E operator()(E const& e) const {
    if constexpr (requires { E::unresolved; } || requires { E::max_entries; } || searches_rows_v<E>) {
      *found = true;
    } else if constexpr (expr::interior_node<E>) {
      (void)e.map(*this);
    }
    return e;
  }
};

// The frame's inputs are read only when there is a literal to find: reading them brings spilled
// columns back and keeps them there, which must not happen before the caller allocates its output.
// `scratch` keeps the buffers a resolved node reads (the entries a LIKE matches in a dictionary
// of more than 256): the caller holds it until its kernels have run (stream-ordered frees).
template <class E, class Frame>
[[nodiscard]] E resolve_literals(E const& e, Frame const& f, stream_ref stream, std::vector<buffer>* scratch = nullptr) {
  bool found = false;
  (void)find_literal_fn{&found}(e);
  if (!found) { return e; }
  auto const in = f.inputs();
  return resolve_fn<std::remove_cvref_t<decltype(in)>>{&in, f.kind(), stream, scratch}(e);
}

}  // namespace colx::detail
