#!/usr/bin/env bash
# Call 4: WriteByteRunsKernel (the run arrays from a byte image) held to
# more blocks a multiprocessor. It takes 64 registers, so four blocks of
# 256 threads fit an SM: an 8192^2 plane's 8192 rows, a warp each, are
# 1,024 blocks, two waves on 132 SMs. n: main (de3a089); b6 and b8: the
# kernel's launch bounds ask six and eight blocks (40 and 32 registers).
# Registers, then n b6 b8 b8 b6 n on the g = 1 sets (full table), then
# ncu of the kernel with each binary.
set -u
L=$OUT/logs; mkdir -p $L /tmp/b && xz -dc .devcarry/gab2.tar.xz | tar -C /tmp/b -xf -
exec > >(tee $OUT/summary.txt) 2>&1
nvidia-smi -L
for v in n b6 b8; do
  cuobjdump --dump-resource-usage /tmp/b/$v/cca_benchmark > $L/resources-$v.txt 2>&1
  echo "$v: $(grep -A1 WriteByteRunsKernel $L/resources-$v.txt | grep -o 'REG:[0-9]* STACK:[0-9]* SHARED:[0-9]*' | sort | uniq -c | tr '\n' ';')"
done
timeout 420 python3 benchmark/ab_compare.py --logs $L/ab --variant n="/tmp/b/n/cca_benchmark" \
  --variant b6="/tmp/b/b6/cca_benchmark" --variant b8="/tmp/b/b8/cca_benchmark" \
  --common "--labels-on-device --no-atomic-counts --warmup 1 --reps 3 --outputs all" \
  --set 2d-face-g1="--dimension 2 --size 8192 --connectivity face --g 1" \
  --set 2d-full-g1="--dimension 2 --size 8192 --connectivity full --g 1" \
  --set 3d-face-g1="--dimension 3 --size 512 --connectivity face --g 1" \
  --order "n b6 b8 b8 b6 n" --per-image
echo "ab rc=$? at $SECONDS s"
for v in n b6 b8; do
  for img in "2d-face-d0.5 --dimension 2 --size 8192 --connectivity face --density 0.5" \
             "3d-face-d0.3 --dimension 3 --size 512 --connectivity face --density 0.3"; do
    set -- $img; name=$1; shift
    timeout 60 ncu --clock-control none --print-units base --csv -k regex:WriteByteRunsKernel \
      --metrics gpu__time_duration.sum,dram__bytes_read.sum,dram__bytes_write.sum,sm__warps_active.avg.pct_of_peak_sustained_active \
      /tmp/b/$v/cca_benchmark --labels-on-device --no-atomic-counts --warmup 0 --reps 1 --outputs all --g 1 "$@" > $L/ncu-$v-$name.csv 2>&1
    echo "ncu $v $name: $(python3 benchmark/ncu_kernel_table.py $L/ncu-$v-$name.csv --top 1 2>&1 | tail -1)"
  done
done
tar -C $OUT -czf $OUT/logs.tgz logs && rm -rf $L
echo "done at $SECONDS s"
