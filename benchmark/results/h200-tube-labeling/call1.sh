#!/usr/bin/env bash
# Call 1 (H200): the tubes' GPU tests and sanitizers, then A/B in one binary:
# 3D 26-conn. labels only with the strips (tubes) always / never, and 2D
# 8-conn. strips joined from the facing rows' bits against the per-pair checks
# (CCA_STRIP_PAIR_CHECKS, a probe switch), two rounds each.
set -u
L=$OUT; mkdir -p /tmp/b && tar -C /tmp/b -xJf .devcarry/gpu.tar.xz
B=/tmp/b/build-gpu
nvidia-smi -L > $L/device.txt; nvidia-smi --query-gpu=driver_version,clocks.max.sm --format=csv,noheader >> $L/device.txt
K="$B/benchmark/cca_benchmark --reps 5 --warmup 1 --outputs labels --labels-on-device --no-atomic-counts --connectivity full"
$K --dimension 2 --size 8192 --g 4 > /dev/null 2>&1 # warm-up, not kept
s() { grep '^==' $1 | sed 's/.*kernel \([0-9.]*\) G[^;]*; \([0-9.]*\) mean.*/\1 (\2)/' | tr '\n' ' '; }
for r in 1 2; do
  for m in always never; do
    timeout 60 $K --dimension 3 --size 512 --strip-labeling $m --json $L/k3-$m$r.json > $L/k3-$m$r.log 2>&1
    echo "3D $m$r rc=$? at $SECONDS s: $(s $L/k3-$m$r.log)"
  done
  timeout 40 $K --dimension 2 --size 8192 --json $L/k2-bits$r.json > $L/k2-bits$r.log 2>&1
  echo "2D bits$r rc=$? at $SECONDS s: $(s $L/k2-bits$r.log)"
  CCA_STRIP_PAIR_CHECKS=1 timeout 40 $K --dimension 2 --size 8192 --json $L/k2-pairs$r.json > $L/k2-pairs$r.log 2>&1
  echo "2D pairs$r rc=$? at $SECONDS s: $(s $L/k2-pairs$r.log)"
done
timeout 200 $B/test/gpu/ccaCudaBackendTest > $L/backend.log 2>&1; echo "backend rc=$? at $SECONDS s"; grep -E "strip|block labeling|^total|FAIL" $L/backend.log | head -20
timeout 60 $B/test/gpu/ccaDeviceMemoryTest > $L/devmem.log 2>&1; echo "devmem rc=$? at $SECONDS s"; tail -1 $L/devmem.log
timeout 120 compute-sanitizer --tool memcheck --error-exitcode 3 $B/test/gpu/ccaCudaBackendTest --quick > $L/memcheck.log 2>&1; echo "memcheck rc=$? at $SECONDS s"; grep -E "^total|ERROR SUMMARY" $L/memcheck.log
timeout 200 compute-sanitizer --tool racecheck --error-exitcode 3 $B/test/gpu/ccaCudaBackendTest --quick --cases 15 --algorithm Default > $L/racecheck.log 2>&1; echo "racecheck rc=$? at $SECONDS s"; grep -E "^total|RACECHECK SUMMARY" $L/racecheck.log
