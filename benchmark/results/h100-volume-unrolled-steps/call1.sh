#!/usr/bin/env bash
# Call 1 (H100): m = main cb9c6c9, g = branch next-volume-unrolled-steps
# (a89afc1: LinkRuns's preceding rows unrolled for volumes in both
# union-find kernels, a plane's one row alone). m g g m on the sets where
# the unrolled form for every image won (26-conn. g = 4 / 16 / 1 full
# table) and lost (8192^2 8-conn. g = 1 full table, the all-on planes),
# plus 6-conn. g = 1; then g's GPU tests (racecheck needs about 115 s for
# 12 cases: give it 150).
# Carry: .devcarry/gab1.tar.xz (r/cca_benchmark = m, r/g/cca_benchmark,
# r/g/ccaCudaBackendTest).
set -u
L=$OUT/logs; mkdir -p $L /tmp/b && xz -dc .devcarry/gab1.tar.xz | tar -C /tmp/b -xf -
exec > >(tee $OUT/summary.txt) 2>&1
nvidia-smi -L
R=/tmp/b/r
AB="python3 benchmark/ab_compare.py --variant m=$R/cca_benchmark --variant g=$R/g/cca_benchmark --per-image"
C="--labels-on-device --no-atomic-counts"
timeout 150 $AB --logs $L/ab --common "$C --warmup 1 --reps 3" \
  --set 3d26-g4-all="--dimension 3 --size 512 --connectivity full --g 4 --outputs all" \
  --set 3d26-g16-all="--dimension 3 --size 512 --connectivity full --g 16 --outputs all" \
  --set 3d26-g1-all="--dimension 3 --size 512 --connectivity full --g 1 --outputs all" \
  --set 3d6-g1-all="--dimension 3 --size 512 --connectivity face --g 1 --outputs all" \
  --set 2d8-g1-all="--dimension 2 --size 8192 --connectivity full --g 1 --outputs all" \
  --set 2d4-g1-all="--dimension 2 --size 8192 --connectivity face --g 1 --outputs all" \
  --order "m g g m" > $L/ab.txt 2>&1
echo "ab rc=$? at $SECONDS s"; grep -vE "rc=0 at" $L/ab.txt | grep -v "d=0.0 " | head -120
timeout 60 $AB --logs $L/allon --common "$C --warmup 2 --reps 11 --density 1 --outputs all" \
  --set 2d-all-on="--dimension 2 --size 8192 --connectivity both" --order "m g g m" > $L/allon.txt 2>&1
echo "allon rc=$? at $SECONDS s"; grep -vE "rc=0 at" $L/allon.txt | head -16
T=$R/g/ccaCudaBackendTest
timeout 90 $T > $L/backend.log 2>&1
echo "backend rc=$? at $SECONDS s"; grep -E "^total|FAIL" $L/backend.log | head -12
timeout 50 compute-sanitizer --tool memcheck --error-exitcode 3 $T --quick > $L/memcheck.log 2>&1
echo "memcheck rc=$? at $SECONDS s"; grep -E "^total|ERROR SUMMARY" $L/memcheck.log
timeout 150 compute-sanitizer --tool racecheck --error-exitcode 9 $T --quick --cases 12 --algorithm Default > $L/racecheck.log 2>&1
echo "racecheck rc=$? at $SECONDS s"; grep -E "^total|RACECHECK SUMMARY" $L/racecheck.log
tar -C $OUT -czf $OUT/logs.tgz logs && rm -rf $L
echo "done at $SECONDS s"
