#!/usr/bin/env bash
# Call 5 (H200): rows of one stretch four a warp in the byte run count and
# run writing (N, prefetching the next rows' bytes into the L1) against the
# call-3 binary (A), volumes, full table and labels only, N A N; the GPU
# tests, memcheck and racecheck on N. Logs packed in logs.tgz.
set -u
L=$OUT/logs; mkdir -p $L /tmp/b && tar -C /tmp/b -xJf .devcarry/gpu.tar.xz
B=/tmp/b/build-gpu; A=/tmp/b/before-cca_benchmark; N=$B/benchmark/cca_benchmark
xz -dc .devcarry/before/cca_benchmark.xz > $A && chmod +x $A
nvidia-smi -L > $L/device.txt
timeout 30 $B/test/gpu/ccaCudaBackendTest --quick > $L/quick.log 2>&1; echo "quick rc=$? at $SECONDS s"; grep -E "^total|FAIL" $L/quick.log | head -5
P="--reps 5 --warmup 1 --labels-on-device --no-atomic-counts"
$N $P --outputs all --dimension 3 --size 512 --g 4 --connectivity full > /dev/null 2>&1 # warm-up, not kept
s() { grep '^==' $1 | sed 's/.*kernel \([0-9.]*\) G[^;]*; \([0-9.]*\) mean.*/\1 (\2)/' | tr '\n' ' '; }
for v in N1 A1 N2; do
  which=${v:0:1}; bin=${!which}
  for o in all labels; do
    timeout 50 $bin $P --outputs $o --dimension 3 --size 512 --connectivity both --json $L/k3-$o-$v.json > $L/k3-$o-$v.log 2>&1
    echo "3D $o $v rc=$? at $SECONDS s: $(s $L/k3-$o-$v.log)"
  done
done
timeout 90 $B/test/gpu/ccaCudaBackendTest > $L/backend.log 2>&1; echo "backend rc=$? at $SECONDS s"; grep -E "^total|FAIL" $L/backend.log | head -5
timeout 60 compute-sanitizer --tool memcheck --error-exitcode 3 $B/test/gpu/ccaCudaBackendTest --quick > $L/memcheck.log 2>&1; echo "memcheck rc=$? at $SECONDS s"; grep -E "^total|ERROR SUMMARY" $L/memcheck.log
timeout 120 compute-sanitizer --tool racecheck --error-exitcode 3 $B/test/gpu/ccaCudaBackendTest --quick --cases 15 --algorithm Default > $L/racecheck.log 2>&1; echo "racecheck rc=$? at $SECONDS s"; grep -E "^total|RACECHECK SUMMARY" $L/racecheck.log
tar -C $OUT -czf $OUT/logs.tgz logs && rm -rf $L
