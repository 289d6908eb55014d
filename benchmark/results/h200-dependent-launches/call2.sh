#!/usr/bin/env bash
# Call 2 (H200): the full table (labels + runs + table, images and labels in
# device memory) three ways in one call, two rounds (A N O, then O N A):
# A: the binary before this session's changes; N: the label image queued
# before the component count is read, and every kernel a programmatic
# dependent launch; O: the same binary with --no-dependent-launches. First
# the quick GPU test of the new binary. Logs packed in logs.tgz.
set -u
L=$OUT/logs; mkdir -p $L /tmp/b && tar -C /tmp/b -xJf .devcarry/gpu.tar.xz
B=/tmp/b/build-gpu; A=/tmp/b/before-cca_benchmark; N=$B/benchmark/cca_benchmark
xz -dc .devcarry/before/cca_benchmark.xz > $A && chmod +x $A
nvidia-smi -L > $L/device.txt
timeout 60 $B/test/gpu/ccaCudaBackendTest --quick > $L/quick.log 2>&1; echo "quick rc=$? at $SECONDS s"; grep -E "^total|FAIL" $L/quick.log | head -5
O="--reps 5 --warmup 1 --labels-on-device --no-atomic-counts --outputs all"
$N $O --dimension 2 --size 8192 --g 4 --connectivity full > /dev/null 2>&1 # warm-up, not kept
s() { grep '^==' $1 | sed 's/.*kernel \([0-9.]*\) G[^;]*; \([0-9.]*\) mean.*/\1 (\2)/' | tr '\n' ' '; }
for v in A1 N1 O1 O2 N2 A2; do
  case ${v:0:1} in A) run="$A";; N) run="$N";; O) run="$N --no-dependent-launches";; esac
  timeout 35 $run $O --dimension 2 --size 8192 --connectivity both --json $L/k2-$v.json > $L/k2-$v.log 2>&1
  echo "2D $v rc=$? at $SECONDS s: $(s $L/k2-$v.log)"
  timeout 50 $run $O --dimension 3 --size 512 --connectivity both --json $L/k3-$v.json > $L/k3-$v.log 2>&1
  echo "3D $v rc=$? at $SECONDS s: $(s $L/k3-$v.log)"
done
tar -C $OUT -czf $OUT/logs.tgz logs && rm -rf $L
