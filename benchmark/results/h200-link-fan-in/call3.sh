#!/usr/bin/env bash
# Call 3 (H200): the final binary (fan-in 64 in volumes, 8 in planes of long
# runs). The GPU tests; then the default (D) against the levels of pairs
# forced everywhere (F2), full table and labels only, images and labels in
# device memory. Logs packed in logs.tgz.
set -u
L=$OUT/logs; mkdir -p $L /tmp/b && tar -C /tmp/b -xJf .devcarry/gpu.tar.xz
B=/tmp/b/build-gpu; N=$B/benchmark/cca_benchmark
nvidia-smi -L > $L/device.txt
timeout 150 $B/test/gpu/ccaCudaBackendTest > $L/backend.log 2>&1; echo "backend rc=$? at $SECONDS s"; grep -E "^total|FAIL|fan-in" $L/backend.log | head -10
timeout 30 $B/test/gpu/ccaDeviceMemoryTest > $L/devmem.log 2>&1; echo "devmem rc=$? at $SECONDS s"; tail -1 $L/devmem.log
P="--reps 5 --warmup 1 --labels-on-device --no-atomic-counts"
$N $P --outputs all --dimension 3 --size 512 --g 4 --connectivity full > /dev/null 2>&1 # warm-up, not kept
s() { grep '^==' $1 | sed 's/.*kernel \([0-9.]*\) G[^;]*; \([0-9.]*\) mean.*/\1 (\2)/' | tr '\n' ' '; }
for v in D F2; do
  f=0; [[ $v == F* ]] && f=${v:1}
  for o in all labels; do
    timeout 40 $N $P --link-fan-in $f --outputs $o --dimension 2 --size 8192 --connectivity both --json $L/k2-$o-$v.json > $L/k2-$o-$v.log 2>&1
    echo "2D $o $v rc=$? at $SECONDS s: $(s $L/k2-$o-$v.log)"
    timeout 55 $N $P --link-fan-in $f --outputs $o --dimension 3 --size 512 --connectivity both --json $L/k3-$o-$v.json > $L/k3-$o-$v.log 2>&1
    echo "3D $o $v rc=$? at $SECONDS s: $(s $L/k3-$o-$v.log)"
  done
done
tar -C $OUT -czf $OUT/logs.tgz logs && rm -rf $L
