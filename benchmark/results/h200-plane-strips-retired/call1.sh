#!/usr/bin/env bash
# Call 1 (H200): a plane's table no longer joined through its strips by
# default (j) against main b05bd68 (n), 8192^2 8-conn. g = 1, full table
# (n j j n) and features only (n j); j's backend GPU test; then ncu kernel
# maps of j (every kernel of one process, each launching twice:
# benchmark/ncu_kernel_table.py) at g = 1: 8192^2 8-conn. d = 0.3 / 0.4 /
# 0.5, 512^3 6- and 26-conn. d = 0.5, full table. About 330 s.
set -u
mkdir -p /tmp/b
tar -C /tmp/b -xJf .devcarry/gpu.tar.xz
exec > >(tee $OUT/summary.txt) 2>&1
N=/tmp/b/n/build-gpu/benchmark/cca_benchmark
J=/tmp/b/j/build-gpu/benchmark/cca_benchmark
C="--labels-on-device --no-atomic-counts --warmup 1 --reps 3"
S2="--dimension 2 --size 8192 --connectivity full --g 1"
python3 benchmark/ab_compare.py --logs $OUT/logs/ab --variant n="$N" --variant j="$J" --common "$C --outputs all" \
  --set 2d-full-g1-all="$S2" --order "n j j n"
python3 benchmark/ab_compare.py --logs $OUT/logs/ab --variant n="$N" --variant j="$J" --common "$C --outputs features" \
  --set 2d-full-g1-features="$S2" --order "n j"
echo "== j: backend GPU test"
/tmp/b/j/build-gpu/test/gpu/ccaCudaBackendTest > $OUT/logs/backend-j.log 2>&1; echo "rc=$? $(tail -n 1 $OUT/logs/backend-j.log)"
mkdir -p $OUT/logs/ncu
kmap() { # name, then cca_benchmark's image arguments
  local name=$1; shift
  echo "== ncu all kernels, j, $name, full table"
  timeout 90 ncu --clock-control none --print-units base --csv \
    --metrics gpu__time_duration.sum,dram__bytes_read.sum,dram__bytes_write.sum,sm__warps_active.avg.pct_of_peak_sustained_active,smsp__inst_executed.sum \
    $J --labels-on-device --no-atomic-counts --outputs all --g 1 --warmup 0 --reps 1 "$@" \
    > $OUT/logs/ncu/$name.csv 2> $OUT/logs/ncu/$name.err
  python3 benchmark/ncu_kernel_table.py $OUT/logs/ncu/$name.csv --top 14
}
for d in 0.3 0.4 0.5; do kmap 2d-full-$d --dimension 2 --size 8192 --connectivity full --density $d; done
kmap 3d-face-0.5 --dimension 3 --size 512 --connectivity face --density 0.5
kmap 3d-full-0.5 --dimension 3 --size 512 --connectivity full --density 0.5
(cd $OUT && tar -czf logs.tgz logs && rm -rf logs)
echo "done at $SECONDS s"
