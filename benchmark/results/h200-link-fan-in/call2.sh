#!/usr/bin/env bash
# Call 2 (H200): the call-1 binary, wider groups forced everywhere: fan-ins
# 16, 32, 64 and 512 (one level of slices at 512^3), volumes, full table and
# labels only; planes (where only images of long runs have levels) with 16
# and 64, full table. Images and labels in device memory. Logs in logs.tgz.
set -u
L=$OUT/logs; mkdir -p $L /tmp/b && tar -C /tmp/b -xJf .devcarry/gpu.tar.xz
B=/tmp/b/build-gpu; N=$B/benchmark/cca_benchmark
nvidia-smi -L > $L/device.txt
P="--reps 5 --warmup 1 --labels-on-device --no-atomic-counts"
$N $P --outputs all --dimension 3 --size 512 --g 4 --connectivity full > /dev/null 2>&1 # warm-up, not kept
s() { grep '^==' $1 | sed 's/.*kernel \([0-9.]*\) G[^;]*; \([0-9.]*\) mean.*/\1 (\2)/' | tr '\n' ' '; }
for f in 16 32 64 512; do
  for o in all labels; do
    timeout 55 $N $P --link-fan-in $f --outputs $o --dimension 3 --size 512 --connectivity both --json $L/k3-$o-F$f.json > $L/k3-$o-F$f.log 2>&1
    echo "3D $o F$f rc=$? at $SECONDS s: $(s $L/k3-$o-F$f.log)"
  done
done
for f in 64 16; do
  timeout 40 $N $P --link-fan-in $f --outputs all --dimension 2 --size 8192 --connectivity both --json $L/k2-all-F$f.json > $L/k2-all-F$f.log 2>&1
  echo "2D all F$f rc=$? at $SECONDS s: $(s $L/k2-all-F$f.log)"
done
tar -C $OUT -czf $OUT/logs.tgz logs && rm -rf $L
