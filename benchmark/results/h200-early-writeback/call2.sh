#!/usr/bin/env bash
# Call 2: the early writeback leaving each file's last MiB (new) against none (old),
# A B alternated; every run's exit timed (a preload stamps the time of _exit).
set -uo pipefail
mkdir -p $OUT/call2 && exec > >(tee $OUT/call2/log.txt) 2>&1
nvidia-smi -L; cat /sys/kernel/mm/transparent_hugepage/enabled
B=/tmp/b && mkdir -p $B && tar -C $B -xJf .devcarry/prog.tar.xz
gcc -shared -fPIC -O2 -o $B/exitstamp.so $B/exitstamp.c -ldl
export LD_LIBRARY_PATH=$B/lib
W=/tmp/cca-program-files && mkdir -p $W && cd $W
g++ -std=c++17 -O2 -I$OLDPWD/app $OLDPWD/app/test/EarlyWritebackCheck.cxx $OLDPWD/app/EarlyWriteback.cpp -o $B/ewc -pthread && $B/ewc $W/ewc | tail -3
$B/cls-new --defaultSize 512x512x512 --density 0.3 --granularity 4 --seed 3 --saveInput in.nrrd --compression none --csv /dev/null --quiet
run() {
  local v=$1; shift
  echo "== $v $*"
  local b e s
  b=$(date +%s%N)
  EXIT_STAMP=$W/stamp LD_PRELOAD=$B/exitstamp.so $B/cls-$v in.nrrd "$@" > summary.txt
  e=$(date +%s%N); s=$(cat $W/stamp)
  grep -E '^(time|write):' summary.txt
  echo "process: $(((e-b)/1000000)) ms, exit $(((e-s)/1000000)) ms"
  rm -f labels.* components.csv summary.txt stamp
}
for round in 1 2 3 4; do
  if (( round % 2 )); then order="old new"; else order="new old"; fi
  for v in $order; do run $v --labels labels.nrrd --csv components.csv --compression fast; done
  for v in $order; do run $v --labels labels.nrrd --csv components.csv --compression none; done
  for v in $order; do run $v --labels labels.tif --csv components.csv; done
  for v in $order; do run $v --labels labels.nii.gz; done
done
echo "== exit breakdown"
for round in 1 2 3; do
  run new --csv components.csv --backend cpu
  run new --csv components.csv
  run new --labels labels.nrrd --csv components.csv --backend cpu
  run new --labels labels.nrrd --csv components.csv
done
echo done
