#!/usr/bin/env bash
# Call 1: the votes' register caps. m: main (ac001df); n6 and n8: the
# narrow entries' votes (3D) asked to fit six and eight blocks of 128
# threads an SM (80 and 64 registers instead of 96), and in both the
# planar entries' votes (2D) ten blocks (48 registers instead of 64).
# Registers, then m n6 n8 n8 n6 m on the g = 1 sets (full table), then
# ncu of the votes with each binary.
set -u
L=$OUT/logs; mkdir -p $L /tmp/b && xz -dc .devcarry/gab1.tar.xz | tar -C /tmp/b -xf -
exec > >(tee $OUT/summary.txt) 2>&1
nvidia-smi -L
for v in m n6 n8; do
  cuobjdump --dump-resource-usage /tmp/b/$v/cca_benchmark > $L/resources-$v.txt 2>&1
  echo "$v: $(grep -A1 'AccumulateFeaturesKernel.*\(Narrow\|Planar\)' $L/resources-$v.txt | grep -o 'REG:[0-9]* STACK:[0-9]*' | sort | uniq -c | tr '\n' ';')"
done
timeout 480 python3 benchmark/ab_compare.py --logs $L/ab --variant m="/tmp/b/m/cca_benchmark" \
  --variant n6="/tmp/b/n6/cca_benchmark" --variant n8="/tmp/b/n8/cca_benchmark" \
  --common "--labels-on-device --no-atomic-counts --warmup 1 --reps 3 --outputs all" \
  --set 3d-face-g1="--dimension 3 --size 512 --connectivity face --g 1" \
  --set 2d-face-g1="--dimension 2 --size 8192 --connectivity face --g 1" \
  --set 2d-full-g1="--dimension 2 --size 8192 --connectivity full --g 1" \
  --order "m n6 n8 n8 n6 m" --per-image
echo "ab rc=$? at $SECONDS s"
for v in m n6 n8; do
  for img in "3d-face-d0.3 --dimension 3 --size 512 --connectivity face --density 0.3" \
             "2d-face-d0.4 --dimension 2 --size 8192 --connectivity face --density 0.4"; do
    set -- $img; name=$1; shift
    timeout 40 ncu --clock-control none --print-units base --csv -k regex:AccumulateFeaturesKernel \
      --metrics gpu__time_duration.sum,dram__bytes_read.sum,dram__bytes_write.sum,sm__warps_active.avg.pct_of_peak_sustained_active \
      /tmp/b/$v/cca_benchmark --labels-on-device --no-atomic-counts --warmup 0 --reps 1 --outputs all --g 1 "$@" > $L/ncu-$v-$name.csv 2>&1
    echo "ncu $v $name: $(python3 benchmark/ncu_kernel_table.py $L/ncu-$v-$name.csv --top 1 2>&1 | tail -1)"
  done
done
tar -C $OUT -czf $OUT/logs.tgz logs && rm -rf $L
echo "done at $SECONDS s"
