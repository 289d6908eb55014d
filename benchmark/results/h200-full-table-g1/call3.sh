#!/usr/bin/env bash
# Call 3 (H200): a volume's four following rows searched together in the
# feature votes (N) against the binary before it (B), full table, N B N B,
# 3D 6- and 26-conn. at g = 1 and 4, 2D at g = 1 (planes: one row, should
# not move); the quick GPU test on N first. Logs in logs.tgz.
set -u
L=$OUT/logs; mkdir -p $L /tmp/b && tar -C /tmp/b -xJf .devcarry/gpu.tar.xz
B=/tmp/b/build-gpu; xz -dc .devcarry/before/cca_benchmark.xz > /tmp/b/before && chmod +x /tmp/b/before
nvidia-smi -L > $L/device.txt
timeout 90 $B/test/gpu/ccaCudaBackendTest --quick > $L/backend-quick.log 2>&1; echo "backend quick rc=$? at $SECONDS s"; grep -E "^total|FAIL" $L/backend-quick.log | head -10
P="--reps 5 --warmup 1 --labels-on-device --no-atomic-counts --outputs all"
s() { grep '^==' $1 | sed 's/.*kernel \([0-9.]*\) G[^;]*; \([0-9.]*\) mean.*/\1 (\2)/' | tr '\n' ' '; }
$B/benchmark/cca_benchmark $P --dimension 2 --size 8192 --g 4 > /dev/null 2>&1 # warm-up
for v in N1 B1 N2 B2; do
  X=$B/benchmark/cca_benchmark; [[ $v == B* ]] && X=/tmp/b/before
  for g in 1 4; do
    timeout 60 $X $P --dimension 3 --size 512 --g $g --connectivity both --json $L/k3-g$g-$v.json > $L/k3-g$g-$v.log 2>&1
    echo "3D g$g all $v rc=$? at $SECONDS s: $(s $L/k3-g$g-$v.log)"
  done
  timeout 40 $X $P --dimension 2 --size 8192 --g 1 --connectivity both --json $L/k2-g1-$v.json > $L/k2-g1-$v.log 2>&1
  echo "2D g1 all $v rc=$? at $SECONDS s: $(s $L/k2-g1-$v.log)"
done
tar -C $OUT -czf $OUT/logs.tgz logs && rm -rf $L
