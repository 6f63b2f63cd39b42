// SPDX-License-Identifier: Apache-2.0
#pragma once
// map_case(in, to_upper): upper(s) or lower(s) of a stored strings column as a new column. The
// case map keeps every character's byte count (utf8::map_case), so the rows keep their sizes: the
// offsets are the input's, rebased to 0, and the bytes are mapped 16 at a time without reading the
// rows, since a byte's image depends only on its neighbours and on whether a row starts at it or
// after it. with_columns(upper(s)) of 60M 20-byte strings took 1.86 ms through the general path
// (sizes summed, scanned, then each row written) on an H200.
#include <colx/column/bitmask_ops.hpp>
#include <colx/column/copying.hpp>
#include <colx/column/strings_column.hpp>
#include <colx/column/strings_input_view.hpp>
#include <colx/exec/dispatch.hpp>
#include <colx/memory/copy_bytes.hpp>
#include <colx/memory/uvector.hpp>
#include <colx/types/utf8.hpp>

#include <cstdint>
#include <limits>
#include <vector>

namespace colx::detail {

// Bytes [16t, 16t + 16) of the mapped rows (16t counted from row 0's first byte).
struct map_case_fn {
  strings_input_view in;
  char const* from;  // row 0's first byte
  char* to;
  std::int64_t bytes;
  bool to_upper;

