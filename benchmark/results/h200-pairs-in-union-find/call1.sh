#!/usr/bin/env bash
# Call 1 (H200): (a) 6-connected 512^3 volumes at g = 1, labels only: the
# union-find's passes within slices and between slices each from the rows'
# bits or from the runs' searches (--row-bit-links auto, never, always,
# within-slices, between-slices), two rounds; (b) 8-connected 8192^2 at
# g = 4 with the full table, the defaults against each switch; (c) ncu per
# kernel on (b) at d = 0.4, 0.5, 0.6. Logs in logs.tgz.
set -u
L=$OUT/logs; mkdir -p $L /tmp/b
xz -dc .devcarry/bench-n.xz > /tmp/b/cb && chmod +x /tmp/b/cb
exec > >(tee $OUT/summary.txt) 2>&1
nvidia-smi -L
s() { grep '^==' $1 | sed 's/.*kernel \([0-9.]*\) G[^;]*; \([0-9.]*\) mean.*/\1 (\2)/' | tr '\n' ' '; }
K="/tmp/b/cb --labels-on-device --no-atomic-counts"
$K --outputs labels --reps 3 --warmup 1 --dimension 3 --size 512 --g 4 > /dev/null 2>&1
for round in 1 2; do
  for v in auto never always within-slices between-slices; do
    n=3d6-g1-$v-$round
    timeout 60 $K --outputs labels --reps 10 --warmup 2 --dimension 3 --size 512 --connectivity face --g 1 --row-bit-links $v > $L/$n.log 2>&1
    echo "$n rc=$? at $SECONDS s: $(s $L/$n.log)"
  done
done
grep -h "^Default" $L/3d6-g1-*-1.log | head -0
for v in auto never always within-slices between-slices; do echo "== $v per density (ms, round 1)"; grep "^Default" $L/3d6-g1-$v-1.log | awk '{print $4, $10}' | tr '\n' ' '; echo; done
P="--outputs all --reps 11 --warmup 1 --dimension 2 --size 8192 --connectivity full --g 4"
for round in 1 2; do
  for v in "" "--strip-labeling always" "--strip-labeling never" "--vote-order always" "--vote-order never" "--row-bit-links always" "--link-block-rows 128" "--compaction TreeMerge"; do
    n=2d8-g4-$(echo "x$v" | tr -d ' -')-$round
    timeout 60 $K $P $v > $L/$n.log 2>&1
    echo "2d8 g4 [$v] r$round rc=$? at $SECONDS s: $(s $L/$n.log)"
  done
done
echo "== 2d8 g4 defaults per density (ms)"; grep "^Default" $L/2d8-g4-x-1.log | awk '{print $4, $6, $7, $8, $10}'
for d in 0.4 0.5 0.6; do
  timeout 90 ncu --clock-control none --cache-control none --metrics gpu__time_duration.sum --csv --print-units base \
    $K $P --reps 1 --warmup 1 --density $d > $L/ncu-2d8-g4-d$d.csv 2> $L/ncu-2d8-g4-d$d.err
  echo "ncu d$d rc=$? at $SECONDS s"
done
tar -C $OUT -czf $OUT/logs.tgz logs && rm -rf $L
