// SPDX-License-Identifier: Apache-2.0
#pragma once
// Rows moved to the rank that already holds their key (dist/key_spans.hpp): when one side of a
// join has its keys apart on the ranks, each row of the other side goes to the rank whose spans
// hold its key, and stays where it is when none does (then no row of the first side has its key,
// on any rank). Only the rows where two ranks' files meet move; each row still lives on exactly
// one rank, so every kind of join (right and full included) stays correct.
#include <colx/dist/dist_frame.hpp>
#include <colx/dist/key_spans.hpp>
#include <colx/dist/limits.hpp>
#include <colx/dist/partition.hpp>

#include <algorithm>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

namespace colx::dist::detail {

// Row i goes to the rank of the span holding its key (`count` spans sorted by low, apart), else
// to `self`.
template <class Inputs, class Key>
struct span_owner_fn {
  Inputs in;
  Key key;
  std::int64_t const* low;
  std::int64_t const* high;
  std::int32_t const* rank;
  size_type count;
  std::uint32_t self;
  std::uint32_t* out;
  COLX_HOST_DEVICE void operator()(size_type i) const {
    auto const m = key(in, i);
    std::uint32_t to = self;
    if (m.valid) {
      auto const v = static_cast<std::int64_t>(m.value);
      size_type lo = 0;  // the first span whose low is past v
      size_type hi = count;
      while (lo < hi) {
        size_type const mid = lo + (hi - lo) / 2;
        if (low[mid] <= v) {
          lo = mid + 1;
        } else {
          hi = mid;
        }
      }
      if (lo > 0 && v <= high[lo - 1]) { to = static_cast<std::uint32_t>(rank[lo - 1]); }
    }
    out[i] = to;
  }
};

// Each rank's spans of a key column, gathered in one collective. A rank that cannot tell (its
// key is not an integer column, the limits say not to look, or the summary failed) sends
// "unknown", which keeps every rank on the shuffling path.
template <class Schema, class Key>
key_spans spans_or_unknown(frame<Schema> const& f, Key const& key, stream_ref stream) {
  if (!limits().key_spans) { return {}; }
  try {
    return spans_of(f, key, stream);
  } catch (...) {
    return {};  // the shuffle that follows reports a lasting failure on every rank
  }
}

// What a rank first tells the others of a key column: its spans where finding them is quick
// (fewer rows than limits().key_sample_rows), else a sample of its keys (dist/key_spans.hpp), so
// that the pass over the column is made only where the samples leave the spans possibly apart.
struct key_look {
  spans_sample sample;  // count -1: none taken (the spans are given)
  key_spans spans;      // count -1: unknown, where no sample was taken
};
template <class Schema, class Key>
key_look look_at(frame<Schema> const& f, Key const& key, stream_ref stream) {
  key_look look;
  if (!limits().key_spans) { return look; }
  if (f.num_rows() < limits().key_sample_rows) {
    look.spans = spans_or_unknown(f, key, stream);
    return look;
  }
  try {
    look.sample = sample_of(f, key, stream);
  } catch (...) {
    look.sample = {};  // unknown spans: the shuffle that follows reports a lasting failure
  }
  return look;
}
// What a rank sends that has not looked yet: an empty sample, which proves nothing, so that its
// spans are found in a second collective where they may be used.
inline key_look later_look() {
  key_look look;
  if (limits().key_spans) { look.sample.count = 0; }
  return look;
}
// Whether every rank's look leaves the spans possibly apart: none unknown, and the samples not
// proving an overlap.
inline bool may_be_apart(std::span<key_look const> looks) {
  std::vector<spans_sample> samples;
  for (key_look const& l : looks) {
    if (l.sample.count >= 0) {
      samples.push_back(l.sample);
    } else if (l.spans.count < 0) {
      return false;
    }
  }
  return samples_may_be_apart(samples);
}
// Whether some rank sent a sample, so that the spans take a collective of their own.
inline bool some_sampled(std::span<key_look const> looks) {
  return std::any_of(looks.begin(), looks.end(), [](key_look const& l) { return l.sample.count >= 0; });
}
// This rank's spans: those its look gave, else found now.
template <class Schema, class Key>
key_spans own_spans(key_look const& look, frame<Schema> const& f, Key const& key, stream_ref stream) {
  return look.sample.count >= 0 ? spans_or_unknown(f, key, stream) : look.spans;
}
// The spans every rank's look gave (where none sampled).
inline std::vector<key_spans> given_spans(std::span<key_look const> looks) {
  std::vector<key_spans> out;
  for (key_look const& l : looks) { out.push_back(l.spans); }
  return out;
}

// The rows of `d` moved to the rank whose spans (`all`: every rank's, apart) hold their key.
template <class Schema, class Key>
dist_frame<Schema> move_to_spans(dist_frame<Schema> const& d, Key const& key, std::span<key_spans const> all,
                                 char const* step, stream_ref stream) {
  auto& comm = d.comm();
  auto grouped = agreed(comm, std::string(step) + " (partition)", [&] {
    frame<Schema> const& f = d.local();
    std::vector<std::pair<span, std::int32_t>> spans;
    for (std::size_t r = 0; r < all.size(); ++r) {
      for (int k = 0; k < all[r].count; ++k) { spans.push_back({{all[r].low[k], all[r].high[k]}, static_cast<std::int32_t>(r)}); }
    }
    std::sort(spans.begin(), spans.end(), [](auto const& a, auto const& b) { return a.first.low < b.first.low; });
    std::vector<std::int64_t> lows, highs;
    std::vector<std::int32_t> ranks;
    for (auto const& [s, r] : spans) {
      lows.push_back(s.low);
      highs.push_back(s.high);
      ranks.push_back(r);
    }
    resource_ref const mr = get_current_resource(f.kind());
    uvector<std::int64_t> const low(std::span<std::int64_t const>(lows), stream, mr);
    uvector<std::int64_t> const high(std::span<std::int64_t const>(highs), stream, mr);
    uvector<std::int32_t> const rank(std::span<std::int32_t const>(ranks), stream, mr);
    uvector<std::uint32_t> destination(f.num_rows(), stream, mr);
    if (f.num_rows() > 0) {
      auto const bound = expr::bind<Schema>(key);
      span_owner_fn<typename frame<Schema>::inputs_type, std::remove_cvref_t<decltype(bound)>> const fn{
          f.inputs(), bound, low.data(), high.data(), rank.data(), static_cast<size_type>(lows.size()),
          static_cast<std::uint32_t>(comm.rank()), destination.data()};
      on_backend(f.kind(), stream, [&](auto const& exec) { exec.for_each_n(f.num_rows(), fn); });
    }
    auto out = group_by_destination(f, destination.data(), comm.size(), stream);
    stream.synchronize();  // the step's time is the work's; the host vectors above outlive the copies
    return out;
  });
  return {comm, exchange_rows(comm, grouped.first, std::span<size_type const>(grouped.second), step, stream)};
}

}  // namespace colx::dist::detail
