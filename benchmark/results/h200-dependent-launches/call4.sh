#!/usr/bin/env bash
# Call 4 (H200): the feature votes' resident grid launched the ordinary way
# (R, LaunchAllBlocksTogether) against the call-3 binary, where every kernel
# was a programmatic dependent launch (P); full table, images and labels in
# device memory, P R R P; the quick GPU test first. Logs packed in logs.tgz.
set -u
L=$OUT/logs; mkdir -p $L /tmp/b && tar -C /tmp/b -xJf .devcarry/gpu.tar.xz
B=/tmp/b/build-gpu; P=/tmp/b/before-cca_benchmark; R=$B/benchmark/cca_benchmark
xz -dc .devcarry/before/cca_benchmark.xz > $P && chmod +x $P
nvidia-smi -L > $L/device.txt
timeout 60 $B/test/gpu/ccaCudaBackendTest --quick > $L/quick.log 2>&1; echo "quick rc=$? at $SECONDS s"; grep -E "^total|FAIL" $L/quick.log | head -5
O="--reps 5 --warmup 1 --labels-on-device --no-atomic-counts --outputs all"
$R $O --dimension 2 --size 8192 --g 4 --connectivity full > /dev/null 2>&1 # warm-up, not kept
s() { grep '^==' $1 | sed 's/.*kernel \([0-9.]*\) G[^;]*; \([0-9.]*\) mean.*/\1 (\2)/' | tr '\n' ' '; }
for v in P1 R1 R2 P2; do
  which=${v:0:1}; bin=${!which}
  timeout 35 $bin $O --dimension 2 --size 8192 --connectivity both --json $L/k2-$v.json > $L/k2-$v.log 2>&1
  echo "2D $v rc=$? at $SECONDS s: $(s $L/k2-$v.log)"
  timeout 50 $bin $O --dimension 3 --size 512 --connectivity both --json $L/k3-$v.json > $L/k3-$v.log 2>&1
  echo "3D $v rc=$? at $SECONDS s: $(s $L/k3-$v.log)"
done
tar -C $OUT -czf $OUT/logs.tgz logs && rm -rf $L
