#!/usr/bin/env bash
# Call 5 (H200): the dense table without the flattening pass (the numbering
# climbs the trees and gives the table its labels and roots) against the
# call-4 binary, full table, A N N A, then the GPU tests and memcheck.
set -u
L=$OUT/logs; mkdir -p $L /tmp/b && tar -C /tmp/b -xJf .devcarry/gpu.tar.xz
B=/tmp/b/build-gpu; A=/tmp/b/before-cca_benchmark; N=$B/benchmark/cca_benchmark
xz -dc .devcarry/before/cca_benchmark.xz > $A && chmod +x $A
nvidia-smi -L > $L/device.txt
O="--reps 5 --warmup 1 --labels-on-device --no-atomic-counts --outputs all"
$N $O --dimension 2 --size 8192 --g 4 --connectivity full > /dev/null 2>&1 # warm-up, not kept
s() { grep '^==' $1 | sed 's/.*kernel \([0-9.]*\) G[^;]*; \([0-9.]*\) mean.*/\1 (\2)/' | tr '\n' ' '; }
for v in A1 N1 N2 A2; do
  which=${v:0:1}; bin=${!which}
  timeout 30 $bin $O --dimension 2 --size 8192 --connectivity both --json $L/k2-$v.json > $L/k2-$v.log 2>&1
  echo "2D $v rc=$? at $SECONDS s: $(s $L/k2-$v.log)"
  timeout 45 $bin $O --dimension 3 --size 512 --connectivity both --json $L/k3-$v.json > $L/k3-$v.log 2>&1
  echo "3D $v rc=$? at $SECONDS s: $(s $L/k3-$v.log)"
done
timeout 90 $B/test/gpu/ccaCudaBackendTest > $L/backend.log 2>&1; echo "backend rc=$? at $SECONDS s"; grep -E "^total|FAIL" $L/backend.log | head -10
timeout 20 $B/test/gpu/ccaDeviceMemoryTest > $L/devmem.log 2>&1; echo "devmem rc=$? at $SECONDS s"; tail -1 $L/devmem.log
timeout 50 compute-sanitizer --tool memcheck --error-exitcode 3 $B/test/gpu/ccaCudaBackendTest --quick > $L/memcheck.log 2>&1; echo "memcheck rc=$? at $SECONDS s"; grep -E "^total|ERROR SUMMARY" $L/memcheck.log
tar -C $OUT -czf $OUT/logs.tgz logs && rm -rf $L
