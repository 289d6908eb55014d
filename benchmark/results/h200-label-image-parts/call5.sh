#!/usr/bin/env bash
# Call 5 (H200): floors for the next session, not a change: what the
# strips' labels-only path would take if the first pixel offers were only
# the flattening (CCA_EXP_FLOOR=1: every run climbs to its root and points
# at it, nothing more), if the label image read one value a run
# (CCA_EXP_FLOOR=2: the run's parent taken as its label), or both (3).
# The labels are wrong under 1-3; only the times mean anything. One binary
# (d223e1a with floor-experiment.patch) in .devcarry/gpu.tar.xz (f/).
# 8192^2 8-connected and 512^3 26-connected, g = 1, labels only, F0 F1 F2
# F3 F0.
set -u
O=$OUT/c5; L=$O/logs; mkdir -p $L /tmp/b
tar -C /tmp/b -xJf .devcarry/gpu.tar.xz
F=/tmp/b/f/cca_benchmark
exec > >(tee $O/summary.txt) 2>&1
s() { grep '^==' $1 | sed 's/.*kernel \([0-9.]*\) G[^;]*; \([0-9.]*\) mean.*device memory <= \([0-9.]*\).*/\1 (\2) \3 B\/px/' | tr '\n' ' '; }
P="--labels-on-device --no-atomic-counts --warmup 1 --reps 5 --outputs labels --g 1"
for tag in 0 1 2 3 0b; do for c in "2 8192" "3 512"; do set -- $c
  CCA_EXP_FLOOR=${tag%b} timeout 45 $F $P --dimension $1 --size $2 --connectivity full > $L/$1d-full-F$tag.log 2>&1
  echo "$1d full F$tag rc=$? at $SECONDS s: $(s $L/$1d-full-F$tag.log)"; done; done
tar -C $O -czf $O/logs.tgz logs && rm -rf $L
