#!/usr/bin/env bash
# Call 3 (H200): B = main 515f88f, N1 = call 1's N (1fd64de) at the
# granularities calls 1 and 2 left out against B: full table, face
# connectivity, g = 16 and all foreground (g = 0) in 2D and 3D, B N1 three
# times; g = 1 in 2D once more.
set -u
L=$OUT/logs; mkdir -p $L /tmp/b
tar -C /tmp/b -xJf .devcarry/gpu.tar.xz
exec > >(tee $OUT/summary.txt) 2>&1
bin() { case $1 in b) echo /tmp/b/b/cca_benchmark;; n1) echo /tmp/b/n1/cca_benchmark;; esac; }
s() { grep '^==' $1 | sed 's/.*kernel \([0-9.]*\) G[^;]*; \([0-9.]*\) mean.*device memory <= \([0-9.]*\).*/\1 (\2) \3 B\/px/' | tr '\n' ' '; }
P="--labels-on-device --no-atomic-counts --warmup 1 --reps 3 --outputs all"
run() { # dims size g connectivity version round
  t=$1d-g$3-$4-$5$6
  timeout 60 $(bin $5) $P --g $3 --dimension $1 --size $2 --connectivity $4 --json $L/$t.json > $L/$t.log 2>&1
  echo "$t rc=$? at $SECONDS s: $(s $L/$t.log)"
  grep "^Default" $L/$t.log | awk '{printf "%s:%s ", $4, $10} END {print ""}'
}
for r in 1 2 3; do for g in 16 0; do for v in b n1; do run 2 8192 $g face $v $r; run 3 512 $g face $v $r; done; done; done
for v in b n1; do run 2 8192 1 face $v 1; done
tar -C $OUT -czf $OUT/logs.tgz logs && rm -rf $L
