// SPDX-License-Identifier: Apache-2.0
#pragma once
// The GPU's decode pass: one block per page, all pages of all columns in one launch. A page is
// decoded in windows of 256 rows, a row per thread:
//   1. definition levels for the window's rows (RLE / bit-packed hybrid, below), each row's value
//      position among the page's values by a block scan of its valid flags;
//   2. the window's values: PLAIN fixed-width values are read in place; dictionary indices are
//      decoded like the levels; PLAIN byte arrays are walked by one thread (their lengths chain);
//   3. each thread writes its row; a warp's validity bits go out as one or two atomic ORs.
// A hybrid stream is expanded in parallel: one thread cuts the window into segments of runs
// (usually one or two), and every thread reads its value from its segment. Pages in encodings this
// path does not take (the DELTA_* encodings, BYTE_STREAM_SPLIT, RLE booleans, byte-array decimals)
// are decoded a thread each by the serial decoder the host uses, in a second kernel.
#include <colx/core/cuda_try.cuh>
#include <colx/gpu/executor.cuh>
#include <colx/io/parquet/page_decode.hpp>

#include <cub/block/block_scan.cuh>

#include <cstdint>

namespace colx::parquet::detail {

inline constexpr int decode_block = 256;
inline constexpr int stage_bytes = 8192;

struct run_segment {
  std::int32_t out;    // its first position in the window
  bool packed;
  std::uint32_t value;  // RLE
  std::uint8_t const* group;
  std::uint64_t first;  // bit-packed: its first value's index in the run
};

// Thread 0: cuts the next `count` values of `d` into segments (at most `count`); false on error.
__device__ inline bool cut_window(rle_decoder& d, int count, run_segment* segs, int& n) {
  n = 0;
  for (int out = 0; out < count;) {
    if (d.left == 0 && !d.start_run()) { return false; }
    int const take = d.left < static_cast<std::uint32_t>(count - out) ? static_cast<int>(d.left) : count - out;
    segs[n++] = {out, d.packed, d.repeated, d.group, d.index};
    if (d.packed) { d.index += static_cast<std::uint64_t>(take); }
    d.left -= static_cast<std::uint32_t>(take);
    out += take;
  }
  return true;
}

// Value i of the window the segments describe.
__device__ inline std::uint32_t window_value(run_segment const* segs, int n, int i, rle_decoder const& d) {
  int lo = 0, hi = n - 1;
  while (lo < hi) {
    int const mid = (lo + hi + 1) / 2;
    if (segs[mid].out <= i) {
      lo = mid;
    } else {
      hi = mid - 1;
    }
  }
  run_segment const& s = segs[lo];
  if (!s.packed) { return s.value; }
  return static_cast<std::uint32_t>(read_bits(s.group, d.end, (s.first + static_cast<std::uint64_t>(i - s.out)) * d.bit_width, d.bit_width));
}

struct block_page_state {
  rle_decoder levels, indices;
  std::uint8_t const* values = nullptr;  // PLAIN values (or the cursor of PLAIN byte arrays)
  std::uint8_t const* end = nullptr;
  std::int64_t value_base = 0;  // values before this window
  std::int32_t error = page_ok;
  std::int32_t nulls = 0;
  std::int32_t segments = 0;
  std::int32_t walked = 0;  // PLAIN byte arrays of the window found so far
  unsigned long long bytes = 0;
};

// Thread 0: where the levels and values start; an error code, or page_ok.
__device__ inline std::int32_t start_page(page_task const& p, column_task const& c, dictionary_task const* dict, block_page_state& s) {
  s.end = p.body + p.size;
  std::uint8_t const* values = p.body;
  if (p.def_bytes >= 0) {
    if (p.def_bytes + p.rep_bytes > p.size) { return page_truncated; }
    values = p.body + p.rep_bytes + p.def_bytes;  // v2: repetition levels, definition levels, values
    if (c.max_def > 0) { s.levels = rle_decoder(p.body + p.rep_bytes, p.body + p.rep_bytes + p.def_bytes, 1); }
  } else if (c.max_def > 0) {
    if (p.size < 4) { return page_truncated; }
    std::uint32_t const n = load_le32(p.body);
    if (n > static_cast<std::uint64_t>(p.size - 4)) { return page_truncated; }
    s.levels = rle_decoder(p.body + 4, p.body + 4 + n, 1);
    values = p.body + 4 + n;
  }
  s.values = values;
  if (p.values_encoding != encoding::plain) {
    if (dict == nullptr) { return page_no_dictionary; }
    if (values < s.end && *values <= 32) {
      s.indices = rle_decoder(values + 1, s.end, *values);
    } else if (p.num_values > 0) {
      s.indices = rle_decoder(s.end, s.end, 0);  // (no values: an all-null page may have no width byte)
    }
  }
  return page_ok;
}

// (A template, as colx's kernels are: a header's kernel is then defined once however many
// translation units include it.)
template <int Block = decode_block>
__global__ void __launch_bounds__(Block) decode_pages_kernel(page_task const* pages, column_task const* columns,
                                                                    dictionary_task const* dicts, page_outcome* outcomes, bool measure) {
  static_assert(Block == decode_block, "the shared arrays hold one window of decode_block rows");
  using block_scan = cub::BlockScan<int, Block>;
  __shared__ typename block_scan::TempStorage scan_storage;
  __shared__ block_page_state s;
  __shared__ run_segment segs[decode_block];
  __shared__ std::uint32_t window[decode_block];        // levels, then dictionary indices
  __shared__ std::int64_t string_at[decode_block];      // PLAIN byte arrays: where each value's bytes are
  __shared__ std::int32_t string_length[decode_block];
  __shared__ std::uint8_t stage[stage_bytes];            // PLAIN byte arrays: the bytes being walked

  page_task const p = pages[blockIdx.x];
  column_task const c = columns[p.column];
  dictionary_task const* dict = p.dictionary >= 0 ? dicts + p.dictionary : nullptr;
  int const t = static_cast<int>(threadIdx.x);
  if (measure && c.kind != value_kind::string) {  // (the measure pass is for strings)
    if (t == 0) { outcomes[blockIdx.x] = page_outcome{}; }
    return;
  }
  if (!block_decodable(p, c)) { return; }  // (decode_pages_fn's)
  if (t == 0) {
    s = block_page_state{};
    s.error = start_page(p, c, dict, s);
  }
  __syncthreads();
  // Errors: a thread that finds one keeps it in `err` (and the first one in s.error, for the
  // report); the block decides to stop with __syncthreads_or, so every thread leaves at the same
  // barrier (a thread reading s.error while another writes it could leave alone, and the others
  // would wait at a barrier it never reaches).
  int err = s.error;
  auto const fail = [&](std::int32_t code) {
    err = code;
    atomicCAS(&s.error, static_cast<std::int32_t>(page_ok), code);
  };
  bool const strings = c.kind == value_kind::string;
  bool const byte_arrays = strings && c.type == physical::byte_array;
  for (std::int32_t r0 = 0; r0 < p.num_values && err == page_ok; r0 += decode_block) {  // (err is uniform here)
    int const n = p.num_values - r0 < decode_block ? p.num_values - r0 : decode_block;
    // 1. Levels: which rows have values, and each one's position among the window's values.
    if (c.max_def > 0) {
      if (t == 0 && !cut_window(s.levels, n, segs, s.segments)) { fail(page_truncated); }
      if (__syncthreads_or(err)) { break; }
      if (t < n) { window[t] = window_value(segs, s.segments, t, s.levels); }
    }
    std::uint32_t const level = c.max_def > 0 && t < n ? window[t] : static_cast<std::uint32_t>(c.max_def);
    bool const valid = t < n && level == static_cast<std::uint32_t>(c.max_def);
    if (t < n && level > static_cast<std::uint32_t>(c.max_def)) { fail(page_bad_levels); }
    int position = 0, count = 0;
    block_scan(scan_storage).ExclusiveSum(valid ? 1 : 0, position, count);
    std::int64_t const value = s.value_base + position;  // this row's value among the page's
    std::int64_t const row = p.first_row + r0 + t;
    if (__syncthreads_or(err)) { break; }  // (also: window[] is reused below)

    // 2. The window's values.
    if (p.values_encoding != encoding::plain) {
      if (t == 0 && count > 0 && !cut_window(s.indices, count, segs, s.segments)) { fail(page_truncated); }
      if (__syncthreads_or(err)) { break; }
      if (t < count) { window[t] = window_value(segs, s.segments, t, s.indices); }
      __syncthreads();
    } else if (byte_arrays) {
      // The lengths chain (each value's place depends on the one before), so thread 0 walks them,
      // in shared memory: the block stages the next bytes first, in one coalesced read.
      if (t == 0) { s.walked = 0; }
      bool walked_all = false;
      while (!walked_all) {
        __syncthreads();
        std::int64_t const left = s.end - s.values;
        int const avail = left < stage_bytes ? static_cast<int>(left) : stage_bytes;
        for (int k = t; k < avail; k += Block) { stage[k] = s.values[k]; }
        __syncthreads();
        if (t == 0) {
          std::int64_t q = 0;
          while (s.walked < count && q + 4 <= avail) {
            std::uint32_t const len = load_le32(stage + q);
            if (len > static_cast<std::uint64_t>(left - q - 4)) {
              fail(page_truncated);
              break;
            }
            string_length[s.walked] = static_cast<std::int32_t>(len);
            string_at[s.walked] = (s.values - p.body) + q + 4;
            ++s.walked;
            q += 4 + len;
          }
          if (q == 0 && s.walked < count && err == page_ok) { fail(page_truncated); }  // not even a length is left
          s.values += q;
        }
        if (__syncthreads_or(err)) { break; }
        walked_all = s.walked >= count;  // (written by thread 0 before the barrier, read by all after it)
      }
      if (__syncthreads_or(err)) { break; }
    }

    // 3. This thread's row.
    std::uint8_t const* bytes = nullptr;
    std::int64_t length = 0;
    std::uint8_t tmp[8];
    if (valid) {
      if (p.values_encoding != encoding::plain) {
        std::uint32_t const i = window[position];
        if (i >= static_cast<std::uint32_t>(dict->entries)) {
          fail(page_bad_index);
        } else if (byte_arrays) {
          std::int64_t const at = dict->entry_at[i];
          length = load_le32(dict->body + at);
          bytes = dict->body + at + 4;
        } else {
          bytes = dict->body + static_cast<std::int64_t>(i) * c.in_width;
          length = c.in_width;
        }
      } else if (byte_arrays) {
        bytes = p.body + string_at[position];
        length = string_length[position];
      } else if (c.kind == value_kind::boolean) {
        if (value / 8 >= s.end - s.values) {
          fail(page_truncated);
        } else {
          tmp[0] = static_cast<std::uint8_t>(read_bits(s.values, s.end, static_cast<std::uint64_t>(value), 1));
          bytes = tmp;
        }
      } else if ((value + 1) * c.in_width > s.end - s.values) {
        fail(page_truncated);
      } else {
        bytes = s.values + value * c.in_width;
        length = c.in_width;
      }
    }
    if (bytes != nullptr || !valid) {
      if (strings) {
        if (measure) {
          if (t < n) { c.lengths[row] = static_cast<std::int32_t>(length); }
        } else if (valid) {
          std::int64_t const at = c.offsets64 != nullptr ? c.offsets64[row] : c.offsets32[row];
          copy_raw(c.chars + at, bytes, length);
        }
      } else if (t < n) {
        std::uint8_t* const dst = c.values + row * c.out_width;
        if (valid) {
          store_value(c, dst, bytes, length);
        } else {
          for (std::int32_t b = 0; b < c.out_width; ++b) { dst[b] = 0; }
        }
      }
    }
    if (strings && measure) {  // the page's bytes: a sum per warp, one shared atomic each
      auto sum = static_cast<unsigned long long>(length);
      for (int d = 16; d > 0; d /= 2) { sum += __shfl_down_sync(0xffffffffu, sum, d); }
      if ((t & 31) == 0 && sum > 0) { atomicAdd(&s.bytes, sum); }
    }
    // Validity: a warp's 32 rows straddle at most two words of the mask.
    if (c.mask != nullptr && !measure) {
      unsigned const bits = __ballot_sync(0xffffffffu, valid);
      if ((t & 31) == 0 && bits != 0) {
        std::int64_t const first = p.first_row + r0 + (t & ~31);
        auto const shift = static_cast<unsigned>(first % 32);
        colx::detail::atomic_or(c.mask + first / 32, bits << shift);
        if (shift != 0 && (bits >> (32 - shift)) != 0) { colx::detail::atomic_or(c.mask + first / 32 + 1, bits >> (32 - shift)); }
      }
    }
    if (t == 0) {
      s.nulls += n - count;
      s.value_base += count;
    }
    if (__syncthreads_or(err)) { break; }
  }
  __syncthreads();
  if (t == 0) { outcomes[blockIdx.x] = page_outcome{static_cast<std::int64_t>(s.bytes), s.nulls, s.error}; }
}

// A block per BYTE_ARRAY dictionary: where each entry starts, walked by thread 0 through bytes the
// block stages in shared memory (index_dictionaries_fn's work, without a memory wait per entry).
template <int Block = decode_block>
__global__ void __launch_bounds__(Block) index_dictionaries_kernel(dictionary_task const* dicts, std::int32_t* errors) {
  __shared__ std::uint8_t stage[stage_bytes];
  __shared__ std::int64_t cursor;
  __shared__ std::int32_t found;
  __shared__ std::int32_t error;
  dictionary_task const d = dicts[blockIdx.x];
  int const t = static_cast<int>(threadIdx.x);
  if (t == 0) {
    cursor = 0;
    found = 0;
    error = page_ok;
  }
  __syncthreads();
  while (d.entry_at != nullptr && found < d.entries) {
    std::int64_t const left = d.size - cursor;
    int const avail = left < stage_bytes ? static_cast<int>(left) : stage_bytes;
    for (int k = t; k < avail; k += Block) { stage[k] = d.body[cursor + k]; }
    __syncthreads();
    if (t == 0) {
      std::int64_t q = 0;
      while (found < d.entries && q + 4 <= avail) {
        std::uint32_t const len = load_le32(stage + q);
        if (len > static_cast<std::uint64_t>(left - q - 4)) {
          error = page_truncated;
          break;
        }
        d.entry_at[found++] = cursor + q;
        q += 4 + len;
      }
      if (q == 0) { error = page_truncated; }
      cursor += q;
    }
    __syncthreads();
    if (error != page_ok) { break; }
  }
  if (t == 0) { errors[blockIdx.x] = error; }
}

inline void index_dictionaries_pass(gpu::executor const& exec, size_type n_dicts, dictionary_task const* dicts, std::int32_t* errors) {
  if (n_dicts == 0) { return; }
  index_dictionaries_kernel<><<<static_cast<unsigned>(n_dicts), decode_block, 0, exec.stream.value()>>>(dicts, errors);
  COLX_CUDA_TRY(cudaGetLastError());
}

// The pass over every page: a block per page, and a thread per page the blocks leave.
inline void decode_pass(gpu::executor const& exec, size_type n_pages, page_task const* pages, column_task const* columns,
                        dictionary_task const* dicts, page_outcome* outcomes, bool measure) {
  if (n_pages == 0) { return; }
  decode_pages_kernel<><<<static_cast<unsigned>(n_pages), decode_block, 0, exec.stream.value()>>>(pages, columns, dicts, outcomes, measure);
  COLX_CUDA_TRY(cudaGetLastError());
  // The pages it leaves, a thread each, by the serial decoder: a kernel of their own, as inside the
  // block kernel the serial decoder's registers would cost that kernel occupancy.
  exec.for_each_n(n_pages, decode_pages_fn{pages, columns, dicts, outcomes, measure, true});
}

}  // namespace colx::parquet::detail
