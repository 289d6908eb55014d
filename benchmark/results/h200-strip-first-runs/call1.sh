#!/usr/bin/env bash
# Call 1 (H200): the tubes' join of a volume's runs (StripJoin.cuh) finds
# each component's first image run over the strip runs (each offers the
# first image run it covers; then holds its root's smallest), and the image
# runs take it in one pass from their covering strip run; the byte row scan
# no longer initialises the parents those runs get there. m = main 8a3af29
# (its kernels are 584cd53's), n = the change. n's backend test, m n n m on
# 512^3 26-conn. g = 1 and g = 4 (full table, per image), ncu of every
# kernel at 26-conn. d = 0.5 for both, then memcheck and racecheck on n.
# Carry: .devcarry/gpu.tar.xz.
set -u
L=$OUT/logs; mkdir -p $L /tmp/b && xz -dc .devcarry/gpu.tar.xz | tar -C /tmp/b -xf -
exec > >(tee $OUT/summary.txt) 2>&1
nvidia-smi -L
N=/tmp/b/n/build-gpu
timeout 150 $N/test/gpu/ccaCudaBackendTest > $L/backend.log 2>&1
echo "backend rc=$? at $SECONDS s"; grep -E "^total|FAIL|strip" $L/backend.log | head -12
python3 benchmark/ab_compare.py --logs $L/ab --variant m="/tmp/b/m/build-gpu/benchmark/cca_benchmark" \
  --variant n="$N/benchmark/cca_benchmark" \
  --common "--labels-on-device --no-atomic-counts --warmup 1 --reps 3 --outputs all" \
  --set 3d-full-g1="--dimension 3 --size 512 --connectivity full --g 1" \
  --set 3d-full-g4="--dimension 3 --size 512 --connectivity full --g 4" \
  --order "m n n m" --per-image
echo "ab done at $SECONDS s"
for v in m n; do
  TOP=20 bash benchmark/ncu_kernel_map.sh /tmp/b/$v/build-gpu/benchmark/cca_benchmark $L/ncu $v-3d-full-d0.5 --outputs all \
    --dimension 3 --size 512 --connectivity full --g 1 --density 0.5
done
echo "ncu done at $SECONDS s"
timeout 60 compute-sanitizer --tool memcheck --error-exitcode 3 $N/test/gpu/ccaCudaBackendTest --quick > $L/memcheck.log 2>&1
echo "memcheck rc=$? at $SECONDS s"; grep -E "^total|ERROR SUMMARY" $L/memcheck.log
timeout 150 compute-sanitizer --tool racecheck --error-exitcode 3 $N/test/gpu/ccaCudaBackendTest --quick --cases 1 --algorithm Default > $L/racecheck.log 2>&1
echo "racecheck rc=$? at $SECONDS s"; grep -E "^total|RACECHECK SUMMARY" $L/racecheck.log
tar -C $OUT -czf $OUT/logs.tgz logs && rm -rf $L
echo "done at $SECONDS s"
