#!/usr/bin/env bash
# Call 4 (H200): what bounds the union-find's run links in volumes
# (LinkRunsKernel, 75 % of labels only in 6-connected volumes at g = 1,
# d = 0.5-0.7): ncu's sections and per-SASS source counters on each of the
# four launches of one image, 3D 6-conn. g = 1 d = 0.6, labels only. Then
# the kernels of the full table in 2D 8-conn. at g = 4 (7 % short of
# issue 13's 96), d = 0.3 and 0.5. Logs in logs.tgz.
set -u
L=$OUT/logs; mkdir -p $L /tmp/b && tar -C /tmp/b -xJf .devcarry/gpu.tar.xz
B=/tmp/b/build-gpu
K="$B/benchmark/cca_benchmark --labels-on-device --no-atomic-counts --reps 1 --warmup 1"
timeout 150 ncu -k regex:LinkRunsKernel --launch-skip 4 --launch-count 4 --import-source no \
  --section SpeedOfLight --section WarpStateStats --section Occupancy --section LaunchStats --section SourceCounters \
  -o $L/link-3d6 $K --outputs labels --dimension 3 --size 512 --connectivity face --g 1 --density 0.6 > $L/link-3d6.log 2>&1
echo "ncu link rc=$? at $SECONDS s"
ncu --import $L/link-3d6.ncu-rep --page details > $L/link-3d6-details.txt 2>&1
ncu --import $L/link-3d6.ncu-rep --page source --csv --print-source sass > $L/link-3d6-sass.csv 2> $L/link-3d6-sass.err
echo "export rc=$?"; rm -f $L/link-3d6.ncu-rep; gzip -9 $L/link-3d6-sass.csv
for d in 0.3 0.5; do
  timeout 60 ncu --clock-control none --cache-control none --metrics gpu__time_duration.sum,dram__bytes.sum --csv --print-units base \
    $K --outputs all --dimension 2 --size 8192 --connectivity full --g 4 --density $d > $L/ncu-2d8-g4-d$d.csv 2> $L/ncu-2d8-g4-d$d.err
  echo "ncu 2d8 g4 d$d rc=$? at $SECONDS s"
done
tar -C $OUT -czf $OUT/logs.tgz logs && rm -rf $L
