#!/usr/bin/env bash
# Call 3 (H200): the first units apart, placed by each label's stretch of
# the sorted others and an exclusive sum (call 2's placing looped over the
# labels between two sorted others: 214 us a run at 8192^2 4-conn. d = 0.2).
# One binary: v = --roots-apart never (main's path), a = always. Backend
# test, memcheck, racecheck; per image v a a v at 8192^2 g = 1 4- and
# 8-conn., v a at 512^3 6-conn. g = 1 (full table); ncu of a at 4-conn. d = 0.2.
set -u
L=$OUT/logs; mkdir -p $L /tmp/b && xz -dc .devcarry/gpu.tar.xz | tar -C /tmp/b -xf -
exec > >(tee $OUT/summary.txt) 2>&1
nvidia-smi -L
N=/tmp/b/n/build-gpu
B=$N/benchmark/cca_benchmark
timeout 150 $N/test/gpu/ccaCudaBackendTest > $L/backend.log 2>&1
echo "backend rc=$? at $SECONDS s"; grep -E "^total|FAIL|vote orders" $L/backend.log | head -12
timeout 60 compute-sanitizer --tool memcheck --error-exitcode 3 $N/test/gpu/ccaCudaBackendTest --quick > $L/memcheck.log 2>&1
echo "memcheck rc=$? at $SECONDS s"; grep -E "^total|ERROR SUMMARY" $L/memcheck.log
TOP=14 bash benchmark/ncu_kernel_map.sh $B $L/ncu a-2d-face-d0.2 --outputs all --roots-apart always \
  --dimension 2 --size 8192 --connectivity face --g 1 --density 0.2
C="--labels-on-device --no-atomic-counts --warmup 1 --reps 3 --outputs all"
python3 benchmark/ab_compare.py --logs $L/ab2 --variant v="$B --roots-apart never" --variant a="$B --roots-apart always" \
  --common "$C" \
  --set 2d-face-g1="--dimension 2 --size 8192 --connectivity face --g 1" \
  --set 2d-full-g1="--dimension 2 --size 8192 --connectivity full --g 1" \
  --order "v a a v" --per-image
echo "ab 2d done at $SECONDS s"
python3 benchmark/ab_compare.py --logs $L/ab3 --variant v="$B --roots-apart never" --variant a="$B --roots-apart always" \
  --common "$C" --set 3d-face-g1="--dimension 3 --size 512 --connectivity face --g 1" --order "v a" --per-image
echo "ab 3d done at $SECONDS s"
left=$((570 - SECONDS))
if [ $left -gt 125 ]; then
  timeout $((left - 5)) compute-sanitizer --tool racecheck --error-exitcode 3 $N/test/gpu/ccaCudaBackendTest --quick --cases 1 --algorithm Default > $L/racecheck.log 2>&1
  echo "racecheck rc=$? at $SECONDS s"; grep -E "^total|RACECHECK SUMMARY" $L/racecheck.log
else
  echo "racecheck skipped ($left s left)"
fi
tar -C $OUT -czf $OUT/logs.tgz logs && rm -rf $L
echo "done at $SECONDS s"
