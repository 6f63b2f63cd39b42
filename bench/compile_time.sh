#!/usr/bin/env bash
# nvcc compile time of single translation units at -O3 for sm_90, from the repository root (on the
# GPU machine: bash bench/compile_time.sh). Six TUs at once on its 16 cores: an empty one with both
# umbrellas, the README's first program, the TPC-H Q1 and Q6 examples, and those two examples
# including every query (tpch/queries.hpp), as they did before one header a query;
# `bash bench/compile_time.sh serial` compiles the first four one at a time instead. Results:
# bench/results/compile_time.md.
set -u
f="-std=c++20 -O3 -arch=sm_90 -Iinclude -Xcompiler -fopenmp"
printf '#include <colx/colx.hpp>\n#include <colx/cuda.cuh>\nint main() { return 0; }\n' > /tmp/empty.cu
cp tests/packaging/app.cpp /tmp/app.cu
cp examples/tpch_q1.cpp /tmp/q1.cu
cp examples/tpch_q6.cpp /tmp/q6.cu
sed 's|tpch/q1.hpp|tpch/queries.hpp|' examples/tpch_q1.cpp > /tmp/q1_all.cu
sed 's|tpch/q6.hpp|tpch/queries.hpp|' examples/tpch_q6.cpp > /tmp/q6_all.cu
one() {
  local t=$1 s e rc
  s=$(date +%s%N); nvcc $f -c /tmp/$t.cu -o /tmp/$t.o > /tmp/$t.log 2>&1; rc=$?; e=$(date +%s%N)
  echo "$t rc=$rc $(( (e - s) / 1000000 )) ms"; tail -3 /tmp/$t.log
}
if [ "${1:-}" = serial ]; then  # one TU at a time: the time a user waits for one file
  for t in empty app q1 q6; do one $t; done
else
  for t in empty app q1 q6 q1_all q6_all; do one $t & done
  wait
fi
