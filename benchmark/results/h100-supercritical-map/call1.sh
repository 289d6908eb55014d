#!/usr/bin/env bash
# Call 1: where the supercritical g = 1 images (one component holds most
# runs: its entry from the foreground's totals, its runs placed by the
# pairs' pass) spend the full table's time beyond the labels-only path,
# kernel by kernel (benchmark/ncu_kernel_map.sh: each kernel launched
# twice, halve the sums), main's cca_benchmark (bench bundle of build-gpu).
set -u
mkdir -p $OUT/ncu /tmp/k && exec > >(tee $OUT/summary.txt) 2>&1
nvidia-smi -L
xz -dc .devcarry/bench-bundle.tar.xz | tar -C /tmp/k -xf - && tar -C /tmp/k -xf /tmp/k/build.tar || exit 1
export LD_LIBRARY_PATH=/tmp/k/lib
B=/tmp/k/build-gpu/benchmark/cca_benchmark
map() { # name, outputs, then cca_benchmark arguments
  local name=$1 outputs=$2; shift 2
  TOP=22 timeout 100 bash benchmark/ncu_kernel_map.sh $B $OUT/ncu $name --outputs $outputs --g 1 "$@"
}
for d in 0.4 0.5 0.7; do
  for o in all labels; do
    map 3d-face-d$d-$o $o --dimension 3 --size 512 --connectivity face --density $d
  done
done
for d in 0.6 0.8; do
  for o in all labels; do
    map 2d-full-d$d-$o $o --dimension 2 --size 8192 --connectivity full --density $d
  done
done
for o in all labels; do
  map 2d-face-d0.7-$o $o --dimension 2 --size 8192 --connectivity face --density 0.7
done
echo "done at $SECONDS s"
cd $OUT && tar czf ncu.tgz ncu && rm -rf ncu
