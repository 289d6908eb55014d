#!/usr/bin/env bash
# Call 3 (H200): planes of short runs joined in blocks of rows first, then
# the block borders by levels (as volumes are), against one pass over all
# rows (the default, 0). Block rows forced by --link-block-rows (F: fan-in
# forced too); labels only every granularity, the full table g = 1 and 4;
# 6-connected volumes at g = 1 with other block heights. Logs in logs.tgz.
set -u
L=$OUT/logs; mkdir -p $L /tmp/b && tar -C /tmp/b -xJf .devcarry/gpu.tar.xz
B=/tmp/b/build-gpu; N=$B/benchmark/cca_benchmark
nvidia-smi -L > $L/device.txt
P="--reps 5 --warmup 1 --labels-on-device --no-atomic-counts"
s() { grep '^==' $1 | sed 's/.*kernel \([0-9.]*\) G[^;]*; \([0-9.]*\) mean.*/\1 (\2)/' | tr '\n' ' '; }
$N $P --outputs labels --dimension 2 --size 8192 --g 4 > /dev/null 2>&1 # warm-up
for v in 0 64 128 256 128F64; do
  b=${v%F*}; f=0; [[ $v == *F* ]] && f=${v#*F}
  timeout 60 $N $P --link-block-rows $b --link-fan-in $f --outputs labels --dimension 2 --size 8192 --connectivity both --json $L/k2-labels-$v.json > $L/k2-labels-$v.log 2>&1
  echo "2D labels rows $v rc=$? at $SECONDS s: $(s $L/k2-labels-$v.log)"
done
for v in 0 128; do
  for g in 1 4; do
    timeout 40 $N $P --link-block-rows $v --outputs all --dimension 2 --size 8192 --g $g --connectivity both --json $L/k2-all-g$g-$v.json > $L/k2-all-g$g-$v.log 2>&1
    echo "2D all g$g rows $v rc=$? at $SECONDS s: $(s $L/k2-all-g$g-$v.log)"
  done
done
for v in 64 256 128; do
  timeout 40 $N $P --link-block-rows $v --outputs labels --dimension 3 --size 512 --g 1 --connectivity face --json $L/k3-labels-$v.json > $L/k3-labels-$v.log 2>&1
  echo "3D6 labels g1 rows $v rc=$? at $SECONDS s: $(s $L/k3-labels-$v.log)"
done
tar -C $OUT -czf $OUT/logs.tgz logs && rm -rf $L
