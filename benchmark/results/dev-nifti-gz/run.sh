#!/usr/bin/env bash
# .nii.gz by the program (app/NiftiGzWriter.cpp: ITK's NIfTI header, made for
# a 2-pixel image of the same geometry and sized, then the header and pixels
# as one gzip stream on every thread) against main 26e6236's program (ITK's
# NiftiImageIO, level 6 on one thread), on this 2-core development machine
# (the H200 machine was not lent again that session): the 512^3 g = 4 mask of
# benchmark/program-files.sh, CPU backend, A B alternated; each new file,
# inflated, must be byte for byte the old one (the old one is level 6
# whatever is asked).
# Usage: run.sh OLD_PROGRAM NEW_PROGRAM > log.txt
set -uo pipefail
old=$(realpath "$1"); new=$(realpath "$2")
nproc
W=/tmp/cca-nifti-gz && mkdir -p $W && cd $W
$new --defaultSize 512x512x512 --density 0.3 --granularity 4 --seed 3 --saveInput in.nrrd --compression none --csv /dev/null --quiet --backend cpu
run() {
  local v=$1; shift
  local p=$old; [[ $v == new ]] && p=$new
  echo "== $v $*"
  local b e rc
  b=$(date +%s%N)
  $p in.nrrd --backend cpu "$@" > summary.txt; rc=$?
  e=$(date +%s%N)
  grep -E '^(time|write):' summary.txt
  echo "process: $(((e-b)/1000000)) ms, exit status $rc"
  du -bc labels.* | tail -1
  mkdir -p $v && mv labels.* $v/ 2>/dev/null; rm -f summary.txt
}
compare() {
  python3 -c "
import gzip
a = gzip.decompress(open('old/labels.nii.gz', 'rb').read())
b = gzip.decompress(open('new/labels.nii.gz', 'rb').read())
print('inflated', len(a), len(b), 'identical' if a == b else 'DIFFERENT')
"
  rm -rf old new
}
for round in 1 2; do
  if (( round % 2 )); then order="old new"; else order="new old"; fi
  for c in small fast; do
    for v in $order; do run $v --labels labels.nii.gz --compression $c; done
    compare
  done
done
rm -rf $W
echo done
