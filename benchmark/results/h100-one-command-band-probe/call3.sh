#!/usr/bin/env bash
# Call 3: where the all-foreground images' time goes (main de97d0a):
# cca_benchmark on them alone (11 repetitions), then ncu of every kernel,
# full table and labels only, 8192^2 4-conn. and 512^3 6-conn.
set -u
L=$OUT/logs; mkdir -p $L /tmp/b && xz -dc .devcarry/gab.tar.xz | tar -C /tmp/b -xf -
exec > >(tee $OUT/summary.txt) 2>&1
nvidia-smi -L
B=/tmp/b/q/build-gpu/benchmark/cca_benchmark
for o in all labels; do
  $B --labels-on-device --no-atomic-counts --warmup 1 --reps 11 --outputs $o --g 1 --density 1 --dimension 2 --size 8192 --connectivity both 2>&1 | grep -E "^Default|^algo"
  $B --labels-on-device --no-atomic-counts --warmup 1 --reps 11 --outputs $o --g 1 --density 1 --dimension 3 --size 512 --connectivity both 2>&1 | grep -E "^Default|^algo"
done
echo "bench done at $SECONDS s"
TOP=20 bash benchmark/ncu_kernel_map.sh $B $L 2d-face-all-on --outputs all --g 1 --dimension 2 --size 8192 --connectivity face --density 1
TOP=20 bash benchmark/ncu_kernel_map.sh $B $L 2d-face-all-on-labels --outputs labels --g 1 --dimension 2 --size 8192 --connectivity face --density 1
TOP=20 bash benchmark/ncu_kernel_map.sh $B $L 3d-face-all-on --outputs all --g 1 --dimension 3 --size 512 --connectivity face --density 1
TOP=20 bash benchmark/ncu_kernel_map.sh $B $L 2d-full-all-on --outputs all --g 1 --dimension 2 --size 8192 --connectivity full --density 1
tar -C $OUT -czf $OUT/logs.tgz logs && rm -rf $L
echo "done at $SECONDS s"
