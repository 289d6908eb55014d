#!/usr/bin/env bash
# Call 2 (H200): main 7058f6a's GPU tests, memcheck and racecheck (the
# whole components' review refactor and the 0.1 rule had not run on the
# GPU); then ncu's per-SASS source counters of the face pairs' pass
# (CountPrecedingPairsKernel) and the votes at 512^3 6-conn. g = 1 d = 0.3,
# full table: where their instructions go.
set -u
L=$OUT/logs; mkdir -p $L /tmp/b
tar -C /tmp/b -xJf .devcarry/gpu.tar.xz
exec > >(tee $OUT/summary.txt) 2>&1
bash scripts/engine-gpu-tests.sh /tmp/b/n/build-gpu $L
B=/tmp/b/n/build-gpu/benchmark/cca_benchmark
K="$B --labels-on-device --no-atomic-counts --reps 1 --warmup 0 --outputs all --dimension 3 --size 512 --connectivity face --g 1 --density 0.3"
for k in CountPrecedingPairsKernel AccumulateFeaturesKernel; do
  timeout 120 ncu -k regex:$k --launch-skip 1 --launch-count 1 --import-source no \
    --section SpeedOfLight --section WarpStateStats --section Occupancy --section LaunchStats --section InstructionStats --section SourceCounters \
    -o $L/$k $K > $L/$k.log 2>&1
  echo "ncu $k rc=$? at $SECONDS s"
  ncu --import $L/$k.ncu-rep --page details > $L/$k-details.txt 2>&1
  ncu --import $L/$k.ncu-rep --page source --csv --print-source sass > $L/$k-sass.csv 2> $L/$k-sass.err
  echo "export rc=$?"; rm -f $L/$k.ncu-rep; gzip -9 $L/$k-sass.csv
done
tar -C $OUT -czf $OUT/logs.tgz logs && rm -rf $L
