#!/usr/bin/env bash
# Call 4: where the unmet cells' costliest images spend their time today,
# kernel by kernel (benchmark/ncu_kernel_map.sh: ncu of every kernel of one
# run, each kernel launched twice, halve the sums), main's cca_benchmark
# (build-gpu, engine as 13e2521), full table, g = 1.
set -u
mkdir -p $OUT/ncu /tmp/b && exec > >(tee $OUT/summary.txt) 2>&1
nvidia-smi -L
xz -dc .devcarry/cca_benchmark-main.xz > /tmp/b/cca_benchmark && chmod +x /tmp/b/cca_benchmark
B=/tmp/b/cca_benchmark
SECONDS=0
map() { # name, then cca_benchmark arguments
  local name=$1; shift
  TOP=12 timeout 100 bash benchmark/ncu_kernel_map.sh $B $OUT/ncu $name --outputs all --g 1 "$@"
}
map 3d-face-d0.2 --dimension 3 --size 512 --connectivity face --density 0.2
map 3d-face-d0.3 --dimension 3 --size 512 --connectivity face --density 0.3
map 2d-face-d0.4 --dimension 2 --size 8192 --connectivity face --density 0.4
map 2d-face-d0.5 --dimension 2 --size 8192 --connectivity face --density 0.5
map 2d-full-d0.3 --dimension 2 --size 8192 --connectivity full --density 0.3
map 2d-full-d0.4 --dimension 2 --size 8192 --connectivity full --density 0.4
echo "done at $SECONDS s"
cd $OUT && tar czf ncu.tgz ncu && rm -rf ncu
