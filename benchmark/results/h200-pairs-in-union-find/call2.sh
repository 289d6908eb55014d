#!/usr/bin/env bash
# Call 2 (H200): how much of the full table under full connectivity is the
# votes' neighbour pairs? H = a build whose votes skip the pairs (wrong
# perimeters: an upper bound only), B = call 1's binary. Full table,
# summed, B H B H.
set -u
L=$OUT/logs; mkdir -p $L /tmp/b
xz -dc .devcarry/bench-n.xz > /tmp/b/B && xz -dc .devcarry/bench-hack.xz > /tmp/b/H && chmod +x /tmp/b/B /tmp/b/H
exec > >(tee $OUT/summary.txt) 2>&1
s() { grep '^==' $1 | sed 's/.*kernel \([0-9.]*\) G[^;]*; \([0-9.]*\) mean.*/\1 (\2)/' | tr '\n' ' '; }
/tmp/b/B --labels-on-device --outputs all --reps 3 --warmup 1 --dimension 2 --size 8192 --g 4 > /dev/null 2>&1
P="--labels-on-device --no-atomic-counts --outputs all --reps 11 --warmup 1 --connectivity full"
for v in B1 H1 B2 H2; do
  for c in "2 8192 4" "2 8192 1" "3 512 4" "3 512 1" "2 8192 16"; do
    set -- $c; n=$1d-g$3-$v
    timeout 60 /tmp/b/${v:0:1} $P --dimension $1 --size $2 --g $3 > $L/$n.log 2>&1
    echo "$n rc=$? at $SECONDS s: $(s $L/$n.log)"
  done
done
tar -C $OUT -czf $OUT/logs.tgz logs && rm -rf $L
