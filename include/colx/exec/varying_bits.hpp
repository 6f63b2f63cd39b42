// SPDX-License-Identifier: Apache-2.0
#pragma once
// The bits in which a radix sort's keys differ. A bit that every key has alike orders nothing, and
// keys rarely use their word's width: TPC-H's order keys fit 30 bits of an int64, a date 16 of
// 32, and a key packed with its null flag starts in the word's middle. CUB's radix sort takes a
// range [begin, end) of bits and makes a pass per 8 or so of them, so a sort of keys that differ
// in 30 bits makes 4 passes instead of 8. Finding the range is one read of the keys, or of a
// sample of them when the sample already differs in the word's lowest and highest bits.
#include <colx/core/config.hpp>

#include <cstdint>

namespace colx::detail {

// The AND and the OR of words: the bits that vary are those in `any` but not in `all`.
template <class Word>
struct word_span {
  Word all;
  Word any;
};
template <class Word>
struct word_span_fn {
  Word const* words;
  COLX_HOST_DEVICE word_span<Word> operator()(size_type i) const { return {words[i], words[i]}; }
};
struct merge_word_spans_fn {
  template <class Word>
  COLX_HOST_DEVICE word_span<Word> operator()(word_span<Word> const& a, word_span<Word> const& b) const {
    return {static_cast<Word>(a.all & b.all), static_cast<Word>(a.any | b.any)};
  }
};

struct bit_range {
  int begin = 0;
  int end = 0;  // begin == end: every key is the same
};

// [lowest, highest + 1) of the set bits of w (an unsigned word of up to 128 bits).
template <class Word>
constexpr bit_range set_bits_range(Word w) {
  bit_range r;
  if (w == 0) { return r; }
  constexpr int bits = static_cast<int>(sizeof(Word) * 8);
  r.begin = 0;
  while (((w >> r.begin) & 1u) == 0) { ++r.begin; }
  r.end = bits;
  while (((w >> (r.end - 1)) & 1u) == 0) { --r.end; }
  return r;
}

// Every stride-th word.
template <class Word>
struct strided_word_span_fn {
  Word const* words;
  size_type stride;
  COLX_HOST_DEVICE word_span<Word> operator()(size_type i) const {
    Word const w = words[i * stride];
    return {w, w};
  }
};

// How many words the sample that may settle the range first reads (varying_bits).
inline constexpr size_type varying_bits_sample = 4096;

// The range of bits in which the n words differ (synchronises the stream).
//
// A sample of the words is read first. A bit in which the sampled words differ is one in which
// the n words differ, so when the sample already differs in the word's lowest and highest bits,
// the range is the whole word and the pass over every word is skipped: for random keys that pass
// finds nothing and cost 0.24 ms of a 15.9 ms sort of 100M rows with payloads (H200).
template <class Exec, class Word>
bit_range varying_bits(Exec const& exec, size_type n, Word const* words) {
  if (n <= 1) { return {}; }
  word_span<Word> const none{static_cast<Word>(~Word{0}), Word{0}};
  if (n >= 4 * varying_bits_sample) {
    auto const sample = exec.transform_reduce(varying_bits_sample, none, strided_word_span_fn<Word>{words, n / varying_bits_sample},
                                              merge_word_spans_fn{});
    bit_range const seen = set_bits_range(static_cast<Word>(sample.any ^ sample.all));
    if (seen.begin == 0 && seen.end == static_cast<int>(sizeof(Word) * 8)) { return seen; }
  }
  auto const span = exec.transform_reduce(n, none, word_span_fn<Word>{words}, merge_word_spans_fn{});
  return set_bits_range(static_cast<Word>(span.any ^ span.all));
}

}  // namespace colx::detail