  // ASCII letters of four bytes below 0x80 mapped at once: a byte in [lo, hi] gets the high bit
  // of (b + 0x80 - lo) and not of (b + 0x7F - hi), with no carry between bytes; that bit, shifted
  // to 0x20, flips the letter's case.
  static COLX_HOST_DEVICE std::uint32_t ascii_word(std::uint32_t w, bool to_upper) {
    std::uint32_t const lo = to_upper ? 0x1F1F1F1Fu : 0x3F3F3F3Fu;  // 0x80 - 'a', 0x80 - 'A'
    std::uint32_t const hi = to_upper ? 0x05050505u : 0x25252525u;  // 0x7F - 'z', 0x7F - 'Z'
    std::uint32_t const in_range = (w + lo) & ~(w + hi) & 0x80808080u;
    return w ^ (in_range >> 2);
  }
  // The offset of row k, counted from row 0's first byte.
  COLX_HOST_DEVICE std::int64_t row_start(size_type k) const {
    if (in.width >= 0) { return k * in.width; }
    if (in.large) {
      auto const* o = static_cast<std::int64_t const*>(in.offsets);
      return o[k] - o[0];
    }
    auto const* o = static_cast<std::int32_t const*>(in.offsets);
    return static_cast<std::int64_t>(o[k]) - o[0];
  }
  // The first row in [k, rows] that starts at or after byte p (rows past the last: the end).
  COLX_HOST_DEVICE size_type first_row_from(std::int64_t p, size_type k) const {
    size_type hi = in.size;
    while (k < hi) {
      size_type const mid = k + (hi - k) / 2;
      if (row_start(mid) < p) {
        k = mid + 1;
      } else {
        hi = mid;
      }
    }
    return k;
  }
  // Bit j: a row starts at byte b + j, for j in [0, 16] (the first row with bytes, and the end,
  // count as starts). A search a start, at most 17, so a run of empty rows costs no more than one.
  COLX_HOST_DEVICE std::uint32_t row_starts(std::int64_t b) const {
    std::uint32_t starts = 0;
    for (size_type k = first_row_from(b, 0); k <= in.size;) {
      std::int64_t const s = row_start(k);
      if (s - b > 16) { break; }
      starts |= 1u << (s - b);
      k = first_row_from(s + 1, k + 1);
    }
    return starts;
  }
  // Byte q mapped as utf8::write_case_mapped maps it within its row: a two-byte sequence is one
  // character only when both bytes lie in one row.
  COLX_HOST_DEVICE char byte_at(std::int64_t q, std::int64_t b, std::uint32_t starts) const {
    auto const at = [&](std::int64_t p) { return static_cast<unsigned char>(from[p]); };
    auto const lead = [](unsigned c) { return c >= 0xC0 && c < 0xE0; };
    auto const tail = [](unsigned c) { return (c & 0xC0u) == 0x80u; };
    unsigned const c = at(q);
    if (c < 0x80) { return static_cast<char>(utf8::map_case(c, to_upper)); }
    if (lead(c) && q + 1 < bytes && (starts >> (q + 1 - b) & 1u) == 0 && tail(at(q + 1))) {
      unsigned const m = utf8::map_case(((c & 0x1Fu) << 6) | (at(q + 1) & 0x3Fu), to_upper);
      return static_cast<char>(0xC0u | (m >> 6));
    }
    if (tail(c) && q > 0 && (starts >> (q - b) & 1u) == 0 && lead(at(q - 1))) {
      unsigned const m = utf8::map_case(((at(q - 1) & 0x1Fu) << 6) | (c & 0x3Fu), to_upper);
      return static_cast<char>(0x80u | (m & 0x3Fu));
    }
    return static_cast<char>(c);
  }
  COLX_HOST_DEVICE void operator()(size_type t) const {
    std::int64_t const b = 16 * t;
    std::int64_t const e = bytes - b < 16 ? bytes : b + 16;
#if defined(__CUDA_ARCH__)
    // Sixteen ASCII bytes, aligned: one load, four word maps, one store.
    if (e - b == 16 && ((reinterpret_cast<std::uintptr_t>(from + b) | reinterpret_cast<std::uintptr_t>(to + b)) & 15) == 0) {
      uint4 x = *reinterpret_cast<uint4 const*>(from + b);
      if (((x.x | x.y | x.z | x.w) & 0x80808080u) == 0) {
        x = {ascii_word(x.x, to_upper), ascii_word(x.y, to_upper), ascii_word(x.z, to_upper), ascii_word(x.w, to_upper)};
        *reinterpret_cast<uint4*>(to + b) = x;
        return;
      }
    }
#endif
    bool ascii = true;
    for (std::int64_t q = b; q < e; ++q) { ascii = ascii && static_cast<unsigned char>(from[q]) < 0x80; }
    std::uint32_t const starts = ascii ? 0 : row_starts(b);  // the rows matter only around other bytes
    for (std::int64_t q = b; q < e; ++q) { to[q] = byte_at(q, b, starts); }
  }
};

// upper(s) or lower(s) of a stored strings column's rows (an input view; the column's memory of
// `kind`): a new column with the same sizes and nulls. (A null row keeps its bytes, mapped, as
// Arrow allows; the general path writes it empty.)
[[nodiscard]] inline strings_column map_case(strings_input_view const& in, bool to_upper, memory_kind kind, stream_ref stream,
                                             resource_ref mr) {
  size_type const rows = in.size;
  std::int64_t first = 0, last = 0;  // row 0's first byte and the last row's end, in chars
  bool large = false;
  buffer offsets(0, stream, mr);
  // The input's offsets rebased to 0 (as concatenate rebases them), int32 where the bytes fit.
  auto const rebase = [&]<class In>(In const* o) {
    if (rows > 0) {
      first = read_value(o, kind, stream);
      last = read_value(o + rows, kind, stream);
    }
    large = last - first > std::numeric_limits<std::int32_t>::max();
    auto const write = [&]<class Out>(Out) {
      uvector<Out> out(rows + 1, stream, mr);
      if (rows == 0) {
        Out const zero = 0;
        copy_bytes(out.data(), kind, &zero, memory_kind::host, sizeof(Out), stream);
      } else {
        on_backend(kind, stream, [&](auto const& exec) {
          exec.for_each_n(rows + 1, rebase_offsets_fn<In, Out>{out.data(), o, static_cast<In>(first), Out{0}});
        });
      }
      offsets = std::move(out).release();
    };
    large ? write(std::int64_t{}) : write(std::int32_t{});
  };
  in.large ? rebase(static_cast<std::int64_t const*>(in.offsets)) : rebase(static_cast<std::int32_t const*>(in.offsets));
  std::int64_t const bytes = last - first;
  buffer chars(static_cast<std::size_t>(bytes), stream, mr);
  on_backend(kind, stream, [&](auto const& exec) {
    exec.for_each_n((bytes + 15) / 16, map_case_fn{in, in.chars + (in.width >= 0 ? 0 : first), static_cast<char*>(chars.data()), bytes, to_upper});
  });
  buffer mask(0, stream, mr);
  size_type nulls = 0;
  if (in.mask != nullptr && rows > 0) {
    mask = copy_bitmask(in.mask, in.mask_offset, in.mask_offset + rows, kind, stream, mr);
    nulls = count_unset_bits(static_cast<bitmask_type const*>(mask.data()), 0, rows, kind, stream);
  }
  std::vector<any_column> children;
  children.emplace_back(data_type{large ? type_id::int64 : type_id::int32}, rows + 1, std::move(offsets));
  any_column out(data_type{type_id::string}, rows, std::move(chars), std::move(mask), nulls, std::move(children));
  if (in.width >= 0) { out.set_uniform_bytes(in.width, built_uniform_offsets{}); }  // rebased, the offsets are i * width
  return strings_column(std::move(out));
}

}  // namespace colx::detail
