// SPDX-License-Identifier: Apache-2.0
#pragma once
// The kind of an aggregation (sum, count, mean, ...), which decides how its partial results from
// several ranks merge (dist/group_by.hpp, dist/reduce.hpp).
#include <colx/expr/aggregate.hpp>

namespace colx::dist::detail {

template <class Agg>
struct kind_of;
template <class Kind, class E>
struct kind_of<expr::aggregation<Kind, E>> {
  using type = Kind;
};
template <class Agg>
using kind_of_t = typename kind_of<std::remove_cvref_t<Agg>>::type;

}  // namespace colx::dist::detail
