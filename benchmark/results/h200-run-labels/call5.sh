#!/usr/bin/env bash
# Call 5 (H200): N2 = N (call 4) with the first pixel offers taking 4 runs
# a thread whose climbs to their roots advance together (ClimbToRoots, as
# the numbering of the rows' runs), from 2^21 runs on; B = N (call 4's
# binary). Labels only, B N2 B N2: 8192^2 8-conn. g = 1, 512^3 26-conn.
# g = 1 and 4; ncu of the offers at 8192^2 d = 0.4 and 0.6 (clocks and
# caches left alone); then, if N2 was faster in planes, the GPU tests,
# memcheck and racecheck on it.
set -u
L=$OUT/logs; mkdir -p $L /tmp/b
tar -C /tmp/b -xJf .devcarry/gpu.tar.xz
exec > >(tee $OUT/summary.txt) 2>&1
s() { grep '^==' $1 | sed 's/.*kernel \([0-9.]*\) G[^;]*; \([0-9.]*\) mean.*device memory <= \([0-9.]*\).*/\1 (\2) \3 B\/px/' | tr '\n' ' '; }
P="--labels-on-device --no-atomic-counts --warmup 1 --reps 5 --outputs labels"
for c in "2 8192 1 k2" "3 512 1 k3" "3 512 4 k3g4"; do set -- $c
  for r in 1 2; do for v in b n; do
    X=/tmp/b/b/cca_benchmark; [[ $v == n ]] && X=/tmp/b/n/build-gpu/benchmark/cca_benchmark
    t=$4-full-$v$r
    timeout 60 $X $P --g $3 --dimension $1 --size $2 --connectivity full --json $L/$t.json > $L/$t.log 2>&1
    echo "$t rc=$? at $SECONDS s: $(s $L/$t.log)"
    grep "^Default" $L/$t.log | awk '{printf "%s:%s ", $4, $10} END {print ""}'
  done; done
done
Q="--labels-on-device --no-atomic-counts --outputs labels --g 1 --dimension 2 --size 8192 --connectivity full --warmup 1 --reps 1"
for d in 0.4 0.6; do for v in b n; do
  X=/tmp/b/b/cca_benchmark; [[ $v == n ]] && X=/tmp/b/n/build-gpu/benchmark/cca_benchmark
  timeout 60 ncu --clock-control none --cache-control none -k regex:OfferStrip --metrics gpu__time_duration.sum --csv $X $Q --density $d > $L/ncu-$d-$v.csv 2> $L/ncu-$d-$v.err
  echo "ncu offers d=$d $v: $(grep '^"' $L/ncu-$d-$v.csv | tail -n 1 | awk -F'","' '{print $NF}' | tr -d '"') ns"
done; done
faster=$(python3 - $L <<'PY'
import json, sys
def summed(f):
    return json.load(open(f))
import glob, re
vals = {}
for v in ('b', 'n'):
    xs = []
    for r in (1, 2):
        line = [l for l in open('%s/k2-full-%s%d.log' % (sys.argv[1], v, r)) if l.startswith('==')][0]
        xs.append(float(re.search(r'kernel ([0-9.]+)', line).group(1)))
    vals[v] = sum(xs) / len(xs)
print('yes' if vals['n'] > vals['b'] else 'no')
PY
)
echo "N2 faster in planes: $faster"
if [[ $faster == yes ]]; then bash scripts/engine-gpu-tests.sh /tmp/b/n/build-gpu $L; fi
tar -C $OUT -czf $OUT/logs.tgz logs && rm -rf $L
