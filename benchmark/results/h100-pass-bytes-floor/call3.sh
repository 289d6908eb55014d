#!/usr/bin/env bash
# Call 3: the planes' full table again with ncu leaving the caches as the
# previous kernel left them (--cache-control none), and only the three
# metrics the bounds use, so that a kernel is profiled in one pass: does
# flushing the L2 before each kernel (calls 1 and 2) overcount the bytes?
set -u
mkdir -p $OUT/w/ncu-warm /tmp/b && exec > >(tee $OUT/summary.txt) 2>&1
nvidia-smi -L
xz -dc .devcarry/cca_benchmark-main.xz > /tmp/b/cca_benchmark && chmod +x /tmp/b/cca_benchmark
B=/tmp/b/cca_benchmark
SECONDS=0
for conn in face full; do
  for d in 0.1 0.2 0.3 0.4 0.5 0.6 0.7 0.8 0.9 1; do
    timeout 60 ncu --cache-control none --clock-control none --print-units base --csv \
      --metrics gpu__time_duration.sum,dram__bytes_read.sum,dram__bytes_write.sum \
      $B --labels-on-device --no-atomic-counts --warmup 0 --reps 1 --outputs all --g 1 --dimension 2 \
      --size 8192 --connectivity $conn --density $d > $OUT/w/ncu-warm/2d-$conn-d$d.csv 2> $OUT/w/ncu-warm/2d-$conn-d$d.err
    echo "ncu warm 2d $conn d=$d rc=$? at $SECONDS s"
  done
done
grep -h "pass" $OUT/w/ncu-warm/*.err | sort | uniq -c | head
cd $OUT && tar czf ncu-warm.tgz w && rm -rf w
