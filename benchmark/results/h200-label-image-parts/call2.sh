#!/usr/bin/env bash
# Call 2 (H200): the engine's GPU tests, memcheck and racecheck on main
# (84b058d, not run on a GPU before), from .devcarry/gpu.tar.xz; then each
# kernel's duration (ncu, gpu__time_duration, kernels serialized) in the
# labels-only runs at g = 1 that trail or only just lead the peers:
# 8192^2 8-connected at d = 0.3 / 0.5 / 0.7, 512^3 6-connected at d = 0.3 /
# 0.5, one measured run after one warm-up each (the second of each pair of
# a kernel's lines is the measured run).
set -u
O=$OUT/c2; L=$O/logs; mkdir -p $L /tmp/b
tar -C /tmp/b -xJf .devcarry/gpu.tar.xz
G=/tmp/b/build-gpu; B=$G/benchmark/cca_benchmark
exec > >(tee $O/summary.txt) 2>&1
bash scripts/engine-gpu-tests.sh $G $L
P="--labels-on-device --no-atomic-counts --warmup 1 --reps 1 --outputs labels --g 1"
for c in "2 8192 full 0.3" "2 8192 full 0.5" "2 8192 full 0.7" "3 512 face 0.3" "3 512 face 0.5"; do set -- $c
  timeout 60 ncu --clock-control none --metrics gpu__time_duration.sum --csv $B $P --dimension $1 --size $2 --connectivity $3 --density $4 > $L/ncu-$1d-$3-$4.csv 2> $L/ncu-$1d-$3-$4.err
  echo "ncu $1d $3 d=$4 rc=$? at $SECONDS s"
  cp $L/ncu-$1d-$3-$4.csv $O/
done
tar -C $O -czf $O/logs.tgz logs && rm -rf $L
