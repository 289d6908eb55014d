#!/usr/bin/env bash
# Call 2 (H200): the code kept, alone: detail::FinalizeIntercepts reads
# every slot before writing any, and FinalizeCrossingEntriesKernel calls
# it instead of its own copy (FinalizeTableKernel, the tree merge and the
# CPU backend call it too). r: that change; m: main 9f2f9a9 (code of
# a7c3edb). The GPU tests, memcheck and racecheck on r; ncu of the two
# finalizing kernels on both (512^3 6-conn. d = 0.3 takes the crossing
# entries, d = 0.5 the prepared table); the full table at g = 1.
set -u
mkdir -p /tmp/b
tar -C /tmp/b -xJf .devcarry/gpu.tar.xz
exec > >(tee $OUT/summary.txt) 2>&1
bash scripts/engine-gpu-tests.sh /tmp/b/x/build-gpu $OUT/tests
M=/tmp/b/m/cca_benchmark
R=/tmp/b/x/build-gpu/benchmark/cca_benchmark
for v in M R; do
  for d in 0.3 0.5; do
    echo "ncu $v d = $d"
    ncu --clock-control none --kernel-name regex:"Finalize" --metrics gpu__time_duration.sum \
      ${!v} --labels-on-device --no-atomic-counts --outputs all --g 1 --warmup 0 --reps 1 --density $d \
      --dimension 3 --size 512 --connectivity face 2>&1 | grep -E "gpu__time|^  [A-Za-z].*Kernel" | sed -E 's/\(T1.*|\(unsigned.*//' | head -8
  done
done
python3 benchmark/ab_compare.py --logs $OUT/ab \
  --variant m="$M" --variant r="$R" \
  --common "--labels-on-device --no-atomic-counts --warmup 1 --reps 3 --outputs all" \
  --set 3d-face-g1="--dimension 3 --size 512 --connectivity face --g 1" \
  --set 2d-face-g1="--dimension 2 --size 8192 --connectivity face --g 1" \
  --order "m r r m"
tar -C $OUT -czf $OUT/logs.tgz tests ab && rm -rf $OUT/tests $OUT/ab
echo "done at $SECONDS s"
