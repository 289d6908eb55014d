#!/usr/bin/env bash
# Call 4 (H200): main 9c8799b's rows of the plane's byte row blocks (the
# default, from 92 % of the links: 14 rows at d = 0.1 and 0.9, 5 at 0.5)
# against --link-block-rows 3 .. 7, one image at a time, 8192^2 4-conn.
# g = 1 full table, two rounds; the line of the image (kernel ms).
set -u
mkdir -p /tmp/b
tar -C /tmp/b -xJf .devcarry/gpu.tar.xz
exec > >(tee $OUT/summary.txt) 2>&1
MB=/tmp/b/m/cca_benchmark
C="--labels-on-device --no-atomic-counts --warmup 1 --reps 5 --outputs all --g 1 --dimension 2 --size 8192 --connectivity face"
for round in 1 2; do
  for d in 0.1 0.2 0.3 0.5 0.7 0.8 0.9; do
    for r in 0 3 4 5 6 7 9; do
      R=""; [ $r != 0 ] && R="--link-block-rows $r"
      line=$($MB $C --density $d $R 2>&1 | grep -E "^Default +face" | head -1)
      echo "round $round d=$d rows=$r: $line"
    done
  done
done
echo "done at $SECONDS s"
