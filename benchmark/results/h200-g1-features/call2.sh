#!/usr/bin/env bash
# Call 2 (H200): the votes in component order pipelined (a chunk's records
# and slice pairs in flight while the warp votes on the chunk before, the
# order and keys of the chunk after that too) against main (51e6e04), two
# binaries, m p p m, full table, summed, g = 1; then ncu of the votes
# kernel alone, both binaries, 8192^2 4-conn. d = 0.3 and 512^3 6-conn.
# d = 0.3.
set -u
L=$OUT/logs; mkdir -p $L /tmp/b
tar -C /tmp/b -xJf .devcarry/gpu.tar.xz
exec > >(tee $OUT/summary.txt) 2>&1
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader
G=/tmp/b/x/build-gpu
M=/tmp/b/x/main/cca_benchmark
P=$G/benchmark/cca_benchmark
C="--labels-on-device --no-atomic-counts --warmup 1 --reps 3 --outputs all"
python3 benchmark/ab_compare.py --logs $L --common "$C" --order "m p p m" \
  --variant m="$M" --variant p="$P" \
  --set 3d-face-g1="--dimension 3 --size 512 --connectivity face --g 1" \
  --set 2d-face-g1="--dimension 2 --size 8192 --connectivity face --g 1" \
  --set 3d-full-g1="--dimension 3 --size 512 --connectivity full --g 1" \
  --set 2d-full-g1="--dimension 2 --size 8192 --connectivity full --g 1"
echo "A/B done at $SECONDS s"
tar -C $OUT -czf $OUT/logs.tgz logs && rm -rf $L
N=$OUT/ncu; mkdir -p $N
K="--labels-on-device --no-atomic-counts --outputs all --g 1 --warmup 0 --reps 1"
Q=gpu__time_duration.sum,dram__bytes_read.sum,dram__bytes_write.sum,sm__warps_active.avg.pct_of_peak_sustained_active,smsp__inst_executed.sum
for c in "2 8192 face 0.3" "3 512 face 0.3"; do
  for v in m p; do
    set -- $c
    b=$M; [ $v = p ] && b=$P
    n=${1}d-$3-d$4-$v
    timeout 60 ncu --clock-control none --print-units base --kernel-name regex:AccumulateFeatures --metrics $Q --csv $b $K --dimension $1 --size $2 --connectivity $3 --density $4 > $N/k-$n.csv 2> $N/k-$n.err
    echo "== $n (rc=$?, at $SECONDS s)"
    python3 benchmark/ncu_kernel_table.py $N/k-$n.csv --top 3
  done
done
tar -C $OUT -czf $OUT/ncu.tgz ncu && rm -rf $N
echo "done at $SECONDS s"
