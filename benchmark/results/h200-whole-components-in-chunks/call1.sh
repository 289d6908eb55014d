#!/usr/bin/env bash
# Call 1 (H200): main a1680be (N). GPU tests, memcheck and racecheck of
# last session's review refactor (run in emulation only); the full table's
# g = 1 images once each; ncu's kernel times summed over the ten densities
# of each g = 1 image (where the summed time goes, not d = 0.3 alone); and
# ncu's detailed sections for 6-connected volumes at d = 0.3.
set -u
L=$OUT/logs; mkdir -p $L /tmp/b
tar -C /tmp/b -xJf .devcarry/gpu.tar.xz
exec > >(tee $OUT/summary.txt) 2>&1
B=/tmp/b/n/build-gpu/benchmark/cca_benchmark
s() { grep '^==' $1 | sed 's/.*kernel \([0-9.]*\) G[^;]*; \([0-9.]*\) mean.*device memory <= \([0-9.]*\).*/\1 (\2) \3 B\/px/' | tr '\n' ' '; }
P="--labels-on-device --no-atomic-counts --warmup 1 --reps 3 --outputs all --g 1"
for c in "2 8192 face" "2 8192 full" "3 512 face" "3 512 full"; do
  set -- $c; t=$1d-$3
  timeout 60 $B $P --dimension $1 --size $2 --connectivity $3 --json $L/$t.json > $L/$t.log 2>&1
  echo "$t rc=$? at $SECONDS s: $(s $L/$t.log)"
  grep "^Default" $L/$t.log | awk '{printf "%s:%s+%s ", $4, $7, $8} END {print ""}'
done
for c in "2 8192 face" "2 8192 full" "3 512 face" "3 512 full"; do
  set -- $c; t=$1d-$3
  Q="--labels-on-device --no-atomic-counts --outputs all --g 1 --dimension $1 --size $2 --connectivity $3 --warmup 0 --reps 1"
  timeout 100 ncu --clock-control none --metrics gpu__time_duration.sum --csv $B $Q > $L/ncu-$t.csv 2> $L/ncu-$t.err
  echo "ncu $t, all densities (rc=$?, at $SECONDS s):"
  python3 - "$L/ncu-$t.csv" <<'PY'
import csv, sys, re
rows = [r for r in csv.reader(open(sys.argv[1])) if len(r) > 10 and r[-3] == "gpu__time_duration.sum"]
name = lambda r: re.sub(r"<.*", "", re.sub(r"\(.*", "", r[4])).replace("void ", "").replace("cca::", "").replace("cub::", "")
t = {}
for r in rows:
    t[name(r)] = t.get(name(r), 0) + float(r[-1].replace(",", "")) / 1000
tot = sum(t.values())
print("  ten images: %.0f us over %d launches: " % (tot, len(rows)) + ", ".join("%s %.0f" % kv for kv in sorted(t.items(), key=lambda kv: -kv[1])))
PY
done
Q="--labels-on-device --no-atomic-counts --outputs all --g 1 --dimension 3 --size 512 --connectivity face --density 0.3 --warmup 0 --reps 1"
timeout 150 ncu --clock-control none --set detailed -k regex:'AccumulateFeatures|PrepareTable|LinkRuns|CountPrecedingPairs|FinalizeTable|NumberComponents|GatherRuns' $B $Q > $L/ncu-detail-3d-face.txt 2>&1
echo "ncu detailed 3D face d=0.3 rc=$? at $SECONDS s"
grep -E '^  [A-Za-z].*Kernel|Duration|Memory Throughput|DRAM Throughput|Compute \(SM\) Throughput|Achieved Occupancy|Registers Per|L2 Hit Rate|L1/TEX Hit' $L/ncu-detail-3d-face.txt | head -120
bash scripts/engine-gpu-tests.sh /tmp/b/n/build-gpu $L
tar -C $OUT -czf $OUT/logs.tgz logs && rm -rf $L
