#!/usr/bin/env bash
# Calls 1 and 2 (H200): main (N) against a change to the votes' reads of
# the run records (X), each its own binary: call 1 X = the slice pairs
# inside each run's record (next/slice-pairs-in-records), call 2 X = the
# fold of only what a record holds (next/narrow-record-fold). Full table,
# g = 1, 512^3 6- and 26-conn. and 8192^2 4-conn., N X X N. Usage:
#   bash ab.sh X_BINARY_NAME   (the file under the carried tarball's root)
set -u
L=$OUT/logs; mkdir -p $L /tmp/b
tar -C /tmp/b -xJf .devcarry/gpu.tar.xz
exec > >(tee $OUT/summary.txt) 2>&1
declare -A B=([n]=/tmp/b/n/build-gpu/benchmark/cca_benchmark [x]=/tmp/b/$1)
s() { grep '^==' $1 | sed 's/.*kernel \([0-9.]*\) G[^;]*; \([0-9.]*\) mean.*device memory <= \([0-9.]*\).*/\1 (\2) \3 B\/px/' | tr '\n' ' '; }
P="--labels-on-device --no-atomic-counts --warmup 1 --reps 3 --outputs all --g 1"
for c in "3 512 face" "3 512 full" "2 8192 face"; do
  set -- $c
  for v in n1 x1 x2 n2; do
    n=$1d-$3-g1-all-$v
    timeout 60 ${B[${v:0:1}]} $P --dimension $1 --size $2 --connectivity $3 --json $L/$n.json > $L/$n.log 2>&1
    echo "$n rc=$? at $SECONDS s: $(s $L/$n.log)"
  done
done
python3 - $L <<'PY'
import json, sys, glob, os
for f in sorted(glob.glob(sys.argv[1] + "/*-n1.json")):
    b = json.load(open(f))["measurements"]
    for v in ["x1", "x2", "n2"]:
        g = f.replace("-n1.json", "-%s.json" % v)
        if os.path.exists(g):
            n = json.load(open(g))["measurements"]
            same = [(m["components"], m["runs"]) for m in b] == [(m["components"], m["runs"]) for m in n]
            print(os.path.basename(g), "same objects as n1" if same else "OBJECTS DIFFER from n1",
                  "summed ms %.2f -> %.2f" % (sum(m["kernelMs"] for m in b), sum(m["kernelMs"] for m in n)))
PY
tar -C $OUT -czf $OUT/logs.tgz logs && rm -rf $L
