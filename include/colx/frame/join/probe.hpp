// SPDX-License-Identifier: Apache-2.0
#pragma once
// A join's probe: each left row (that passes the pending filter) looks up its key in the build
// side's table (join/table.hpp). Where each probe row has at most one output row (semi and anti
// joins; inner and left joins against unique build keys), the probe is one compaction pass that
// carries each kept row's build partner to where it is written. Otherwise the probe side is walked
// twice: once counting each row's output rows (a scan gives where each row's output starts), once
// writing them. Output rows come in probe order; a probe row's matches in an unspecified order.
#include <colx/exec/atomics.hpp>
#include <colx/exec/dispatch.hpp>
#include <colx/exec/open_addressing.hpp>
#include <colx/exec/select_verdict.hpp>
#include <colx/frame/join/table.hpp>
#include <colx/memory/copy_bytes.hpp>
#include <colx/memory/uvector.hpp>

#include <atomic>
#include <cstdint>

namespace colx::detail {

template <join_kind How, class ProbeInputs, class Pred, class ProbeKeys, class BuildKeys>
struct probe_fn {
  ProbeInputs in;
  Pred pred;
  ProbeKeys keys;  // over their own inputs: a key the build side keys on codes reads codes
  BuildKeys build;
  std::uint64_t const* slots;
  std::uint64_t mask;
  std::uint64_t wrap;  // walks wrap within bands of wrap + 1 slots (join/entries.hpp)
  bool nulls_equal;
  membership members{};  // a semi or anti join's build keys as bits, where they are (then no slots)

