#!/usr/bin/env bash
# Call 2 (H100): the roots ranked by one block where they fit
# (RankRootsInOneBlockKernel, at most 1,024 words of root bits: 32,768
# units). m = main 590570e, n = the change; m n n m, full table: the
# all-on images, small images (every one of them takes the change), and
# the 8192^2 / 512^3 g = 16 and 2D g = 1 sets, which have more units and
# must not move; then n's GPU tests (backend, memcheck, racecheck).
# Carry: .devcarry/t2.tar.xz (m/cca_benchmark, n/: cca_benchmark,
# ccaCudaBackendTest).
set -u
L=$OUT/logs; mkdir -p $L /tmp/b && xz -dc .devcarry/t2.tar.xz | tar -C /tmp/b -xf -
exec > >(tee $OUT/summary.txt) 2>&1
nvidia-smi -L
R=/tmp/b
AB="python3 benchmark/ab_compare.py --variant m=$R/m/cca_benchmark --variant n=$R/n/cca_benchmark"
C="--labels-on-device --no-atomic-counts --outputs all"
timeout 120 $AB --per-image --logs $L/allon --common "$C --warmup 2 --reps 11 --density 1" \
  --set 2d-all-on="--dimension 2 --size 8192 --connectivity both" \
  --set 3d-all-on="--dimension 3 --size 512 --connectivity both" --order "m n n m" > $L/allon.txt 2>&1
echo "allon rc=$? at $SECONDS s"; grep -vE "rc=0 at" $L/allon.txt | head -40
timeout 150 $AB --logs $L/small --common "$C --warmup 2 --reps 11" \
  --set 2d-256="--dimension 2 --size 256 --connectivity both" \
  --set 2d-1024-g16="--dimension 2 --size 1024 --connectivity both --g 16" \
  --set 3d-32="--dimension 3 --size 32 --connectivity both" \
  --set 3d-64-g16="--dimension 3 --size 64 --connectivity both --g 16" --order "m n n m" > $L/small.txt 2>&1
echo "small rc=$? at $SECONDS s"; grep -vE "rc=0 at" $L/small.txt | head -60
timeout 200 $AB --logs $L/big --common "$C --warmup 1 --reps 3" \
  --set 2d4-g16="--dimension 2 --size 8192 --connectivity face --g 16" \
  --set 3d6-g16="--dimension 3 --size 512 --connectivity face --g 16" \
  --set 2d4-g1="--dimension 2 --size 8192 --connectivity face --g 1" --order "m n n m" > $L/big.txt 2>&1
echo "big rc=$? at $SECONDS s"; grep -vE "rc=0 at" $L/big.txt | head -40
T=$R/n/ccaCudaBackendTest
timeout 90 $T > $L/backend.log 2>&1
echo "backend rc=$? at $SECONDS s"; grep -E "^total|FAIL|numbering" $L/backend.log | head -12
timeout 40 compute-sanitizer --tool memcheck --error-exitcode 3 $T --quick > $L/memcheck.log 2>&1
echo "memcheck rc=$? at $SECONDS s"; grep -E "^total|ERROR SUMMARY" $L/memcheck.log
timeout 130 compute-sanitizer --tool racecheck --error-exitcode 9 $T --quick --cases 12 --algorithm Default > $L/racecheck.log 2>&1
echo "racecheck rc=$? at $SECONDS s"; grep -E "^total|RACECHECK SUMMARY" $L/racecheck.log
tar -C $OUT -czf $OUT/logs.tgz logs && rm -rf $L
echo "done at $SECONDS s"
