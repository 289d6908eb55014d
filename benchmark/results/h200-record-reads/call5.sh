#!/usr/bin/env bash
# Call 5 (H200): the feature records aligned to 32 bytes (A: alignas(32)
# ComponentFeatures, 224 bytes, so that no 32-byte sector holds parts of
# two components' records) against main (N), each its own binary. Full
# table, g = 1, 512^3 6- and 26-conn. and 8192^2 4-conn., N A A N; then
# ncu's DRAM bytes of the votes at 512^3 6-conn. d = 0.3, N and A.
set -u
L=$OUT/logs; mkdir -p $L /tmp/b
tar -C /tmp/b -xJf .devcarry/gpu.tar.xz
exec > >(tee $OUT/summary.txt) 2>&1
declare -A B=([n]=/tmp/b/n/build-gpu/benchmark/cca_benchmark [a]=/tmp/b/aligned-records)
s() { grep '^==' $1 | sed 's/.*kernel \([0-9.]*\) G[^;]*; \([0-9.]*\) mean.*device memory <= \([0-9.]*\).*/\1 (\2) \3 B\/px/' | tr '\n' ' '; }
P="--labels-on-device --no-atomic-counts --warmup 1 --reps 3 --outputs all --g 1"
for c in "3 512 face" "2 8192 face" "3 512 full"; do
  set -- $c
  for v in n1 a1 a2 n2; do
    n=$1d-$3-g1-all-$v
    timeout 60 ${B[${v:0:1}]} $P --dimension $1 --size $2 --connectivity $3 --json $L/$n.json > $L/$n.log 2>&1
    echo "$n rc=$? at $SECONDS s: $(s $L/$n.log)"
  done
done
python3 - $L <<'PY'
import json, sys, glob, os
for f in sorted(glob.glob(sys.argv[1] + "/*-n1.json")):
    b = json.load(open(f))["measurements"]
    for v in ["a1", "a2", "n2"]:
        g = f.replace("-n1.json", "-%s.json" % v)
        if os.path.exists(g):
            n = json.load(open(g))["measurements"]
            same = [(m["components"], m["runs"]) for m in b] == [(m["components"], m["runs"]) for m in n]
            print(os.path.basename(g), "same objects as n1" if same else "OBJECTS DIFFER from n1",
                  "summed ms %.2f -> %.2f" % (sum(m["kernelMs"] for m in b), sum(m["kernelMs"] for m in n)))
PY
M=gpu__time_duration.sum,dram__bytes_read.sum,dram__bytes_write.sum
for v in n a; do
  Q="--labels-on-device --no-atomic-counts --outputs all --g 1 --dimension 3 --size 512 --connectivity face --density 0.3 --warmup 0 --reps 1"
  timeout 60 ncu --clock-control none --print-units base -k regex:AccumulateFeatures --metrics $M --csv ${B[$v]} $Q > $L/ncu-$v.csv 2> $L/ncu-$v.err
  echo "ncu $v votes, 512^3 6-conn. d = 0.3 (rc=$?): $(grep -E 'gpu__time|dram__bytes' $L/ncu-$v.csv | awk -F'","' '{gsub(/"/, "", $NF); printf "%s %s  ", $(NF-2), $NF}')"
done
tar -C $OUT -czf $OUT/logs.tgz logs && rm -rf $L
