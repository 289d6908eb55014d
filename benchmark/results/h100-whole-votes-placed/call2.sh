#!/usr/bin/env bash
# Call 2: where the pairs' pass places the subtracted largest component's
# runs, the votes store the other components whole (n) instead of merging
# every one into a prepared table (m: main, ac001df). m n n m on the g = 1
# sets (full table), ncu of every kernel of two placing images with each
# binary, then n's backend test, memcheck and racecheck.
set -u
L=$OUT/logs; mkdir -p $L /tmp/b && xz -dc .devcarry/gab2.tar.xz | tar -C /tmp/b -xf -
exec > >(tee $OUT/summary.txt) 2>&1
nvidia-smi -L
timeout 300 python3 benchmark/ab_compare.py --logs $L/ab --variant m="/tmp/b/m/cca_benchmark" \
  --variant n="/tmp/b/n/cca_benchmark" \
  --common "--labels-on-device --no-atomic-counts --warmup 1 --reps 3 --outputs all" \
  --set 3d-face-g1="--dimension 3 --size 512 --connectivity face --g 1" \
  --set 2d-face-g1="--dimension 2 --size 8192 --connectivity face --g 1" \
  --set 2d-full-g1="--dimension 2 --size 8192 --connectivity full --g 1" \
  --set 3d-full-g1="--dimension 3 --size 512 --connectivity full --g 1" \
  --order "m n n m" --per-image
echo "ab rc=$? at $SECONDS s"
for v in m n; do
  for d in 0.4 0.5; do
    TOP=12 bash benchmark/ncu_kernel_map.sh /tmp/b/$v/cca_benchmark $L/ncu $v-3d-face-d$d \
      --outputs all --g 1 --dimension 3 --size 512 --connectivity face --density $d
  done
done
timeout 200 /tmp/b/n/ccaCudaBackendTest > $L/backend.log 2>&1
echo "backend rc=$? at $SECONDS s"; grep -E "^total|FAIL|subtracted" $L/backend.log | head -12
timeout 60 compute-sanitizer --tool memcheck --error-exitcode 3 /tmp/b/n/ccaCudaBackendTest --quick > $L/memcheck.log 2>&1
echo "memcheck rc=$? at $SECONDS s"; grep -E "^total|ERROR SUMMARY" $L/memcheck.log
timeout 170 compute-sanitizer --tool racecheck --error-exitcode 9 /tmp/b/n/ccaCudaBackendTest --quick --cases 15 --algorithm Default > $L/racecheck.log 2>&1
echo "racecheck rc=$? at $SECONDS s"; grep -E "^total|RACECHECK SUMMARY" $L/racecheck.log
tar -C $OUT -czf $OUT/logs.tgz logs && rm -rf $L
echo "done at $SECONDS s"
