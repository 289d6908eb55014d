#!/usr/bin/env bash
# Call 9: the program's label image block page-locked while CUDA starts
# (HostImageMemory::Prepare with pageLock; pl) against call 6's build (nl),
# A B alternated, every exit stamped; the pool's GPU test, the device memory
# test and memcheck on the pool's test.
set -uo pipefail
mkdir -p $OUT/call9 && exec > >(tee $OUT/call9/log.txt) 2>&1
nvidia-smi -L
B=/tmp/b9 && mkdir -p $B && tar -C $B -xJf .devcarry/b9.tar.xz
gcc -shared -fPIC -O2 -o $B/exitstamp.so $B/exitstamp.c -ldl 2> /dev/null
$B/ccaHostImageMemoryTest | tail -1
timeout 120 $B/ccaHostImagePoolTest; echo "host image pool rc=$?"
timeout 120 $B/ccaDeviceMemoryTest > $OUT/call9/devmem.log 2>&1; echo "devmem rc=$?: $(tail -n 1 $OUT/call9/devmem.log)"
timeout 200 compute-sanitizer --tool memcheck --error-exitcode 3 $B/ccaHostImagePoolTest > $OUT/call9/pool-memcheck.log 2>&1; echo "pool memcheck rc=$?: $(grep 'ERROR SUMMARY' $OUT/call9/pool-memcheck.log)"
export LD_LIBRARY_PATH=$B/lib
W=/tmp/cca-program-files && mkdir -p $W && cd $W
$B/cls-pl --defaultSize 512x512x512 --density 0.3 --granularity 4 --seed 3 --saveInput in.nrrd --compression none --csv /dev/null --quiet
run() {
  local v=$1; shift
  echo "== $v $*"
  local b e s
  b=$(date +%s%N)
  EXIT_STAMP=$W/stamp LD_PRELOAD=$B/exitstamp.so $B/cls-$v in.nrrd "$@" > summary.txt
  e=$(date +%s%N); s=$(cat $W/stamp)
  grep -E '^(time|analysis|cuda):' summary.txt
  echo "process: $(((e-b)/1000000)) ms, exit $(((e-s)/1000000)) ms"
  cmp -s labels.nrrd $W/reference.nrrd 2>/dev/null && echo "labels identical to the first run's" || { [ -f $W/reference.nrrd ] && echo "LABELS DIFFER"; }
  [ -f $W/reference.nrrd ] || cp labels.nrrd $W/reference.nrrd 2>/dev/null
  rm -f labels.* components.csv summary.txt stamp
}
for round in 1 2 3 4 5; do
  if (( round % 2 )); then order="nl pl"; else order="pl nl"; fi
  for v in $order; do run $v --labels labels.nrrd --csv components.csv; done
done
echo done
