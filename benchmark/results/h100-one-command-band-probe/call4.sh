#!/usr/bin/env bash
# Call 4: a row's labels made from its runs (FillRowFromRuns) one value a
# 16-byte piece where the piece lies inside a run or between two (n)
# against main de97d0a (m): m n n m on the all-foreground images and the
# 512^3 g = 16 sets (rows of at most 8 runs take that path), full table;
# then n's backend test, memcheck and racecheck. Carry: .devcarry/gab4.tar.xz.
set -u
L=$OUT/logs; mkdir -p $L /tmp/b && xz -dc .devcarry/gab4.tar.xz | tar -C /tmp/b -xf -
exec > >(tee $OUT/summary.txt) 2>&1
nvidia-smi -L
timeout 200 python3 benchmark/ab_compare.py --logs $L/ab --variant m="/tmp/b/m/cca_benchmark" \
  --variant n="/tmp/b/n/cca_benchmark" \
  --common "--labels-on-device --no-atomic-counts --warmup 1 --reps 11 --outputs all" \
  --set 2d-all-on="--dimension 2 --size 8192 --connectivity both --g 1 --density 1" \
  --set 3d-all-on="--dimension 3 --size 512 --connectivity both --g 1 --density 1" \
  --set 3d-face-g16="--dimension 3 --size 512 --connectivity face --g 16 --reps 3" \
  --set 3d-full-g16="--dimension 3 --size 512 --connectivity full --g 16 --reps 3" \
  --order "m n n m" --per-image
echo "ab rc=$? at $SECONDS s"
timeout 150 /tmp/b/n/ccaCudaBackendTest > $L/backend.log 2>&1
echo "backend rc=$? at $SECONDS s"; grep -E "^total|FAIL" $L/backend.log | head -12
timeout 60 compute-sanitizer --tool memcheck --error-exitcode 3 /tmp/b/n/ccaCudaBackendTest --quick > $L/memcheck.log 2>&1
echo "memcheck rc=$? at $SECONDS s"; grep -E "^total|ERROR SUMMARY" $L/memcheck.log
timeout 150 compute-sanitizer --tool racecheck --error-exitcode 9 /tmp/b/n/ccaCudaBackendTest --quick --cases 15 --algorithm Default > $L/racecheck.log 2>&1
echo "racecheck rc=$? at $SECONDS s"; grep -E "^total|RACECHECK SUMMARY" $L/racecheck.log
tar -C $OUT -czf $OUT/logs.tgz logs && rm -rf $L
echo "done at $SECONDS s"
