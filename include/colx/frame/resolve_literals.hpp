// SPDX-License-Identifier: Apache-2.0
#pragma once
// resolve_literals(e, frame, stream): the bound expression e with every dictionary_literal
// (a dictionary column compared with a string literal) given the literal's code in that column's
// dictionary, and every dictionary_like (a dictionary column LIKE a constant pattern) the entries
// the pattern matches, so the kernel reads one code a row instead of a string. Each lookup is
// one pass over the dictionary, not over the rows; the stream is synchronised for its answer.
// Terminals call it before a launch; a node not resolved still gives the right answer, by value.
#include <colx/exec/dispatch.hpp>
#include <colx/expr/nodes.hpp>

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
template <class Inputs>
struct resolve_fn {
  Inputs const* in;
  memory_kind kind;
  stream_ref stream;
  std::vector<buffer>* scratch;

  template <class E>
  E operator()(E const& e) const {
    if constexpr (requires { E::unresolved; e.literal; }) {
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
        // (A copy into pageable host memory is complete on return.)
        copy_bytes(out.matches, memory_kind::host, bits.data(), kind, static_cast<std::size_t>(words) * sizeof(std::uint32_t), stream);
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

// Whether e holds a dictionary_literal.
struct find_literal_fn {
  bool* found;
  template <class E>
  E operator()(E const& e) const {
    if constexpr (requires { E::unresolved; } || requires { E::max_entries; }) {
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
