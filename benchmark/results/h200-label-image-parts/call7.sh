#!/usr/bin/env bash
# Call 7 (H200): where strips stop paying in 8-connected planes, g = 1:
# strips never against always at d = 0.25 ... 0.45, 8192^2, labels only,
# the committed code (d223e1a), two rounds. Carried: .devcarry/gpu.tar.xz (x/).
set -u
O=$OUT/c7; L=$O/logs; mkdir -p $L /tmp/b
tar -C /tmp/b -xJf .devcarry/gpu.tar.xz
X=/tmp/b/x/cca_benchmark
exec > >(tee $O/summary.txt) 2>&1
P="--labels-on-device --no-atomic-counts --warmup 1 --reps 5 --outputs labels --g 1 --dimension 2 --size 8192 --connectivity full"
for r in 1 2; do for d in 0.25 0.3 0.325 0.35 0.375 0.4 0.45; do line="d=$d round $r:"
  for m in never always; do
    timeout 20 $X $P --strip-labeling $m --density $d > $L/$m-$d-$r.log 2>&1
    line="$line $m $(grep '^Default' $L/$m-$d-$r.log | awk '{print $10}')"
  done; echo "$line"; done; done
echo "at $SECONDS s"
tar -C $O -czf $O/logs.tgz logs && rm -rf $L
