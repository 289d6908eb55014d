#!/usr/bin/env bash
# Prepared for the next session, not run: the byte row blocks' events
# queued across the warp (x: queued-events-unmeasured.patch applied; its
# --queued-merges never (n) gives the blocks' events per lane as on main,
# and in planes nothing else). ncu of the block pass at 8192^2 4-conn.
# g = 1 d = 0.5 / 0.7, full table, x and n; summed n x x n; the backend's
# GPU test, memcheck (--quick) and racecheck (--quick --cases 1) on x.
set -u
mkdir -p /tmp/b
tar -C /tmp/b -xJf .devcarry/gpu.tar.xz
exec > >(tee $OUT/summary.txt) 2>&1
X=/tmp/b/x/build-gpu/benchmark/cca_benchmark
G=/tmp/b/x/build-gpu
M=gpu__time_duration.sum,smsp__inst_executed.sum,smsp__thread_inst_executed_per_inst_executed.ratio
for d in 0.5 0.7; do
  for q in auto never; do
    echo "== ncu 8192^2 face d=$d --queued-merges $q: the byte row blocks' pass"
    ncu --clock-control none --kernel-name regex:"LinkByteRowBlocks" --launch-count 1 --metrics $M \
      $X --labels-on-device --no-atomic-counts --outputs all --g 1 --warmup 0 --reps 1 --queued-merges $q \
      --density $d --dimension 2 --size 8192 --connectivity face 2>&1 | grep -E "gpu__time|inst_executed|rror"
  done
done
C="--labels-on-device --no-atomic-counts --warmup 1 --reps 3 --outputs all"
python3 benchmark/ab_compare.py --logs $OUT/logs/ab --variant n="$X --queued-merges never" --variant x="$X" \
  --common "$C" --set 2d-face-g1="--dimension 2 --size 8192 --connectivity face --g 1" --order "n x x n"
mkdir -p $OUT/logs/tests
timeout 90 $G/test/gpu/ccaCudaBackendTest > $OUT/logs/tests/backend.log 2>&1; echo "backend rc=$? at $SECONDS s"
grep -E "^total|row-bit links" $OUT/logs/tests/backend.log
timeout 45 compute-sanitizer --tool memcheck --error-exitcode 3 $G/test/gpu/ccaCudaBackendTest --quick > $OUT/logs/tests/memcheck.log 2>&1
echo "memcheck rc=$? at $SECONDS s"; grep -E "^total|ERROR SUMMARY" $OUT/logs/tests/memcheck.log
timeout 60 compute-sanitizer --tool racecheck --error-exitcode 3 $G/test/gpu/ccaCudaBackendTest --quick --cases 1 --algorithm Default > $OUT/logs/tests/racecheck.log 2>&1
echo "racecheck rc=$? at $SECONDS s"; grep -E "^total|RACECHECK SUMMARY" $OUT/logs/tests/racecheck.log
(cd $OUT && tar -czf logs.tgz logs && rm -rf logs)
echo "done at $SECONDS s"