  COLX_HOST_DEVICE bool kept(size_type i) const {
    auto const p = pred(in, i);
    return p.valid && static_cast<bool>(p.value);
  }
  // visit(build_row, k) for the k-th match of probe row i; returns the number of matches.
  template <class Visit>
  COLX_HOST_DEVICE size_type for_each_match(size_type i, Visit const& visit) const {
    if (!nulls_equal && !keys.all_valid(i)) { return 0; }
    // Whether the key occurs; which build row holds it is not asked. (A build side keeps a
    // membership only for one integer key, and integers join only integers: such a probe always
    // takes this branch, never the table a membership lacks.)
    if constexpr ((How == join_kind::semi || How == join_kind::anti) && membership_probe_keys_v<ProbeKeys>) {
      if (members.bits != nullptr) {
        auto const k = std::tuple_element_t<0, typename ProbeKeys::key_list>{}(keys.in, i);
        using value = std::remove_cvref_t<decltype(k.value)>;
        if constexpr (std::is_unsigned_v<value> && sizeof(value) == sizeof(std::int64_t)) {
          if (k.value >= (value{1} << 63)) { return 0; }
        }
        if (!members.contains(static_cast<std::int64_t>(k.value))) { return 0; }
        visit(size_type{0}, size_type{0});
        return 1;
      }
    }
    size_type matches = 0;
    if constexpr (BuildKeys::packed) {
      bool const hashed = BuildKeys::hashed_words(nulls_equal);
      bool ok = true;
      std::uint64_t const w = hashed ? keys.hash(i) : keys.template pack_as<BuildKeys>(i, ok);
      if (!ok) { return 0; }
      (void)for_each_entry(
          mask, mix64(w), [&](std::uint64_t p) { return read_slot(slots, p); },
          [](packed_slot const& e) { return e.row == empty_entry; },
          [&](packed_slot const& e) {
            auto const r = static_cast<size_type>(e.row);
            if (e.keys == w && (!hashed || keys.equal(i, build, r))) { visit(r, matches++); }
          },
          wrap);
    } else {
      std::uint64_t const h = keys.hash(i);
      std::uint64_t const tag = h & tag_bits;
      (void)for_each_entry(
          mask, h, [&](std::uint64_t p) { return slots[p]; }, [](std::uint64_t e) { return e == empty_entry; },
          [&](std::uint64_t e) {
            if ((e & tag_bits) != tag) { return; }
            auto const r = static_cast<size_type>(e & ~tag_bits);
            if (keys.equal(i, build, r)) { visit(r, matches++); }
          },
          wrap);
    }
    return matches;
  }
  struct ignore {
    COLX_HOST_DEVICE void operator()(size_type, size_type) const {}
  };
  // Output rows of probe row i.
  COLX_HOST_DEVICE size_type output_rows(size_type i) const {
    if (!kept(i)) { return 0; }
    size_type const m = for_each_match(i, ignore{});
    if constexpr (How == join_kind::semi) {
      return m > 0 ? 1 : 0;
    } else if constexpr (How == join_kind::anti) {
      return m == 0 ? 1 : 0;
    } else if constexpr (How == join_kind::left || How == join_kind::full) {
      return m > 0 ? m : 1;
    } else {
      return m;
    }
  }
};

// ---- one pass, where each probe row has at most one output row ----------------------------------
// Semi and anti joins always, inner and left joins against unique build keys: the output is a
// compaction of the probe rows (select_rows), each probe row probed once, in probe order.
template <join_kind How>
inline constexpr bool at_most_one_output_row = How == join_kind::semi || How == join_kind::anti;

struct probe_match {
  size_type probe_row;
  size_type build_row;  // -1 for none
};
template <class Probe>
COLX_HOST_DEVICE size_type only_match(Probe const& probe, size_type i) {
  struct keep_last {
    size_type* r;
    COLX_HOST_DEVICE void operator()(size_type b, size_type) const { *r = b; }
  };
  size_type r = -1;
  (void)probe.for_each_match(i, keep_last{&r});
  return r;
}
// Inner and left joins keep a probe row with the build row it found (exec/select_verdict.hpp), so
// the row is not looked up again to be written.
struct probe_verdict {
  size_type build_row = -1;
  bool keep = false;
  COLX_HOST_DEVICE explicit operator bool() const { return keep; }
};
template <join_kind How, class Probe>
struct single_match_keep_fn {
  Probe probe;
  COLX_HOST_DEVICE auto operator()(size_type i) const {
    if constexpr (How == join_kind::semi || How == join_kind::anti) {
      if (!probe.kept(i)) { return false; }
      return (only_match(probe, i) >= 0) == (How == join_kind::semi);
    } else {
      if (!probe.kept(i)) { return probe_verdict{}; }
      size_type const r = only_match(probe, i);
      return probe_verdict{r, How == join_kind::left || r >= 0};
    }
  }
};
struct single_match_load_fn {
  COLX_HOST_DEVICE probe_match operator()(size_type i) const { return {i, -1}; }  // semi and anti
  COLX_HOST_DEVICE probe_match operator()(size_type i, probe_verdict v) const { return {i, v.build_row}; }
};
template <class Sink>
struct single_match_store_fn {
  Sink sink;
  COLX_HOST_DEVICE void operator()(size_type k, probe_match const& m) const { sink(k, m.probe_row, m.build_row); }
};
// For tests: every probe takes the counting and writing passes, even where one pass would do.
// Process-wide.
inline std::atomic<bool>& forced_two_pass_probe() {
  static std::atomic<bool> forced{false};
  return forced;
}

// Whether this probe takes the one-pass path.
template <join_kind How, class Build>
bool single_pass_probe(Build const& built, stream_ref stream) {
  if (forced_two_pass_probe().load()) { return false; }
  return at_most_one_output_row<How> ||
         ((How == join_kind::inner || How == join_kind::left) && built.unique_keys(stream));
}
template <class Probe>
struct output_rows_fn {
  Probe probe;
  COLX_HOST_DEVICE size_type operator()(size_type i) const { return probe.output_rows(i); }
};

// Writes probe row i's output rows from offsets[i]; marks matched build rows for right/full joins.
template <join_kind How, class Probe, class Sink>
struct emit_fn {
  Probe probe;
  size_type const* offsets;
  Sink sink;
  unsigned* matched;  // right and full joins: build rows that found a partner

