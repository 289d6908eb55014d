#!/usr/bin/env bash
# Call 3 (H200): programmatic dependent launches (N) against ordinary
# launches (O, --no-dependent-launches) in the final binary, images and
# labels in device memory, labels only and the full table, two rounds
# (O N, then N O); then the GPU tests. Logs packed in logs.tgz.
set -u
L=$OUT/logs; mkdir -p $L /tmp/b && tar -C /tmp/b -xJf .devcarry/gpu.tar.xz
B=/tmp/b/build-gpu; N=$B/benchmark/cca_benchmark
nvidia-smi -L > $L/device.txt
P="--reps 5 --warmup 1 --labels-on-device --no-atomic-counts"
$N $P --outputs all --dimension 2 --size 8192 --g 4 --connectivity full > /dev/null 2>&1 # warm-up, not kept
s() { grep '^==' $1 | sed 's/.*kernel \([0-9.]*\) G[^;]*; \([0-9.]*\) mean.*/\1 (\2)/' | tr '\n' ' '; }
for v in O1 N1 N2 O2; do
  case ${v:0:1} in N) run="$N";; O) run="$N --no-dependent-launches";; esac
  for o in labels all; do
    timeout 35 $run $P --outputs $o --dimension 2 --size 8192 --connectivity both --json $L/k2-$o-$v.json > $L/k2-$o-$v.log 2>&1
    echo "2D $o $v rc=$? at $SECONDS s: $(s $L/k2-$o-$v.log)"
    timeout 50 $run $P --outputs $o --dimension 3 --size 512 --connectivity both --json $L/k3-$o-$v.json > $L/k3-$o-$v.log 2>&1
    echo "3D $o $v rc=$? at $SECONDS s: $(s $L/k3-$o-$v.log)"
  done
done
timeout 120 $B/test/gpu/ccaCudaBackendTest > $L/backend.log 2>&1; echo "backend rc=$? at $SECONDS s"; grep -E "^total|FAIL|ordinary" $L/backend.log | head -10
timeout 30 $B/test/gpu/ccaDeviceMemoryTest > $L/devmem.log 2>&1; echo "devmem rc=$? at $SECONDS s"; tail -1 $L/devmem.log
tar -C $OUT -czf $OUT/logs.tgz logs && rm -rf $L
