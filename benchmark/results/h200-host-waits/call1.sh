#!/usr/bin/env bash
# Call 1 (H200): where the GPU waits for the host. (1) What one host read of
# a count costs between two kernels (read-wait-probe.cu), by scheduling
# flag. (2) Every kernel of one run at the benchmark's clocks (ncu
# --clock-control none), against the same run's milestones: the difference
# is the GPU idle between kernels. (3) The runs' path at every row width
# (A, gate at 0) against main (N) in 512^3, N A N A.
set -u
L=$OUT/logs; mkdir -p $L /tmp/b && tar -C /tmp/b -xJf .devcarry/gpu.tar.xz
N=/tmp/b/build-gpu; xz -dc .devcarry/all-widths/cca_benchmark.xz > /tmp/b/allwidths && chmod +x /tmp/b/allwidths
xz -dc .devcarry/read-wait-probe.xz > /tmp/b/probe && chmod +x /tmp/b/probe
exec > >(tee $OUT/summary.txt) 2>&1
nvidia-smi -L > $L/device.txt
for m in auto spin yield blocking; do /tmp/b/probe $m; done
P="--reps 11 --warmup 1 --labels-on-device --no-atomic-counts --outputs all"
s() { grep '^==' $1 | sed 's/.*kernel \([0-9.]*\) G[^;]*; \([0-9.]*\) mean.*/\1 (\2)/' | tr '\n' ' '; }
for c in "2 8192 0 face 1" "2 8192 4 full 0.3" "2 8192 16 face 0.5" "3 512 0 face 1" "3 512 4 face 0.3"; do
  set -- $c
  n=$1d-$2-g$3-$4
  timeout 60 $N/benchmark/cca_benchmark $P --dimension $1 --size $2 --g $3 --connectivity $4 --density $5 > $L/bench-$n.log 2>&1
  echo "bench $n rc=$?: $(grep -E '^Default' $L/bench-$n.log | head -1)"
  timeout 120 ncu --clock-control none --metrics gpu__time_duration.sum --csv $N/benchmark/cca_benchmark --reps 1 --warmup 1 --labels-on-device --no-atomic-counts --outputs all --dimension $1 --size $2 --g $3 --connectivity $4 --density $5 > $L/ncu-$n.csv 2> $L/ncu-$n.err
  echo "ncu $n rc=$? at $SECONDS s"
done
P3="--reps 11 --warmup 1 --labels-on-device --no-atomic-counts --outputs all --connectivity both --dimension 3 --size 512"
for v in N1 A1 N2 A2; do
  X=$N/benchmark/cca_benchmark; [[ $v == A* ]] && X=/tmp/b/allwidths
  for g in 0 16 4; do
    timeout 60 $X $P3 --g $g > $L/k3-512-g$g-$v.log 2>&1; echo "3D 512 g$g $v rc=$? at $SECONDS s: $(s $L/k3-512-g$g-$v.log)"
  done
done
tar -C $OUT -czf $OUT/logs.tgz logs && rm -rf $L
