#!/usr/bin/env bash
# Call 6: a fresh result's vectors sized by ResizeForOverwrite
# (src/ResizeForOverwrite.h: the new memory first touched by the host's
# threads side by side, then resize's zeroing; "touch") against call 2's
# final build (6e57538: resize alone; "final"). tools/firstrun-probe.cpp
# (mode plain: four 512^3 runs, each with a new engine and a new result)
# and the program (labels .nrrd auto and the CSV), each alternated; then
# the engine's GPU tests on the new build (scripts/engine-gpu-tests.sh
# --quick: the CUDA backend against the CPU backend, memcheck, racecheck).
# Not in this script, for the call after it: STEPS=e2e-large of
# benchmark/run-on-gpu-machine.sh from a bench bundle of the same build
# (benchmark/make-bench-bundle.sh --slim): the 2.35 Gvox volume's first
# image, whose new result grows by 513 MB of runs.
set -uo pipefail
mkdir -p $OUT/call6 && exec > >(tee $OUT/call6/log.txt) 2>&1
nvidia-smi -L; nproc
ROOT=$PWD
B=/tmp/b && mkdir -p $B && tar -C $B -xJf .devcarry/touch.tar.xz
export LD_LIBRARY_PATH=$B/lib
for round in 1 2 3 4 5 6; do
  if (( round % 2 )); then order="final touch"; else order="touch final"; fi
  for v in $order; do echo "== $v: $($B/firstrun-probe-$v plain)"; done
done
W=/tmp/cca-program-files && mkdir -p $W && cd $W
$B/cls-final --defaultSize 512x512x512 --density 0.3 --granularity 4 --seed 3 --saveInput in.nrrd --compression none --csv /dev/null --quiet
run() {
  local v=$1; shift
  echo "== program $v $*"
  local b e rc
  b=$(date +%s%N)
  $B/cls-$v in.nrrd "$@" > summary.txt; rc=$?
  e=$(date +%s%N)
  grep -E '^(components|time|analysis|cuda):' summary.txt
  echo "process: $(((e-b)/1000000)) ms, exit status $rc"
  md5sum labels.nrrd components.csv | cut -c1-32 | tr '\n' ' ' > $v.md5; rm -f labels.nrrd components.csv summary.txt
}
for round in 1 2 3 4 5 6; do
  if (( round % 2 )); then order="final touch"; else order="touch final"; fi
  for v in $order; do run $v --labels labels.nrrd --csv components.csv; done
  cmp -s final.md5 touch.md5 && echo "same label file and table" || echo "OUTPUTS DIFFER"
done
cd $ROOT
bash scripts/engine-gpu-tests.sh --quick $B/g $OUT/call6/gpu-tests
echo done
