// SPDX-License-Identifier: Apache-2.0
#pragma once
// What a compaction's keep(i) may return (both executors' select_rows): a bool, or a verdict that
// converts to bool and carries what deciding found, handed to the load as load(i, verdict). A
// join's probe finds a row's build partner while deciding to keep it; carrying the partner spares
// the load a second walk of the hash table, which beyond L2 is a second read from DRAM.
#include <colx/core/config.hpp>

#include <type_traits>
#include <utility>

namespace colx::detail {

template <class Keep>
using verdict_t = std::remove_cvref_t<decltype(std::declval<Keep const&>()(size_type{}))>;

template <class Load, class Verdict>
COLX_HOST_DEVICE auto load_kept(Load const& load, size_type i, Verdict const& v) {
  if constexpr (std::is_same_v<Verdict, bool>) {
    return load(i);
  } else {
    return load(i, v);
  }
}

}  // namespace colx::detail
