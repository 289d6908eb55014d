#!/usr/bin/env bash
# Call 1 (H200): main (N, fcdfd86) against the records' fifteen counts in
# 32 bits (W, tried/narrow-counts: pixelCount, pixelsOnBorder,
# pixelsOnFace and the intercept pair counts; 216 -> 160 bytes a record),
# each its own binary. Full table, summed, N W W N: g = 1 in 512^3 6- and
# 26-conn. and 8192^2 4- and 8-conn., then 8192^2 8-conn. g = 4.
set -u
L=$OUT/logs; mkdir -p $L /tmp/b
tar -C /tmp/b -xJf .devcarry/gpu.tar.xz
exec > >(tee $OUT/summary.txt) 2>&1
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader
declare -A B=([n]=/tmp/b/n/cca_benchmark [w]=/tmp/b/w/cca_benchmark)
s() { grep '^==' $1 | sed 's/.*kernel \([0-9.]*\) G[^;]*; \([0-9.]*\) mean.*device memory <= \([0-9.]*\).*/\1 (\2) \3 B\/px/' | tr '\n' ' '; }
P="--labels-on-device --no-atomic-counts --warmup 1 --reps 3 --outputs all"
for c in "3 512 face 1" "3 512 full 1" "2 8192 face 1" "2 8192 full 1" "2 8192 full 4" "3 512 face 4"; do
  set -- $c
  for v in n1 w1 w2 n2; do
    n=$1d-$3-g$4-all-$v
    timeout 80 ${B[${v:0:1}]} $P --g $4 --dimension $1 --size $2 --connectivity $3 --json $L/$n.json > $L/$n.log 2>&1
    echo "$n rc=$? at $SECONDS s: $(s $L/$n.log)"
  done
done
python3 - $L <<'PY'
import json, sys, glob, os
for f in sorted(glob.glob(sys.argv[1] + "/*-n1.json")):
    b = json.load(open(f))["measurements"]
    for v in ["w1", "w2", "n2"]:
        g = f.replace("-n1.json", "-%s.json" % v)
        if os.path.exists(g):
            n = json.load(open(g))["measurements"]
            same = [(m["components"], m["runs"]) for m in b] == [(m["components"], m["runs"]) for m in n]
            print(os.path.basename(g), "same objects as n1" if same else "OBJECTS DIFFER from n1",
                  "summed ms %.2f -> %.2f" % (sum(m["kernelMs"] for m in b), sum(m["kernelMs"] for m in n)))
PY
tar -C $OUT -czf $OUT/logs.tgz logs && rm -rf $L
