#!/usr/bin/env bash
# Call 4 (H200): why call 3's N lost: ncu per kernel (time, registers) of
# B and N on one image each, full table under full connectivity: 8192^2
# g = 4 d = 0.4 and 512^3 g = 4 d = 0.3.
set -u
L=$OUT/logs; mkdir -p $L /tmp/b
tar -C /tmp/b -xJf .devcarry/gpu.tar.xz
xz -dc .devcarry/bench-n.xz > /tmp/b/B && chmod +x /tmp/b/B && cp /tmp/b/build-gpu/benchmark/cca_benchmark /tmp/b/N
exec > >(tee $OUT/summary.txt) 2>&1
P="--labels-on-device --no-atomic-counts --outputs all --connectivity full --reps 1 --warmup 1"
for v in B N; do
  for c in "2 8192 4 0.4" "3 512 4 0.3"; do
    set -- $c; n=ncu-$1d-g$3-d$4-$v
    timeout 120 ncu --clock-control none --metrics gpu__time_duration.sum,launch__registers_per_thread,sm__warps_active.avg.pct_of_peak_sustained_active --csv --print-units base \
      /tmp/b/$v $P --dimension $1 --size $2 --g $3 --density $4 > $L/$n.csv 2> $L/$n.err
    echo "$n rc=$? at $SECONDS s"
  done
done
tar -C $OUT -czf $OUT/logs.tgz logs && rm -rf $L
