#!/usr/bin/env bash
# Call 2 (H200): call 1's second part again (its report was too large to
# come back): the votes' instructions by SASS line, ncu source counters on
# AccumulateFeaturesKernel, 8192^2 4-conn. d = 0.5 and 512^3 6-conn.
# d = 0.3, g = 1, full table; only the CSV pages come back.
set -u
L=$OUT/sass; mkdir -p $L /tmp/b /tmp/rep
tar -C /tmp/b -xJf .devcarry/gpu.tar.xz
exec > >(tee $OUT/summary.txt) 2>&1
B=/tmp/b/x/build-gpu/benchmark/cca_benchmark
C="--labels-on-device --no-atomic-counts --outputs all --g 1 --warmup 0 --reps 1"
for c in "2 8192 face 0.5" "3 512 face 0.3" "2 8192 full 0.5"; do
  set -- $c
  n=${1}d-$3-d$4
  timeout 150 ncu --clock-control none -k regex:AccumulateFeatures --launch-count 1 \
    --section SourceCounters --section InstructionStats --section WarpStateStats --section LaunchStats --section Occupancy --section MemoryWorkloadAnalysis \
    -o /tmp/rep/votes-$n $B $C --dimension $1 --size $2 --connectivity $3 --density $4 > $L/votes-$n.log 2>&1
  echo "== votes $n (rc=$?, at $SECONDS s)"
  ncu -i /tmp/rep/votes-$n.ncu-rep --page source --csv --print-source sass > $L/votes-$n-sass.csv 2> $L/votes-$n-sass.err
  echo "sass rc=$? lines $(wc -l < $L/votes-$n-sass.csv)"
  ncu -i /tmp/rep/votes-$n.ncu-rep --page details --csv > $L/votes-$n-details.csv 2>&1
  head -c 600 $L/votes-$n-sass.csv; echo
done
tar -C $OUT -cJf $OUT/sass.tar.xz sass && rm -rf $L
ls -la $OUT
