#!/usr/bin/env bash
# Call 5 (H200): what the three largest kernels of a 512^3 6-conn. d = 0.3
# full table wait on, main a7c3edb: ncu's warp states, scheduler,
# memory workload and occupancy sections of the stored pairs' count, the
# votes and the union-find's passes.
set -u
mkdir -p /tmp/b
tar -C /tmp/b -xJf .devcarry/gpu.tar.xz
exec > >(tee $OUT/summary.txt) 2>&1
timeout 200 ncu --clock-control none --kernel-name regex:"CountPrecedingPairs|AccumulateFeatures|LinkRunsKernel" --launch-count 6 \
  --section WarpStateStats --section SchedulerStats --section MemoryWorkloadAnalysis --section Occupancy --section SpeedOfLight \
  /tmp/b/m/cca_benchmark --labels-on-device --no-atomic-counts --outputs all --g 1 --warmup 0 --reps 1 --density 0.3 \
  --dimension 3 --size 512 --connectivity face > $OUT/ncu.txt 2>&1
echo "ncu rc=$? at $SECONDS s"
grep -E "^  [A-Za-z].*Kernel|Duration|Stall|Warp Cycles Per Issued|Issued Warp|No Eligible|Achieved Occupancy|Memory Throughput|L1/TEX Hit|L2 Hit|Mem Busy|Max Bandwidth|Compute \(SM\)" $OUT/ncu.txt | sed -E 's/\(RunArrays.*|\(unsigned.*|\(T1.*//' | head -120
