#!/usr/bin/env bash
# Call 2 (H200): what bounds the feature votes (AccumulateFeaturesKernel),
# 40-60 % of the full table's time at g = 1: ncu's sections and per-SASS
# source counters on one launch, 2D 8-conn. g = 4 d = 0.3, 2D 4-conn.
# g = 1 d = 0.6, 3D 6-conn. g = 1 d = 0.3. Logs in logs.tgz.
set -u
L=$OUT/logs; mkdir -p $L /tmp/b && tar -C /tmp/b -xJf .devcarry/gpu.tar.xz
B=/tmp/b/build-gpu
K="$B/benchmark/cca_benchmark --labels-on-device --no-atomic-counts --outputs all --reps 1 --warmup 1"
img() { case $1 in
  2d4) echo "--dimension 2 --size 8192 --connectivity face";; 2d8) echo "--dimension 2 --size 8192 --connectivity full";;
  3d6) echo "--dimension 3 --size 512 --connectivity face";; 3d26) echo "--dimension 3 --size 512 --connectivity full";; esac; }
for c in "2d8 4 0.3" "2d4 1 0.6" "3d6 1 0.3"; do
  set -- $c; n=$1-g$2-d$3
  timeout 120 ncu -k regex:AccumulateFeatures --launch-skip 1 --launch-count 1 --import-source no \
    --section SpeedOfLight --section WarpStateStats --section SchedulerStats --section Occupancy --section LaunchStats \
    --section MemoryWorkloadAnalysis --section ComputeWorkloadAnalysis --section InstructionStats --section SourceCounters \
    -o $L/vote-$n $K $(img $1) --g $2 --density $3 > $L/vote-$n.log 2>&1
  echo "ncu $n rc=$? at $SECONDS s"
  ncu --import $L/vote-$n.ncu-rep --page details > $L/vote-$n-details.txt 2>&1
  ncu --import $L/vote-$n.ncu-rep --page source --csv --print-source sass > $L/vote-$n-sass.csv 2> $L/vote-$n-sass.err
  echo "export rc=$?"; rm -f $L/vote-$n.ncu-rep
done
tar -C $OUT -czf $OUT/logs.tgz logs && rm -rf $L
