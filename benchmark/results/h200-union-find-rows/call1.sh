#!/usr/bin/env bash
# Call 1 (H200): the default strategy's union-find (LinkRuns) finding a
# run's row and its neighbour rows in 32-bit arithmetic below 2^31 pixels
# (LabeledUnits::smallRows), as the stored pairs' count does since fd9a412.
# u: that change on ad1777b; m: ad1777b's own code (fd9a412's binary, the
# same SASS). The GPU tests, memcheck and racecheck on u; ncu of the link
# passes on both; the full table at g = 1 in volumes, m u u m.
set -u
mkdir -p /tmp/b
tar -C /tmp/b -xJf .devcarry/gpu.tar.xz
exec > >(tee $OUT/summary.txt) 2>&1
bash scripts/engine-gpu-tests.sh /tmp/b/x/build-gpu $OUT/tests
M=/tmp/b/m/cca_benchmark
U=/tmp/b/x/build-gpu/benchmark/cca_benchmark
for v in M U; do
  for c in "face 0.3" "face 0.7" "full 0.3"; do
    set -- $c
    echo "ncu $v 512^3 $1 d=$2"
    ncu --clock-control none --kernel-name regex:"LinkRuns" --launch-count 4 \
      --metrics gpu__time_duration.sum,smsp__inst_executed.sum \
      ${!v} --labels-on-device --no-atomic-counts --outputs all --g 1 --warmup 0 --reps 1 --density $2 \
      --dimension 3 --size 512 --connectivity $1 2>&1 | grep -E "LinkRuns|gpu__time|inst_executed" | sed -E 's/\(RunArrays.*//' | head -12
  done
done
python3 benchmark/ab_compare.py --logs $OUT/ab \
  --variant m="$M" --variant u="$U" \
  --common "--labels-on-device --no-atomic-counts --warmup 1 --reps 3 --outputs all" \
  --set 3d-face-g1="--dimension 3 --size 512 --connectivity face --g 1" \
  --order "m u u m"
tar -C $OUT -czf $OUT/logs.tgz tests ab && rm -rf $OUT/tests $OUT/ab
echo "done at $SECONDS s"
