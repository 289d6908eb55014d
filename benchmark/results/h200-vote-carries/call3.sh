#!/usr/bin/env bash
# Call 3 (H200): records carried from tile to tile on the grid-strided
# tiles, flushed when the warp's tile ends in another component or the
# warp ends (CCA_VOTE_CHUNK=-1, binary N's default: G) against B
# (18c8c7b), full table, g = 1 and 4, 2D and 3D, B G B G; then the quick
# GPU test on N. Logs in logs.tgz.
set -u
L=$OUT/logs; mkdir -p $L /tmp/b && tar -C /tmp/b -xJf .devcarry/gpu.tar.xz
N=/tmp/b/build-gpu; xz -dc .devcarry/before/cca_benchmark.xz > /tmp/b/before && chmod +x /tmp/b/before
nvidia-smi -L > $L/device.txt
P="--reps 5 --warmup 1 --labels-on-device --no-atomic-counts --outputs all --connectivity both"
s() { grep '^==' $1 | sed 's/.*kernel \([0-9.]*\) G[^;]*; \([0-9.]*\) mean.*/\1 (\2)/' | tr '\n' ' '; }
$N/benchmark/cca_benchmark $P --dimension 2 --size 8192 --g 4 > /dev/null 2>&1 # warm-up
for v in B1 G1 B2 G2; do
  X=$N/benchmark/cca_benchmark; [[ $v == B* ]] && X=/tmp/b/before
  for g in 1 4; do
    timeout 40 $X $P --g $g --dimension 2 --size 8192 --json $L/k2-g$g-$v.json > $L/k2-g$g-$v.log 2>&1
    echo "2D g$g $v rc=$? at $SECONDS s: $(s $L/k2-g$g-$v.log)"
    timeout 40 $X $P --g $g --dimension 3 --size 512 --json $L/k3-g$g-$v.json > $L/k3-g$g-$v.log 2>&1
    echo "3D g$g $v rc=$? at $SECONDS s: $(s $L/k3-g$g-$v.log)"
  done
done
timeout 60 $N/test/gpu/ccaCudaBackendTest --quick > $L/backend-quick.log 2>&1; echo "backend quick rc=$? at $SECONDS s"; grep -E "^total|FAIL|vote orders" $L/backend-quick.log | head -5
tar -C $OUT -czf $OUT/logs.tgz logs && rm -rf $L
