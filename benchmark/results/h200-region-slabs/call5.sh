#!/usr/bin/env bash
# Call 5 (H200): main (6370750), 8192^2 8-connected labels only, g = 1,
# d = 0.4 (the strips, near the percolation threshold): ncu's sections for
# the first pixel offers and the union-find of the measured run (the third
# launch of each), to see what they wait on.
set -u
L=$OUT/logs; mkdir -p $L /tmp/b
tar -C /tmp/b -xJf .devcarry/gpu.tar.xz
B=/tmp/b/build-gpu/benchmark/cca_benchmark
exec > >(tee $OUT/summary.txt) 2>&1
P="--labels-on-device --no-atomic-counts --warmup 1 --reps 1 --outputs labels --g 1 --dimension 2 --size 8192 --connectivity full --density 0.4"
for k in OfferStripFirstPixelsKernel LinkByteRowsKernel WriteStripLabelImageKernel; do
  timeout 120 ncu --kernel-name regex:$k --launch-skip 2 --launch-count 1 --section SpeedOfLight --section MemoryWorkloadAnalysis --section WarpStateStats --section Occupancy --section LaunchStats $B $P > $L/ncu-$k.txt 2>&1
  echo "ncu $k rc=$? at $SECONDS s"
  grep -E 'Duration|Memory Throughput|DRAM Throughput|L1/TEX Hit|L2 Hit|Achieved Occupancy|Registers Per|Stall|Warp Cycles Per Issued|Compute \(SM\) Throughput|Mem Busy|Max Bandwidth' $L/ncu-$k.txt | head -30
done
tar -C $OUT -czf $OUT/logs.tgz logs && rm -rf $L
