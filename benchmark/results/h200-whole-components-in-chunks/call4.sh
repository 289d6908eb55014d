#!/usr/bin/env bash
# Call 4 (H200): call 3's N only, --whole-components never (V) against
# always (A), where the automatic rule (components >= 0.3 of the runs)
# mostly says never: g = 4 in the four connectivities, and g = 1 in 8192^2
# 8-conn. and 512^3 6- and 26-conn.; to place the rule's threshold.
set -u
L=$OUT/logs; mkdir -p $L /tmp/b
tar -C /tmp/b -xJf .devcarry/gpu.tar.xz
exec > >(tee $OUT/summary.txt) 2>&1
B=/tmp/b/n/build-gpu/benchmark/cca_benchmark
s() { grep '^==' $1 | sed 's/.*kernel \([0-9.]*\) G[^;]*; \([0-9.]*\) mean.*device memory <= \([0-9.]*\).*/\1 (\2) \3 B\/px/' | tr '\n' ' '; }
P="--labels-on-device --no-atomic-counts --warmup 1 --reps 3 --outputs all"
for c in "4 2 8192 face" "4 2 8192 full" "4 3 512 face" "4 3 512 full" "1 2 8192 full" "1 3 512 face" "1 3 512 full"; do
  set -- $c
  for v in never always; do
    t=$2d-$4-g$1-$v
    timeout 60 $B $P --g $1 --dimension $2 --size $3 --connectivity $4 --whole-components $v --json $L/$t.json > $L/$t.log 2>&1
    echo "$t rc=$? at $SECONDS s: $(s $L/$t.log)"
  done
done
python3 - $L <<'PY'
import json, sys, glob, os
for f in sorted(glob.glob(sys.argv[1] + "/*-never.json")):
    b = json.load(open(f))["measurements"]
    n = json.load(open(f.replace("-never", "-always")))["measurements"]
    same = [(m["components"], m["runs"]) for m in b] == [(m["components"], m["runs"]) for m in n]
    print(os.path.basename(f)[:-11], "same objects" if same else "OBJECTS DIFFER",
          " ".join("%.3f:%+.0f" % (mb["components"] / max(1, mb["runs"]), 1000 * (mn["featuresMs"] - mb["featuresMs"]))
                   for mb, mn in zip(b, n) if mb["runs"] > 10000))
PY
tar -C $OUT -czf $OUT/logs.tgz logs && rm -rf $L
