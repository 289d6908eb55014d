#!/usr/bin/env bash
# Call 6 (H200): the code that lands (rows of at least 2048 pixels and at
# most 32 runs made from their runs, binary N) against B (6be12c8): all
# foreground 2D and 3D, 3D g = 16, full table, B N once; then the quick GPU
# test (with the new wide-row cases), memcheck and a short racecheck.
# Logs in logs.tgz.
set -u
L=$OUT/logs; mkdir -p $L /tmp/b && tar -C /tmp/b -xJf .devcarry/gpu.tar.xz
N=/tmp/b/build-gpu; xz -dc .devcarry/before/cca_benchmark.xz > /tmp/b/before && chmod +x /tmp/b/before
nvidia-smi -L > $L/device.txt
P="--reps 5 --warmup 1 --labels-on-device --no-atomic-counts --outputs all --connectivity both"
s() { grep '^==' $1 | sed 's/.*kernel \([0-9.]*\) G[^;]*; \([0-9.]*\) mean.*/\1 (\2)/' | tr '\n' ' '; }
$N/benchmark/cca_benchmark $P --dimension 2 --size 8192 --g 0 > /dev/null 2>&1 # warm-up
for v in B N; do
  X=$N/benchmark/cca_benchmark; [[ $v == B ]] && X=/tmp/b/before
  timeout 20 $X $P --g 0 --dimension 2 --size 8192 --json $L/k2-g0-$v.json > $L/k2-g0-$v.log 2>&1; echo "2D g0 $v rc=$? at $SECONDS s: $(s $L/k2-g0-$v.log)"
  timeout 20 $X $P --g 0 --dimension 3 --size 512 --json $L/k3-g0-$v.json > $L/k3-g0-$v.log 2>&1; echo "3D g0 $v rc=$? at $SECONDS s: $(s $L/k3-g0-$v.log)"
  timeout 20 $X $P --g 16 --dimension 3 --size 512 --json $L/k3-g16-$v.json > $L/k3-g16-$v.log 2>&1; echo "3D g16 $v rc=$? at $SECONDS s: $(s $L/k3-g16-$v.log)"
done
timeout 30 $N/test/gpu/ccaCudaBackendTest --quick > $L/backend-quick.log 2>&1; echo "backend quick rc=$? at $SECONDS s"; grep -E "^total|FAIL|wide rows" $L/backend-quick.log | head -5
timeout 35 compute-sanitizer --tool memcheck --error-exitcode 3 $N/test/gpu/ccaCudaBackendTest --quick > $L/memcheck.log 2>&1; echo "memcheck rc=$? at $SECONDS s"; grep -E "^total|ERROR SUMMARY" $L/memcheck.log
timeout 45 compute-sanitizer --tool racecheck --error-exitcode 3 $N/test/gpu/ccaCudaBackendTest --quick --cases 1 --algorithm Default > $L/racecheck.log 2>&1; echo "racecheck rc=$? at $SECONDS s"; grep -E "^total|wide rows|RACECHECK SUMMARY" $L/racecheck.log
tar -C $OUT -czf $OUT/logs.tgz logs && rm -rf $L
