#!/usr/bin/env bash
# Call 2 (H100): the label image queued before the component count's read.
# m = main 3c697c5; a = the label image queued before the read on the side
# lane of the pairs (lane 0, joined before the table); b = the same on a
# lane of its own (lane 1), joined only at the run's end (the form to
# keep). m a b b a m, full table; then b's GPU tests.
# Carry: .devcarry/gab2.tar.xz (sb/benchmark/cca_benchmark = m, a/, b/).
set -u
L=$OUT/logs; mkdir -p $L /tmp/b && xz -dc .devcarry/gab2.tar.xz | tar -C /tmp/b -xf -
exec > >(tee $OUT/summary.txt) 2>&1
nvidia-smi -L
R=/tmp/b
AB="python3 benchmark/ab_compare.py --variant m=$R/sb/benchmark/cca_benchmark --variant a=$R/a/cca_benchmark --variant b=$R/b/cca_benchmark --per-image"
C="--labels-on-device --no-atomic-counts --outputs all"
timeout 100 $AB --logs $L/allon --common "$C --warmup 2 --reps 11 --density 1" \
  --set 2d-all-on="--dimension 2 --size 8192 --connectivity both" \
  --set 3d-all-on="--dimension 3 --size 512 --connectivity both" --order "m a b b a m" > $L/allon.txt 2>&1
echo "allon rc=$? at $SECONDS s"; grep -vE "rc=0 at" $L/allon.txt | head -40
timeout 260 $AB --logs $L/ab --common "$C --warmup 1 --reps 3" \
  --set 2d4-g1="--dimension 2 --size 8192 --connectivity face --g 1" \
  --set 2d8-g1="--dimension 2 --size 8192 --connectivity full --g 1" \
  --set 3d6-g1="--dimension 3 --size 512 --connectivity face --g 1" \
  --set 3d26-g1="--dimension 3 --size 512 --connectivity full --g 1" \
  --set 2d4-g16="--dimension 2 --size 8192 --connectivity face --g 16" \
  --set 3d6-g16="--dimension 3 --size 512 --connectivity face --g 16" \
  --set 3d26-g4="--dimension 3 --size 512 --connectivity full --g 4" \
  --order "m a b b a m" > $L/ab.txt 2>&1
echo "ab rc=$? at $SECONDS s"; grep -vE "rc=0 at" $L/ab.txt | grep -v "d=0.0 " | head -150
T=$R/b/ccaCudaBackendTest
timeout 90 $T > $L/backend.log 2>&1
echo "backend rc=$? at $SECONDS s"; grep -E "^total|FAIL" $L/backend.log | head -12
timeout 40 compute-sanitizer --tool memcheck --error-exitcode 3 $T --quick > $L/memcheck.log 2>&1
echo "memcheck rc=$? at $SECONDS s"; grep -E "^total|ERROR SUMMARY" $L/memcheck.log
timeout 130 compute-sanitizer --tool racecheck --error-exitcode 9 $T --quick --cases 12 --algorithm Default > $L/racecheck.log 2>&1
echo "racecheck rc=$? at $SECONDS s"; grep -E "^total|RACECHECK SUMMARY" $L/racecheck.log
tar -C $OUT -czf $OUT/logs.tgz logs && rm -rf $L
echo "done at $SECONDS s"
