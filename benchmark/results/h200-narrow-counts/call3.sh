#!/usr/bin/env bash
# Call 3 (H200): the narrow table, first form (narrow only from 65,536
# components, widened on the host field by field; one binary):
# --narrow-table auto (A, the default) against never (W, the wide entries
# main had), A W W A, full table, summed, kernel time and the engine's
# download (the table widened on the host as it arrives): g = 1 in 512^3
# 6- and 26-conn. and 8192^2 4- and 8-conn., then 8192^2 8-conn. and
# 512^3 6-conn. g = 4.
set -u
L=$OUT/logs; mkdir -p $L /tmp/b
tar -C /tmp/b -xJf .devcarry/gpu.tar.xz
exec > >(tee $OUT/summary.txt) 2>&1
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader
B=/tmp/b/x/build-gpu/benchmark/cca_benchmark
declare -A U=([a]=auto [w]=never)
s() { grep '^==' $1 | sed 's/.*kernel \([0-9.]*\) G[^;]*; \([0-9.]*\) mean.*device memory <= \([0-9.]*\).*/\1 (\2) \3 B\/px/' | tr '\n' ' '; }
P="--labels-on-device --no-atomic-counts --warmup 1 --reps 3 --outputs all"
for c in "3 512 face 1" "3 512 full 1" "2 8192 face 1" "2 8192 full 1" "2 8192 full 4" "3 512 face 4"; do
  set -- $c
  for v in a1 w1 w2 a2; do
    n=$1d-$3-g$4-all-$v
    timeout 80 $B $P --narrow-table ${U[${v:0:1}]} --g $4 --dimension $1 --size $2 --connectivity $3 --json $L/$n.json > $L/$n.log 2>&1
    echo "$n rc=$? at $SECONDS s: $(s $L/$n.log)"
  done
done
python3 - $L <<'PY'
import json, sys, glob, os
for f in sorted(glob.glob(sys.argv[1] + "/*-w1.json")):
    b = json.load(open(f))["measurements"]
    for v in ["a1", "a2", "w2"]:
        g = f.replace("-w1.json", "-%s.json" % v)
        if os.path.exists(g):
            n = json.load(open(g))["measurements"]
            same = [(m["components"], m["runs"]) for m in b] == [(m["components"], m["runs"]) for m in n]
            print(os.path.basename(g), "same objects as w1" if same else "OBJECTS DIFFER from w1",
                  "summed kernel ms %.2f -> %.2f" % (sum(m["kernelMs"] for m in b), sum(m["kernelMs"] for m in n)),
                  "download ms %.2f -> %.2f" % (sum(m["downloadMs"] for m in b), sum(m["downloadMs"] for m in n)),
                  "total ms %.2f -> %.2f" % (sum(m["totalMs"] for m in b), sum(m["totalMs"] for m in n)))
PY
tar -C $OUT -czf $OUT/logs.tgz logs && rm -rf $L
