#!/usr/bin/env bash
# Call 5 (H200): the union-find's LinkRunsKernel held to eight blocks a
# multiprocessor with 32-bit runs (u; 32 registers, 12 bytes of spills
# where a volume's rows are searched together, 34 unbounded) against
# 483ec6f (f): the GPU tests on u first, then the full table of 512^3
# 6-conn. volumes at g = 1, f u u f.
set -u
mkdir -p /tmp/b
tar -C /tmp/b -xJf .devcarry/gpu.tar.xz
exec > >(tee $OUT/summary.txt) 2>&1
bash scripts/engine-gpu-tests.sh /tmp/b/x/build-gpu $OUT/tests
python3 benchmark/ab_compare.py --logs $OUT/ab \
  --variant f="/tmp/b/f/cca_benchmark" --variant u="/tmp/b/x/build-gpu/benchmark/cca_benchmark" \
  --common "--labels-on-device --no-atomic-counts --warmup 1 --reps 3 --outputs all" \
  --set 3d-face-g1="--dimension 3 --size 512 --connectivity face --g 1" \
  --order "f u u f"
tar -C $OUT -czf $OUT/logs.tgz tests ab && rm -rf $OUT/tests $OUT/ab
echo "done at $SECONDS s"
