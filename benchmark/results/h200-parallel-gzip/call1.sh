#!/usr/bin/env bash
# Call 1: the program's NRRD outputs by its own writer, gzip on every thread
# (new: app/NrrdWriter.cpp, app/ParallelGzip.cpp) against ITK's NrrdImageIO
# (old: main 26e6236's program), A B alternated three times, one process per
# run, the 512^3 g = 4 mask of benchmark/program-files.sh; then the 512^3
# g = 1 mask (11.4 M labels, hardly compressible) once each. Every new file
# is compared with the old one: same header fields, same pixels once inflated.
set -uo pipefail
mkdir -p $OUT/call1 && exec > >(tee $OUT/call1/log.txt) 2>&1
nvidia-smi -L; nproc; df -h /tmp | tail -1
R=$PWD/benchmark/results/h200-parallel-gzip
B=/tmp/b && mkdir -p $B && tar -C $B -xJf .devcarry/prog.tar.xz
export LD_LIBRARY_PATH=$B/lib
W=/tmp/cca-program-files && mkdir -p $W && cd $W
$B/cls-new --defaultSize 512x512x512 --density 0.3 --granularity 4 --seed 3 --saveInput in.nrrd --compression none --csv /dev/null --quiet
$B/cls-new --defaultSize 512x512x512 --density 0.2 --granularity 1 --seed 3 --saveInput in1.nrrd --compression none --csv /dev/null --quiet
run() {
  local v=$1 input=$2; shift 2
  echo "== $v $input $*"
  local b e rc
  b=$(date +%s%N)
  $B/cls-$v $input "$@" > summary.txt; rc=$?
  e=$(date +%s%N)
  grep -E '^(time|write):' summary.txt
  echo "process: $(((e-b)/1000000)) ms, exit status $rc"
  du -bc labels.* | tail -1
  mkdir -p $v && mv labels.* $v/ 2>/dev/null; rm -f components.csv summary.txt
}
compare() { python3 $R/compare_nrrd.py old/$1 new/$1 || echo "DIFFERENT: $1"; rm -rf old new; }
for round in 1 2 3; do
  if (( round % 2 )); then order="old new"; else order="new old"; fi
  for c in fast small none; do
    for v in $order; do run $v in.nrrd --labels labels.nrrd --csv components.csv --compression $c; done
    compare labels.nrrd
  done
  for v in $order; do run $v in.nrrd --labels labels.nhdr --compression fast; done
  compare labels.nhdr
done
for c in fast none; do
  for v in old new; do run $v in1.nrrd --labels labels.nrrd --compression $c; done
  compare labels.nrrd
done
echo done
