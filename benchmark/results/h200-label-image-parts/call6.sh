#!/usr/bin/env bash
# Call 6 (H200): is the strip labeling still the better choice for
# 8-connected planes at every density? The committed code (d223e1a) with
# the strips chosen as usual (auto), never, and always, labels only, g = 1,
# 8192^2; auto again last. Carried: .devcarry/gpu.tar.xz (x/).
set -u
O=$OUT/c6; L=$O/logs; mkdir -p $L /tmp/b
tar -C /tmp/b -xJf .devcarry/gpu.tar.xz
X=/tmp/b/x/cca_benchmark
exec > >(tee $O/summary.txt) 2>&1
s() { grep '^==' $1 | sed 's/.*kernel \([0-9.]*\) G[^;]*; \([0-9.]*\) mean.*device memory <= \([0-9.]*\).*/\1 (\2) \3 B\/px/' | tr '\n' ' '; }
P="--labels-on-device --no-atomic-counts --warmup 1 --reps 5 --outputs labels --g 1 --dimension 2 --size 8192 --connectivity full"
for m in auto never always auto2; do
  timeout 45 $X $P --strip-labeling ${m%2} > $L/2d-full-$m.log 2>&1; echo "2d full strips $m rc=$? at $SECONDS s: $(s $L/2d-full-$m.log)"
  grep "^Default" $L/2d-full-$m.log | awk '{printf "%s:%s ", $4, $10} END {print ""}'
done
tar -C $O -czf $O/logs.tgz logs && rm -rf $L
