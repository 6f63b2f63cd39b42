// SPDX-License-Identifier: Apache-2.0
#pragma once
// TPC-H queries 1, 3 and 6 as colx pipelines over the generated tables (tpch/generator.hpp): what
// the examples print, the tests check against plain loops and the benchmarks time. One header a
// query; include just the one a program runs (each instantiates its own kernels).
#include <colx/tpch/q1.hpp>
#include <colx/tpch/q3.hpp>
#include <colx/tpch/q6.hpp>
