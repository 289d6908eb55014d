#!/usr/bin/env bash
# Call 2: the build as committed ("final": the two rarely loaded modules
# compressed, the fastest algorithm's module as nvcc leaves it,
# uncompressed) against main f769418: the start-up probe and the program
# as in call 1, alternated six times; then the engine's GPU tests on the
# final build (scripts/engine-gpu-tests.sh in full: oracle, large images,
# the CUDA backend against the CPU backend, feature groups, device memory,
# compute-sanitizer memcheck and racecheck).
set -uo pipefail
mkdir -p $OUT/call2 && exec > >(tee $OUT/call2/log.txt) 2>&1
nvidia-smi -L; nproc
ROOT=$PWD
B=/tmp/b && mkdir -p $B && tar -C $B -xJf .devcarry/split.tar.xz
export LD_LIBRARY_PATH=$B/lib
for round in 1 2 3 4 5 6; do
  if (( round % 2 )); then order="main final"; else order="final main"; fi
  for v in $order; do
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
  if (( round % 2 )); then order="main final"; else order="final main"; fi
  for v in $order; do run $v --labels labels.nrrd --csv components.csv; done
  cmp -s main.md5 final.md5 && echo "same label file" || echo "LABEL FILES DIFFER"
done
cd $ROOT
bash scripts/engine-gpu-tests.sh $B/g $OUT/call2/gpu-tests
echo done
