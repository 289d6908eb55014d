#!/usr/bin/env bash
# Call 1: the program's outputs with and without the early writeback, A (old) B (new) alternated.
set -uo pipefail
mkdir -p $OUT/call1 && exec > >(tee $OUT/call1/log.txt) 2>&1
nvidia-smi -L; nproc; uname -r
B=/tmp/b && mkdir -p $B && tar -C $B -xJf .devcarry/prog.tar.xz
export LD_LIBRARY_PATH=$B/lib
W=/tmp/cca-program-files && mkdir -p $W && cd $W
df -T $W; cat /proc/sys/vm/dirty_background_ratio /proc/sys/vm/dirty_ratio /proc/sys/vm/dirty_expire_centisecs
findmnt -T $W
# the unit check of the early writeback, built here (no ITK)
g++ -std=c++17 -O2 -I$OLDPWD/app $OLDPWD/app/test/EarlyWritebackCheck.cxx $OLDPWD/app/EarlyWriteback.cpp -o $B/ewc -pthread && $B/ewc $W/ewc
$B/cls-new --defaultSize 512x512x512 --density 0.3 --granularity 4 --seed 3 --saveInput in.nrrd --compression none --csv /dev/null --quiet
ls -la in.nrrd
for i in 1 2 3; do b=$(date +%s%N); $B/cls-new --version > /dev/null; e=$(date +%s%N); echo "version process $(((e-b)/1000000)) ms"; done
run() {
  local v=$1; shift
  echo "== $v $*"
  local b e
  b=$(date +%s%N)
  $B/cls-$v in.nrrd "$@" > summary.txt
  e=$(date +%s%N)
  grep -E '^(time|write):' summary.txt
  echo "process: $(((e-b)/1000000)) ms"
  rm -f labels.* components.csv summary.txt
}
for round in 1 2 3 4; do
  if (( round % 2 )); then order="old new"; else order="new old"; fi
  for v in $order; do run $v --labels labels.nrrd --csv components.csv --compression none; done
  for v in $order; do run $v --labels labels.tif --csv components.csv; done
  for v in $order; do run $v --labels labels.nrrd --csv components.csv --compression fast; done
  for v in $order; do run $v --labels labels.mha --compression none; done
done
echo done
