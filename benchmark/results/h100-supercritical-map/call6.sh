#!/usr/bin/env bash
# Call 6: the placing pass searches a tile's runs itself where the tile
# has at least 64 of them, and lists the runs of sparser tiles for the
# listed searches' kernel (h), against main (n, de3a089): h's backend
# test, memcheck and a short racecheck, n h h n on the g = 1 sets (full
# table), ncu of the two kernels on two images.
set -u
L=$OUT/logs; mkdir -p $L /tmp/b && xz -dc .devcarry/gab4.tar.xz | tar -C /tmp/b -xf -
exec > >(tee $OUT/summary.txt) 2>&1
nvidia-smi -L
timeout 150 /tmp/b/h/ccaCudaBackendTest > $L/backend.log 2>&1
echo "backend rc=$? at $SECONDS s"; grep -E "^total|FAIL" $L/backend.log | head -12
timeout 60 compute-sanitizer --tool memcheck --error-exitcode 3 /tmp/b/h/ccaCudaBackendTest --quick > $L/memcheck.log 2>&1
echo "memcheck rc=$? at $SECONDS s"; grep -E "^total|ERROR SUMMARY" $L/memcheck.log
timeout 60 compute-sanitizer --tool racecheck --error-exitcode 3 /tmp/b/h/ccaCudaBackendTest --quick --cases 4 --algorithm Default > $L/racecheck.log 2>&1
echo "racecheck rc=$? at $SECONDS s"; grep -E "^total|RACECHECK SUMMARY" $L/racecheck.log
timeout 200 python3 benchmark/ab_compare.py --logs $L/ab --variant n="/tmp/b/n/cca_benchmark" \
  --variant h="/tmp/b/h/cca_benchmark" \
  --common "--labels-on-device --no-atomic-counts --warmup 1 --reps 3 --outputs all" \
  --set 3d-face-g1="--dimension 3 --size 512 --connectivity face --g 1" \
  --set 2d-full-g1="--dimension 2 --size 8192 --connectivity full --g 1" \
  --set 3d-full-g1="--dimension 3 --size 512 --connectivity full --g 1" \
  --set 2d-face-g1="--dimension 2 --size 8192 --connectivity face --g 1" \
  --order "n h h n" --per-image
echo "ab rc=$? at $SECONDS s"
for img in "3d-face-d0.7 --dimension 3 --size 512 --connectivity face --density 0.7" \
           "3d-face-d0.5 --dimension 3 --size 512 --connectivity face --density 0.5"; do
  set -- $img; name=$1; shift
  timeout 60 ncu --clock-control none --print-units base --csv -k regex:PairsKernel \
    --metrics gpu__time_duration.sum,dram__bytes_read.sum,dram__bytes_write.sum,sm__warps_active.avg.pct_of_peak_sustained_active \
    /tmp/b/h/cca_benchmark --labels-on-device --no-atomic-counts --warmup 0 --reps 1 --outputs all --g 1 "$@" > $L/ncu-h-$name.csv 2>&1
  echo "ncu h $name:"; python3 benchmark/ncu_kernel_table.py $L/ncu-h-$name.csv --top 2 2>&1 | tail -2
done
tar -C $OUT -czf $OUT/logs.tgz logs && rm -rf $L
echo "done at $SECONDS s"
