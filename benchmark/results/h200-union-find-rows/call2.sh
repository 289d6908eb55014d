#!/usr/bin/env bash
# Call 2 (H200): the same two binaries as call 1 (m: ad1777b's code; u:
# the union-find's rows in 32 bits). ncu of the link passes in the planes;
# the full table at g = 1 in 26-connected volumes and in planes, and
# labels only in 6-connected volumes, m u u m.
set -u
mkdir -p /tmp/b
tar -C /tmp/b -xJf .devcarry/gpu.tar.xz
exec > >(tee $OUT/summary.txt) 2>&1
M=/tmp/b/m/cca_benchmark
U=/tmp/b/x/build-gpu/benchmark/cca_benchmark
for v in M U; do
  for d in 0.3 0.7; do
    echo "ncu $v 8192^2 face d=$d"
    ncu --clock-control none --kernel-name regex:"Link" --launch-count 4 \
      --metrics gpu__time_duration.sum,smsp__inst_executed.sum \
      ${!v} --labels-on-device --no-atomic-counts --outputs all --g 1 --warmup 0 --reps 1 --density $d \
      --dimension 2 --size 8192 --connectivity face 2>&1 | grep -E "  void|gpu__time|inst_executed" | sed -E 's/\(RunArrays.*//' | head -12
  done
done
python3 benchmark/ab_compare.py --logs $OUT/ab \
  --variant m="$M" --variant u="$U" \
  --common "--labels-on-device --no-atomic-counts --warmup 1 --reps 3 --outputs all" \
  --set 3d-full-g1="--dimension 3 --size 512 --connectivity full --g 1" \
  --set 2d-face-g1="--dimension 2 --size 8192 --connectivity face --g 1" \
  --set 2d-full-g1="--dimension 2 --size 8192 --connectivity full --g 1" \
  --order "m u u m"
python3 benchmark/ab_compare.py --logs $OUT/ab-labels \
  --variant m="$M" --variant u="$U" \
  --common "--labels-on-device --no-atomic-counts --warmup 1 --reps 3 --outputs labels" \
  --set 3d-face-g1-labels="--dimension 3 --size 512 --connectivity face --g 1" \
  --order "m u u m"
tar -C $OUT -czf $OUT/logs.tgz ab ab-labels && rm -rf $OUT/ab $OUT/ab-labels
echo "done at $SECONDS s"
