// SPDX-License-Identifier: Apache-2.0
#pragma once
// The distributed tests' check: a distributed answer, gathered on rank 0, holds the rows of the
// one-process answer (in any order); the other ranks get none back.
#include "support/rows.hpp"

#include <colx/dist.hpp>

#include <catch2/catch.hpp>

namespace colx::test {

template <class Schema, class Reference>
void check_gathered(dist::dist_frame<Schema> const& d, Reference const& reference) {
  auto const all = dist::gather(d);
  if (d.rank() == 0) {
    CHECK(sorted_rows_of(all) == sorted_rows_of(reference));
  } else {
    CHECK(all.num_rows() == 0);
  }
}

}  // namespace colx::test
