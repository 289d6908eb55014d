#!/usr/bin/env bash
# Call 4: MetaImage by the program too (app/MetaImageWriter.cpp, zlib on every
# thread; app/ParallelDeflate.cpp), and --compression auto the default (fast
# wherever the format has a choice). new = that program; old = main
# 26e6236's (ITK's MetaImageIO and NrrdImageIO), A B alternated three times on
# the 512^3 g = 4 mask; every new MetaImage compared with the old one. Then
# the new program through benchmark/program-files.sh in both modes.
set -uo pipefail
mkdir -p $OUT/call4 && exec > >(tee $OUT/call4/log.txt) 2>&1
nvidia-smi -L; nproc
R=$PWD/benchmark/results/h200-parallel-gzip
B=/tmp/b && mkdir -p $B && tar -C $B -xJf .devcarry/prog.tar.xz
export LD_LIBRARY_PATH=$B/lib
W=/tmp/cca-program-files && mkdir -p $W && cd $W
$B/cls-new --defaultSize 512x512x512 --density 0.3 --granularity 4 --seed 3 --saveInput in.nrrd --compression none --csv /dev/null --quiet
run() {
  local v=$1; shift
  echo "== $v $*"
  local b e rc
  b=$(date +%s%N)
  $B/cls-$v in.nrrd "$@" > summary.txt; rc=$?
  e=$(date +%s%N)
  grep -E '^(time|write):' summary.txt
  echo "process: $(((e-b)/1000000)) ms, exit status $rc"
  du -bc labels.* | tail -1
  mkdir -p $v && mv labels.* $v/ 2>/dev/null; rm -f components.csv summary.txt
}
compare() { python3 $R/compare_metaimage.py old/$1 new/$1 || echo "DIFFERENT: $1"; rm -rf old new; }
for round in 1 2 3; do
  if (( round % 2 )); then order="old new"; else order="new old"; fi
  for c in fast small none; do
    for v in $order; do run $v --labels labels.mha --csv components.csv --compression $c; done
    compare labels.mha
  done
  for v in $order; do run $v --labels labels.mhd --compression fast; done
  compare labels.mhd
  # The default: old none, new auto (fast).
  for v in $order; do run $v --labels labels.nrrd --csv components.csv; done
  rm -rf old new
done
cd $R/../../..
for mode in compression formats; do
  echo "#### $mode"
  bash benchmark/program-files.sh $B/cls-new $mode /tmp/cca-program-files
done
echo done
