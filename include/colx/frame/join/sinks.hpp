// SPDX-License-Identifier: Apache-2.0
#pragma once
// Where a join's output rows go: a sink takes output row k as (probe row i, build row r; -1 for
// none). index_pairs_sink keeps the row numbers (join_rows); gather_sink writes the output frame's
// columns in the pass that finds the rows.
#include <colx/frame/gather.hpp>

#include <cstdint>
#include <utility>

namespace colx::detail {

struct index_pairs_sink {
  size_type* left;
  size_type* right;
  COLX_HOST_DEVICE void operator()(size_type k, size_type i, size_type r) const {
    left[k] = i;
    right[k] = r;
  }
};
// Writes the values of `in`'s columns at row r to the item's columns Pos..., in order.
template <std::size_t... Pos, class Item, class Inputs>
COLX_HOST_DEVICE void load_at(Item& item, Inputs const& in, size_type r, std::index_sequence<Pos...>) {
  [&]<std::size_t... C>(std::index_sequence<C...>) {
    ((get<Pos>(item.values) = stored_value(get<C>(in), r), item.valid.set(Pos, get<C>(in).is_valid(r))),
     ...);
  }(std::make_index_sequence<sizeof...(Pos)>{});
}
// SharedKeys: right and full joins, the build side's columns of the keys named alike on both
// sides, written where the probe side's key is (KeyPositions) for a build row no probe row found.
template <class Item, class ProbeInputs, class BuildInputs, class Store, class SharedKeys = tuple<>,
          class KeyPositions = std::index_sequence<>>
struct gather_sink {
  ProbeInputs probe;
  BuildInputs build;  // only the build columns the output keeps
  Store store;
  SharedKeys shared_keys{};
  COLX_HOST_DEVICE void operator()(size_type k, size_type i, size_type r) const {
    Item item{};
    if (i >= 0) {
      load_into<0>(item, probe, i);
    } else if constexpr (SharedKeys::size > 0) {
      if (r >= 0) { load_at(item, shared_keys, r, KeyPositions{}); }
    }
    if constexpr (BuildInputs::size > 0) {
      if (r >= 0) { load_into<ProbeInputs::size>(item, build, r); }
    }
    store(k, item);
  }
};

}  // namespace colx::detail
