#!/usr/bin/env bash
# The two patches prepared in the sixty-third session
# (../h200-byte-row-shapes/), measured in one call. m = main c9a7f49;
# x = labels-only-end-index-unmeasured.patch; q = queued-events-unmeasured.patch
# (its --queued-merges never, n, gives main's per-lane events in the same binary).
set -u
mkdir -p /tmp/b
tar -C /tmp/b -xJf .devcarry/gpu.tar.xz
exec > >(tee $OUT/summary.txt) 2>&1
MB=/tmp/b/m/cca_benchmark
X=/tmp/b/x/build-gpu/benchmark/cca_benchmark
Q=/tmp/b/q/build-gpu/benchmark/cca_benchmark
echo "== labels only, byte row blocks with the runs' end index: m x x m"
python3 benchmark/ab_compare.py --logs $OUT/logs/ab-labels --variant m="$MB" --variant x="$X" \
  --common "--labels-on-device --no-atomic-counts --warmup 1 --reps 3 --outputs labels" \
  --set 2d-face-g1-labels="--dimension 2 --size 8192 --connectivity face --g 1" --order "m x x m"
M=gpu__time_duration.sum,smsp__inst_executed.sum,smsp__thread_inst_executed_per_inst_executed.ratio
for d in 0.5 0.7; do
  for qm in auto never; do
    echo "== ncu 8192^2 face d=$d --queued-merges $qm: the byte row blocks' pass"
    ncu --clock-control none --kernel-name regex:"LinkByteRowBlocks" --launch-count 1 --metrics $M \
      $Q --labels-on-device --no-atomic-counts --outputs all --g 1 --warmup 0 --reps 1 --queued-merges $qm \
      --density $d --dimension 2 --size 8192 --connectivity face 2>&1 | grep -E "gpu__time|inst_executed|rror"
  done
done
echo "== full table, queued events: n q q n"
python3 benchmark/ab_compare.py --logs $OUT/logs/ab-queued --variant n="$Q --queued-merges never" --variant q="$Q" \
  --common "--labels-on-device --no-atomic-counts --warmup 1 --reps 3 --outputs all" \
  --set 2d-face-g1="--dimension 2 --size 8192 --connectivity face --g 1" --order "n q q n"
for v in x q; do
  if [ $SECONDS -gt 440 ]; then echo "$v: no time left for its tests"; continue; fi
  echo "== $v: GPU tests (--quick)"
  bash scripts/engine-gpu-tests.sh --quick /tmp/b/$v/build-gpu $OUT/logs/tests-$v
done
(cd $OUT && tar -czf logs.tgz logs && rm -rf logs)
echo "done at $SECONDS s"
