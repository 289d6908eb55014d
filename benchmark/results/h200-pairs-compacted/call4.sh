#!/usr/bin/env bash
# Call 4 (H200): where the stored pairs' count loses its lanes: ncu
# source counters of CountPrecedingPairsKernel by SASS line (instructions
# and thread instructions executed, stall samples), main's code (m,
# a7c3edb = 9f2f9a9), g = 1 d = 0.3: 512^3 6-conn. and 8192^2 4-conn.
set -u
L=$OUT/ncu; mkdir -p $L /tmp/b
tar -C /tmp/b -xJf .devcarry/gpu.tar.xz
exec > >(tee $OUT/summary.txt) 2>&1
B=/tmp/b/m/cca_benchmark
C="--labels-on-device --no-atomic-counts --outputs all --g 1 --warmup 0 --reps 1 --density 0.3"
for c in "3 512" "2 8192"; do
  set -- $c
  n=${1}d-face-d0.3
  timeout 150 ncu --clock-control none -k regex:CountPrecedingPairs --launch-count 1 \
    --section SourceCounters --section InstructionStats --section WarpStateStats --section LaunchStats \
    -o $L/pairs-$n $B $C --dimension $1 --size $2 --connectivity face > $L/pairs-$n.log 2>&1
  echo "== pairs $n (rc=$?, at $SECONDS s)"
  ncu -i $L/pairs-$n.ncu-rep --page source --csv --print-source sass > $L/pairs-$n-sass.csv 2> $L/pairs-$n-sass.err
  echo "sass rc=$? lines $(wc -l < $L/pairs-$n-sass.csv)"
  head -2 $L/pairs-$n-sass.csv | cut -c1-600
  ncu -i $L/pairs-$n.ncu-rep --page details --csv > $L/pairs-$n-details.csv 2>&1
  grep -E '"(Executed Instructions|Duration|Avg. Active Threads Per Warp|Avg. Not Predicated Off Threads Per Warp|Branch Efficiency|Avg. Divergent Branches)"' $L/pairs-$n-details.csv | cut -d, -f13- | head -12
  rm -f $L/pairs-$n.ncu-rep
done
tar -C $OUT -czf $OUT/ncu.tgz ncu && rm -rf $L
echo "done at $SECONDS s"
