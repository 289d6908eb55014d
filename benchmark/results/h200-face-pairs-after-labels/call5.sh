#!/usr/bin/env bash
# Call 5 (H200): N = main fd18ffa with the review's leftovers (the row
# spans reserved only where the byte row scan keeps them; StripRowsAt
# takes a row's image index from the coordinates it has). The GPU tests,
# memcheck and racecheck on N first, then labels only, 8192^2 8-conn.
# g = 1 (strips of a plane) and 512^3 26-conn. g = 1 (tubes), B = fd18ffa
# and N once each, as far as the device time left allows.
set -u
L=$OUT/logs; mkdir -p $L /tmp/b
tar -C /tmp/b -xJf .devcarry/gpu.tar.xz
exec > >(tee $OUT/summary.txt) 2>&1
bash scripts/engine-gpu-tests.sh /tmp/b/n/build-gpu $L
bin() { case $1 in b) echo /tmp/b/b/cca_benchmark;; n) echo /tmp/b/n/build-gpu/benchmark/cca_benchmark;; esac; }
s() { grep '^==' $1 | sed 's/.*kernel \([0-9.]*\) G[^;]*; \([0-9.]*\) mean.*device memory <= \([0-9.]*\).*/\1 (\2) \3 B\/px/' | tr '\n' ' '; }
P="--labels-on-device --no-atomic-counts --warmup 1 --reps 3 --outputs labels --connectivity full --g 1"
for v in b n; do
  t=k2-$v; timeout 30 $(bin $v) $P --dimension 2 --size 8192 > $L/$t.log 2>&1; echo "$t rc=$? at $SECONDS s: $(s $L/$t.log)"
done
for v in b n; do
  t=k3-$v; timeout 40 $(bin $v) $P --dimension 3 --size 512 > $L/$t.log 2>&1; echo "$t rc=$? at $SECONDS s: $(s $L/$t.log)"
done
tar -C $OUT -czf $OUT/logs.tgz logs && rm -rf $L
