#!/usr/bin/env bash
# compare-sass.sh on real cuobjdump output: CudaBackend.cu.o (sm_90, Release) as
# built by the CI command (base), the same with one kernel included ahead of
# the engine's (extra), and with ptxas at -O1 (ptxas-O1).
set -u
mkdir -p /tmp/s && tar -C /tmp/s -xJf .devcarry/sassv.tar.xz
{
  nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
  cuobjdump --version | tail -1
  for pair in "base base" "base extra" "extra base" "base ptxas-O1"; do
    set -- $pair
    echo "== compare-sass.sh $1.o $2.o"
    /usr/bin/time -f "%e s" bash scripts/compare-sass.sh /tmp/s/$1.o /tmp/s/$2.o 8
    echo "exit $?"
  done
  # what the listing looks like around a branch, to see whether targets are function-relative
  cuobjdump -sass /tmp/s/base.o | grep -m 5 -E "BRA|Function" 
  cuobjdump -sass /tmp/s/base.o | grep -c "Function :"
} > $OUT/summary.txt 2>&1
cat $OUT/summary.txt
