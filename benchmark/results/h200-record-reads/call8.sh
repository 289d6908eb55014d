#!/usr/bin/env bash
# Call 8 (H200): the numbering's climbs splitting the paths they pass
# (--numbering-halving, H) against main's read-only climbs (A), one binary
# (branch try/numbering-halving). Full table: 8192^2 8- and 4-conn. g = 4,
# A H three times; 8-conn. g = 4 with one climb a thread (1, 1H); 8192^2
# 4-conn. g = 1 and 512^3 6-conn. g = 1, 26-conn. g = 4, A H H A.
set -u
L=$OUT/logs; mkdir -p $L /tmp/b
tar -C /tmp/b -xJf .devcarry/gpu.tar.xz
exec > >(tee $OUT/summary.txt) 2>&1
B=/tmp/b/x/cca_benchmark
P="--labels-on-device --no-atomic-counts --warmup 1 --reps 3 --outputs all"
run() { # name dim size conn g flags...
  local n=$1 d=$2 z=$3 c=$4 g=$5; shift 5
  timeout 90 $B $P --dimension $d --size $z --connectivity $c --g $g "$@" --json $L/$n.json > $L/$n.log 2>&1
  local rc=$?
  python3 - $L/$n.json "$n rc=$rc at $SECONDS s" $d $z <<'PY'
import json, sys
try:
    m = json.load(open(sys.argv[1]))["measurements"]
except Exception as e:
    print(sys.argv[2], "no result", e); sys.exit()
px = int(sys.argv[4]) ** int(sys.argv[3])
t = sum(x["kernelMs"] for x in m)
print("%-36s %6.2f (%6.2f)  %s  objects %d" % (sys.argv[2], px * len(m) / (t * 1e6), sum(px / (x["kernelMs"] * 1e6) for x in m) / len(m),
      " ".join("%.3f" % x["kernelMs"] for x in m), sum(x["components"] for x in m)))
PY
}
for r in 1 2 3; do
  run 2d-full-g4-a$r 2 8192 full 4
  run 2d-full-g4-h$r 2 8192 full 4 --numbering-halving
done
run 2d-full-g4-one 2 8192 full 4 --numbering-climbing-runs 1000000000000
run 2d-full-g4-oneh 2 8192 full 4 --numbering-climbing-runs 1000000000000 --numbering-halving
for r in 1 2 3; do
  run 2d-face-g4-a$r 2 8192 face 4
  run 2d-face-g4-h$r 2 8192 face 4 --numbering-halving
done
for v in a1 h1 h2 a2; do
  f=; [ ${v:0:1} = h ] && f=--numbering-halving
  run 3d-full-g4-$v 3 512 full 4 $f
done
for v in a1 h1 h2 a2; do
  f=; [ ${v:0:1} = h ] && f=--numbering-halving
  run 2d-face-g1-$v 2 8192 face 1 $f
done
for v in a1 h1; do
  f=; [ ${v:0:1} = h ] && f=--numbering-halving
  run 3d-face-g1-$v 3 512 face 1 $f
done
tar -C $OUT -czf $OUT/logs.tgz logs && rm -rf $L
