#!/usr/bin/env bash
# Call 1 (H200): runtime choices of main 2923b1a's engine (the build of
# h200-planar-entries call 7) that were never measured with the full
# table, A/B in one binary, summed kernel Gpix/s (benchmark/ab_compare.py):
#   d = the default;
#   a = --full-pairs-after-labels: full connectivity's perimeter pairs
#       counted once the labels exist (CountPrecedingPairsKernel), not by
#       the union-find (LinkRunsCountingPairsKernel);
#   r = a plus --row-bit-links always: the runs joined from the rows'
#       foreground bits (LinkByteRowsKernel);
#   s = --strip-labeling always: planes' runs joined through strips of two
#       rows, the pairs counted after the labels.
# Then ncu of one run at 8192^2 g = 1 d = 0.5 per variant (the method of
# h200-planar-entries call 2).
set -u
L=$OUT/logs; mkdir -p $L /tmp/b
tar -C /tmp/b -xJf .devcarry/gpu.tar.xz
exec > >(tee $OUT/summary.txt) 2>&1
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader
B=/tmp/b/x/build-gpu/benchmark/cca_benchmark
C="--labels-on-device --no-atomic-counts --warmup 1 --reps 3 --outputs all"
python3 benchmark/ab_compare.py --logs $L --common "$C" --order "d a r s s r a d" \
  --variant d="$B" --variant a="$B --full-pairs-after-labels" \
  --variant r="$B --full-pairs-after-labels --row-bit-links always" --variant s="$B --strip-labeling always" \
  --set 2d-full-g1="--dimension 2 --size 8192 --connectivity full --g 1"
python3 benchmark/ab_compare.py --logs $L --common "$C" --order "d r r d" \
  --variant d="$B" --variant r="$B --row-bit-links always" \
  --set 2d-face-g1="--dimension 2 --size 8192 --connectivity face --g 1"
python3 benchmark/ab_compare.py --logs $L --common "$C" --order "d a a d" \
  --variant d="$B" --variant a="$B --full-pairs-after-labels" \
  --set 3d-full-g1="--dimension 3 --size 512 --connectivity full --g 1"
M=gpu__time_duration.sum,dram__bytes_read.sum,dram__bytes_write.sum,sm__warps_active.avg.pct_of_peak_sustained_active,smsp__inst_executed.sum
N=$OUT/ncu; mkdir -p $N
for c in "full d" "full a" "full r" "full s" "face r"; do
  set -- $c
  n=2d-$1-d0.5-$2
  case $2 in d) P="";; a) P="--full-pairs-after-labels";; r) P="--full-pairs-after-labels --row-bit-links always";; s) P="--strip-labeling always";; esac
  [ $1 = face ] && P="--row-bit-links always"
  Q="--labels-on-device --no-atomic-counts --outputs all --g 1 --dimension 2 --size 8192 --connectivity $1 --density 0.5 --warmup 0 --reps 1 $P"
  timeout 60 ncu --clock-control none --print-units base --metrics $M --csv $B $Q > $N/ncu-$n.csv 2> $N/ncu-$n.err
  echo "== $n (rc=$?, at $SECONDS s)"
  python3 benchmark/ncu_kernel_table.py $N/ncu-$n.csv
done
tar -C $OUT -czf $OUT/logs.tgz logs ncu && rm -rf $L $N
