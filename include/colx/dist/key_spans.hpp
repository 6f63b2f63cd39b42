// SPDX-License-Identifier: Apache-2.0
#pragma once
// Where a rank's values of one integer key lie: a few disjoint spans [low, high] covering them.
//
// Data is often already split by key: files written in key order (TPC-H's tables by order key,
// logs by time), read one file per rank. Then each rank's keys lie in spans apart from every
// other rank's, equal keys already share a rank, and a group-by or join on that key needs no
// shuffle, or moves only the few rows where two ranks' files meet (dist/colocated.hpp). The
// spans are found from the rows themselves, so any data gives a correct answer: scattered keys
// give overlapping spans, and the operations shuffle as before.
//
// A rank's rows are cut into chunks; each chunk gives the least and greatest key, or, when its
// keys do not decrease, its first and last key split at the widest step between neighbours (a
// chunk where two files meet holds two runs, far apart). Chunks are summarised in two passes (256
// rows a summary, then a summary a chunk), the chunks' spans merged on the host, and, past
// max_key_spans, merged again across the narrowest gaps.
#include <colx/core/integer_values.hpp>
#include <colx/dist/communicator.hpp>
#include <colx/exec/dispatch.hpp>
#include <colx/frame/frame.hpp>
#include <colx/memory/copy_bytes.hpp>
#include <colx/memory/uvector.hpp>

#include <algorithm>
#include <cstdint>
#include <numeric>
#include <span>
#include <utility>
#include <vector>