  struct write_match {
    emit_fn const* self;
    size_type i;
    size_type base;
    COLX_HOST_DEVICE void operator()(size_type r, size_type k) const {
      self->sink(base + k, i, r);
      if constexpr (How == join_kind::right || How == join_kind::full) { atomic_or(self->matched + r, 1u); }
    }
  };

  COLX_HOST_DEVICE void operator()(size_type i) const {
    size_type const base = offsets[i];
    if (offsets[i + 1] == base) { return; }
    if constexpr (How == join_kind::semi || How == join_kind::anti) {
      sink(base, i, -1);
    } else {
      size_type const m = probe.for_each_match(i, write_match{this, i, base});
      if ((How == join_kind::left || How == join_kind::full) && m == 0) { sink(base, i, -1); }
    }
  }
};

// Right and full joins: the build rows no probe row matched, after the probe's rows.
struct unmatched_fn {
  unsigned const* matched;
  COLX_HOST_DEVICE bool operator()(size_type r) const { return matched[r] == 0u; }
};
struct row_number_fn {
  COLX_HOST_DEVICE size_type operator()(size_type r) const { return r; }
};
template <class Sink>
struct emit_unmatched_fn {
  Sink sink;
  size_type base;
  COLX_HOST_DEVICE void operator()(size_type k, size_type r) const { sink(base + k, -1, r); }
};

// The probe's passes for any sink (an output frame's columns, or row-number pairs): first the
// number of output rows at most (most()), for the caller to size its outputs, then write(sink),
// which sends every output row to the sink and returns how many there are. Where each probe row
// has at most one output row, one compaction pass (most() is then the probe's rows); otherwise a
// scan of each probe row's output rows, then the writes; right and full joins then add the build
// rows no probe row matched.
template <join_kind How, class Probe>
class probe_passes {
 public:
  template <class Build>
  probe_passes(Probe const& probe, Build const& built, size_type n, memory_kind kind, stream_ref stream)
      : _probe(probe), _n(n), _build_rows(built.frame().num_rows()), _kind(kind), _stream(stream),
        _single_pass(single_pass_probe<How>(built, stream)),
        _offsets(_single_pass ? 0 : n + 1, stream, get_current_resource(kind)),
        _matched(adds_unmatched ? _build_rows : 0, stream, get_current_resource(kind)) {
    _probe_rows = _single_pass ? n : on_backend(kind, stream, [&](auto const& exec) {
      return exec.exclusive_scan(n, size_type{0}, output_rows_fn<Probe>{probe}, _offsets.data());
    });
    if (adds_unmatched) { fill_bytes(_matched.data(), kind, 0, _matched.size() * sizeof(unsigned), stream); }
  }

  [[nodiscard]] size_type most() const { return _probe_rows + (adds_unmatched ? _build_rows : 0); }

  template <class Sink>
  size_type write(Sink const& sink) {
    return on_backend(_kind, _stream, [&](auto const& exec) {
      if (_single_pass) {
        return exec.select_rows(_n, single_match_keep_fn<How, Probe>{_probe}, single_match_load_fn{},
                                single_match_store_fn<Sink>{sink});
      }
      exec.for_each_n(_n, emit_fn<How, Probe, Sink>{_probe, _offsets.data(), sink, _matched.data()});
      size_type written = _probe_rows;
      if constexpr (adds_unmatched) {
        written += exec.select_rows(_build_rows, unmatched_fn{_matched.data()}, row_number_fn{},
                                    emit_unmatched_fn<Sink>{sink, _probe_rows});
      }
      return written;
    });
  }

 private:
  static constexpr bool adds_unmatched = How == join_kind::right || How == join_kind::full;
  Probe _probe;
  size_type _n;
  size_type _build_rows;
  memory_kind _kind;
  stream_ref _stream;
  bool _single_pass;
  uvector<size_type> _offsets;  // two-pass probes: where each probe row's output rows start
  uvector<unsigned> _matched;   // right and full joins: the build rows some probe row matched
  size_type _probe_rows = 0;
};

}  // namespace colx::detail
