#!/usr/bin/env bash
# Call 1 (H200), main ad99e37 (no change): where the two issue 13 cells
# nearest their targets lose time. (a) 512^3 26-conn. g = 1 full table at
# d = 0.1 and 0.2 under the runtime choices that its slowest image does
# not take: d = default, s = --strip-labeling always (the tubes' join),
# f = --full-pairs-after-labels, r = --row-bit-links always; d s f r r f s d.
# (b) the all-on volumes (target 300 Gvox/s; 299.2 / 305.6 last command):
# default against --no-dependent-launches, then ncu of every kernel of
# both connectivities and of 26-conn. d = 0.1 with the tubes forced.
# Carry: .devcarry/gpu.tar.xz.
set -u
mkdir -p /tmp/b $OUT/logs/ncu
xz -dc .devcarry/gpu.tar.xz | tar -C /tmp/b -xf -
exec > >(tee $OUT/summary.txt) 2>&1
nvidia-smi -L
B=/tmp/b/d/build-gpu/benchmark/cca_benchmark
python3 benchmark/ab_compare.py --logs $OUT/logs/ab --variant d="$B" \
  --variant s="$B --strip-labeling always" --variant f="$B --full-pairs-after-labels" \
  --variant r="$B --row-bit-links always" \
  --common "--labels-on-device --no-atomic-counts --warmup 1 --reps 5 --outputs all" \
  --set 3d-full-d0.1="--dimension 3 --size 512 --connectivity full --g 1 --density 0.1" \
  --set 3d-full-d0.2="--dimension 3 --size 512 --connectivity full --g 1 --density 0.2" \
  --order "d s f r r f s d" --per-image
echo "ab sparse done at $SECONDS s"
python3 benchmark/ab_compare.py --logs $OUT/logs/ab-on --variant d="$B" \
  --variant l="$B --no-dependent-launches" \
  --common "--labels-on-device --no-atomic-counts --warmup 2 --reps 20 --outputs all --g 0" \
  --set 3d-face-on="--dimension 3 --size 512 --connectivity face" \
  --set 3d-full-on="--dimension 3 --size 512 --connectivity full" \
  --order "d l l d" --per-image
echo "ab all-on done at $SECONDS s"
kmap() { # name, then cca_benchmark's arguments
  local name=$1; shift
  echo "== ncu all kernels, $name, full table"
  timeout 60 ncu --clock-control none --print-units base --csv \
    --metrics gpu__time_duration.sum,dram__bytes_read.sum,dram__bytes_write.sum,sm__warps_active.avg.pct_of_peak_sustained_active,smsp__inst_executed.sum \
    $B --labels-on-device --no-atomic-counts --outputs all --warmup 0 --reps 1 --dimension 3 --size 512 "$@" \
    > $OUT/logs/ncu/$name.csv 2> $OUT/logs/ncu/$name.err
  python3 benchmark/ncu_kernel_table.py $OUT/logs/ncu/$name.csv --top 30
  echo "at $SECONDS s"
}
kmap 3d-face-on --connectivity face --g 0
kmap 3d-full-on --connectivity full --g 0
kmap 3d-full-0.1-tubes --connectivity full --g 1 --density 0.1 --strip-labeling always
(cd $OUT && tar -czf logs.tgz logs && rm -rf logs)
echo "done at $SECONDS s"
