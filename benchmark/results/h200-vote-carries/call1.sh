#!/usr/bin/env bash
# Call 1 (H200): the votes in component order with records carried from
# tile to tile (HotFolding::WarpCarries, binary N) against the same order
# folded by the block's first component (WarpSlots, binary B = 18c8c7b),
# full table (--outputs all, default vote order auto), B N B N, 2D and 3D,
# every granularity; the quick GPU test first. Logs in logs.tgz.
set -u
L=$OUT/logs; mkdir -p $L /tmp/b && tar -C /tmp/b -xJf .devcarry/gpu.tar.xz
N=/tmp/b/build-gpu; xz -dc .devcarry/before/cca_benchmark.xz > /tmp/b/before && chmod +x /tmp/b/before
nvidia-smi -L > $L/device.txt
timeout 60 $N/test/gpu/ccaCudaBackendTest --quick > $L/backend-quick.log 2>&1; echo "backend quick rc=$? at $SECONDS s"; grep -E "^total|FAIL|vote orders" $L/backend-quick.log | head -5
P="--reps 5 --warmup 1 --labels-on-device --no-atomic-counts --outputs all"
s() { grep '^==' $1 | sed 's/.*kernel \([0-9.]*\) G[^;]*; \([0-9.]*\) mean.*/\1 (\2)/' | tr '\n' ' '; }
$N/benchmark/cca_benchmark $P --dimension 2 --size 8192 --g 4 > /dev/null 2>&1 # warm-up
for v in B1 N1 B2 N2; do
  X=$N/benchmark/cca_benchmark; [[ $v == B* ]] && X=/tmp/b/before
  timeout 70 $X $P --dimension 2 --size 8192 --connectivity both --json $L/k2-$v.json > $L/k2-$v.log 2>&1
  echo "2D all $v rc=$? at $SECONDS s: $(s $L/k2-$v.log)"
  timeout 90 $X $P --dimension 3 --size 512 --connectivity both --json $L/k3-$v.json > $L/k3-$v.log 2>&1
  echo "3D all $v rc=$? at $SECONDS s: $(s $L/k3-$v.log)"
done
tar -C $OUT -czf $OUT/logs.tgz logs && rm -rf $L
