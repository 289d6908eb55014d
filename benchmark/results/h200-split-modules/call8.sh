#!/usr/bin/env bash
# Call 8: call 6's comparison made with main 8b51802 (which holds d2cc9c3's
# ResizeForOverwrite and the eighty-seventh session's changes, none on
# this path) in place of d2cc9c3: tools/firstrun-probe.cpp (mode plain)
# linked against main's engine ("main") and call 2's ("final", 6e57538),
# then the program of each (labels .nrrd auto and the CSV), each
# alternated six times; then main's program through every label format
# (benchmark/program-files.sh formats: the .vtk writer of
# ../dev-vtk-writer among them); then the 2.35 Gvox volume's first image
# (cca_e2e_benchmark --only large-labels, CUDA against the CPU backend),
# whose new result grows by 513 MB of runs. .devcarry/call8.tar.xz: the
# ITK libraries, both probes and programs (stripped), main's
# cca_e2e_benchmark.
set -uo pipefail
mkdir -p $OUT/call8 && exec > >(tee $OUT/call8/log.txt) 2>&1
nvidia-smi -L; nproc
ROOT=$PWD
B=/tmp/b8 && mkdir -p $B && tar -C $B -xJf .devcarry/call8.tar.xz || exit 1
export LD_LIBRARY_PATH=$B/lib
for round in 1 2 3 4 5 6; do
  if (( round % 2 )); then order="final main"; else order="main final"; fi
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
  if (( round % 2 )); then order="final main"; else order="main final"; fi
  for v in $order; do run $v --labels labels.nrrd --csv components.csv; done
  cmp -s final.md5 main.md5 && echo "same label file and table" || echo "OUTPUTS DIFFER"
done
cd $ROOT
SECONDS=0
timeout 120 bash benchmark/program-files.sh $B/cls-main formats /tmp/cca-program-files > $OUT/call8/formats.log 2>&1
echo "formats rc=$? in $SECONDS s"
SECONDS=0
timeout 200 $B/cca_e2e_benchmark --threads 16 --only large-labels --json $OUT/call8/e2e-large.json > $OUT/call8/e2e-large.log 2>&1
echo "e2e-large rc=$? in $SECONDS s"
cat $OUT/call8/e2e-large.log
echo done
