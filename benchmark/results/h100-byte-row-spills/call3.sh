#!/usr/bin/env bash
# Call 3 (H100): m = main 3c0465b; c = the candidate: LinkByteRowsKernel
# at 5 blocks a multiprocessor in volumes (48 registers), planes of long
# runs joined in blocks of 64 rows, and the union-find kernels' neighbour
# rows computed a step at a time (PrecedingRowStep) instead of from an
# array in local memory. m c c m on the g = 1 sets and the all-on planes;
# then c's GPU tests, memcheck and racecheck; then ncu of c's kernels on
# one image.
# Carry: .devcarry/gab3.tar.xz (r/cca_benchmark = m, r/c/cca_benchmark,
# r/c/ccaCudaBackendTest).
set -u
L=$OUT/logs; mkdir -p $L /tmp/b && xz -dc .devcarry/gab3.tar.xz | tar -C /tmp/b -xf -
exec > >(tee $OUT/summary.txt) 2>&1
nvidia-smi -L
R=/tmp/b/r
timeout 200 python3 benchmark/ab_compare.py --logs $L/ab --variant m="$R/cca_benchmark" --variant c="$R/c/cca_benchmark" \
  --common "--labels-on-device --no-atomic-counts --warmup 1 --reps 3" \
  --set 3d26-g1-all="--dimension 3 --size 512 --connectivity full --outputs all --g 1" \
  --set 3d26-g1-labels="--dimension 3 --size 512 --connectivity full --outputs labels --g 1" \
  --set 3d6-g1-all="--dimension 3 --size 512 --connectivity face --outputs all --g 1" \
  --set 2d8-g1-labels="--dimension 2 --size 8192 --connectivity full --outputs labels --g 1" \
  --set 2d-allon="--dimension 2 --size 8192 --connectivity both --outputs all --g 1 --density 1 --reps 11 --warmup 2" \
  --order "m c c m" --per-image > $L/ab.txt 2>&1
echo "ab rc=$? at $SECONDS s"; grep -vE "^ +(face|full)" $L/ab.txt | grep -v "rc=0 at" | head -60
timeout 150 $R/c/ccaCudaBackendTest > $L/backend.log 2>&1
echo "backend rc=$? at $SECONDS s"; grep -E "^total|FAIL" $L/backend.log | head -12
timeout 60 compute-sanitizer --tool memcheck --error-exitcode 3 $R/c/ccaCudaBackendTest --quick > $L/memcheck.log 2>&1
echo "memcheck rc=$? at $SECONDS s"; grep -E "^total|ERROR SUMMARY" $L/memcheck.log
timeout 150 compute-sanitizer --tool racecheck --error-exitcode 9 $R/c/ccaCudaBackendTest --quick --cases 10 --algorithm Default > $L/racecheck.log 2>&1
echo "racecheck rc=$? at $SECONDS s"; grep -E "^total|RACECHECK SUMMARY" $L/racecheck.log
TOP=6 bash benchmark/ncu_kernel_map.sh $R/c/cca_benchmark $L/ncu c-3d26-d0.5 --dimension 3 --size 512 --g 1 --density 0.5 --connectivity full --outputs all
tar -C $OUT -czf $OUT/logs.tgz logs && rm -rf $L
echo "done at $SECONDS s"
