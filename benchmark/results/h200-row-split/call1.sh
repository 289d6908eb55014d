#!/usr/bin/env bash
# Call 1 (H200): B = main 7058f6a, N = the kernels split a row index into
# (y, z) with a multiply by ceil(2^64 / height) (RowPosition) instead of a
# 64-bit division. Full table, g = 1 in the four connectivities and g = 4,
# B N N B; N with --row-bit-links always at 512^3 6-conn. g = 1; ncu of B
# and N at 512^3 6-conn. d = 0.3 (per kernel).
set -u
L=$OUT/logs; mkdir -p $L /tmp/b
tar -C /tmp/b -xJf .devcarry/gpu.tar.xz
exec > >(tee $OUT/summary.txt) 2>&1
nvidia-smi --query-gpu=name,clocks.max.sm,memory.total --format=csv,noheader
bin() { case $1 in b) echo /tmp/b/b/cca_benchmark;; *) echo /tmp/b/n/build-gpu/benchmark/cca_benchmark;; esac; }
s() { grep '^==' $1 | sed 's/.*kernel \([0-9.]*\) G[^;]*; \([0-9.]*\) mean.*device memory <= \([0-9.]*\).*/\1 (\2) \3 B\/px/' | tr '\n' ' '; }
P="--labels-on-device --no-atomic-counts --warmup 1 --reps 3 --outputs all"
for c in "1 2 8192 face" "1 2 8192 full" "1 3 512 face" "1 3 512 full" "4 2 8192 face" "4 2 8192 full" "4 3 512 face" "4 3 512 full"; do
  set -- $c
  for v in b1 n1 n2 b2; do
    t=$2d-$4-g$1-$v
    timeout 60 $(bin ${v:0:1}) $P --g $1 --dimension $2 --size $3 --connectivity $4 --json $L/$t.json > $L/$t.log 2>&1
    echo "$t rc=$? at $SECONDS s: $(s $L/$t.log)"
  done
done
t=3d-face-g1-n-rowbits
timeout 60 $(bin n) $P --g 1 --dimension 3 --size 512 --connectivity face --row-bit-links always --json $L/$t.json > $L/$t.log 2>&1
echo "$t rc=$? at $SECONDS s: $(s $L/$t.log)"
python3 - $L <<'PY'
import json, sys, glob, os
for f in sorted(glob.glob(sys.argv[1] + "/*-b1.json")):
    b = [(m["components"], m["runs"]) for m in json.load(open(f))["measurements"]]
    for v in ["n1", "n2", "b2", "n-rowbits"]:
        g = f.replace("-b1.json", "-%s.json" % v)
        if os.path.exists(g):
            n = [(m["components"], m["runs"]) for m in json.load(open(g))["measurements"]]
            print(os.path.basename(g), "same objects as b1" if n == b else "OBJECTS DIFFER from b1")
PY
for v in b n; do
  Q="--labels-on-device --no-atomic-counts --outputs all --g 1 --dimension 3 --size 512 --connectivity face --density 0.3 --warmup 0 --reps 1"
  timeout 60 ncu --clock-control none --metrics gpu__time_duration.sum,smsp__inst_executed.sum --csv $(bin $v) $Q > $L/ncu-$v.csv 2> $L/ncu-$v.err
  echo "ncu $v 3D face d=0.3 (rc=$?, at $SECONDS s): us (M instructions)"
  python3 - "$L/ncu-$v.csv" <<'PY'
import csv, sys, re
rows = [r for r in csv.reader(open(sys.argv[1])) if len(r) > 10 and r[-3] in ("gpu__time_duration.sum", "smsp__inst_executed.sum")]
name = lambda r: re.sub(r"<.*", "", re.sub(r"\(.*", "", r[4])).replace("void ", "").replace("cca::", "").replace("cub::", "")
t, i = {}, {}
for r in rows:
    d = t if r[-3] == "gpu__time_duration.sum" else i
    d[name(r)] = d.get(name(r), 0) + float(r[-1].replace(",", ""))
runs = max(1, sum(1 for r in rows if r[-3] == "gpu__time_duration.sum" and name(r) == "AccumulateFeaturesKernel"))
print("  a run: %.0f us: " % (sum(t.values()) / 1000 / runs) + ", ".join("%s %.0f (%.1f)" % (k, v / 1000 / runs, i.get(k, 0) / 1e6 / runs) for k, v in sorted(t.items(), key=lambda kv: -kv[1])[:10]))
PY
done
tar -C $OUT -czf $OUT/logs.tgz logs && rm -rf $L
