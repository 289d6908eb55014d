#!/usr/bin/env bash
# Call 3 (H200): n = call 1's change (commit f8c2c4a); t = n with each
# thread of the image runs' pass (CoveredRunParentsKernel) taking two runs
# with their loads in flight together, its rows placed in 32-bit
# arithmetic where the image fits. t's backend test, n t t n on 512^3
# 26-conn. g = 1 (full table, per image); the faster by its mean over the
# two runs (t only if 1 % ahead, then memcheck on it) then runs with every
# labels-only peer in one command (benchmark/ours_and_peers.sh). Carry:
# .devcarry/gpu.tar.xz, .peers (../shared/peers-bench).
set -u
L=$OUT/logs; mkdir -p $L /tmp/b && xz -dc .devcarry/gpu.tar.xz | tar -C /tmp/b -xf -
exec > >(tee $OUT/summary.txt) 2>&1
nvidia-smi -L
T=/tmp/b/t/build-gpu
timeout 150 $T/test/gpu/ccaCudaBackendTest > $L/backend.log 2>&1
echo "backend rc=$? at $SECONDS s"; grep -E "^total|FAIL|strip" $L/backend.log | head -12
python3 benchmark/ab_compare.py --logs $L/ab --variant n="/tmp/b/n/build-gpu/benchmark/cca_benchmark" \
  --variant t="$T/benchmark/cca_benchmark" \
  --common "--labels-on-device --no-atomic-counts --warmup 1 --reps 3 --outputs all" \
  --set 3d-full-g1="--dimension 3 --size 512 --connectivity full --g 1" \
  --order "n t t n" --per-image | tee $L/ab.txt
echo "ab done at $SECONDS s"
mean() { grep -E "^3d-full-g1-$1[12] rc=0" $L/ab.txt | awk '{s += $6} END {print s / NR}'; }
N_MEAN=$(mean n); T_MEAN=$(mean t)
KEPT=n
if awk -v t="$T_MEAN" -v n="$N_MEAN" 'BEGIN {exit !(t > 1.01 * n)}'; then KEPT=t; fi
echo "mean n $N_MEAN, t $T_MEAN: one command with $KEPT"
if [ $KEPT = t ]; then
  timeout 60 compute-sanitizer --tool memcheck --error-exitcode 3 $T/test/gpu/ccaCudaBackendTest --quick > $L/memcheck.log 2>&1
  echo "memcheck rc=$? at $SECONDS s"; grep -E "^total|ERROR SUMMARY" $L/memcheck.log
fi
bash benchmark/ours_and_peers.sh /tmp/b/$KEPT/build-gpu $L/peers $OUT/call3
tar -C $OUT -czf $OUT/logs.tgz logs && rm -rf $L
echo "done at $SECONDS s"
