#!/usr/bin/env bash
# Call 3: the other entries' sum taken by the votes that store them (p)
# where the pairs' pass placed the largest component (n: 0568e98, which
# sums them in a pass over the table). n p p n on the g = 1 sets (full
# table), ncu of every kernel of a placing image with p, then p's
# backend test, memcheck and racecheck.
set -u
L=$OUT/logs; mkdir -p $L /tmp/b && xz -dc .devcarry/gab3.tar.xz | tar -C /tmp/b -xf -
exec > >(tee $OUT/summary.txt) 2>&1
nvidia-smi -L
timeout 300 python3 benchmark/ab_compare.py --logs $L/ab \
  --variant n="/tmp/b/n/cca_benchmark" --variant p="/tmp/b/p/cca_benchmark" \
  --common "--labels-on-device --no-atomic-counts --warmup 1 --reps 3 --outputs all" \
  --set 3d-face-g1="--dimension 3 --size 512 --connectivity face --g 1" \
  --set 2d-face-g1="--dimension 2 --size 8192 --connectivity face --g 1" \
  --order "n p p n" --per-image
echo "ab rc=$? at $SECONDS s"
for v in p; do
  for d in 0.4; do
    TOP=12 bash benchmark/ncu_kernel_map.sh /tmp/b/$v/cca_benchmark $L/ncu $v-3d-face-d$d \
      --outputs all --g 1 --dimension 3 --size 512 --connectivity face --density $d
  done
done
timeout 200 /tmp/b/p/ccaCudaBackendTest > $L/backend.log 2>&1
echo "backend rc=$? at $SECONDS s"; grep -E "^total|FAIL" $L/backend.log | head -12
timeout 60 compute-sanitizer --tool memcheck --error-exitcode 3 /tmp/b/p/ccaCudaBackendTest --quick > $L/memcheck.log 2>&1
echo "memcheck rc=$? at $SECONDS s"; grep -E "^total|ERROR SUMMARY" $L/memcheck.log
timeout 170 compute-sanitizer --tool racecheck --error-exitcode 9 /tmp/b/p/ccaCudaBackendTest --quick --cases 15 --algorithm Default > $L/racecheck.log 2>&1
echo "racecheck rc=$? at $SECONDS s"; grep -E "^total|RACECHECK SUMMARY" $L/racecheck.log
tar -C $OUT -czf $OUT/logs.tgz logs && rm -rf $L
echo "done at $SECONDS s"
