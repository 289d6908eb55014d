#!/usr/bin/env bash
# Call 7 (H200): main's switches on 8192^2 8-conn. g = 4, full table (1.16-
# 1.18x BKE's labels only, 1.2x asked): each switch alone against the
# automatic choices (base, first and last), one binary. Summed Gpix/s (mean
# over density), then kernel ms per density d = 0 .. 1.
set -u
L=$OUT/logs; mkdir -p $L /tmp/b
tar -C /tmp/b -xJf .devcarry/gpu.tar.xz
exec > >(tee $OUT/summary.txt) 2>&1
B=/tmp/b/n/build-gpu/benchmark/cca_benchmark
P="--labels-on-device --no-atomic-counts --warmup 1 --reps 3 --outputs all --g 4 --dimension 2 --size 8192 --connectivity full"
i=0
while IFS='|' read -r name flags; do
  i=$((i + 1))
  n=$(printf '%02d' $i)-$name
  timeout 60 $B $P $flags --json $L/$n.json > $L/$n.log 2>&1
  rc=$?
  python3 - $L/$n.json "$n rc=$rc at $SECONDS s" <<'PY'
import json, sys
try:
    m = json.load(open(sys.argv[1]))["measurements"]
except Exception as e:
    print(sys.argv[2], "no result", e); sys.exit()
px = 8192 * 8192 * len(m)
t = sum(x["kernelMs"] for x in m)
print("%-44s %6.2f (%6.2f)  %s" % (sys.argv[2], px / (t * 1e6), sum(8192 * 8192 / (x["kernelMs"] * 1e6) for x in m) / len(m),
      " ".join("%.3f" % x["kernelMs"] for x in m)))
PY
done <<'LIST'
base|
full-pairs-after-labels|--full-pairs-after-labels
fpal-row-bits|--full-pairs-after-labels --row-bit-links always
row-bits-always|--row-bit-links always
strips-always|--strip-labeling always
strips-never|--strip-labeling never
vote-order-always|--vote-order always
vote-order-never|--vote-order never
whole-always|--whole-components always
whole-never|--whole-components never
blocks-always|--block-labeling always
fan-in-4|--link-fan-in 4
fan-in-16|--link-fan-in 16
fan-in-64|--link-fan-in 64
block-rows-16|--link-block-rows 16
block-rows-64|--link-block-rows 64
base-again|
LIST
tar -C $OUT -czf $OUT/logs.tgz logs && rm -rf $L
