// SPDX-License-Identifier: Apache-2.0
#pragma once
// Word-wise bitmask algorithms on either backend: counting nulls, copying a mask sliced at any
// bit offset to offset 0, and AND-ing masks. Each touches 32 rows per operation.
#include <colx/column/bitmask.hpp>
#include <colx/exec/dispatch.hpp>
#include <colx/memory/buffer.hpp>

#include <array>
#include <cstddef>
#include <span>

namespace colx {
namespace detail {

struct count_set_bits_fn {
  bitmask_type const* mask;
  size_type begin, end;
  COLX_HOST_DEVICE size_type operator()(size_type w) const {
    size_type const first = begin + w * bits_per_word;
    return popcount(word_at(mask, first, end) & low_bits(end - first));
  }
};

struct copy_bits_fn {
  bitmask_type* out;
  bitmask_type const* in;
  size_type begin, end;
  COLX_HOST_DEVICE void operator()(size_type w) const {
    size_type const first = begin + w * bits_per_word;
    out[w] = word_at(in, first, end) & low_bits(end - first);
  }
};

struct and_bits_fn {
  bitmask_type* out;
  bitmask_type const* in;
  size_type begin, end;
  COLX_HOST_DEVICE void operator()(size_type w) const {
    size_type const first = begin + w * bits_per_word;
    out[w] &= word_at(in, first, end);
  }
};

struct sum_fn {
  template <class T>
  COLX_HOST_DEVICE T operator()(T a, T b) const { return a + b; }
};

inline void check_bit_range(size_type begin, size_type end) {
  COLX_EXPECTS_AS(out_of_range, 0 <= begin && begin <= end, "bit range [", begin, ", ", end, ") is invalid");
}

}  // namespace detail

// A mask and the bit at which its rows start: one input of bitmask_and.
struct bitmask_slice {
  bitmask_type const* mask;  // null: all rows valid
  size_type offset;
};

// The number of set (valid) bits in [begin, end) of `mask`, which lives in memory of `kind`.
// Returns a host value, so it synchronises the stream.
[[nodiscard]] inline size_type count_set_bits(bitmask_type const* mask, size_type begin, size_type end,
                                              memory_kind kind, stream_ref stream = {}) {
  detail::check_bit_range(begin, end);
  if (mask == nullptr || begin == end) { return end - begin; }  // (no reduction and wait for nothing)
  return on_backend(kind, stream, [&](auto const& exec) {
    return exec.transform_reduce(bitmask_words(end - begin), size_type{0}, detail::count_set_bits_fn{mask, begin, end},
                                 detail::sum_fn{});
  });
}

// The number of unset (null) bits in [begin, end); zero for a null mask.
[[nodiscard]] inline size_type count_unset_bits(bitmask_type const* mask, size_type begin, size_type end,
                                                memory_kind kind, stream_ref stream = {}) {
  return (end - begin) - count_set_bits(mask, begin, end, kind, stream);
}

// The null counts of up to N masks of `bits` bits each (a null mask counts 0), in one pass over
// them all with one wait, where a count each took a reduction and a wait: what a kernel that writes
// a frame's columns needs to finish them (frame/output_column.hpp's finish_outputs, for frames
// wider than its one pass takes).
namespace detail {
template <std::size_t N>
struct null_counts {
  size_type v[N];
};
template <std::size_t N>
struct count_masks_nulls_fn {
  bitmask_type const* masks[N];
  int count;
  size_type bits;
  COLX_HOST_DEVICE void operator()(null_counts<N>& s, size_type w) const {
    size_type const first = w * bits_per_word;
    bitmask_type const rows = low_bits(bits - first);
    for (int m = 0; m < count; ++m) { s.v[m] += popcount(~masks[m][w] & rows); }
  }
};
template <std::size_t N>
struct merge_null_counts_fn {
  COLX_HOST_DEVICE null_counts<N> operator()(null_counts<N> a, null_counts<N> const& b) const {
    for (std::size_t m = 0; m < N; ++m) { a.v[m] += b.v[m]; }
    return a;
  }
};
}  // namespace detail

template <std::size_t N>
[[nodiscard]] std::array<size_type, N> count_unset_bits(std::array<bitmask_type const*, N> const& masks, size_type bits,
                                                        memory_kind kind, stream_ref stream = {}) {
  detail::check_bit_range(0, bits);
  if constexpr (N == 0) {
    return {};
  } else {
    // At most 64 masks a pass: a thread holds a count per mask, and a frame may have hundreds.
    constexpr std::size_t per_pass = N < 64 ? N : 64;
    std::array<size_type, N> nulls{};
    if (bits == 0) { return nulls; }
    std::size_t c = 0;
    while (true) {
      detail::count_masks_nulls_fn<per_pass> fn{{}, 0, bits};
      std::array<std::size_t, per_pass> column{};  // fn.masks[m] is masks[column[m]]
      for (; c < N && static_cast<std::size_t>(fn.count) < per_pass; ++c) {
        if (masks[c] != nullptr) {
          column[static_cast<std::size_t>(fn.count)] = c;
          fn.masks[fn.count++] = masks[c];
        }
      }
      if (fn.count == 0) { return nulls; }
      auto const counts = on_backend(kind, stream, [&](auto const& exec) {
        return exec.reduce_rows(bitmask_words(bits), detail::null_counts<per_pass>{}, fn, detail::merge_null_counts_fn<per_pass>{});
      });
      for (int m = 0; m < fn.count; ++m) { nulls[column[static_cast<std::size_t>(m)]] = counts.v[m]; }
    }
  }
}

// One bit of a mask in memory of any kind, read or written from the host (synchronises).
[[nodiscard]] inline bool bit_is_set(bitmask_type const* mask, size_type bit, memory_kind kind, stream_ref stream) {
  bitmask_type word = 0;
  detail::copy_bytes(&word, memory_kind::host, mask + bit / bits_per_word, kind, sizeof word, stream);
  return bit_is_set(&word, bit % bits_per_word);
}
inline void set_bit(bitmask_type* mask, size_type bit, bool valid, memory_kind kind, stream_ref stream) {
  bitmask_type word = 0;
  detail::copy_bytes(&word, memory_kind::host, mask + bit / bits_per_word, kind, sizeof word, stream);
  valid ? set_bit(&word, bit % bits_per_word) : clear_bit(&word, bit % bits_per_word);
  detail::copy_bytes(mask + bit / bits_per_word, kind, &word, memory_kind::host, sizeof word, stream);
  stream.synchronize();  // `word` is about to go out of scope
}

// A new mask of `bits` bits, all valid or all null.
[[nodiscard]] inline buffer create_bitmask(size_type bits, bool valid, stream_ref stream = {},
                                           resource_ref mr = get_current_resource()) {
  COLX_EXPECTS(bits >= 0, "a bitmask cannot have a negative number of bits (", bits, ")");
  buffer mask(bitmask_allocation_bytes(bits), stream, mr);
  detail::fill_bytes(mask.data(), mask.kind(), valid ? 0xFF : 0x00, mask.size(), stream);
  return mask;
}

// Bits [begin, end) of `mask` (in memory of `kind`) as a new mask starting at bit 0, with the
// bits past the end cleared.
[[nodiscard]] inline buffer copy_bitmask(bitmask_type const* mask, size_type begin, size_type end, memory_kind kind,
                                         stream_ref stream = {}, resource_ref mr = get_current_resource()) {
  detail::check_bit_range(begin, end);
  COLX_EXPECTS(mask != nullptr, "copy_bitmask needs a mask");
  buffer out(bitmask_allocation_bytes(end - begin), stream, mr);
  COLX_EXPECTS(out.kind() == kind || (is_host_accessible(out.kind()) && is_host_accessible(kind)),
               "copy_bitmask copies within one kind of memory; copy the column to move it");
  // The padding past the last word is zeroed so the mask hashes and compares deterministically.
  detail::fill_bytes(out.data(), out.kind(), 0, out.size(), stream);
  on_backend(kind, stream, [&](auto const& exec) {
    exec.for_each_n(bitmask_words(end - begin), detail::copy_bits_fn{static_cast<bitmask_type*>(out.data()), mask, begin, end});
  });
  return out;
}

// The AND of `bits` rows of several masks, each starting at its own bit offset: a row is valid
// when it is valid in every input. Null inputs (all valid) are skipped; if every input is null,
// the result is an empty buffer (no mask) with null count 0.
struct bitmask_and_result {
  buffer mask;
  size_type null_count;
};

[[nodiscard]] inline bitmask_and_result bitmask_and(std::span<bitmask_slice const> masks, size_type bits,
                                                    memory_kind kind, stream_ref stream = {},
                                                    resource_ref mr = get_current_resource()) {
  bitmask_and_result result{buffer(0, stream, mr), 0};
  bool first = true;
  for (auto const& m : masks) {
    if (m.mask == nullptr) { continue; }
    if (first) {
      result.mask = copy_bitmask(m.mask, m.offset, m.offset + bits, kind, stream, mr);
      first = false;
      continue;
    }
    on_backend(kind, stream, [&](auto const& exec) {
      exec.for_each_n(bitmask_words(bits), detail::and_bits_fn{static_cast<bitmask_type*>(result.mask.data()), m.mask,
                                                               m.offset, m.offset + bits});
    });
  }
  if (!first) {
    result.null_count = count_unset_bits(static_cast<bitmask_type const*>(result.mask.data()), 0, bits, kind, stream);
  }
  return result;
}

}  // namespace colx
