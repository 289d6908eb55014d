#!/usr/bin/env bash
# Call 7 (H100): f = s with the union-find's per-run loop over the
# preceding rows unrolled (each step a constant where the counting pass
# tallies pairs; cuda/UnionFind.cuh LinkRuns); o = 3c0465b, s = strips
# and tubes reading rows as bits. A/B, an ncu map of f, then f's GPU tests.
# Carry: .devcarry/gabF.tar.xz (r/o/cca_benchmark, r/s/..., r/f/{cca_benchmark,ccaCudaBackendTest}).
set -u
L=$OUT/logs; mkdir -p $L /tmp/b && xz -dc .devcarry/gabF.tar.xz | tar -C /tmp/b -xf -
exec > >(tee $OUT/summary.txt) 2>&1
nvidia-smi -L
R=/tmp/b/r
AB="python3 benchmark/ab_compare.py --variant o=$R/o/cca_benchmark --variant s=$R/s/cca_benchmark --variant f=$R/f/cca_benchmark --per-image"
C="--labels-on-device --no-atomic-counts --warmup 1 --reps 3"
timeout 120 $AB --logs $L/ab --common "$C --dimension 3 --size 512 --connectivity full" \
  --set 3d26-g4-all="--g 4 --outputs all" --set 3d26-g1-all="--g 1 --outputs all" \
  --order "o s f f s o" > $L/ab.txt 2>&1
echo "ab rc=$? at $SECONDS s"; grep -vE "rc=0 at" $L/ab.txt | grep -v "d=0.0 " | head -60
timeout 120 $AB --logs $L/ab2 --common "$C" \
  --set 3d26-g1-labels="--dimension 3 --size 512 --connectivity full --g 1 --outputs labels" \
  --set 3d26-g16-all="--dimension 3 --size 512 --connectivity full --g 16 --outputs all" \
  --set 3d6-g1-all="--dimension 3 --size 512 --connectivity face --g 1 --outputs all" \
  --set 2d8-g1-all="--dimension 2 --size 8192 --connectivity full --g 1 --outputs all" \
  --set 2d4-g1-all="--dimension 2 --size 8192 --connectivity face --g 1 --outputs all" \
  --order "s f f s" > $L/ab2.txt 2>&1
echo "ab2 rc=$? at $SECONDS s"; grep -vE "rc=0 at" $L/ab2.txt | grep -E "summed" | head -30
TOP=6 bash benchmark/ncu_kernel_map.sh $R/f/cca_benchmark $L/ncu f-d0.5 --dimension 3 --size 512 --g 4 --density 0.5 --connectivity full --outputs all
T=$R/f/ccaCudaBackendTest
timeout 90 $T > $L/backend.log 2>&1
echo "backend rc=$? at $SECONDS s"; grep -E "^total|FAIL" $L/backend.log | head -12
timeout 50 compute-sanitizer --tool memcheck --error-exitcode 3 $T --quick > $L/memcheck.log 2>&1
echo "memcheck rc=$? at $SECONDS s"; grep -E "^total|ERROR SUMMARY" $L/memcheck.log
timeout 80 compute-sanitizer --tool racecheck --error-exitcode 9 $T --quick --cases 6 --algorithm Default > $L/racecheck.log 2>&1
echo "racecheck rc=$? at $SECONDS s"; grep -E "^total|RACECHECK SUMMARY" $L/racecheck.log
tar -C $OUT -czf $OUT/logs.tgz logs && rm -rf $L
echo "done at $SECONDS s"
