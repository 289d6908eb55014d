#!/usr/bin/env bash
# Call 5 (H200): a plane's feature votes find their first neighbour run by
# a warp's search together (WarpFirstRunPast) (N) against the binary of
# call 3's B (per-lane binary searches), full table, N B N B, 2D at g = 1
# and 4 (both connectivities); the quick GPU test on N first; then ncu of
# the votes on N, 2D 8-conn. g = 4 d = 0.3. Logs in logs.tgz.
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
    timeout 60 $X $P --dimension 2 --size 8192 --g $g --connectivity both --json $L/k2-g$g-$v.json > $L/k2-g$g-$v.log 2>&1
    echo "2D g$g all $v rc=$? at $SECONDS s: $(s $L/k2-g$g-$v.log)"
  done
done
timeout 60 ncu --clock-control none --cache-control none --metrics gpu__time_duration.sum,dram__bytes.sum --csv --print-units base \
  $B/benchmark/cca_benchmark --labels-on-device --no-atomic-counts --reps 1 --warmup 1 --outputs all --dimension 2 --size 8192 --connectivity full --g 4 --density 0.3 > $L/ncu-2d8-g4-d0.3.csv 2> $L/ncu-2d8-g4-d0.3.err
echo "ncu rc=$? at $SECONDS s"
tar -C $OUT -czf $OUT/logs.tgz logs && rm -rf $L
