#!/usr/bin/env bash
# Call 3 (H200): main's GPU tests, memcheck and racecheck on the landing
# code (x: main a5c5b95, the 32-bit union-find rows and their review), and
# where the 6-connected volumes' union-find passes go: every LinkRunsKernel
# launch of 512^3 g = 1 at d = 0.3 and 0.7 with its grid, time, L2 hit
# rate, DRAM traffic and warps active, for the next session.
set -u
mkdir -p /tmp/b
tar -C /tmp/b -xJf .devcarry/gpu.tar.xz
exec > >(tee $OUT/summary.txt) 2>&1
bash scripts/engine-gpu-tests.sh /tmp/b/x/build-gpu $OUT/tests
X=/tmp/b/x/build-gpu/benchmark/cca_benchmark
M=gpu__time_duration.sum,smsp__inst_executed.sum,lts__t_sector_hit_rate.pct,dram__bytes_read.sum,dram__bytes_write.sum,sm__warps_active.avg.pct_of_peak_sustained_active
for d in 0.3 0.7; do
  echo "ncu 512^3 face d=$d, every union-find launch of one run"
  ncu --clock-control none --kernel-name regex:"LinkRuns" --launch-count 8 --metrics $M \
    $X --labels-on-device --no-atomic-counts --outputs all --g 1 --warmup 0 --reps 1 --density $d \
    --dimension 3 --size 512 --connectivity face > $OUT/ncu-$d.txt 2>&1
  grep -E "  void|gpu__time|inst_exec|hit_rate|dram__bytes|warps_active" $OUT/ncu-$d.txt |
    sed -E 's/^  void ([A-Za-z]+)<.*\) (\([0-9, ]+\)x\([0-9, ]+\)).*/  \1 \2/'
done
tar -C $OUT -czf $OUT/logs.tgz tests && rm -rf $OUT/tests
echo "done at $SECONDS s"