namespace colx::dist {
namespace detail {

inline constexpr int max_key_spans = 128;

// One rank's spans, fixed size so that one all_gather carries every rank's.
struct key_spans {
  std::int32_t count = -1;  // -1: not known (a key that is not an integer, or a failure)
  std::int32_t nulls = 0;   // 1: this rank holds a null key
  std::int64_t low[max_key_spans] = {};
  std::int64_t high[max_key_spans] = {};
};

// Keys whose values the spans hold: integers, as int64s (a uint64 past 2^63 would not).
template <class T>
inline constexpr bool span_key_v = plain_integer<T> && (std::is_signed_v<T> || sizeof(T) < sizeof(std::int64_t));

// The keys of some consecutive rows.
struct run_summary {
  std::int64_t low = 0, high = 0;            // least and greatest valid key
  std::int64_t first = 0, last = 0;          // the first and last valid key in row order
  std::int64_t step_low = 0, step_high = 0;  // the widest step up between neighbours (equal: none)
  std::uint32_t valid = 0;                   // 0: no valid key (the rest unset)
  std::uint32_t ascending = 1;               // the valid keys never decrease
  std::uint32_t nulls = 0;
};
// a's rows, then b's.
COLX_HOST_DEVICE inline run_summary combine(run_summary a, run_summary const& b) {
  a.nulls |= b.nulls;
  if (b.valid == 0) { return a; }
  if (a.valid == 0) {
    run_summary out = b;
    out.nulls = a.nulls;
    return out;
  }
  a.ascending = a.ascending && b.ascending && a.last <= b.first;
  if (a.ascending) {
    auto const width = [](std::int64_t lo, std::int64_t hi) { return static_cast<std::uint64_t>(hi) - static_cast<std::uint64_t>(lo); };
    if (width(a.last, b.first) > width(a.step_low, a.step_high)) {
      a.step_low = a.last;
      a.step_high = b.first;
    }
    if (width(b.step_low, b.step_high) > width(a.step_low, a.step_high)) {
      a.step_low = b.step_low;
      a.step_high = b.step_high;
    }
  }
  a.low = a.low < b.low ? a.low : b.low;
  a.high = a.high > b.high ? a.high : b.high;
  a.last = b.last;
  return a;
}

inline constexpr size_type rows_per_summary = 256;
inline constexpr size_type span_chunks = 2048;

template <class Inputs, class Key>
struct summarise_rows_fn {
  Inputs in;
  Key key;
  size_type n;
  run_summary* out;
  COLX_HOST_DEVICE void operator()(size_type s) const {
    size_type const begin = s * rows_per_summary;
    size_type const end = begin + rows_per_summary < n ? begin + rows_per_summary : n;
    run_summary r;
    for (size_type i = begin; i < end; ++i) {
      auto const m = key(in, i);
      run_summary one;
      if (m.valid) {
        auto const v = static_cast<std::int64_t>(m.value);
        one.low = one.high = one.first = one.last = one.step_low = one.step_high = v;
        one.valid = 1;
      } else {
        one.nulls = 1;
      }
      r = combine(r, one);
    }
    out[s] = r;
  }
};
struct summarise_chunks_fn {
  run_summary const* summaries;
  size_type count;
  size_type per_chunk;
  run_summary* out;
  COLX_HOST_DEVICE void operator()(size_type c) const {
    size_type const begin = c * per_chunk;
    size_type const end = begin + per_chunk < count ? begin + per_chunk : count;
    run_summary r;
    for (size_type s = begin; s < end; ++s) { r = combine(r, summaries[s]); }
    out[c] = r;
  }
};

struct span {
  std::int64_t low, high;
};

// Sorted spans, overlapping or touching ones merged, then at most `most` of them: the narrowest
// gaps closed first.
inline std::vector<span> merged_spans(std::vector<span> spans, std::size_t most) {
  std::sort(spans.begin(), spans.end(), [](span a, span b) { return a.low < b.low; });
  std::vector<span> out;
  for (span s : spans) {
    if (!out.empty() && s.low <= out.back().high + (out.back().high < INT64_MAX ? 1 : 0)) {
      out.back().high = std::max(out.back().high, s.high);
    } else {
      out.push_back(s);
    }
  }
  if (out.size() <= most) { return out; }
  // Keep the widest most - 1 gaps.
  std::vector<std::size_t> gaps(out.size() - 1);
  std::iota(gaps.begin(), gaps.end(), std::size_t{0});
  auto const width = [&](std::size_t g) {
    return static_cast<std::uint64_t>(out[g + 1].low) - static_cast<std::uint64_t>(out[g].high);
  };
  std::nth_element(gaps.begin(), gaps.begin() + static_cast<std::ptrdiff_t>(most - 1), gaps.end(),
                   [&](std::size_t a, std::size_t b) { return width(a) > width(b); });
  std::vector<bool> kept(out.size() - 1, false);
  for (std::size_t k = 0; k + 1 < most; ++k) { kept[gaps[k]] = true; }
  std::vector<span> fewer{out.front()};
  for (std::size_t g = 0; g + 1 < out.size(); ++g) {
    if (kept[g]) {
      fewer.push_back(out[g + 1]);
    } else {
      fewer.back().high = out[g + 1].high;
    }
  }
  return fewer;
}

// The spans of a frame's key column `Key` (a column of integers).
template <class Schema, class Key>
key_spans spans_of(frame<Schema> const& f, Key const& key, stream_ref stream) {
  key_spans out;
  size_type const n = f.num_rows();
  out.count = 0;
  if (n == 0) { return out; }
  auto const bound = expr::bind<Schema>(key);
  size_type const summaries = (n + rows_per_summary - 1) / rows_per_summary;
  size_type const chunks = std::min(summaries, span_chunks);
  size_type const per_chunk = (summaries + chunks - 1) / chunks;
  resource_ref const mr = get_current_resource(f.kind());
  uvector<run_summary> rows(summaries, stream, mr);
  uvector<run_summary> chunked(chunks, stream, mr);
  on_backend(f.kind(), stream, [&](auto const& exec) {
    exec.for_each_n(summaries, summarise_rows_fn<typename frame<Schema>::inputs_type, std::remove_cvref_t<decltype(bound)>>{
                                   f.inputs(), bound, n, rows.data()});
    exec.for_each_n(chunks, summarise_chunks_fn{rows.data(), summaries, per_chunk, chunked.data()});
  });
  std::vector<run_summary> host(static_cast<std::size_t>(chunks));
  colx::detail::copy_bytes(host.data(), memory_kind::host, chunked.data(), f.kind(), host.size() * sizeof(run_summary), stream);
  stream.synchronize();
  std::vector<span> spans;
  for (run_summary const& r : host) {
    out.nulls |= static_cast<std::int32_t>(r.nulls);
    if (r.valid == 0) { continue; }
    if (r.ascending && static_cast<std::uint64_t>(r.step_high) - static_cast<std::uint64_t>(r.step_low) > 1) {
      spans.push_back({r.first, r.step_low});
      spans.push_back({r.step_high, r.last});
    } else if (r.ascending) {
      spans.push_back({r.first, r.last});
    } else {
      spans.push_back({r.low, r.high});
    }
  }
  auto const merged = merged_spans(std::move(spans), max_key_spans);
  out.count = static_cast<std::int32_t>(merged.size());
  for (std::size_t s = 0; s < merged.size(); ++s) {
    out.low[s] = merged[s].low;
    out.high[s] = merged[s].high;
  }
  return out;
}

// ---- a sample first --------------------------------------------------------------------------
// Finding the spans reads a rank's whole key column: wasted where the keys are scattered, as they
// are when the data is not split by key. A few keys at evenly spaced rows tell that first, riding
// on a collective the step makes anyway. (2 × H200, bench_dist's join of 10^9 × 10^8 rows: the
// spans of a rank's 5·10^8 left keys take 3.2 ms, a sample 0.06 ms; the broadcast join 72.0 →
// 68.5 ms in one run.) Two ranks' sampled keys may prove that their spans cannot be apart: where
// both hold one key, or where a rank's sampled keys, sorted with every other rank's, fall into
// more runs than it may have spans (its spans cover its sampled keys, so one of them would hold
// another rank's key between two runs, and that rank's spans hold that key too). Spans are then
// not looked for. A sample never proves that spans are apart: only the spans can.
inline constexpr int spans_sample_size = 512;

struct spans_sample {
  std::int32_t count = -1;  // valid keys sampled; -1: none taken
  std::int64_t keys[spans_sample_size] = {};
};

struct sampled_key {
  std::int64_t value;
  std::uint32_t valid;
};
template <class Inputs, class Key>
struct sample_keys_fn {
  Inputs in;
  Key key;
  size_type n;
  size_type count;
  sampled_key* out;
  COLX_HOST_DEVICE void operator()(size_type s) const {
    auto const m = key(in, s * n / count);  // (s < 512: no overflow below 2^54 rows)
    out[s] = {static_cast<std::int64_t>(m.value), m.valid ? 1u : 0u};
  }
};

// The valid keys of up to spans_sample_size evenly spaced rows of a frame's key column `Key`.
template <class Schema, class Key>
spans_sample sample_of(frame<Schema> const& f, Key const& key, stream_ref stream) {
  spans_sample out;
  out.count = 0;
  size_type const n = f.num_rows();
  if (n == 0) { return out; }
  size_type const count = std::min<size_type>(n, spans_sample_size);
  auto const bound = expr::bind<Schema>(key);
  uvector<sampled_key> keys(count, stream, get_current_resource(f.kind()));
  on_backend(f.kind(), stream, [&](auto const& exec) {
    exec.for_each_n(count, sample_keys_fn<typename frame<Schema>::inputs_type, std::remove_cvref_t<decltype(bound)>>{
                               f.inputs(), bound, n, count, keys.data()});
  });
  std::vector<sampled_key> host(static_cast<std::size_t>(count));
  colx::detail::copy_bytes(host.data(), memory_kind::host, keys.data(), f.kind(), host.size() * sizeof(sampled_key), stream);
  stream.synchronize();
  for (sampled_key const& k : host) {
    if (k.valid != 0) { out.keys[out.count++] = k.value; }
  }
  return out;
}

// Whether the samples of some ranks leave those ranks' spans possibly apart: false where they
// prove the spans overlap (above).
inline bool samples_may_be_apart(std::span<spans_sample const> all) {
  std::vector<std::pair<std::int64_t, std::size_t>> keys;  // (key, rank), sorted
  for (std::size_t r = 0; r < all.size(); ++r) {
    for (int k = 0; k < all[r].count; ++k) { keys.emplace_back(all[r].keys[k], r); }
  }
  std::sort(keys.begin(), keys.end());
  std::vector<int> runs(all.size(), 0);
  for (std::size_t k = 0; k < keys.size(); ++k) {
    if (k > 0 && keys[k].first == keys[k - 1].first && keys[k].second != keys[k - 1].second) { return false; }
    if (k == 0 || keys[k].second != keys[k - 1].second) {
      if (++runs[keys[k].second] > max_key_spans) { return false; }
    }
  }
  return true;
}

// Every rank's spans apart from every other rank's (each rank's are already apart from its own:
// then, sorted by their lows, each span begins past every span before it). With `one_null`, also
// at most one rank holding null keys (a group-by's null group).
inline bool spans_apart(std::span<key_spans const> all, bool one_null) {
  std::vector<span> every;
  int with_nulls = 0;
  for (key_spans const& s : all) {
    if (s.count < 0) { return false; }
    with_nulls += s.nulls != 0 ? 1 : 0;
    for (int k = 0; k < s.count; ++k) { every.push_back({s.low[k], s.high[k]}); }
  }
  if (one_null && with_nulls > 1) { return false; }
  std::sort(every.begin(), every.end(), [](span a, span b) { return a.low < b.low; });
  for (std::size_t k = 1; k < every.size(); ++k) {
    if (every[k].low <= every[k - 1].high) { return false; }
    every[k].high = std::max(every[k].high, every[k - 1].high);
  }
  return true;
}

}  // namespace detail
}  // namespace colx::dist
