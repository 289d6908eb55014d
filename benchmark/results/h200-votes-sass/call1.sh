#!/usr/bin/env bash
# Call 1 (H200): where the full table's time goes at g = 1 beyond d = 0.5
# (ncu kernel tables, one run each: 8192^2 d = 0.7 and 0.9 in 4- and
# 8-connected planes, 512^3 d = 0.3 and 0.6 in 6- and 26-connected
# volumes), and the votes' instructions by SASS line (ncu source counters
# on AccumulateFeaturesKernel: 8192^2 4-conn. d = 0.5, 512^3 6-conn.
# d = 0.3). Main 7f663dd's engine.
set -u
L=$OUT/ncu; mkdir -p $L /tmp/b
tar -C /tmp/b -xJf .devcarry/gpu.tar.xz
exec > >(tee $OUT/summary.txt) 2>&1
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader
B=/tmp/b/x/build-gpu/benchmark/cca_benchmark
C="--labels-on-device --no-atomic-counts --outputs all --g 1 --warmup 0 --reps 1"
M=gpu__time_duration.sum,dram__bytes_read.sum,dram__bytes_write.sum,sm__warps_active.avg.pct_of_peak_sustained_active,smsp__inst_executed.sum
for c in "2 8192 face 0.7" "2 8192 face 0.9" "2 8192 full 0.7" "2 8192 full 0.9" \
         "3 512 face 0.3" "3 512 face 0.6" "3 512 full 0.3" "3 512 full 0.6"; do
  set -- $c
  n=${1}d-$3-d$4
  timeout 90 ncu --clock-control none --print-units base --metrics $M --csv $B $C --dimension $1 --size $2 --connectivity $3 --density $4 > $L/k-$n.csv 2> $L/k-$n.err
  echo "== $n (rc=$?, at $SECONDS s)"
  python3 benchmark/ncu_kernel_table.py $L/k-$n.csv --top 14
done
for c in "2 8192 face 0.5" "3 512 face 0.3"; do
  set -- $c
  n=${1}d-$3-d$4
  timeout 150 ncu --clock-control none -k regex:AccumulateFeatures --launch-count 1 \
    --section SourceCounters --section InstructionStats --section WarpStateStats --section LaunchStats --section Occupancy \
    -o $L/votes-$n $B $C --dimension $1 --size $2 --connectivity $3 --density $4 > $L/votes-$n.log 2>&1
  echo "== votes $n (rc=$?, at $SECONDS s)"
  ncu -i $L/votes-$n.ncu-rep --page source --csv --print-source sass > $L/votes-$n-sass.csv 2> $L/votes-$n-sass.err
  echo "sass rc=$? lines $(wc -l < $L/votes-$n-sass.csv)"
  ncu -i $L/votes-$n.ncu-rep --page details --csv > $L/votes-$n-details.csv 2>&1
  grep -E '"(Executed Instructions|Duration|Registers Per Thread|Achieved Occupancy|Warp Cycles Per Issued Instruction|Issue Slots Busy)"' $L/votes-$n-details.csv | cut -d, -f13- | head -12
done
tar -C $OUT -czf $OUT/ncu.tgz ncu && rm -rf $L
