#!/usr/bin/env bash
# Call 6: issue 10's table with one more row a mask, ours-shape: our
# filter with a LabelMap of ShapeLabelObject (the object ITK's
# BinaryImageToShapeLabelMapFilter makes; our filter's default output is
# StatisticsLabelObject). cca_e2e_benchmark --shape-objects, 16 threads,
# best of 3, every object checked against ITK's; the 2.35 Gvox volume left
# out (it has a label image and no ITK row). main with call 6's benchmark
# change, build-gpu, benchmark/make-bench-bundle.sh --slim.
set -u
mkdir -p /tmp/b && exec > >(tee $OUT/summary.txt) 2>&1
nvidia-smi -L; nproc
xz -dc .devcarry/bench-bundle.tar.xz | tar -C /tmp/b -xf - && tar -C /tmp/b -xf /tmp/b/build.tar
export LD_LIBRARY_PATH=/tmp/b/lib
B=/tmp/b/build-gpu/benchmark
SECONDS=0
timeout 500 $B/cca_e2e_benchmark --threads 16 --shape-objects \
  --only ct-face,ct-full,balls-60k,random3d-g4,random3d-g1,random2d-g16,random2d-g4,random2d-g1 \
  --json $OUT/e2e.json > $OUT/e2e.log 2>&1
echo "e2e rc=$? at $SECONDS s"
grep -v "^\s*$" $OUT/e2e.log | grep -v "engine alone\|mask read once" | tail -40
python3 benchmark/plot_e2e.py --out /tmp/plot --table $OUT/e2e-table.md $OUT/e2e.json > /dev/null 2>&1 || true
