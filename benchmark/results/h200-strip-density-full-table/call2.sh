#!/usr/bin/env bash
# Call 2 (H200): the full table's neighbour pairs counted from the mask's
# pixels under full connectivity (ForegroundPairs.cuh) against the runs'
# search (the call-1 binary), A B A B, 2D 8-conn. and 3D 26-conn., then the
# GPU tests and the sanitizers on the new code. Logs packed in logs.tgz.
set -u
L=$OUT/logs; mkdir -p $L /tmp/b && tar -C /tmp/b -xJf .devcarry/gpu.tar.xz
B=/tmp/b/build-gpu; A=.devcarry/before/cca_benchmark; N=$B/benchmark/cca_benchmark
nvidia-smi -L > $L/device.txt
O="--reps 5 --warmup 1 --labels-on-device --no-atomic-counts --outputs all"
$N $O --dimension 2 --size 8192 --g 4 --connectivity full > /dev/null 2>&1 # warm-up, not kept
s() { grep '^==' $1 | sed 's/.*kernel \([0-9.]*\) G[^;]*; \([0-9.]*\) mean.*/\1 (\2)/' | tr '\n' ' '; }
for round in 1 2; do
  for v in A N; do
    bin=${!v}
    timeout 60 $bin $O --dimension 2 --size 8192 --connectivity full --json $L/k2-$v$round.json > $L/k2-$v$round.log 2>&1
    echo "2D 8 $v$round rc=$? at $SECONDS s: $(s $L/k2-$v$round.log)"
    timeout 80 $bin $O --dimension 3 --size 512 --connectivity full --json $L/k3-$v$round.json > $L/k3-$v$round.log 2>&1
    echo "3D 26 $v$round rc=$? at $SECONDS s: $(s $L/k3-$v$round.log)"
  done
done
timeout 200 $B/test/gpu/ccaCudaBackendTest > $L/backend.log 2>&1; echo "backend rc=$? at $SECONDS s"; grep -E "^total|FAIL" $L/backend.log | head -10
timeout 60 $B/test/gpu/ccaDeviceMemoryTest > $L/devmem.log 2>&1; echo "devmem rc=$? at $SECONDS s"; tail -1 $L/devmem.log
timeout 100 compute-sanitizer --tool memcheck --error-exitcode 3 $B/test/gpu/ccaCudaBackendTest --quick > $L/memcheck.log 2>&1; echo "memcheck rc=$? at $SECONDS s"; grep -E "^total|ERROR SUMMARY" $L/memcheck.log
tar -C $OUT -czf $OUT/logs.tgz logs && rm -rf $L
