#!/usr/bin/env bash
# Call 5 (H200): the byte mask's label image from the runs alone in rows of
# at most 32 runs (FillRowFromRuns, binary N) against B (6be12c8), full
# table, all foreground / g = 16 / g = 4, 2D and 3D, B N B N; then the GPU
# tests, memcheck and a short racecheck on N. Logs in logs.tgz.
set -u
L=$OUT/logs; mkdir -p $L /tmp/b && tar -C /tmp/b -xJf .devcarry/gpu.tar.xz
N=/tmp/b/build-gpu; xz -dc .devcarry/before/cca_benchmark.xz > /tmp/b/before && chmod +x /tmp/b/before
nvidia-smi -L > $L/device.txt
P="--reps 5 --warmup 1 --labels-on-device --no-atomic-counts --outputs all --connectivity both"
s() { grep '^==' $1 | sed 's/.*kernel \([0-9.]*\) G[^;]*; \([0-9.]*\) mean.*/\1 (\2)/' | tr '\n' ' '; }
$N/benchmark/cca_benchmark $P --dimension 2 --size 8192 --g 0 > /dev/null 2>&1 # warm-up
for v in B1 N1 B2 N2; do
  X=$N/benchmark/cca_benchmark; [[ $v == B* ]] && X=/tmp/b/before
  for g in 0 16 4; do
    timeout 30 $X $P --g $g --dimension 2 --size 8192 --json $L/k2-g$g-$v.json > $L/k2-g$g-$v.log 2>&1
    echo "2D g$g $v rc=$? at $SECONDS s: $(s $L/k2-g$g-$v.log)"
    timeout 30 $X $P --g $g --dimension 3 --size 512 --json $L/k3-g$g-$v.json > $L/k3-g$g-$v.log 2>&1
    echo "3D g$g $v rc=$? at $SECONDS s: $(s $L/k3-g$g-$v.log)"
  done
done
timeout 80 $N/test/gpu/ccaCudaBackendTest > $L/backend.log 2>&1; echo "backend rc=$? at $SECONDS s"; grep -E "^total|FAIL" $L/backend.log | head -10
for suite in labels selection; do
  timeout 30 $N/test/engine/ccaFeatureGroupsTest $suite cuda > $L/groups-$suite.log 2>&1; echo "groups $suite cuda rc=$? at $SECONDS s"; tail -1 $L/groups-$suite.log
done
timeout 20 $N/test/gpu/ccaDeviceMemoryTest > $L/devmem.log 2>&1; echo "devmem rc=$? at $SECONDS s"; tail -1 $L/devmem.log
timeout 40 compute-sanitizer --tool memcheck --error-exitcode 3 $N/test/gpu/ccaCudaBackendTest --quick > $L/memcheck.log 2>&1; echo "memcheck rc=$? at $SECONDS s"; grep -E "^total|ERROR SUMMARY" $L/memcheck.log
timeout 45 compute-sanitizer --tool racecheck --error-exitcode 3 $N/test/gpu/ccaCudaBackendTest --quick --cases 4 --algorithm Default > $L/racecheck.log 2>&1; echo "racecheck rc=$? at $SECONDS s"; grep -E "^total|RACECHECK SUMMARY" $L/racecheck.log
tar -C $OUT -czf $OUT/logs.tgz logs && rm -rf $L
