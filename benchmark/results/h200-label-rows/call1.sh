#!/usr/bin/env bash
# Call 1 (H200): rows of at least 2048 pixels and at most 32 runs made from
# their runs (binary N, the code that lands; it also holds the engine's one
# index sort in HostSequence) against B (6be12c8) and A (N with the path
# at every width): all-foreground planes 1024^2 .. 8192^2, 8192^2 g = 64,
# 512^3 all foreground, full table, two rounds; then the GPU tests,
# memcheck, and racecheck on the quick default cases (the wide rows' among
# them) and on wide-row images. Logs in logs.tgz, this output in summary.txt.
set -u
L=$OUT/logs; mkdir -p $L /tmp/b && tar -C /tmp/b -xJf .devcarry/gpu.tar.xz
N=/tmp/b/build-gpu; xz -dc .devcarry/before/cca_benchmark.xz > /tmp/b/before && chmod +x /tmp/b/before
xz -dc .devcarry/all-widths/cca_benchmark.xz > /tmp/b/all-widths && chmod +x /tmp/b/all-widths
exec > >(tee $OUT/summary.txt) 2>&1
nvidia-smi -L > $L/device.txt
P="--reps 5 --warmup 1 --labels-on-device --no-atomic-counts --outputs all --connectivity both"
s() { grep '^==' $1 | sed 's/.*kernel \([0-9.]*\) G[^;]*; \([0-9.]*\) mean.*/\1 (\2)/' | tr '\n' ' '; }
$N/benchmark/cca_benchmark $P --dimension 2 --size 8192 --g 0 > /dev/null 2>&1 # warm-up
for v in B1 N1 A1 B2 N2 A2; do
  case $v in B*) X=/tmp/b/before;; N*) X=$N/benchmark/cca_benchmark;; A*) X=/tmp/b/all-widths;; esac
  for n in 1024 2048 4096 8192; do
    timeout 20 $X $P --g 0 --dimension 2 --size $n --json $L/k2-$n-g0-$v.json > $L/k2-$n-g0-$v.log 2>&1; echo "2D $n g0 $v rc=$? at $SECONDS s: $(s $L/k2-$n-g0-$v.log)"
  done
  timeout 30 $X $P --g 64 --dimension 2 --size 8192 --json $L/k2-8192-g64-$v.json > $L/k2-8192-g64-$v.log 2>&1; echo "2D 8192 g64 $v rc=$? at $SECONDS s: $(s $L/k2-8192-g64-$v.log)"
  timeout 20 $X $P --g 0 --dimension 3 --size 512 --json $L/k3-512-g0-$v.json > $L/k3-512-g0-$v.log 2>&1; echo "3D 512 g0 $v rc=$? at $SECONDS s: $(s $L/k3-512-g0-$v.log)"
done
timeout 150 $N/test/gpu/ccaCudaBackendTest > $L/backend.log 2>&1; echo "backend rc=$? at $SECONDS s"; grep -E "^total|FAIL|wide rows" $L/backend.log | head -10
for suite in labels intensity selection large; do
  timeout 60 $N/test/engine/ccaFeatureGroupsTest $suite cuda > $L/groups-$suite.log 2>&1; echo "groups $suite cuda rc=$? at $SECONDS s"; tail -n 1 $L/groups-$suite.log
done
timeout 30 $N/test/gpu/ccaDeviceMemoryTest > $L/devmem.log 2>&1; echo "devmem rc=$? at $SECONDS s"; tail -n 1 $L/devmem.log
timeout 60 compute-sanitizer --tool memcheck --error-exitcode 3 $N/test/gpu/ccaCudaBackendTest --quick > $L/memcheck.log 2>&1; echo "memcheck rc=$? at $SECONDS s"; grep -E "^total|wide rows|ERROR SUMMARY" $L/memcheck.log
timeout 60 compute-sanitizer --tool memcheck --error-exitcode 3 $N/test/engine/ccaFeatureGroupsTest labels cuda > $L/groups-labels-memcheck.log 2>&1; echo "groups labels memcheck rc=$? at $SECONDS s"; grep -E "ERROR SUMMARY" $L/groups-labels-memcheck.log
for g in 0 64; do
  timeout 60 compute-sanitizer --tool racecheck --error-exitcode 3 $N/benchmark/cca_benchmark --reps 1 --warmup 0 --outputs all --connectivity both --dimension 2 --size 2048 --g $g --density 0.5 > $L/racecheck-2048-g$g.log 2>&1; echo "racecheck 2048^2 g$g rc=$? at $SECONDS s"; grep -E "RACECHECK SUMMARY" $L/racecheck-2048-g$g.log
done
timeout 150 compute-sanitizer --tool racecheck --error-exitcode 3 $N/test/gpu/ccaCudaBackendTest --quick --cases 15 --algorithm Default > $L/racecheck.log 2>&1; echo "racecheck rc=$? at $SECONDS s"; grep -E "^total|wide rows|RACECHECK SUMMARY" $L/racecheck.log
tar -C $OUT -czf $OUT/logs.tgz logs && rm -rf $L
