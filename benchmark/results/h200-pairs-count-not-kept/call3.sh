#!/usr/bin/env bash
# Call 3 (H200): ncu of the stored pairs' count, main a7c3edb (m,
# CountPrecedingPairsKernel) against b (CountPrecedingPairsInBandsKernel),
# one image each at d = 0.3 and 0.6, full table.
set -u
mkdir -p /tmp/b $OUT/ncu
tar -C /tmp/b -xJf .devcarry/gpu.tar.xz
exec > >(tee $OUT/summary.txt) 2>&1
C="--labels-on-device --no-atomic-counts --outputs all --g 1 --warmup 0 --reps 1"
MET=gpu__time_duration.sum,sm__warps_active.avg.pct_of_peak_sustained_active,launch__registers_per_thread,l1tex__data_bank_conflicts_pipe_lsu_mem_shared.sum,dram__throughput.avg.pct_of_peak_sustained_elapsed,smsp__average_warp_latency_issue_stalled_barrier
for v in m b; do
  case $v in m) B=/tmp/b/m/cca_benchmark;; b) B=/tmp/b/x/build-gpu/benchmark/cca_benchmark;; esac
  for c in "3 512 face 0.3" "2 8192 face 0.3" "3 512 face 0.6"; do
    set -- $c
    n=$v-${1}d-$3-$4
    timeout 100 ncu --clock-control none --kernel-name regex:"CountPrecedingPairs" --metrics $MET \
      $B $C --density $4 --dimension $1 --size $2 --connectivity $3 > $OUT/ncu/$n.txt 2>&1
    echo "== $n rc=$? at $SECONDS s"
    grep -E "gpu__time|warps_active|registers|bank_conflicts|dram__|stalled" $OUT/ncu/$n.txt | head -12
  done
done
tar -C $OUT -czf $OUT/logs.tgz ncu && rm -rf $OUT/ncu
