#!/usr/bin/env bash
# Call 1: CUDA's start-up with the backend's kernels in one module (main
# f769418) against three (CudaHostSequence.cuh: the fastest algorithm's
# 32-bit runs, the other algorithms', the 64-bit runs; "split" as
# committed, every module's code compressed, "plain" the two modules of
# 32-bit runs left uncompressed as nvcc's default leaves them). The probe of
# ../h200-module-loading (tools/exitprobe.cpp, mode phased: cudaFree(0),
# then Engine::StartCuda, then a first 512^3 run and two more with new
# engines) linked against each engine library, fresh processes alternated;
# then the program (main's and the split one) on the 512^3 g = 4 mask of
# benchmark/program-files.sh, labels as .nrrd (auto) and the CSV,
# alternated, CUDA's start-up on its own thread beside the read.
set -uo pipefail
mkdir -p $OUT/call1 && exec > >(tee $OUT/call1/log.txt) 2>&1
nvidia-smi -L; nproc
B=/tmp/b && mkdir -p $B && tar -C $B -xJf .devcarry/split.tar.xz
export LD_LIBRARY_PATH=$B/lib
orders=("main split plain" "plain split main" "split main plain")
for round in 1 2 3 4 5 6; do
  for v in ${orders[round % 3]}; do
    echo "== $v: $($B/exitprobe-$v phased | grep -v '^stamp' | tr '\n' ';')"
  done
done
W=/tmp/cca-program-files && mkdir -p $W && cd $W
$B/cls-main --defaultSize 512x512x512 --density 0.3 --granularity 4 --seed 3 --saveInput in.nrrd --compression none --csv /dev/null --quiet
run() {
  local v=$1; shift
  echo "== program $v $*"
  local b e rc
  b=$(date +%s%N)
  $B/cls-$v in.nrrd "$@" > summary.txt; rc=$?
  e=$(date +%s%N)
  grep -E '^(components|time|cuda):' summary.txt
  echo "process: $(((e-b)/1000000)) ms, exit status $rc"
  md5sum labels.nrrd | cut -c1-32 > $v.md5; rm -f labels.nrrd components.csv summary.txt
}
for round in 1 2 3 4 5 6; do
  if (( round % 2 )); then order="main split"; else order="split main"; fi
  for v in $order; do run $v --labels labels.nrrd --csv components.csv; done
  cmp -s main.md5 split.md5 && echo "same label file" || echo "LABEL FILES DIFFER"
done
echo done
