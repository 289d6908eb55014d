#!/usr/bin/env bash
# Call 6: the build without line tables (CCA_CUDA_LINE_INFO OFF, the new
# default): the engine's GPU tests and sanitizers on it; the probe without
# line tables with the fatbinary compressed (nvcc's default) or not; the
# program with (li: f60d5cd's build) and without (nl) line tables, A B
# alternated, every exit stamped.
set -uo pipefail
mkdir -p $OUT/call6 && exec > >(tee $OUT/call6/log.txt) 2>&1
nvidia-smi -L
B=/tmp/b6 && mkdir -p $B && tar -C $B -xJf .devcarry/b6.tar.xz
gcc -shared -fPIC -O2 -o $B/exitstamp.so $B/exitstamp.c -ldl 2> /dev/null
bash scripts/engine-gpu-tests.sh $B/build-gpu $OUT/call6/tests
timeout 120 $B/build-gpu/test/gpu/ccaHostImagePoolTest > $OUT/call6/tests/hostpool.log 2>&1; echo "host image pool rc=$?: $(tail -n 1 $OUT/call6/tests/hostpool.log)"
for round in 1 2 3 4; do
  for probe in exitprobe-nl exitprobe-nc; do
    echo "== $probe: $($B/$probe phased | grep -v '^stamp' | tr '\n' ';')"
  done
done
export LD_LIBRARY_PATH=$B/lib
W=/tmp/cca-program-files && mkdir -p $W && cd $W
$B/cls-nl --defaultSize 512x512x512 --density 0.3 --granularity 4 --seed 3 --saveInput in.nrrd --compression none --csv /dev/null --quiet
run() {
  local v=$1; shift
  echo "== $v $*"
  local b e s
  b=$(date +%s%N)
  EXIT_STAMP=$W/stamp LD_PRELOAD=$B/exitstamp.so $B/cls-$v in.nrrd "$@" > summary.txt
  e=$(date +%s%N); s=$(cat $W/stamp)
  grep -E '^(time|cuda):' summary.txt
  echo "process: $(((e-b)/1000000)) ms, exit $(((e-s)/1000000)) ms"
  rm -f labels.* components.csv summary.txt stamp
}
for round in 1 2 3 4; do
  if (( round % 2 )); then order="li nl"; else order="nl li"; fi
  for v in $order; do run $v --labels labels.nrrd --csv components.csv; done
  for v in $order; do run $v --csv components.csv; done
done
echo done
