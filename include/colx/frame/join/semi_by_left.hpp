// SPDX-License-Identifier: Apache-2.0
#pragma once
// Semi and anti joins whose right side is the larger: the left side (its pending filter collected)
// is hashed instead of the right, one pass over the right's rows (its pending filter fused in)
// marks every left row that some right row matches, and the left rows marked (semi) or not (anti)
// are gathered in their order. The larger side is then read once, streaming, and neither
// collected nor hashed: TPC-H Q4's EXISTS had its 38M late lineitems collected and hashed, a
// multimap of four duplicates a key (22 ms of its 25 on the H200), where now its 570K orders are.
// The answer is the one the probe of the left side gives (join/probe.hpp): the same rows, in the
// same order, null keys matching nothing unless join_options::nulls_equal.
#include <colx/exec/atomics.hpp>
#include <colx/exec/dispatch.hpp>
#include <colx/frame/gather.hpp>
#include <colx/frame/join/probe.hpp>
#include <colx/frame/join/run.hpp>
#include <colx/frame/join/table.hpp>
#include <colx/frame/pipeline.hpp>
#include <colx/memory/copy_bytes.hpp>
#include <colx/memory/uvector.hpp>

#include <type_traits>

namespace colx::detail {

// Whether a semi or anti join hashes its left side: where its right side (a frame or a filtered
// frame; a prepared join_build keeps its role) has more rows, before either side's filter, which
// is not run to decide.
template <class Left, class Right>
bool semi_join_hashes_left(Left const& left, Right const& right) {
  return unfiltered_source(right).num_rows() > unfiltered_source(left).num_rows();
}

// Right row i marks each left row its keys match (the left rows are the build side here).
template <class Probe>
struct mark_matches_fn {
  Probe probe;
  unsigned* marked;
  struct mark {
    unsigned* marked;
    COLX_HOST_DEVICE void operator()(size_type left_row, size_type) const { atomic_or(marked + left_row, 1u); }
  };
  COLX_HOST_DEVICE void operator()(size_type i) const {
    if (probe.kept(i)) { (void)probe.for_each_match(i, mark{marked}); }
  }
};
// The left rows a semi join keeps (marked) or an anti join keeps (not marked), by row number.
struct marked_as_fn {
  unsigned const* marked;
  bool want;
  COLX_HOST_DEVICE bool operator()(size_type r) const { return (marked[r] != 0u) == want; }
};
struct store_row_number_fn {
  size_type* out;
  COLX_HOST_DEVICE void operator()(size_type k, size_type r) const { out[k] = r; }
};

template <join_kind How, class LeftFrame, class RightSource, class LeftKeys, class RightKeys>
LeftFrame semi_join_by_left(LeftFrame const& left, RightSource const& right, LeftKeys, RightKeys, join_options options,
                            stream_ref stream, resource_ref mr) {
  static_assert(How == join_kind::semi || How == join_kind::anti);
  spill_lock_scope const spill_lock(stream);  // the columns read here stay put until the work is done
  auto const built = build(left, LeftKeys{}, options, stream);
  auto const& right_rows = unfiltered_source(right);
  probe_key_codes codes;
  auto const probe = make_probe<join_kind::semi>(right_rows, predicate_of_source(right), built, RightKeys{}, "join", codes, stream);
  size_type const n = left.num_rows();
  resource_ref const scratch = get_current_resource(left.kind());
  uvector<unsigned> marked(n, stream, scratch);
  uvector<size_type> kept(n, stream, scratch);
  fill_bytes(marked.data(), left.kind(), 0, static_cast<std::size_t>(n) * sizeof(unsigned), stream);
  size_type const m = on_backend(left.kind(), stream, [&](auto const& exec) {
    exec.for_each_n(right_rows.num_rows(), mark_matches_fn<std::remove_cvref_t<decltype(probe)>>{probe, marked.data()});
    return exec.select_rows(n, marked_as_fn{marked.data(), How == join_kind::semi}, row_number_fn{},
                            store_row_number_fn{kept.data()});
  });
  return gather_frame(left, index_column_fn<size_type>{kept.data()}, m, false, stream, mr);
}

}  // namespace colx::detail
