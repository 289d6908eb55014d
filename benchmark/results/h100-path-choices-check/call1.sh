#!/usr/bin/env bash
# Call 1 (ran 2026-12-06 on an H100, ninety-fifth session). The
# host sequence's choices of path moved into cuda/PathChoices.cuh and the
# unit detection into cuda/UnitDetection.cuh (ninety-fourth session), the
# votes' record folds, run votes and table entries out of
# cuda/FeatureUpdate.cuh (ninety-fifth): pure code motion. The GPU test
# suite with compute-sanitizer memcheck and racecheck and the program's
# demo (scripts/gpu-machine-check.sh on build-gpu's bundle of this
# change), then the same images through main's cca_benchmark before the
# moves (m) and after them (n), m n n m, full table, g = 1 and 4: the same
# objects (the same paths taken) and times within the spread.
set -u
mkdir -p $OUT/logs /tmp/b
exec > >(tee $OUT/summary.txt) 2>&1
BUILD=build-gpu bash scripts/gpu-machine-check.sh > $OUT/gpu-check.txt 2>&1
cat $OUT/gpu-check.txt
for v in main split; do
  xz -dc .devcarry/cca_benchmark-$v.xz > /tmp/b/cca_benchmark-$v && chmod +x /tmp/b/cca_benchmark-$v
done
run() { # set name, set args; only while the call's time lasts
  local set=$1 args=$2 left=$((470 - SECONDS))
  [ $left -gt 30 ] || { echo "$set: no time left"; echo "not run" > $OUT/logs/$set.txt; return; }
  timeout $left python3 benchmark/ab_compare.py --logs $OUT/logs/$set \
    --variant "m=/tmp/b/cca_benchmark-main" --variant "n=/tmp/b/cca_benchmark-split" \
    --common "--labels-on-device --no-atomic-counts --warmup 1 --reps 5 --outputs all" \
    --set "$set=$args" --order "m n n m" --timeout 60 > $OUT/logs/$set.txt 2>&1
  echo "$set rc=$? at $SECONDS s"
}
run 2d-face "--dimension 2 --size 8192 --connectivity face --g 1"
run 2d-full "--dimension 2 --size 8192 --connectivity full --g 1"
run 3d-face "--dimension 3 --size 512 --connectivity face --g 1"
run 3d-full "--dimension 3 --size 512 --connectivity full --g 1"
run 3d-face-g4 "--dimension 3 --size 512 --connectivity face --g 4"
run 2d-face-g4 "--dimension 2 --size 8192 --connectivity face --g 4"
for s in 2d-face 2d-full 3d-face 3d-full 3d-face-g4 2d-face-g4; do echo "== $s"; cat $OUT/logs/$s.txt; done
rm -rf $OUT/logs
echo "done at $SECONDS s"
