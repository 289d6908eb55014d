#!/usr/bin/env bash
# Call 6 (H200): experiment, one binary: the feature votes in component
# order (CCA_VOTE_ORDER=1: the units sorted by label first, each warp's
# lanes then mostly one component's units: fewer leaders, fewer atomics
# into the L2) (O) against raster order (R), full table, O R O R, 2D and
# 3D at g = 1 and 4; the quick GPU test with the order first. Logs in
# logs.tgz.
set -u
L=$OUT/logs; mkdir -p $L /tmp/b && tar -C /tmp/b -xJf .devcarry/gpu.tar.xz
B=/tmp/b/build-gpu
nvidia-smi -L > $L/device.txt
CCA_VOTE_ORDER=1 timeout 90 $B/test/gpu/ccaCudaBackendTest --quick > $L/backend-quick.log 2>&1; echo "backend quick (order) rc=$? at $SECONDS s"; grep -E "^total|FAIL" $L/backend-quick.log | head -10
P="--reps 5 --warmup 1 --labels-on-device --no-atomic-counts --outputs all"
X=$B/benchmark/cca_benchmark
s() { grep '^==' $1 | sed 's/.*kernel \([0-9.]*\) G[^;]*; \([0-9.]*\) mean.*/\1 (\2)/' | tr '\n' ' '; }
$X $P --dimension 2 --size 8192 --g 4 > /dev/null 2>&1 # warm-up
for v in O1 R1 O2 R2; do
  E=0; [[ $v == O* ]] && E=1
  for g in 1 4; do
    CCA_VOTE_ORDER=$E timeout 60 $X $P --dimension 2 --size 8192 --g $g --connectivity both --json $L/k2-g$g-$v.json > $L/k2-g$g-$v.log 2>&1
    echo "2D g$g all $v rc=$? at $SECONDS s: $(s $L/k2-g$g-$v.log)"
    CCA_VOTE_ORDER=$E timeout 60 $X $P --dimension 3 --size 512 --g $g --connectivity both --json $L/k3-g$g-$v.json > $L/k3-g$g-$v.log 2>&1
    echo "3D g$g all $v rc=$? at $SECONDS s: $(s $L/k3-g$g-$v.log)"
  done
done
tar -C $OUT -czf $OUT/logs.tgz logs && rm -rf $L
